"""A picture's size is read from its header before any decode (issue 67, major 2): an 875 KB
PNG declaring 30000x30000 drove the server to 3.6 GB. Sent over real HTTP to a live server;
the decode is watched (a spy on cv2.imdecode) and must never start for such a file."""
from __future__ import annotations

import io
import struct
import zlib

import cv2
import pytest
from PIL import Image

from companion.box import taught_cards
from companion.box.catalog import load_catalog
from companion.game import games
from companion.server import picture_budget
from companion.wiring.demo_faces import drawn_face
from tests.companion.test_logout import browser, log_in, new_game, real  # noqa: F401


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_declaring(width: int, height: int) -> bytes:
    """A tiny PNG whose header declares ``width`` x ``height`` RGBA pixels (its data holds a
    few rows of zeros: the header is what a bomb lies with)."""
    rows = zlib.compress(b"\0" * (1 + 4 * width) * 4)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6,
                                                            0, 0, 0))
            + chunk(b"IDAT", rows) + chunk(b"IEND", b""))


def jpeg_declaring(width: int, height: int) -> bytes:
    """A small JPEG whose frame header is rewritten to declare ``width`` x ``height``."""
    out = io.BytesIO()
    Image.new("RGB", (64, 64)).save(out, "JPEG")
    data = bytearray(out.getvalue())
    sof = data.index(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def test_the_header_gives_the_size_and_nothing_is_decoded():
    assert picture_budget.header_size(png_declaring(300, 430)) == (300, 430)
    assert picture_budget.header_size(jpeg_declaring(640, 480)) == (640, 480)
    assert picture_budget.header_size(b"GIF89a nonsense") is None
    for bomb in (png_declaring(30000, 30000), jpeg_declaring(30000, 30000),
                 png_declaring(4097, 3072)):  # over twice the budget, and just over it
        with pytest.raises(picture_budget.TooLarge):
            picture_budget.header_size(bomb)
    assert picture_budget.header_size(png_declaring(4096, 3072)) == (4096, 3072)  # the budget


@pytest.mark.parametrize("bomb", [png_declaring(30000, 30000), jpeg_declaring(30000, 30000)],
                         ids=["png", "jpeg"])
def test_a_picture_bomb_is_refused_translated_before_any_decode(real, bomb,  # noqa: F811
                                                                monkeypatch):
    """Planted fault: without the header check the upload reaches cv2.imdecode (the spy
    records it) and is answered `not_an_image` (this tiny file; a whole one takes GBs)."""
    app, server = real
    decoded = []
    real_decode = cv2.imdecode
    monkeypatch.setattr(cv2, "imdecode", lambda *a: decoded.append(1) or real_decode(*a))
    game_id = new_game(app, "wwe")
    http, csrf, _ = log_in(server.url, game_id)
    card = taught_cards.face_cards(games.module_of("wwe").info, load_catalog("wwe"))[0].id
    url = f"{server.url}/host/{game_id}/deck/card_face/upload?game=wwe&entry={card}"
    answer = http.post(url + "&lang=de", data=bomb, headers={"X-CSRF-Token": csrf}, timeout=30)
    assert answer.status_code == 422, answer.text[:300]
    problem = answer.json()["problems"][0]
    assert problem["code"] == "picture_too_large"
    assert problem["message"].startswith("dieses Bild hat 900.0 Millionen Pixel")
    assert decoded == []
    # a real face still goes in (decoded once)
    good = cv2.imencode(".png", drawn_face(card))[1].tobytes()
    answer = http.post(url, data=good, headers={"X-CSRF-Token": csrf}, timeout=30)
    assert answer.json()["ok"] and decoded == [1]

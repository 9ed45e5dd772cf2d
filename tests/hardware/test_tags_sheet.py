"""Sticker sheets: rendered pages decode back to every payload at the right physical size."""
import re

import numpy as np
import pytest
import zxingcpp
from click.testing import CliRunner
from PIL import Image

from companion.box.stickers import stickers_for_catalog
from companion.cli import cli
from engine.wwe import GAME
from hardware.tags.format import BOARD_MARKER, card_payload
from hardware.tags.sheet import Sticker, mm_to_px, render_sheets, write_sheets


def decoded(paths) -> list[str]:
    out = []
    for path in paths:
        results = zxingcpp.read_barcodes(np.array(Image.open(path).convert("L")),
                                         formats=zxingcpp.BarcodeFormat.QRCode)
        out.extend(r.text for r in results)
    return out


def pdf_page_sizes(path) -> list[tuple[float, float]]:
    data = path.read_bytes().decode("latin-1")
    return [(float(w), float(h)) for w, h in
            re.findall(r"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)]


def test_symbols_have_the_requested_physical_size(tmp_path):
    pages = render_sheets([Sticker(card_payload("wwe", "A", "grain"), "Grain")], 30)
    assert pages[0].size == (2480, 3508)  # A4 at 300 dpi
    results = zxingcpp.read_barcodes(np.array(pages[0]))
    sides = {r.text: r.position.top_right.x - r.position.top_left.x for r in results}
    assert set(sides) == {BOARD_MARKER, card_payload("wwe", "A", "grain")}
    for side in sides.values():  # zxing's corners sit about one module inside the outer edge
        assert abs(side - mm_to_px(30, 300)) < mm_to_px(30, 300) / 10


def test_too_small_stickers_are_refused():
    with pytest.raises(ValueError):
        render_sheets([Sticker("TC1:WWE:A:AAAA", "x")], 5)


def test_companion_tags_writes_decodable_png_and_a4_pdf(tmp_path):
    from companion.box.catalog import load_catalog

    result = CliRunner().invoke(cli, ["tags", "--game", "wwe", "--size-mm", "30", "--out",
                                      str(tmp_path)])
    assert result.exit_code == 0, result.output
    catalog = load_catalog("wwe")
    wanted = {s.payload for s in stickers_for_catalog(GAME.info, catalog)}
    assert len(wanted) == len(catalog["action_cards"]) + len(catalog["event_cards"])
    pngs = sorted(tmp_path.glob("wwe-stickers-*.png"))
    found = decoded(pngs)
    assert sorted(found) == sorted(wanted | {BOARD_MARKER})  # each exactly once
    sizes = pdf_page_sizes(tmp_path / "wwe-stickers.pdf")
    assert len(sizes) == len(pngs)
    for width, height in sizes:  # A4 in points
        assert abs(width - 595.3) < 1 and abs(height - 841.9) < 1


def test_demo_entries_are_labelled_demo():
    catalog = {"action_cards": [{"id": "grain", "names": {"en": "Grain"}}],
               "event_cards": [{"id": "x", "names": {"en": "Made up"}, "demo": True}]}
    stickers = stickers_for_catalog(GAME.info, catalog)
    assert sorted((s.label, s.demo) for s in stickers) == [("Grain", False), ("Made up", True)]


def test_write_sheets_multi_page(tmp_path):
    stickers = [Sticker(card_payload("wwe", "E", f"e{i}"), f"Event {i}") for i in range(30)]
    paths = write_sheets(render_sheets(stickers, 30), tmp_path, "t")
    pngs = [p for p in paths if p.suffix == ".png"]
    assert len(pngs) >= 2
    assert sorted(decoded(pngs)) == sorted([s.payload for s in stickers] + [BOARD_MARKER])


def test_board_marker_has_an_arrow_pointing_north_above_its_code():
    page = np.array(render_sheets([], 30)[0])
    marker = next(r for r in zxingcpp.read_barcodes(page) if r.text == BOARD_MARKER)
    assert marker.orientation == 0  # printed upright: its top is north
    top = marker.position.top_left.y
    left, right = marker.position.top_left.x, marker.position.top_right.x
    above = page[: top - 60, left:right] < 128  # the quiet zone is white; the arrow above it
    rows = np.flatnonzero(above.any(axis=1))
    assert len(rows) > 30
    widths = above[rows].sum(axis=1)
    assert widths[0] < widths[len(widths) // 4]  # narrow tip on top, wider below: points up


def test_corner_markers_are_printed_on_request_upright():
    from hardware.tags.format import BOARD_MARKERS, CORNER_MARKERS, parse

    page = np.array(render_sheets([], 30, corners=True)[0])
    found = {r.text: r for r in zxingcpp.read_barcodes(page)}
    assert set(found) == set(BOARD_MARKERS)
    assert all(found[p].orientation == 0 for p in CORNER_MARKERS.values())
    assert all(parse(p).is_board_marker for p in BOARD_MARKERS)
    assert set(r.text for r in zxingcpp.read_barcodes(np.array(render_sheets([], 30)[0]))) == {
        BOARD_MARKER}

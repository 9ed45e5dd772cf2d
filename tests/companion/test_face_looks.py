"""Issue 63, every card of the three games by its face: each game declares which of its
cards the camera may know by their printed face (`Bindings.face_parts`) and how they are
printed (`Bindings.face_looks`, the game's card_faces.json: regions filled from catalog
fields); the demo draws the faces from that data, so cards apart only by a cost or a band's
colour are drawn so, and what the camera tells apart at the table's widths follows; the
deck page lists every declared card under its kind and the pairs too alike; the demo lays a
taught card of any game bare and the recogniser names it on the rendered frame."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.box import taught_cards
from companion.box.catalog import load_catalog
from companion.game import games
from companion.wiring.demo_faces import FACE_PX, _field, face_of, looked_face
from tests.companion.conftest import create_game
from tests.companion.test_card_faces import judged_faces
from tests.companion.test_deck_routes import host

DECLARED = {"wwe": ("event_cards", "action_cards"),
            "pillars": ("craftsmen", "events", "privileges", "materials"),
            "monasterium": ()}  # its missions are drawn by the app, no card is read


def png(image) -> bytes:
    return cv2.imencode(".png", image)[1].tobytes()


def drawn(game: str, *ids: str) -> dict[str, np.ndarray]:
    info, catalog = games.module_of(game).info, load_catalog(game)
    return {i: face_of(game, "/nonexistent", info, catalog, i) for i in ids}


@pytest.mark.parametrize("game", sorted(DECLARED))
def test_each_game_declares_its_face_cards_and_how_they_are_printed(game):
    info, catalog = games.module_of(game).info, load_catalog(game)
    assert info.bindings.face_parts == DECLARED[game]
    looks = taught_cards.face_looks(info)
    assert sorted(looks) == sorted(DECLARED[game])  # every declared part says how it looks
    stickers = {k.part for k in info.stickers}
    for part, look in looks.items():
        assert part in stickers  # a sighting by face is the one its sticker would give
        entries = catalog[part]
        for name, region in look.items():
            if not isinstance(region, dict):
                continue
            x0, y0, x1, y1 = region["box"]
            assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1, (part, name)
            for key in ("field", "by"):  # filled from the catalog, not made up
                if key in region:
                    assert any(_field(e, region[key]) is not None for e in entries), \
                        (part, name, region[key])


def _changed(a: np.ndarray, b: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 0)
    return xs.min(), ys.min(), xs.max(), ys.max()


def _inside(changed, box, margin=3) -> bool:
    w, h = FACE_PX
    x0, y0, x1, y1 = box
    return (changed[0] >= x0 * w - margin and changed[1] >= y0 * h - margin
            and changed[2] <= x1 * w + margin and changed[3] <= y1 * h + margin)


def test_the_faces_are_drawn_from_the_games_data():
    """Pillars' masons of rounds 1 and 2 differ only inside the cost's disc, two players'
    start carpenters only in the band: one trade's cards share their picture, as printed."""
    looks = taught_cards.face_looks(games.module_of("pillars").info)["craftsmen"]
    faces = drawn("pillars", "mason_1", "mason_2", "carpenter_blue", "carpenter_red")
    assert _inside(_changed(faces["mason_1"], faces["mason_2"]), looks["number"]["box"])
    assert _inside(_changed(faces["carpenter_blue"], faces["carpenter_red"]),
                   looks["band"]["box"])
    # a start craftsman has no cost: nothing printed where the others have it
    x0, y0, x1, y1 = (round(v * s) for v, s in zip(looks["number"]["box"], FACE_PX * 2,
                                                   strict=True))
    disc = faces["carpenter_blue"][y0:y1, x0:x1]
    assert np.ptp(disc.reshape(-1, 3), axis=0).max() < 10
    # World Without End's chapter III event carries its plague number, chapter I's none
    wwe = taught_cards.face_looks(games.module_of("wwe").info)["event_cards"]
    catalog = load_catalog("wwe")
    plagued = next(e for e in catalog["event_cards"] if e.get("plague") == 9)
    x0, y0, x1, y1 = (round(v * s) for v, s in zip(wwe["number"]["box"], FACE_PX * 2,
                                                   strict=True))
    face = looked_face(plagued, wwe)
    assert (face[y0:y1, x0:x1] < 60).all(axis=2).sum() > 50  # the digit's ink


def test_what_the_camera_tells_apart_at_the_tables_widths():
    """At 120 px (the usual frame) the masons, apart by their cost alone, are too alike,
    and the start carpenters, apart by their player's colour, are told apart; at 240 px
    (the Pi's sharp crop) every one of them is told apart."""
    from hardware.camera.card_faces import FaceBook

    faces = drawn("pillars", "mason_1", "mason_2", "mason_4", "carpenter_blue",
                  "carpenter_red", "glassblower_3")
    book = FaceBook.from_pictures(faces)
    at_120 = taught_cards.too_alike(book, 120)
    # named after the rival that refused the card (stop 80): mason_2's is refused by mason_4's
    assert ("mason_2", "mason_4") in at_120
    assert {i for p in at_120 for i in p} <= {"mason_1", "mason_2", "mason_4"}
    assert not {"carpenter_blue", "carpenter_red", "glassblower_3"} & {i for p in at_120
                                                                       for i in p}
    assert taught_cards.too_alike(book, 240) == []


def test_the_deck_page_lists_each_kind_and_the_pairs_too_alike(client, tmp_path):
    game_id = create_game(client)
    headers = host(client, game_id)
    url = f"/host/{game_id}/deck/faces.json?game=pillars&lang=de"
    data = client.get(url).get_json()
    catalog = load_catalog("pillars")
    assert data["ok"] and data["taught"] == 0 and data["alike"] == []
    assert [c["id"] for c in data["cards"]] == [e["id"] for p in DECLARED["pillars"]
                                                for e in catalog[p]]
    titles = {c["part"]: c["part_title"] for c in data["cards"]}
    assert titles["craftsmen"] == "Handwerkerkarten" and titles["events"] != "Event cards"
    for card, face in drawn("pillars", "mason_1", "mason_2", "mason_4", "carpenter_blue",
                            "carpenter_red").items():
        answer = client.post(f"/host/{game_id}/deck/card_face/upload?game=pillars&entry={card}",
                             headers=headers, data=png(face)).get_json()
        assert answer["ok"], answer
    data = judged_faces(client, url)  # judged on the app's own thread
    assert data["taught"] == 5 and data["card_px"] == taught_cards.TABLE_CARD_PX
    alike = {card for pair in data["alike"] for card in pair}  # apart by their cost alone
    assert ["mason_2", "mason_4"] in data["alike"] and alike <= {"mason_1", "mason_2", "mason_4"}
    wwe = client.get(f"/host/{game_id}/deck/faces.json?game=wwe").get_json()
    assert {c["part"] for c in wwe["cards"]} == {"event_cards", "action_cards"}
    assert client.get(f"/host/{game_id}/deck/faces.json?game=monasterium").get_json()[
        "cards"] == []


def test_the_demo_lays_a_taught_card_of_another_game_bare_and_it_is_read(tmp_path):
    """Pillars' demo lays its cards in their zones (a privilege in Kingsbridge, craftsmen
    in Shiring and the supply, the event, a building material); taught, they lie bare (no
    sticker on the rendered frame) and the recogniser names each one there. Kingsbridge
    and Shiring lie clear of the demo's dice tray, which covered a card laid there."""
    from companion.wiring.demo_faces import BareCard, bare_card
    from companion.wiring.demo_scene import SceneSource, placements
    from engine.api import DemoCard
    from hardware.camera.card_faces import FaceBook, recognise
    from hardware.camera.decode import Decoder
    from hardware.tags.format import BOARD_MARKER

    info, catalog = games.module_of("pillars").info, load_catalog("pillars")
    cards = [DemoCard("privileges", "kingsbridge", "gold_8"),
             DemoCard("craftsmen", "shiring", "carpenter_red"),
             DemoCard("events", "events", "pay_4_gold"),
             DemoCard("craftsmen", "supply_craftsmen", "glassblower_3"),
             DemoCard("materials", "supply_materials", "wood_2")]
    for card, face in drawn("pillars", *(c.card for c in cards), "potter_1").items():
        taught_cards.save_face("pillars", tmp_path, info, catalog, card, face)
    laid = placements(info, catalog, cards, lambda card: bare_card("pillars", tmp_path, card))
    assert len(laid) == 5 and all(isinstance(p[0], BareCard) for p in laid)
    _, with_cards, _ = SceneSource(lambda: laid)._render(laid)
    frame = cv2.imdecode(np.frombuffer(with_cards, np.uint8), cv2.IMREAD_COLOR)
    assert {d.payload for d in Decoder().decode(frame)} == {BOARD_MARKER}  # no sticker
    book = FaceBook.from_pictures(taught_cards.pictures("pillars", tmp_path, info, catalog))
    assert sorted(s.id for s in recognise(frame, book) if s.id) == sorted(c.card for c in cards)

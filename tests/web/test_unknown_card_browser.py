"""Issue 49: the TV asks "Which card is this?" of a bare card the camera does not know, in
real chromium against the real server: the camera (a folder of rendered frames: the board
marker, then a card nobody taught lying on World Without End's council space while the game
waits for the event) asks; the paired table display shows the question with the game's
event cards by name (Italian); a tap names it, the face is kept as that card's, and the
camera reveals that card: the TV shows it. Screenshot: test-artifacts/browser/
79-unknown-card-it.png."""
from __future__ import annotations

import json
import os
import random

import pytest

from companion.wiring.demo_faces import drawn_face
from tests.web.conftest import pair_here, running_server, write_camera_loop
from tests.web.test_browser import shot

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]
PIN = "2468"


def game_at_the_event(data) -> tuple[str, str, str]:
    """A World Without End game in ``data`` whose players played on until the event card is
    owed: its id, the card the table would lay next, and that card's Italian name."""
    from companion import context
    from companion.app import create_app
    from companion.game.service import Identity

    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    live = service.create("wwe", {"players": [{"seat": "N", "name": "Ada"},
                                              {"seat": "E", "name": "Bruno"}]}, PIN)
    rnd = random.Random(4)
    module = live.kind.module
    while module.prompts(live.state)[0].kind != "reveal_event":
        action = module.random_action(live.state, rnd)
        service.act(Identity("seat", live.id, action["by"]), action)
    card = module.info.bindings.demo_scene(live.kind.catalog, live.state)[0].card
    name = next(e for e in live.kind.catalog["event_cards"] if e["id"] == card)["names"]["it"]
    service.store.close()
    return live.id, card, name


def frames_with_a_stranger(folder) -> None:
    from companion.wiring.demo_faces import BareCard
    from hardware.synthetic.scene import Placement
    from hardware.synthetic.video import MARKER_AT, board_to_table
    from hardware.tags.format import BOARD_MARKER

    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    card = BareCard("stranger", *board_to_table(0, 60), 3.0, drawn_face("stranger", "?"))
    write_camera_loop(folder, [([marker], [card])] * 12)  # it stays: asked once


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("unknowndata")
    frames_with_a_stranger(data / "frames")
    (data / "config.json").write_text(json.dumps({"camera": {"source": f"folder:{data}/frames"}}))
    game_id, card, name = game_at_the_event(data)
    log = tmp_path_factory.mktemp("unknownlog") / "server.log"
    with running_server(data, log, "--threads", "20", env=dict(os.environ)) as base:
        yield base, game_id, card, name, data


def test_the_tv_asks_which_card_and_the_answer_teaches_the_camera(server, browser):
    base, game_id, card, name, data = server
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(f"{base}/host/{game_id}?lang=it")
    page.fill("#pin", PIN)
    page.click("#host-login button[type=submit]")
    page.wait_for_selector("#pair-table")
    pair_here(page, base, game_id, "?lang=it")
    page.wait_for_selector("#unknown-card:not([hidden]) .unknown-card-zone[data-zone=council]",
                           timeout=60000)
    assert page.inner_text("#unknown-card-title") == "Che carta è questa?"
    assert page.locator(".unknown-card-pick").count() == 56  # the event and action cards
    shot(page, "79-unknown-card-it")
    page.click(f".unknown-card-pick[data-card='{card}']")
    page.wait_for_function("() => document.getElementById('unknown-card-notice').textContent"
                           ".indexOf('ora la fotocamera conosce') >= 0")
    assert (data / "catalogs" / "wwe" / "faces" / f"{card}.png").is_file()
    # the camera now knows it: the event is revealed, the question gone
    page.wait_for_function("c => window.TC && TC.view && TC.view.view.event"
                           " && JSON.stringify(TC.view.view.event).indexOf(c) >= 0", arg=card,
                           timeout=60000)
    page.wait_for_selector("#unknown-card", state="hidden", timeout=30000)
    assert name in page.inner_text("body")
    page.context.close()

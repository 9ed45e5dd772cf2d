"""Issue 46 #8: "Dice the camera learns" succeeds in the demo (`make run`: the simulated
camera, its dice tray beside the board), in real chromium against the real server: with no
roll owed the demo's tray is empty felt (the preview frames an empty tray, and the camera
sees no die there, not "more than one"), and "Take its picture" of each face of World
Without End's tax die keeps a picture, as the demo's camera lays that die alone in its
tray, the face asked up. Screenshots: test-artifacts/browser/minor46-demo-dice-*.png."""
from __future__ import annotations

import os

import numpy as np
import pytest

from tests.web.conftest import running_server
from tests.web.test_browser import shot
from tests.web.test_deck_browser import create_game, open_deck

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("demodicedata")
    game_id, _ = create_game(data)  # World Without End, at the table, no roll owed
    log = tmp_path_factory.mktemp("demodicelog") / "server.log"
    env = dict(os.environ, COMPANION_CAMERA_SIMULATE="auto", COMPANION_DICE_EMULATE="auto",
               COMPANION_DICE_DEFAULT_SOURCE="camera")
    with running_server(data, log, "--threads", "20", env=env) as base:
        yield base, game_id, data


def test_the_demo_camera_learns_each_face_of_the_tax_die(server, browser):
    from companion.wiring.demo_scene import empty_tray
    from hardware.camera.dice_faces import read_tray

    base, game_id, data = server
    empty = read_tray(empty_tray(0))  # the demo's tray with no roll owed
    assert empty.clear and not empty.dice
    page = open_deck(browser, base, game_id)
    page.wait_for_selector("#deck-dice:not([hidden]) .deck-die[data-role=tax]")
    stored = data / "catalogs" / "wwe" / "dice" / "tax"
    for face in (2, 3, 4, 5):
        page.evaluate("() => { const n = document.getElementById('deck-dice-notice');"
                      " n.textContent = ''; n.className = 'small'; }")
        page.click(f".deck-die-face[data-face='{face}'] .deck-die-take")
        page.wait_for_function(
            "() => { const n = document.getElementById('deck-dice-notice');"
            " return n.classList.contains('why') || n.textContent.indexOf('gespeichert') >= 0; }",
            timeout=30000)
        notice = page.inner_text("#deck-dice-notice")
        assert f"Seite {face} ist gespeichert" in notice, notice
        page.wait_for_selector(f".deck-die-face[data-face='{face}'] img")
        assert (stored / f"{face}.png").is_file()
    page.wait_for_function("() => document.querySelector('.deck-die-state').textContent"
                           ".indexOf('4 von 4') >= 0")
    pictures = [np.asarray(bytearray((stored / f"{f}.png").read_bytes())) for f in (2, 5)]
    assert not np.array_equal(pictures[0], pictures[1])  # each face its own picture
    shot(page, "minor46-demo-dice-taught-de")
    page.context.close()

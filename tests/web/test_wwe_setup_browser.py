"""Issue 32 point 9, World Without End's guided setup on the TV (1920x1080) in real chromium:

- a step the camera ticks is ticked only by what the game has: the camera sees a chapter II
  event card ("King Edward III…") on the council space in chapter I; the game refuses it
  (a camera warning, "No event card revealed yet"), so "the first event card" step stays
  unticked while the camera's own step (the board marker) is ticked; the card the game does
  take ticks it (tests/web/test_evening_browser.py, "because_the_works");
- every step has its diagram, step 5 (1 wool and 2 gold behind the screen) the screen's.

Screenshots: test-artifacts/browser/wwe32-setup-*.png (en and pl)."""
from __future__ import annotations

import json
import os

import pytest

from tests.web.conftest import new_table, running_server
from tests.web.test_browser import shot
from tests.web.test_evening_browser import camera_frames

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300)]
PIN = "1357"
WRONG = "king_edward_iii"  # a chapter II card: refused in chapter I


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("setupdata")
    camera_frames(data / "frames", WRONG)
    (data / "config.json").write_text(json.dumps({"camera": {"source": f"folder:{data}/frames"}}))
    log = tmp_path_factory.mktemp("setuplog") / "server.log"
    with running_server(data, log, "--threads", "20", env=dict(os.environ)) as base:
        yield base


def test_the_camera_ticks_only_what_the_game_has_and_every_step_has_a_picture(server, browser):
    errors: list[str] = []
    table, _links, game_id = new_table(browser, server, "wwe", {"N": "Anna", "S": "Bartek"},
                                       PIN, errors)
    # the camera lays the chapter II card on the council space: the game refuses it
    # (the host's camera status: this browser created the game, it holds the host cookie)
    table.wait_for_function("""u => fetch(u).then(r => r.json()).then(s =>
                                 (s.warnings || []).some(w => JSON.stringify(w)
                                   .includes('king_edward_iii')))""",
                            arg=f"/host/{game_id}/camera/status.json", timeout=30000,
                            polling=500)
    assert table.evaluate("() => TC.view.view.event") is None
    for lang in ("en", "pl"):
        table.goto(f"{server}/table/{game_id}/setup?lang={lang}")
        table.wait_for_selector("#setup[data-at]")
        # the camera works for this game: it ticked the board marker's step
        table.wait_for_selector("#setup-list li[data-step=camera].done", timeout=20000)
        assert table.locator("#setup-list li[data-step=camera]").get_attribute("data-by") == \
            "camera"
        state = table.evaluate("u => fetch(u).then(r => r.json())",
                               f"/games/{game_id}/setup.json")
        assert state["steps"][-1]["id"] == "first_card"
        assert state["steps"][-1]["done"] is None, state["steps"][-1]
        assert "done" not in (table.locator("#setup-list li[data-step=first_card]")
                              .get_attribute("class") or "")
        # every step has its diagram; step 5's is the screen with what lies behind it
        for i, step in enumerate(state["steps"]):
            assert step["picture"], f"step {i + 1} ({step['id']}) has no picture"
        table.locator("#setup-list li[data-step=resources] button").click()
        table.wait_for_selector("#setup[data-at=resources]")
        picture = table.locator("#setup-picture")
        assert picture.is_visible()
        assert picture.get_attribute("src").endswith("/screen.svg")
        table.wait_for_function(
            "() => document.getElementById('setup-picture').complete && "
            "document.getElementById('setup-picture').naturalWidth > 0")
        shot(table, f"wwe32-setup-step-5-{lang}")
        table.locator("#setup-list li[data-step=first_card] button").click()
        table.wait_for_selector("#setup[data-at=first_card]")
        assert "✓" not in table.locator("#setup-camera").inner_text()
        shot(table, f"wwe32-setup-step-12-{lang}")
    assert table.evaluate("u => fetch(u).then(r => r.json())",
                          f"/games/{game_id}/setup.json")["steps"][-1]["done"] is None
    assert not errors, errors

"""Issue 46 #7: the host's camera page speaks of its own game only, in real chromium against
the real server with a camera (a folder of synthetic frames: the board marker and a World
Without End event card on the council space).

Pillars is at the table: its camera page (Italian) says a card of World Without End was
seen, by the game's title, never "(wwe)" nor the card's id. The host only lets the camera
show what it would do, then moves the camera to World Without End: its camera page lists
what the camera would do with the card by its name, and none of Pillars' warnings; Pillars'
page no longer lists World Without End's would-be actions or warnings (ids its page cannot
name). Screenshots: test-artifacts/browser/minor46-camera-*.png."""
from __future__ import annotations

import json
import os
import re

import pytest

from companion import context
from companion.game.games import module_of
from tests.web.conftest import running_server
from tests.web.test_browser import shot
from tests.web.test_evening_browser import EVENT, camera_frames

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]
PIN = "2468"
PLAYERS = [{"seat": "N", "name": "Anna"}, {"seat": "S", "name": "Bruno"}]
RAW = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\(wwe\)|\(pillars\)")  # an id, a namespace


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """(base, {"pillars": id, "wwe": id}): Pillars at the table, World Without End not."""
    from companion.app import create_app

    data = tmp_path_factory.mktemp("campagedata")
    camera_frames(data / "frames")
    (data / "config.json").write_text(json.dumps({"camera": {"source": f"folder:{data}/frames"}}))
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    wwe = service.create("wwe", {"players": PLAYERS}, PIN, to_table=False)
    pillars = service.create("pillars", {"players": PLAYERS}, PIN)
    assert service.access.at_table() is pillars
    games = {"wwe": wwe.id, "pillars": pillars.id}
    service.store.close()
    log = tmp_path_factory.mktemp("campagelog") / "server.log"
    with running_server(data, log, "--threads", "20", env=dict(os.environ)) as base:
        yield base, games


def host_page(browser, base: str, game_id: str, path: str = ""):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{base}/host/{game_id}")
    page.fill("#pin", PIN)
    page.click("#host-login button[type=submit]")
    page.wait_for_selector("#pair-table")
    if path:
        page.goto(f"{base}/host/{game_id}{path}")
    return page


def camera_lists(page) -> str:
    return page.locator("#cam-would").inner_text() + "\n" + page.locator(
        "#cam-warnings").inner_text()


def test_each_camera_page_speaks_of_its_own_game(server, browser):
    base, games = server
    pillars = host_page(browser, base, games["pillars"], "/camera?lang=it")
    title = module_of("wwe").info.names["it"]  # "Mondo senza fine"
    pillars.wait_for_function("(t) => document.getElementById('cam-warnings').innerText"
                              ".includes(t)", arg=title, timeout=60000)
    said = camera_lists(pillars)
    assert not RAW.findall(said), said
    assert EVENT not in said
    shot(pillars, "minor46-camera-pillars-it")
    # only show what the camera would do, then move it to World Without End
    if pillars.locator("#cam-acting").get_attribute("data-acting") == "1":
        pillars.click("#acting-toggle")
        pillars.wait_for_selector("#cam-acting[data-acting='0']")
    wwe = host_page(browser, base, games["wwe"])
    wwe.wait_for_selector("#hw-away-panel:not([hidden]) #take-table-pin-field:not([hidden])")
    wwe.fill("#take-table-pin", PIN)
    wwe.click("#take-table")
    wwe.wait_for_function("() => document.getElementById('hw-away-panel').hidden")
    # the host page's view too: Pillars' warnings are stale here
    wwe.wait_for_function("() => TC.view && TC.view.hardware && TC.view.hardware.table.here")
    stale = wwe.evaluate("(id) => (TC.view.hardware.camera.warnings || [])"
                         ".filter(w => w.game && w.game !== id)", games["wwe"])
    assert stale == [], stale
    wwe.goto(f"{base}/host/{games['wwe']}/camera?lang=it")
    # the card on the council space: what the camera would record, by the card's name
    wwe.wait_for_function("() => document.getElementById('cam-would').innerText.trim()",
                          timeout=60000)
    said = camera_lists(wwe)
    assert not RAW.findall(said), said
    name = wwe.evaluate("() => fetch(location.pathname + '/status.json').then(r => r.json())"
                        ".then(s => s.would.map(w => w.text).join(' '))")
    assert name and name in said
    # Pillars' warning of a World Without End card is stale here
    assert title not in wwe.locator("#cam-warnings").inner_text(), said
    shot(wwe, "minor46-camera-wwe-it")
    # Pillars' page now: nothing of World Without End's would-be actions or warnings
    pillars.reload()
    pillars.wait_for_selector("#cam-would", state="attached")
    pillars.wait_for_timeout(2500)  # a poll of the status
    said = camera_lists(pillars)
    assert not RAW.findall(said), said
    assert not pillars.locator("#cam-would").inner_text().strip(), said
    for page in (pillars, wwe):
        page.context.close()

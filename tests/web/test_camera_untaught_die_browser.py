"""The TV of a game whose camera reads some dice but not a die still to be taught (companion/
wiring/dice.py `camera_untaught`), in a real browser (Debian's chromium) at 1920x1080: the
roll step names that die in the TV's language and keeps its "by hand" line, the top bar does
not say "ready", and `TC.cameraRolls` is false, so a game's own entry of the dice stays on
the TV. The test-only game of tests/companion/test_camera_untaught_die.py, served by the real
app in this process. Screenshot test-artifacts/browser/79-camera-untaught-some-tv-it.png."""
from __future__ import annotations

import dataclasses

import pytest

from engine.api import TableStep
from tests.companion.conftest import LiveServer, make_app
from tests.companion.test_camera_untaught_die import map_dice, mixed_game, wire_camera
from tests.web.conftest import pair_with_link, play_on_without_phones
from tests.web.test_browser import shot
from tests.web.test_host_hardware_browser import PIN, host_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
BY_HAND = "Enter the roll on the TV."


def roll_steps(state: dict) -> list:
    return [] if state["over"] else [TableStep("roll", "Roll the dice.", confirms=("dice",),
                                               by_hand=BY_HAND)]


def test_the_tv_names_the_untaught_die_and_keeps_the_entry_by_hand(browser, tmp_path):
    game = mixed_game()
    game.info = dataclasses.replace(game.info, bindings=dataclasses.replace(
        game.info.bindings, table_steps=roll_steps))
    app = make_app(tmp_path, GAMES={"toy": (game, None)})
    server = LiveServer(app)
    try:
        service = app.extensions["companion"]
        live = service.create("toy", {"players": [{"seat": "A", "name": "Ann"},
                                                  {"seat": "B", "name": "Bob"}]}, PIN)
        handle = wire_camera(app)
        map_dice(app, {"white1": "d6"})
        assert handle.status()["state"] == "untaught_some"
        errors: list = []
        host = host_page(browser, server.url, live.id, "en")
        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv.on("pageerror", lambda e: errors.append(str(e)))
        pair_with_link(host, tv, server.url, live.id, "?lang=it")
        play_on_without_phones(tv)
        handle.changed()
        tv.wait_for_selector(".table-step[data-kind=roll] .step-device.off")
        steps = tv.locator("#table-steps").inner_text()
        assert "non conosce ancora Gem die" in steps and BY_HAND in steps, steps
        assert tv.evaluate("() => TC.cameraRolls(TC.view)") is False
        shot(tv, "79-camera-untaught-some-tv-it")
        map_dice(app, {"white1": "d6", "coin1": "gem"})  # every die read now: "ok"
        handle.changed()
        tv.wait_for_selector(".table-step[data-kind=roll] .step-device.on")
        assert tv.evaluate("() => TC.cameraRolls(TC.view)") is True
        assert BY_HAND not in tv.locator("#table-steps").inner_text()
        assert errors == []
    finally:
        server.stop()
        app.extensions["companion"].store.close()

"""A game whose camera reads some dice but not a die still to be taught (companion/wiring/
dice.py `camera_untaught`), in a real browser (Debian's chromium), the test-only game of
tests/companion/test_camera_untaught_die.py served by the real app in this process.

- The TV at 1920x1080 before a throw: the roll step names that die in the TV's language and
  says the roller's phone asks for it, keeps its "by hand" line, and `TC.cameraRolls` is
  false, so the game's own entry of the roll stays on the TV (screenshot
  `79-camera-untaught-some-tv-it.png`).
- A throw the camera reads (the pip die, rendered and read by the real reader): the rolling
  player's phone at 390x844 asks for the untaught die by its name, its faces as buttons; the
  other phone (Polish) says who enters it and offers no button; the TV hides its entry while
  the roll waits; the tapped face plays the whole roll once (screenshots
  `79-camera-untaught-phone-en.png`, `79-camera-untaught-other-phone-pl.png`)."""
from __future__ import annotations

import pytest

from companion import context
from tests.companion.conftest import LiveServer, make_app
from tests.companion.test_camera_untaught_die import (
    PLAYERS,
    map_dice,
    mixed_game,
    throw,
    wire_camera,
)
from tests.web.conftest import PHONE_CONTEXT, pair_with_link, play_on_without_phones
from tests.web.test_browser import shot
from tests.web.test_host_hardware_browser import PIN, host_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
BY_HAND = "Enter the roll on the TV."


@pytest.fixture
def table(tmp_path):
    """The real app with the test game on a live server, the camera reading its dice with
    the pip die mapped (so the gem die is the one still to be taught)."""
    app = make_app(tmp_path, GAMES={"toy": (mixed_game(BY_HAND), None)})
    server = LiveServer(app)
    service = context.of(app).service
    live = service.create("toy", {"players": PLAYERS}, PIN)
    handle = wire_camera(app)
    map_dice(app, {"white1": "d6"})
    assert handle.status()["state"] == "untaught_some"
    try:
        yield app, server, service, live, handle
    finally:
        server.stop()
        service.store.close()


def tv_page(browser, server, live, lang: str, errors: list):
    host = host_page(browser, server.url, live.id, "en")
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.on("pageerror", lambda e: errors.append(f"tv: {e}"))
    pair_with_link(host, tv, server.url, live.id, f"?lang={lang}")
    play_on_without_phones(tv)
    return tv


def phone(browser, server, service, live, seat: str, lang: str, errors: list):
    code = service.store.join_codes(live.id)[seat]
    page = browser.new_context(**PHONE_CONTEXT).new_page()
    page.on("pageerror", lambda e: errors.append(f"{seat}: {e}"))
    page.goto(f"{server.url}/join/{live.id}/{seat}?code={code}")
    page.wait_for_url("**/play/**")
    page.goto(page.url.split("?")[0] + f"?lang={lang}")
    page.wait_for_function("() => window.TC && window.TC.view")
    return page


def test_the_tv_names_the_untaught_die_and_keeps_the_entry_by_hand(browser, table):
    app, server, service, live, handle = table
    errors: list = []
    tv = tv_page(browser, server, live, "it", errors)
    handle.changed()
    tv.wait_for_selector(".table-step[data-kind=roll] .step-device.on")
    steps = tv.locator("#table-steps").inner_text()
    assert "non conosce ancora Gem die" in steps and "telefono" in steps, steps
    assert BY_HAND in steps, steps
    assert tv.evaluate("() => TC.cameraRolls(TC.view)") is False
    shot(tv, "79-camera-untaught-some-tv-it")
    map_dice(app, {"white1": "d6", "coin1": "gem"})  # every die read now: "ok"
    handle.changed()
    tv.wait_for_function("() => TC.cameraRolls(TC.view) === true")
    assert BY_HAND not in tv.locator("#table-steps").inner_text()
    assert errors == []


def test_the_rolling_phone_asks_for_the_untaught_die(browser, table):
    app, server, service, live, handle = table
    errors: list = []
    tv = tv_page(browser, server, live, "en", errors)
    ann = phone(browser, server, service, live, "A", "en", errors)
    bob = phone(browser, server, service, live, "B", "pl", errors)
    tv.wait_for_selector(".table-step[data-kind=roll] .step-hand")  # its own entry, for now
    assert tv.locator("#toy-die-panel").is_visible()

    throw(handle, [4])  # Ann's throw: the camera reads the pip die; the gem die is asked
    asked = ann.wait_for_selector(".dice-missing .dice-die[data-die=gem]")
    assert "Gem die (the camera has not learnt it yet)" in asked.inner_text()
    faces = ann.locator(".dice-die[data-die=gem] button.dice-face")
    assert faces.all_inner_texts() == ["1", "2", "3"]
    box = ann.locator(".dice-missing").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box  # within the phone's width
    for button in faces.all():
        size = button.bounding_box()
        assert size["height"] >= 40 and size["width"] >= 40, size  # a finger's target
    ann.locator(".dice-missing").scroll_into_view_if_needed()
    shot(ann, "79-camera-untaught-phone-en")
    waiting = bob.wait_for_selector(".dice-missing")
    assert "Ann" in waiting.inner_text() and bob.locator(".dice-missing button").count() == 0
    shot(bob, "79-camera-untaught-other-phone-pl")
    tv.wait_for_function("() => TC.cameraRolls(TC.view) === true")
    assert tv.locator(".table-step[data-kind=roll] .step-hand").count() == 0
    assert tv.locator("#toy-die-panel").is_hidden()  # the game's own entry steps aside

    faces.filter(has_text="3").click()
    ann.wait_for_function("() => TC.view.version === 1 && !document.querySelector('.dice-missing')")
    bob.wait_for_function("() => TC.view.version === 1 && !document.querySelector('.dice-missing')")
    assert live.state["pot"] == 4 and live.state["gem"] == 3 and live.version == 1
    assert errors == []

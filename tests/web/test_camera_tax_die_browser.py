"""World Without End's tax die read by the table camera, on the screens (issue 33): the real
server (`companion serve`) whose camera is a folder of trays rendered by the generator, the
tax die taught beforehand (the owner's pictures in the data directory), the camera chosen as
the dice source. At the tax roll the TV and the other phones say what is awaited and from
whom, and offer no second way to enter the die (the game's own "enter the die" panel steps
aside); the rolling player's phone keeps it folded. The die thrown in the tray is read and
recorded. Screenshots at TV and phone size (Polish TV, English phones) under
test-artifacts/browser/79-*.png."""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion import context
from tests.waiting import wait_for
from tests.web.conftest import PHONE_CONTEXT, pair_with_link, play_on_without_phones, running_server
from tests.web.test_browser import shot
from tests.web.test_deck_dice_browser import folder_camera, show
from tests.web.test_host_hardware_browser import PIN, host_page

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(400)]
NAMES = {"N": "Ala", "E": "Bruno", "S": "Carmen", "W": "Dieter"}


def prepared(data: Path) -> tuple[str, str, dict]:
    """A game at the tax roll, the tax die taught: (game id, the roller's seat, join codes)."""
    from companion.app import create_app
    from companion.box import taught_dice
    from companion.box.catalog import load_catalog
    from companion.game import games
    from companion.wiring.dice import roll_step
    from hardware.camera.dice_faces import lone_die
    from hardware.synthetic import dice_tray
    from tests.companion.test_dice_wiring import play_live_to_tax

    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    players = [{"seat": s, "name": n} for s, n in NAMES.items()]
    live = service.create("wwe", {"players": players, "seed": 5}, PIN)
    play_live_to_tax(service, live)
    who = roll_step(live).who
    codes = service.store.join_codes(live.id)
    service.store.close()
    info, catalog = games.module_of("wwe").info, load_catalog("wwe", data)
    for face in (2, 3, 4):  # the fifth is taught on the deck page during the test
        taught_dice.save_face("wwe", data, info, catalog, "tax", face,
                              lone_die(dice_tray.lone(face, seed=face)))
    return live.id, who, codes


def thrown(face: int) -> np.ndarray:
    """The tax die and an ordinary one settled in the tray."""
    from hardware.synthetic import dice_tray

    style = dice_tray.TrayStyle()
    laid = dice_tray.layout(np.random.default_rng(5), 2, 40.0, style.width, style.height,
                            style.margin, cocked=0.0, touching=0.0)
    dice = [replace(laid[0], colour="coin", face=face), replace(laid[1], colour="white", face=3)]
    return dice_tray.render(dice, 5, style, frame=3)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("taxcamdata")
    game, who, codes = prepared(data)
    frames = folder_camera(data, 5, dice={"source": "camera"})
    log = tmp_path_factory.mktemp("taxcamlog") / "server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    with running_server(data, log, "--threads", "20", env=env) as base:
        yield base, game, who, codes, frames


def phone(browser, base, game, seat, code, errors):
    page = browser.new_context(**PHONE_CONTEXT).new_page()
    page.on("pageerror", lambda e: errors.append(f"{seat}: {e}"))
    page.goto(f"{base}/join/{game}/{seat}?code={code}")
    page.wait_for_url("**/play/**")
    page.goto(page.url.split("?")[0] + "?lang=en")
    page.wait_for_function("() => window.TC && window.TC.view")
    return page


def test_the_tv_and_phones_leave_the_tax_die_to_the_camera(server, browser):
    base, game, who, codes, frames = server
    errors: list = []
    host = host_page(browser, base, game, "en")
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.on("pageerror", lambda e: errors.append(f"tv: {e}"))
    pair_with_link(host, tv, base, game, "?lang=pl")
    play_on_without_phones(tv)
    roller = phone(browser, base, game, who, codes[who], errors)
    other_seat = next(s for s in NAMES if s != who)
    other = phone(browser, base, game, other_seat, codes[other_seat], errors)

    # the die not fully taught: the camera cannot read it, so the TV keeps its die buttons
    # and says to enter the roll by hand
    tv.wait_for_selector(".table-step[data-kind=roll_tax] .step-device.off")
    assert tv.locator("#die-input button").count() == 4
    assert "ręcznie" in tv.locator("#table-steps").inner_text()
    shot(tv, "79-camera-tax-untaught-tv-pl")
    # the host takes the last face's picture on the deck page, from the camera's tray
    from hardware.synthetic import dice_tray

    show(frames, dice_tray.lone(5, seed=5))
    host.goto(f"{base}/host/{game}/deck?lang=en")
    host.wait_for_selector(".deck-die[data-role=tax]")

    def taken() -> bool:
        """Take the picture; True once kept (refused while the camera showed the empty tray)."""
        host.evaluate("() => { document.getElementById('deck-dice-notice').textContent = ''; }")
        host.click(".deck-die-face[data-face='5'] .deck-die-take")
        host.wait_for_function("() => document.getElementById('deck-dice-notice').textContent")
        return host.locator("#deck-dice-notice.ok-text").count() == 1

    wait_for(taken, timeout=60, what="the picture of face 5")
    host.wait_for_selector(".deck-die-face[data-face='5'] img")

    # the TV: the step says who rolls and that the camera reads it; no die buttons
    tv.wait_for_selector(".table-step[data-kind=roll_tax] .step-device.on")
    steps = tv.locator("#table-steps").inner_text()
    assert NAMES[who] in steps and "kamera" in steps.lower(), steps
    assert tv.locator("#die-input").count() == 0
    assert tv.locator(".step-hand").count() == 0  # no "or tap it in on the TV"
    shot(tv, "79-camera-tax-tv-pl")
    # another phone: who rolls, read by the camera; nothing to tap
    other.wait_for_selector("#table-steps .step-line[data-kind=roll_tax]")
    line = other.locator("#table-steps").inner_text()
    assert NAMES[who] in line and "camera" in line.lower(), line
    assert other.locator("#die-input").count() == 0
    shot(other, "79-camera-tax-other-phone-en")
    # the roller's phone: the camera reads it, no second way to enter it (issue 46 #4);
    # "Your turn" all the same
    roller.wait_for_selector("#table-steps .step-line[data-kind=roll_tax]")
    roller.wait_for_function("() => TC.view.hardware.dice.reads")
    roller.wait_for_selector("#my-prompt.my-turn")
    assert "camera" in roller.locator("#table-steps").inner_text().lower()
    assert roller.locator("#die-input, #roll-by-hand").count() == 0
    shot(roller, "79-camera-tax-roller-phone-en")

    # the die thrown in the tray: read by the camera with the owner's pictures, recorded
    version = tv.evaluate("() => TC.view.version")
    show(frames, thrown(4))
    tv.wait_for_function("v => TC.view.version > v", arg=version, timeout=60000)
    log = tv.evaluate("() => JSON.stringify(TC.view.log)")
    assert "tax_rolled" in log, log
    assert tv.locator(".table-step[data-kind=roll_tax]").count() == 0
    shot(tv, "79-camera-tax-rolled-pl")
    assert not errors, errors


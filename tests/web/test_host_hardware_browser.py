"""The host's camera and dice pages in a real browser (Debian's chromium through Playwright),
against the real server (`companion serve`) running the synthetic camera and an emulated
dice reader; and the table display's tax-die prompt in words, tapped in by hand.

The game is set up (played to the tax roll) in the data directory before the server starts.
Screenshots: test-artifacts/browser/3*.png (gitignored).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion import context
from tests.web.conftest import pair_with_link, play_on_without_phones, running_server
from tests.web.test_browser import shot

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300)]
playwright_api = pytest.importorskip("playwright.sync_api")
PIN = "8642"


def game_at_tax_roll(data: Path) -> str:
    """A World Without End game played by random legal actions until the tax is due."""
    from companion.app import create_app
    from tests.companion.test_dice_wiring import play_live_to_tax

    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    players = [{"seat": s, "name": n} for s, n in zip("NESW", ["Ala", "Bruno", "Carmen",
                                                                "Dieter"], strict=True)]
    live = service.create("wwe", {"players": players, "seed": 5}, PIN)
    play_live_to_tax(service, live)
    service.store.close()
    return live.id


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("hwdata")
    (data / "config.json").write_text('{"dice": {"emulator_http_port": 0}}')
    game = game_at_tax_roll(data)
    log = tmp_path_factory.mktemp("hwlog") / "server.log"
    env = dict(os.environ, COMPANION_CAMERA="synthetic", COMPANION_DICE_EMULATE="on")
    with running_server(data, log, "--threads", "20", env=env) as base:
        yield base, game, data


def host_page(browser, base: str, game: str, lang: str):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{base}/host/{game}?lang={lang}")
    page.fill("#pin", PIN)
    page.click("#host-login button[type=submit]")
    page.wait_for_selector("#camera-link")
    return page


def test_camera_page_shows_the_live_preview_and_calibrates(server, browser):
    base, game, data = server
    page = host_page(browser, base, game, "de")
    page.click("#camera-link")
    page.wait_for_selector("#cam-preview")
    page.wait_for_function("() => document.getElementById('cam-preview').naturalWidth > 0",
                           timeout=60000)
    assert page.evaluate("() => document.getElementById('cam-preview').naturalWidth") == 1280
    # the polled status: a frame rate and decode time, in German words
    page.wait_for_function("() => /\\d/.test(document.getElementById('cam-fps').textContent)",
                           timeout=20000)
    page.wait_for_function("() => document.getElementById('cam-state').textContent"
                           " === 'bereit'", timeout=20000)  # ready, in German
    assert page.locator("h1").first.inner_text() == "Kamera"
    page.click("#calibrate")
    page.wait_for_function("() => document.getElementById('calibrate-result').className",
                           timeout=20000)
    result = page.locator("#calibrate-result")
    assert result.get_attribute("class") == "result-ok", result.inner_text()
    assert "Kalibrierung gespeichert" in result.inner_text()
    assert '"calibration"' in (data / "config.json").read_text()
    shot(page, "30-host-camera-de")


def test_dice_page_and_the_tax_die_on_the_table(server, browser):
    base, game, data = server
    page = host_page(browser, base, game, "it")
    page.click("#dice-link")
    page.wait_for_selector("#roles-form")
    page.wait_for_function(
        "() => document.getElementById('dice-state').textContent === 'connesso'", timeout=20000)
    assert page.locator("#dice-firmware").inner_text() not in ("", "–")
    page.locator("input[name=die]").nth(1).fill("white")
    page.locator("select[name=role]").nth(1).select_option("tax")
    page.click("#roles-form button[type=submit]")
    page.wait_for_selector("#dice-notice")
    assert "Ruoli dei dadi salvati" in page.locator("#dice-notice").inner_text()
    assert '"white": "tax"' in (data / "config.json").read_text()
    shot(page, "31-host-dice-it")

    table = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    pair_with_link(page, table, base, game, "?lang=pl")
    play_on_without_phones(table)
    table.wait_for_selector("#die-input button")
    prompt = table.locator("#prompt").inner_text()
    assert "rzuca kością podatków" in prompt  # "rolls the tax die", in Polish words
    shot(table, "32-table-tax-prompt-pl")
    version = table.evaluate("() => TC.view.version")
    table.locator("#die-input button[data-value='3']").click()
    table.wait_for_function("v => TC.view.version > v", arg=version, timeout=15000)
    assert table.evaluate("() => TC.view.log.some(e => e.type === 'tax_rolled')")
    assert table.locator("#die-input").count() == 0
    shot(table, "33-table-after-tax-pl")

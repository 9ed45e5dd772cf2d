"""The pages in WebKit, the engine of every iPhone browser: Debian's WebKitGTK WebDriver
(`WebKitWebDriver`, package webkit2gtk-driver) driven by Selenium under Xvfb, beside the
Chromium tests. For each game against the real server (`companion serve`): the TV pairs and
draws, a phone joins and draws, the TV acts, the phone's refused move shows its message with
a "Why?" that opens on the rule and a close control, and the phone reconnects by itself
after its page was hidden (its socket dropped, as a phone's is when it sleeps). Screenshots
at TV (1920x1080) and phone (390x844) size go to test-artifacts/browser/webkit-*.png."""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.waiting import PATIENCE
from tests.web.conftest import ROOT, running_server

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]
DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
ARTIFACTS = ROOT / "test-artifacts" / "browser"
PIN = "2468"
PLAYERS = [{"seat": "N", "name": "Anna"}, {"seat": "E", "name": "Bruno"}]


@pytest.fixture(scope="module")
def display():
    """An X display of its own (Xvfb) for WebKitGTK."""
    if not (os.path.exists(DRIVER) and shutil.which("Xvfb")):
        pytest.skip("WebKitWebDriver or Xvfb missing (tests/install-system-packages.sh)")
    pytest.importorskip("selenium")
    for number in range(90, 140):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(
                f"/tmp/.X{number}-lock").exists():
            break
    proc = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1920x1080x24",
                             "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + PATIENCE
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            pytest.fail("Xvfb did not start")
        time.sleep(0.05)
    yield f":{number}"
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """One game of each kind made on the data before the server starts, with a table
    pairing code and the join codes: {game: (game id, pairing code, {seat: code})}."""
    from companion.app import create_app

    data = tmp_path_factory.mktemp("webkitdata")
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = app.extensions["companion"]
    out = {}
    for game in ("wwe", "pillars", "monasterium"):
        live = service.create(game, {"players": PLAYERS}, PIN)
        out[game] = (live.id, service.new_table_pairing(live.id),
                     service.store.join_codes(live.id))
    service.store.close()
    log = tmp_path_factory.mktemp("webkitlog") / "server.log"
    with running_server(data, log, "--no-hardware", "--threads", "20") as base:
        yield base, out


@pytest.fixture()
def webkit(display, monkeypatch):
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    monkeypatch.setenv("DISPLAY", display)
    driver = webdriver.WebKitGTK(options=Options(), service=Service(executable_path=DRIVER))
    yield driver
    driver.quit()


def until(driver, script: str, *args, timeout: float = PATIENCE):
    """Wait until the JS expression ``script`` (a function body's return) is truthy."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(
        lambda d: d.execute_script(script, *args))


def shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"webkit-{name}.png"))


def errors_of(driver) -> list:
    return driver.execute_script("return window.__errors || []")


CATCH = ("window.__errors = window.__errors || [];"
         "window.addEventListener('error', e => window.__errors.push(String(e.message)));")

# the first choice this page may send, sent as its buttons do (as tests/web do in Chromium)
STEP = """
const c = (TC.view.choices || []).find(c => !c.refused);
if (!c) return null;
const a = Object.assign({}, c.action);
const opts = c.effect && c.effect.discard_options;
if (opts && opts.length && !opts.includes(a.discard)) a.discard = opts[0];
TC.act(a);
return TC.view.version;"""


@pytest.mark.parametrize("game", ["wwe", "pillars", "monasterium"])
def test_phone_and_tv_pages_work_in_webkit(tables, webkit, game):
    base, made = tables
    game_id, pairing, codes = made[game]
    driver = webkit

    # the TV: paired with its one-time link, at TV size
    driver.set_window_size(1920, 1080)
    driver.get(f"{base}/table/{game_id}/pair?code={pairing}")
    driver.execute_script(CATCH)
    until(driver, "return window.TC && TC.view && TC.view.version === 0")
    assert driver.execute_script("return TC.view.role") == "table"
    tv = driver.current_window_handle

    # a phone joins with its seat's code, at phone size, in German
    driver.switch_to.new_window("window")
    driver.set_window_size(390, 844)
    driver.get(f"{base}/join/{game_id}/N?code={codes['N']}")
    until(driver, "return location.pathname.startsWith('/play/')")
    driver.get(f"{base}/play/{game_id}?lang=de")
    driver.execute_script(CATCH)
    until(driver, "return window.TC && TC.view && TC.view.seat === 'N'")
    phone = driver.current_window_handle
    assert driver.find_element("id", "my-prompt").text.strip()
    shot(driver, f"{game}-phone-de")

    # the TV acts (the table's first step: an event card, the preparation, the first roll)
    driver.switch_to.window(tv)
    sent = driver.execute_script(STEP)
    assert sent is not None, driver.execute_script("return TC.view.prompts")
    until(driver, "return TC.view.version > arguments[0]", sent)
    version = driver.execute_script("return TC.view.version")
    shot(driver, f"{game}-tv-en")

    # the phone follows, and a move that is not its own is refused with its "Why?"
    driver.switch_to.window(phone)
    until(driver, "return TC.view.version >= arguments[0]", version)
    driver.switch_to.window(tv)
    move = driver.execute_script("const c = (TC.view.choices || []).find(c => !c.refused);"
                                 "return c ? c.action : null;")
    driver.switch_to.window(phone)
    refused = driver.execute_script(  # a choice the phone shows refused, with its rule
        "const c = (TC.view.choices || []).find(c => c.refused && c.refused.rule);"
        "return c ? c.action : null;")
    own = driver.execute_script(  # else its own move, sent once more after it was played
        "const c = (TC.view.choices || []).find(c => !c.refused); return c ? c.action : null;")
    if not refused and own:
        sent = driver.execute_script(STEP)
        until(driver, "return TC.view.version > arguments[0]", sent)
        version = driver.execute_script("return TC.view.version")
    move = refused or own or move or {"type": "pass", "by": "E"}
    move["by"] = "N"
    ack = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "TC.socket.emit('act', {action: arguments[0]}, done);", move)
    assert ack["ok"] is False and ack["message"], ack
    driver.execute_script("TC.act(arguments[0])", move)
    until(driver, "const e = document.getElementById('toast');"
                  "return e && !e.hidden && e.innerText.includes(arguments[0])", ack["message"])
    assert driver.find_element("css selector", "#toast .toast-close").is_displayed()
    assert ack["rule"], ack  # a rule of the game: its "Why?" opens on it
    driver.find_element("css selector", "#toast details.rule-why > summary").click()
    until(driver, "const r = document.querySelector('#toast .rule-text');"
                  "return r && r.innerText.includes(arguments[0])", ack["rule"]["ref"])
    shot(driver, f"{game}-phone-refusal-de")
    driver.find_element("css selector", "#toast .toast-close").click()
    until(driver, "return document.getElementById('toast').hidden")

    # hidden, its socket dropped (a sleeping phone), shown again: it reconnects by itself
    driver.execute_script("TC.socket.disconnect();")
    until(driver, "return !TC.socket.connected")
    driver.execute_script("document.dispatchEvent(new Event('visibilitychange'));")
    until(driver, "return TC.socket.connected && TC.view.version >= arguments[0]", version)
    until(driver, "return document.body.dataset.conn === 'ok'")
    assert errors_of(driver) == []
    driver.switch_to.window(tv)
    assert errors_of(driver) == []

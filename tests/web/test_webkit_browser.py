"""The pages in WebKit, the engine of every iPhone browser: Debian's WebKitGTK WebDriver
(`WebKitWebDriver`, package webkit2gtk-driver) driven by Selenium under Xvfb, beside the
Chromium tests. For each game against the real server (`companion serve`): the TV pairs and
draws, a phone joins and draws, the TV acts, the phone's refused move shows its message with
a "Why?" that opens on the rule and a close control, and the phone reconnects by itself
after its page was hidden (its socket dropped, as a phone's is when it sleeps); World Without
End's TV at chapter end at 1366x768 and 1280x720 keeps its VP chart with nothing cut.
Screenshots at TV and phone (390x844) size go to test-artifacts/browser/webkit-*.png."""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from companion import context
from tests.waiting import PATIENCE
from tests.web.conftest import FIRST_CHOICE_BODY, ROOT, running_server, screenshots_wanted

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]
DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
ARTIFACTS = ROOT / "test-artifacts" / "browser"
PIN = "2468"
PLAYERS = [{"seat": "N", "name": "Anna"}, {"seat": "E", "name": "Bruno"}]


@pytest.fixture(scope="module")
def display():
    """An X display of its own (Xvfb) for WebKitGTK, larger than a 1080p TV: a window
    framing a 1920x1080 page (`framed`) fits on it whole."""
    if not (os.path.exists(DRIVER) and shutil.which("Xvfb")):
        pytest.skip("WebKitWebDriver or Xvfb missing (tests/install-system-packages.sh)")
    pytest.importorskip("selenium")
    # a free display number: Xvfb itself refuses one taken (its lock file), so a test run in
    # several workers (pytest -n) never shares a display; a refused number tries the next
    for number in range(90, 190):
        if Path(f"/tmp/.X{number}-lock").exists():
            continue
        proc = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "2100x1260x24",
                                 "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + PATIENCE
        while proc.poll() is None and not Path(f"/tmp/.X11-unix/X{number}").exists():
            if time.monotonic() > deadline:
                proc.kill()
                pytest.fail("Xvfb did not start")
            time.sleep(0.05)
        if proc.poll() is None:
            break
    else:
        pytest.fail("Xvfb found no free display")
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
    service = context.of(app).service
    out = {}
    for game in ("wwe", "pillars", "monasterium"):
        live = service.create(game, {"players": PLAYERS}, PIN)
        out[game] = (live.id, service.access.new_table_pairing(live.id),
                     service.store.join_codes(live.id))
    service.store.close()
    log = tmp_path_factory.mktemp("webkitlog") / "server.log"
    with running_server(data, log, "--no-hardware", "--threads", "20") as base:
        yield base, out


START_WAIT = 120  # s a WebKitWebDriver session may take to start before it is tried anew


def _start_webkit():
    """A WebKitGTK session, or None when WebKitWebDriver did not answer the new session
    within `START_WAIT` (its driver then stopped). Stop 87's CI saw one hang for 600 s before
    any page of ours was asked for (the browser's own start under Xvfb, not the app); the
    next test's fresh session then never ran the page's script. Our pages are not in play
    until a session exists, so a start that hangs is tried again once, with a new driver."""
    import threading

    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    service = Service(executable_path=DRIVER)
    started: list = []
    thread = threading.Thread(target=lambda: started.append(
        webdriver.WebKitGTK(options=Options(), service=service)), daemon=True)
    thread.start()
    thread.join(START_WAIT)
    if started:
        return started[0]
    service.stop()  # ends the driver and its browser: the hung request fails in its thread
    thread.join(PATIENCE)
    for late in started:  # it answered after all: not used, closed
        late.quit()
    return None


@pytest.fixture()
def webkit(display, monkeypatch):
    monkeypatch.setenv("DISPLAY", display)
    driver = _start_webkit() or _start_webkit()
    if driver is None:
        pytest.fail(f"WebKitWebDriver started no session in {START_WAIT} s, twice")
    yield driver
    driver.quit()


def until(driver, script: str, *args, timeout: float = PATIENCE):
    """Wait until the JS expression ``script`` (a function body's return) is truthy."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(
        lambda d: d.execute_script(script, *args))


def shot(driver, name: str) -> None:
    if not screenshots_wanted():
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"webkit-{name}.png"))


def errors_of(driver) -> list:
    return driver.execute_script("return window.__errors || []")


CATCH = ("window.__errors = window.__errors || [];"
         "window.addEventListener('error', e => window.__errors.push(String(e.message)));")

# the first choice this page may send, as its buttons send it (conftest.FIRST_CHOICE)
STEP = FIRST_CHOICE_BODY


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

    # a phone joins with its seat's code, at phone size (390x844), in German
    phone = open_phone(driver, base, game_id, "N", codes["N"], "de")
    assert driver.find_element("id", "my-prompt").text.strip()
    phone_frame_shot(driver, f"{game}-phone-de")

    # the TV acts (the table's first step: an event card, the preparation, the first roll)
    driver.switch_to.window(tv)
    sent = driver.execute_script(STEP)
    assert sent is not None, driver.execute_script("return TC.view.prompts")
    until(driver, "return TC.view.version > arguments[0]", sent)
    version = driver.execute_script("return TC.view.version")
    shot(driver, f"{game}-tv-en")

    # the phone follows, and a move that is not its own is refused with its "Why?"
    to_phone(driver, phone)
    until(driver, "return TC.view.version >= arguments[0]", version)
    driver.switch_to.window(tv)
    move = driver.execute_script("const c = (TC.view.choices || []).find(c => !c.refused);"
                                 "return c ? c.action : null;")
    to_phone(driver, phone)
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
    phone_frame_shot(driver, f"{game}-phone-refusal-de")
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


# each drawn name on the setup page and whether it lies whole on the screen; the width
DRAWN = """return [[...document.querySelectorAll('#setup-drawn li')].map(li => {
  const r = li.getBoundingClientRect();
  return [li.textContent, r.width > 0 && r.right <= innerWidth];
}), innerWidth]"""


def test_the_missions_to_lay_in_webkit(tables, webkit):
    """Monasterium's guided setup names the 6 missions the game drew (and scores) under its
    missions step: on the host's TV-sized page and in a 390x844 phone frame, in German,
    every name the server sends is shown and none runs off the screen."""
    base, made = tables
    game_id = made["monasterium"][0]
    driver = webkit
    driver.set_window_size(1920, 1080)
    driver.get(f"{base}/host/{game_id}?lang=de")
    driver.find_element("id", "pin").send_keys(PIN)
    driver.find_element("css selector", "#host-login button[type=submit]").click()
    until(driver, "return !document.getElementById('host-login')")
    driver.get(f"{base}/table/{game_id}/setup?lang=de")
    until(driver, "return !!document.getElementById('setup').dataset.at")
    driver.find_element("css selector", "#setup-list li[data-step=missions] button").click()
    until(driver, "return document.getElementById('setup').dataset.at === 'missions'")
    state = driver.execute_async_script(
        "fetch(arguments[0]).then(r => r.json()).then(arguments[1])",
        f"/games/{game_id}/setup.json?lang=de")
    names = next(s for s in state["steps"] if s["id"] == "missions")["drawn"]
    assert len(names) == 6 and all(n.startswith("Auftrag ") for n in names), names
    shown, _ = driver.execute_script(DRAWN)
    assert shown == [[n, True] for n in names], shown
    shot(driver, "setup-missions-tv")
    framed(driver, base, f"/table/{game_id}/setup?lang=de", 390, 844)
    until(driver, "return document.getElementById('setup').dataset.at === 'missions'")
    shown, width = driver.execute_script(DRAWN)
    assert width == 390 and shown == [[n, True] for n in names], shown
    phone_frame_shot(driver, "setup-missions-phone")


@contextlib.contextmanager
def served_record(tmp_path_factory, name: str, record: dict, pin: str):
    """The game ``record`` imported before the server starts: (base, game id, pairing,
    join codes)."""
    from companion.app import create_app

    data = tmp_path_factory.mktemp(name)
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    live = service.import_record(record, pin)
    made = (live.id, service.access.new_table_pairing(live.id), service.store.join_codes(live.id))
    service.store.close()
    log = tmp_path_factory.mktemp(name + "log") / "server.log"
    with running_server(data, log, "--no-hardware", "--threads", "20") as base:
        yield (base, *made)


@pytest.fixture(scope="module")
def lost_table(tmp_path_factory):
    """World Without End's chapter II under King Edward III's war (tests/web/
    test_wwe_phone_browser.py), imported before the server starts: both seats' actions are
    lost (Anna's to the Royal Court, Bartek's to the war). (base, game id, pairing, codes)."""
    from tests.web.test_wwe_phone_browser import PIN as RECORD_PIN
    from tests.web.test_wwe_phone_browser import chapter_two_under_king_edward

    with served_record(tmp_path_factory, "webkitlost", chapter_two_under_king_edward(),
                       RECORD_PIN) as made:
        yield made


def framed(driver, base: str, src: str, width: int, height: int) -> str:
    """A new window holding ``src`` in a same-origin frame of exactly ``width`` x ``height``
    CSS px, switched into; the window's handle. WebKitGTK's window adds its toolbar to the
    page and is at least 447 px wide, so the frame is what the page's viewport, media
    queries and innerHeight see."""
    driver.switch_to.new_window("window")
    driver.set_window_size(width + 90, height + 76)
    driver.get(f"{base}/healthz")
    driver.execute_script("""
      document.body.innerHTML = ''; document.body.style.margin = '0';
      const f = document.createElement('iframe');
      f.id = 'phone'; f.src = arguments[0];
      f.style.cssText = `width:${arguments[1]}px;height:${arguments[2]}px;border:0;display:block`;
      document.body.appendChild(f);""", src, width, height)
    handle = driver.current_window_handle
    to_phone(driver, handle)
    return handle


def open_phone(driver, base: str, game_id: str, seat: str, code: str, lang: str) -> str:
    """A new window holding a 390x844 phone joined as ``seat`` in ``lang``; its handle."""
    handle = framed(driver, base, f"/join/{game_id}/{seat}?code={code}", 390, 844)
    until(driver, "return location.pathname.startsWith('/play/')")
    driver.execute_script("location.href = arguments[0]", f"/play/{game_id}?lang={lang}")
    until(driver, "return location.search.includes('lang=') && window.TC && TC.view"
                  " && TC.view.seat === arguments[0]", seat)
    driver.execute_script(CATCH)
    assert driver.execute_script("return [innerWidth, innerHeight]") == [390, 844]
    return handle


def to_phone(driver, handle: str) -> None:
    """Into the phone frame of window ``handle``."""
    driver.switch_to.window(handle)
    driver.switch_to.default_content()
    driver.switch_to.frame(driver.find_element("id", "phone"))


def phone_frame_shot(driver, name: str, size: tuple[int, int] = (390, 844)) -> None:
    """The frame alone (a phone's 390x844 unless ``size``, cut from the window's screenshot:
    WebKitGTK's element screenshot is shifted by its toolbar), then back into it."""
    import io

    from PIL import Image

    driver.switch_to.default_content()
    if screenshots_wanted():  # left out or not, the driver ends in the frame
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        whole = Image.open(io.BytesIO(driver.get_screenshot_as_png()))
        whole.crop((0, 0, *size)).save(ARTIFACTS / f"webkit-{name}.png")
    driver.switch_to.frame(driver.find_element("id", "phone"))


def give_up_in_webkit(driver, seat: str, lang: str) -> None:
    """The seat owing the play: the banner says its action is lost, the reason's "Why?"
    opens on the rule, the dock folds and unfolds, and "Give up <card>" sends the play."""
    t = "return TC.t(arguments[0])"
    until(driver, "return !!document.querySelector('#action-lost')")
    banner = driver.find_element("id", "my-prompt").text
    assert driver.execute_script(t, "action_lost_give_up") in banner, banner
    assert driver.execute_script(t, "play_a_card") not in banner
    driver.find_element("css selector", "#action-lost details.rule-why > summary").click()
    until(driver, "const r = document.querySelector('#action-lost .rule-text');"
                  "return r && r.getBoundingClientRect().height > 0 && r.innerText.trim()")
    # the choices dock: at most 40% of the screen, folded away to a bar and back
    high = "return document.getElementById('act-now').getBoundingClientRect().height"
    inner = driver.execute_script("return innerHeight")
    assert driver.execute_script(high) <= 0.4 * inner + 1
    driver.find_element("id", "dock-fold").click()
    until(driver, "return document.getElementById('act-now').classList.contains('folded')")
    assert driver.execute_script(high) < 80
    assert driver.find_element("id", "dock-fold").get_attribute("aria-expanded") == "false"
    phone_frame_shot(driver, f"wwe-lost-folded-{lang}")
    driver.find_element("id", "dock-fold").click()
    until(driver, "return !document.getElementById('act-now').classList.contains('folded')"
                  " && !!document.querySelector('#play-card button.choice')")
    assert driver.execute_script(high) <= 0.4 * inner + 1
    first = driver.find_element("css selector", "#play-card .choices button.choice")
    card = first.get_attribute("data-card")
    first.click()
    until(driver, "return !!document.getElementById('give-up')")
    # the button to tap is in sight inside the dock (the open "Why?" above it scrolled away)
    assert driver.execute_script("""const b = document.getElementById('give-up')
        .getBoundingClientRect(), d = document.getElementById('act-now').getBoundingClientRect();
      return b.top >= d.top && b.bottom <= d.bottom && b.bottom <= innerHeight;""")
    give_up = driver.find_element("id", "give-up").text
    name = driver.execute_script("return WWE.nm('cards', arguments[0])", card)
    assert name in give_up and driver.execute_script(t, "perform") not in give_up, give_up
    phone_frame_shot(driver, f"wwe-lost-give-up-{lang}")
    if driver.find_elements("id", "discard-select"):
        from selenium.webdriver.support.ui import Select

        select = Select(driver.find_element("id", "discard-select"))
        select.select_by_value(next(o.get_attribute("value") for o in select.options
                                    if o.get_attribute("value")))
    version = driver.execute_script("return TC.view.version")
    driver.find_element("id", "give-up").click()
    until(driver, "return TC.view.version > arguments[0]", version)
    lost = driver.execute_script("""return TC.view.log.filter(e => e.type === 'action_lost'
                                    && e.params.seat === arguments[0]).pop()""", seat)
    assert lost and lost["params"]["card"] == card, lost


def test_the_lost_action_phone_and_its_dock_in_webkit(lost_table, webkit):
    """Issue 32 point 4/8 on an iPhone's engine: Anna (English) and Bartek (Polish) each see
    their action is lost and why, fold and unfold the dock and give up a card."""
    base, game_id, pairing, codes = lost_table
    driver = webkit
    driver.set_window_size(1920, 1080)
    driver.get(f"{base}/table/{game_id}/pair?code={pairing}")
    until(driver, "return window.TC && TC.view && TC.view.prompts.length")
    first = driver.execute_script("return TC.view.prompts[0].seat")
    langs = {"N": "en", "S": "pl"}
    phones = {seat: open_phone(driver, base, game_id, seat, codes[seat], langs[seat])
              for seat in ("N", "S")}
    for seat in (first, "S" if first == "N" else "N"):
        to_phone(driver, phones[seat])
        give_up_in_webkit(driver, seat, langs[seat])
        assert errors_of(driver) == []


@pytest.fixture(scope="module")
def chapter_end_table(tmp_path_factory):
    """World Without End just after chapter I's end, four long-named players each short of
    three things (tests/web/test_wwe_phone_browser.py): the fullest chapter-end box."""
    from tests.web.test_wwe_phone_browser import PIN as RECORD_PIN
    from tests.web.test_wwe_phone_browser import chapter_end_four_short

    with served_record(tmp_path_factory, "webkitchapterend", chapter_end_four_short(),
                       RECORD_PIN) as made:
        yield made


def test_the_tv_at_chapter_end_in_webkit(chapter_end_table, webkit):
    """The same checks as Chromium's (tests/web/test_table_experience_browser.py) on a 720p
    and a 1366x768 TV in WebKit, in English and in Polish (the longest words): nothing cut,
    every player's chips on one line, the VP chart's lines a twelfth of the screen high
    beside the chapter-end box."""
    from tests.web.test_table_experience_browser import CHART_HEIGHT, FITS, WRAPPED_CHIPS

    base, game_id, pairing, _codes = chapter_end_table
    driver = webkit
    handle = framed(driver, base, f"/table/{game_id}/pair?code={pairing}", 1366, 768)
    for lang in ("en", "pl"):
        if lang != "en":  # the paired frame reloaded in that language
            driver.execute_script("location.href = arguments[0]", f"/table/{game_id}?lang={lang}")
            until(driver, "return location.search.includes('lang=')")
        driver.execute_script(CATCH)
        until(driver, "return window.TC && TC.view && document.documentElement.lang === "
                      "arguments[0] && !!document.getElementById('chapter-summary')", lang)
        if driver.execute_script("const b = document.getElementById('lobby-close');"
                                 "return !!b && b.offsetParent !== null"):
            driver.find_element("id", "lobby-close").click()  # no phone joined: the lobby
        until(driver, "return document.getElementById('join-panel').hidden")
        for width, height in ((1366, 768), (1280, 720)):
            driver.switch_to.default_content()  # the frame takes the TV's size
            driver.execute_script("const f = document.getElementById('phone');"
                                  "f.style.width = arguments[0] + 'px';"
                                  "f.style.height = arguments[1] + 'px';", width, height)
            to_phone(driver, handle)
            until(driver, "return innerWidth === arguments[0] && innerHeight === arguments[1]",
                  width, height)
            problems = driver.execute_script(f"return ({FITS})()")
            chart = driver.execute_script(f"return ({CHART_HEIGHT})()")
            wrapped = driver.execute_script(f"return ({WRAPPED_CHIPS})()")
            driver.execute_async_script(  # painted at this size before the screenshot
                "const done = arguments[arguments.length - 1];"
                "requestAnimationFrame(() => requestAnimationFrame(() => done()));")
            phone_frame_shot(driver, f"wwe-tv-chapter-end-four-{lang}-{height}p",
                             (width, height))
            label = f"{lang} at {width}x{height}"
            assert not problems, f"{label}: {problems}"
            assert chart >= height / 12, f"the VP chart is {chart} px high ({label})"
            assert wrapped == [], f"{label}: {wrapped}"
        assert errors_of(driver) == []

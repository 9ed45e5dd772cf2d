"""The TV shows the whole board, never scrolled (issue 46 #1), in real chromium against the
real server with its camera (simulated) and dice reader (emulated) running: every game in
the states with the longest banners and the fullest panels (the camera and dice with
another game: its notice and each step's "nothing records this"; the round's preparation
with its fourteen privileges, the draft's whole supply, the architect drawn, the tax die,
World Without End's orientation and its chapter-end box, Monasterium's roll entered by
hand, every game's final scores), four players with long names, in all five languages at
1920x1080 and 1280x720. Then each game's first state again at the table (the camera and
the dice reader ready, moved there from the host page with the other game's host PIN).

Whole means: every text on the screen lies inside the screen and inside every panel that
clips it (a log and a picker list scroll inside their panel: their first line shows), no
text cut with "…" or clamped, no panel below its column, the page exactly the screen.
The same in WebKit (every iPhone's engine) for every state and size in the three longest
languages (Spanish, German, Polish: the tallest headers the issue measured). The board
watched on a phone (390x844, German and Spanish) is one column that scrolls: nothing wider
than the screen.
Screenshots (German and Spanish at both sizes, and at phone size):
test-artifacts/browser/tv-whole-*.png; WebKit: webkit-tv-whole-*.png.
"""
from __future__ import annotations

import pytest

from companion import context
from tests.web.conftest import play_to, running_with_simulated_hardware, table_cookie
from tests.web.test_browser import shot
from tests.web.test_table_fit_browser import NOT_WHOLE
from tests.web.test_webkit_browser import display, webkit  # noqa: F401 - fixtures

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(1500)]
PIN = "2468"
LANGS = ("en", "de", "pl", "it", "es")
TVS = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
NAMES = ("Annaowski", "Bartekowski", "Christineowski", "Dariuszowski")  # long, as real ones


def prompted(*kinds):
    return lambda module, state: any(p.kind in kinds for p in module.prompts(state))


def over(module, state):
    return module.is_over(state)


def first(module, state):
    return True


# (label, game, the state wanted): the fullest each game's TV gets
STATES = [
    ("pillars-privileges", "pillars", first),
    ("pillars-draft", "pillars", lambda m, s: s["phase"] == "draft" and s["round"] == 2),
    ("pillars-architect", "pillars",
     lambda m, s: s["phase"] == "architects" and s["arch"]["drawn"] is None and s["round"] >= 2),
    ("pillars-tax", "pillars", lambda m, s: s["phase"] == "tax" and s["tax"] is None),
    ("pillars-over", "pillars", over),
    ("wwe-event", "wwe", first),
    ("wwe-orientation", "wwe", prompted("orient_event")),
    ("wwe-tax", "wwe", prompted("roll_tax")),
    ("wwe-chapter-end", "wwe",
     lambda m, s: s["chapter"] == 2 and s["round"] == 1 and prompted("reveal_event")(m, s)),
    ("wwe-over", "wwe", over),
    ("monasterium-roll", "monasterium", first),
    ("monasterium-place", "monasterium", lambda m, s: s["round"] >= 2 and prompted("place")(m, s)),
    ("monasterium-over", "monasterium", over),
]

# Every text on the screen whole: inside the screen and inside each element that clips it.
# A log and a picker list scroll inside their panel: the first line of their first item
# must show.
SHOWN = """() => {
  const bad = [], seen = new Set();
  const shown = (el) => !el.closest('[hidden], .sr-only') && el.offsetParent !== null;
  const name = (el) => (el.id || el.className || el.tagName) + ' «' +
    el.textContent.trim().slice(0, 40) + '»';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.nodeValue.trim() || !shown(el) || el.closest('script, option, .toast')) continue;
    const item = el.closest('.log > li, .picker-list > *');
    if (item && item !== item.parentElement.firstElementChild) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    let rects = [...range.getClientRects()];
    if (item) rects = rects.slice(0, 1);  // the newest line of a log or a list
    for (const r of rects) {
      if (!r.width || !r.height || seen.has(el)) continue;
      let why = r.bottom > innerHeight + 1 || r.right > innerWidth + 1 || r.top < -1 ||
        r.left < -1 ? 'off the screen' : null;
      for (let a = el; !why && a && a !== document.body; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
        const box = a.getBoundingClientRect();
        if (r.bottom > box.bottom + 1 || r.top < box.top - 1 || r.right > box.right + 1 ||
            r.left < box.left - 1) why = 'cut by ' + (a.id || a.className || a.tagName);
      }
      if (why) { seen.add(el); bad.push(why + ': ' + name(el)); }
    }
  }
  if (document.documentElement.scrollHeight > innerHeight + 1)
    bad.push('the page scrolls: ' + document.documentElement.scrollHeight + ' px');
  return bad;
}"""

# The board watched on a phone scrolls down, never sideways: every text within the
# screen's width and inside each element that clips it sideways.
NARROW = """() => {
  const bad = [], seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.nodeValue.trim() || el.closest('[hidden], .sr-only, script, option, .toast') ||
        el.offsetParent === null || seen.has(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (!r.width) continue;
      let why = r.right > innerWidth + 1 || r.left < -1 ? 'wider than the screen' : null;
      for (let a = el; !why && a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX === 'visible') continue;
        const box = a.getBoundingClientRect();
        if (r.right > box.right + 1 || r.left < box.left - 1)
          why = 'cut sideways by ' + (a.id || a.className || a.tagName);
      }
      if (why) { seen.add(el); bad.push(why + ': ' + el.textContent.trim().slice(0, 40)); }
    }
  }
  if (document.documentElement.scrollWidth > innerWidth + 1)
    bad.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' px');
  return bad;
}"""
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Every state of STATES as a game of its own, made before the server starts, each with
    a paired table's token; a Monasterium game of two, made last, has the camera and the
    dice (so every other TV shows where they are)."""
    from companion.app import create_app

    data = tmp_path_factory.mktemp("tvwholedata")
    (data / "config.json").write_text('{"dice": {"emulator_http_port": 0}}')
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    games = {}
    for label, game, until in STATES:
        seats = service._kinds(game).module.info.seats[:4]
        players = [{"seat": s.id, "name": n, "colour": s.colour}
                   for s, n in zip(seats, NAMES, strict=False)]
        live = service.create(game, {"players": players, "seed": 11}, PIN, to_table=False)
        play_to(service, live, until, seed=11)
        games[label] = (live.id, service.access.new_table_token(live.id))
    players = [{"seat": s, "name": n} for s, n in zip("NE", NAMES, strict=False)]
    holder = service.create("monasterium", {"players": players}, PIN)
    assert service.access.at_table() is holder
    service.store.close()
    log = tmp_path_factory.mktemp("tvwholelog") / "server.log"
    with running_with_simulated_hardware(data, log, "30") as base:
        yield base, games


def measure(page, base: str, game_id: str, label: str, at_table: bool) -> list[str]:
    """Open the TV of ``game_id`` in each language and at each size; what is not whole."""
    problems = []
    for lang in LANGS:
        page.set_viewport_size(TVS[0])
        page.goto(f"{base}/table/{game_id}?lang={lang}")
        page.wait_for_function("() => window.TC && TC.view && TC.view.role === 'table'")
        if page.locator("#lobby-close").is_visible():  # no phone joined: the lobby
            page.click("#lobby-close")
        page.wait_for_function("() => document.getElementById('join-panel').hidden")
        # the notice of where the camera and dice are, on every TV of a game in play
        # elsewhere (a game over has no use for them)
        notice = not at_table and not label.endswith("-over")
        page.wait_for_function("(a) => !document.getElementById('hw-away').hidden === a",
                               arg=notice)
        assert page.evaluate("() => TC.view.hardware.table.here") is at_table, label
        if notice:
            assert "Monasterium" in page.locator("#hw-away").inner_text()
        status = page.locator("#hw-status").inner_text()
        assert status.strip(), "the top bar names the camera and the dice reader"
        for tv in TVS:
            page.set_viewport_size(tv)
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                          "requestAnimationFrame(r)))")
            name = f"tv-whole-{label}-{lang}-{tv['height']}p"
            fit = page.evaluate("() => document.body.dataset.fit")
            found = page.evaluate(SHOWN) + page.evaluate(NOT_WHOLE)
            problems += [f"{name} (type at {fit}): {p}" for p in found]
            if lang in ("de", "es"):
                shot(page, name)
        if lang in ("de", "es"):  # watched on a phone: one column, nothing wider
            page.set_viewport_size(PHONE)
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                          "requestAnimationFrame(r)))")
            name = f"tv-whole-{label}-{lang}-phone"
            problems += [f"{name}: {p}" for p in page.evaluate(NARROW)]
            shot(page, name)
    return problems


def test_every_tv_shows_the_whole_board_in_every_language(server, browser):
    base, games = server
    context = browser.new_context(viewport=TVS[0])
    errors: list = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    problems = []
    for label, (game_id, token) in games.items():
        table_cookie(context, base, game_id, token)
        problems += measure(page, base, game_id, label, at_table=False)
    context.close()
    assert not problems, "\n".join(problems[:60])
    assert not errors, errors


@pytest.mark.parametrize("label", ["pillars-privileges", "wwe-event", "monasterium-roll"])
def test_at_the_table_too(server, browser, label):
    """The camera and the dice reader moved to the game (its host page, with the PIN of the
    game that had them): the top bar says they are ready, no notice, the board whole."""
    base, games = server
    game_id, token = games[label]
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.goto(f"{base}/host/{game_id}?lang=en")
    host.fill("#pin", PIN)
    host.click("#host-login button[type=submit]")
    host.wait_for_selector("#hw-away-panel:not([hidden]) #take-table-pin-field:not([hidden])")
    host.fill("#take-table-pin", PIN)
    host.click("#take-table")
    host.wait_for_function("() => document.getElementById('hw-away-panel').hidden")
    host.context.close()
    context = browser.new_context(viewport=TVS[0])
    table_cookie(context, base, game_id, token)
    page = context.new_page()
    problems = measure(page, base, game_id, label + "-at-table", at_table=True)
    assert page.evaluate("() => TC.view.hardware.camera.state") == "ok"
    context.close()
    assert not problems, "\n".join(problems[:60])


WEBKIT_LANGS = ("es", "de", "pl")


@pytest.mark.parametrize("game", ["pillars", "wwe", "monasterium"])
def test_every_tv_shows_the_whole_board_in_webkit(server, webkit, game):  # noqa: F811
    """Every state and size of the Chromium test above in WebKit, in WEBKIT_LANGS: the TV's
    page in a frame of exactly the TV's size (tests/web/test_webkit_browser.py `framed`)."""
    from tests.web.test_webkit_browser import CATCH, errors_of, framed, phone_frame_shot, until

    base, games = server
    driver = webkit
    driver.get(f"{base}/healthz")
    for game_id, token in games.values():  # each game's paired TV
        driver.add_cookie({"name": f"tc_table_{game_id}", "value": token, "path": "/"})
    handle = framed(driver, base, "/healthz", TVS[0]["width"], TVS[0]["height"])
    problems, errors = [], []
    for label, (game_id, _token) in games.items():
        if not label.startswith(game + "-"):
            continue
        over = label.endswith("-over")
        for lang in WEBKIT_LANGS:
            driver.execute_script("location.href = arguments[0]", f"/table/{game_id}?lang={lang}")
            until(driver, "return location.pathname.endsWith(arguments[0]) && window.TC && "
                          "TC.view && TC.view.role === 'table' && "
                          "document.documentElement.lang === arguments[1]", game_id, lang)
            driver.execute_script(CATCH)
            if driver.execute_script("const b = document.getElementById('lobby-close');"
                                     "return !!b && b.offsetParent !== null"):
                driver.execute_script("document.getElementById('lobby-close').click()")
            # the notice of where the camera and dice are, unless the game is over or has
            # them (test_at_the_table_too may have moved them to it)
            until(driver, "return document.getElementById('join-panel').hidden && "
                          "TC.view.hardware && document.getElementById('hw-away').hidden === "
                          "(arguments[0] || TC.view.hardware.table.here === true)", over)
            for tv in TVS:
                driver.switch_to.default_content()  # the frame takes the TV's size
                driver.execute_script("const f = document.getElementById('phone');"
                                      "f.style.width = arguments[0] + 'px';"
                                      "f.style.height = arguments[1] + 'px';",
                                      tv["width"], tv["height"])
                driver.switch_to.frame(driver.find_element("id", "phone"))
                until(driver, "return innerWidth === arguments[0] && innerHeight === arguments[1]"
                              " && document.body.dataset.fit", tv["width"], tv["height"])
                driver.execute_async_script(  # fitted and painted at this size
                    "const done = arguments[arguments.length - 1];"
                    "requestAnimationFrame(() => requestAnimationFrame(() => done()));")
                name = f"tv-whole-{label}-{lang}-{tv['height']}p"
                fit = driver.execute_script("return document.body.dataset.fit")
                found = driver.execute_script(f"return ({SHOWN})()") + driver.execute_script(
                    f"return ({NOT_WHOLE})()")
                problems += [f"webkit {name} (type at {fit}): {p}" for p in found]
                if lang in ("de", "es"):
                    phone_frame_shot(driver, name, (tv["width"], tv["height"]))
            errors += [f"{label} {lang}: {e}" for e in errors_of(driver)]
    driver.switch_to.window(handle)
    assert not problems, "\n".join(problems[:60])
    assert not errors, errors

"""Issue 69, points 1 and 5, in real chromium against the real server (`companion serve`):
four players, Dario's seat never joined.

- #5 the TV's "Play on without the other phones" is the game's: a reload of the TV does not
  bring the join screen back;
- #1 at Dario's turn the TV shows his seat's join code (QR and link) and that the host may
  play for him; the host page lists his seat first with "Play for Dario"; that opens his
  private screen on the host's device, said plainly; the host's move is logged as played by
  the host on every screen; the other phones never get his screen.

World Without End in German and English, Pillars in Italian and Polish. The games are
played to Dario's turn (random legal moves) before the server starts. Screenshots: the TV
at 1920x1080 and 1280x720, the host's device at 390x844, copied to $H69A_SHOTS when set;
all under test-artifacts/browser/nophone-*.png."""
from __future__ import annotations

import os
import shutil

import pytest

from companion import context
from tests.web.conftest import (
    FIRST_CHOICE,
    PHONE_CONTEXT,
    join_phone,
    play_to,
    running_server,
    screenshots_wanted,
    table_cookie,
)
from tests.web.test_browser import ARTIFACTS, check_filled, shot
from tests.web.test_webkit_browser import display, webkit  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(900)]
PIN = "2468"
NAMES = {"N": "Anna", "E": "Bruno", "S": "Chiara", "W": "Dario"}
# per game: the TV's and the phones' languages, and the host's words on the host's device
LANGS = {"wwe": ("de", "en"), "pillars": ("it", "pl")}
PLAYING_FOR = {"en": "You are playing for Dario: this is Dario's private screen.",
               "de": "Du spielst für Dario: Das ist der private Bildschirm von Dario.",
               "it": "Stai giocando per Dario: questo è lo schermo privato di Dario.",
               "pl": "Grasz za: Dario. To prywatny ekran tego gracza (Dario)."}
HOST_PLAYED = {"en": "Move played by the host for Dario.",
               "de": "Zug vom Gastgeber für Dario gespielt.",
               "it": "Mossa giocata dall'host per Dario.",
               "pl": "Ruch rozegrał gospodarz za gracza: Dario."}
# the first choice this page may send, as its buttons send it (conftest.FIRST_CHOICE)
STEP = FIRST_CHOICE


def dario_owes(module, state) -> bool:
    found = module.prompts(state)
    return bool(found) and all(p.seat == "W" for p in found)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """{game: (game id, table token, {seat: join code})}, each at Dario's turn; "webkit":
    a World Without End game for WebKit, with a table pairing code instead of a token."""
    from companion.app import create_app

    data = tmp_path_factory.mktemp("nophonedata")
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    out = {}
    for game in (*LANGS, "webkit"):
        players = [{"seat": s, "name": n} for s, n in NAMES.items()]
        live = service.create("wwe" if game == "webkit" else game,
                              {"players": players, "seed": 5}, PIN, to_table=False)
        play_to(service, live, dario_owes, seed=3)
        out[game] = (live.id, service.access.new_table_pairing(live.id) if game == "webkit"
                     else service.access.new_table_token(live.id),
                     service.store.join_codes(live.id))
    service.store.close()
    log = tmp_path_factory.mktemp("nophonelog") / "server.log"
    with running_server(data, log, "--no-hardware", "--threads", "40") as base:
        yield base, out


def keep(name: str) -> None:
    """A screenshot also where the issue's notes want it (H69A_SHOTS), when set."""
    folder = os.environ.get("H69A_SHOTS")
    if folder and screenshots_wanted():
        os.makedirs(folder, exist_ok=True)
        shutil.copy(ARTIFACTS / f"{name}.png", os.path.join(folder, f"{name}.png"))


def snap(page, name: str, whole: bool = True) -> None:
    """The page (``whole``: all of it, else what the screen shows) saved and read."""
    if whole:
        shot(page, name)
    else:
        if screenshots_wanted():
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
        check_filled(page, name)
    keep(name)


def host_login(browser, base: str, game_id: str, lang: str, errors: list):
    """The host's phone (390x844) logged in with the PIN, on the host page."""
    page = browser.new_context(**PHONE_CONTEXT).new_page()
    page.on("pageerror", lambda e: errors.append(f"host: {e}"))
    page.goto(f"{base}/host/{game_id}?lang={lang}")
    page.fill("#pin", PIN)
    page.click("#host-login button[type=submit]")
    page.wait_for_url(f"**/host/{game_id}")
    page.wait_for_function("() => window.TC && window.TC.view")
    return page


@pytest.mark.parametrize("game", list(LANGS))
def test_a_seat_without_a_phone_does_not_block_the_table(browser, tables, game):
    base, made = tables
    game_id, token, codes = made[game]
    tv_lang, phone_lang = LANGS[game]
    errors: list[str] = []
    context_tv = browser.new_context(viewport={"width": 1920, "height": 1080})
    table_cookie(context_tv, base, game_id, token)
    tv = context_tv.new_page()
    tv.on("pageerror", lambda e: errors.append(f"tv: {e}"))
    tv.goto(f"{base}/table/{game_id}?lang={tv_lang}")
    tv.wait_for_function("() => window.TC && window.TC.view")
    phones = {seat: join_phone(browser, base, f"{base}/join/{game_id}/{seat}?code={codes[seat]}",
                               seat, errors, phone_lang) for seat in "NES"}

    # 5: three of four joined; the table plays on without Dario's phone, and a reload of
    # the TV keeps it so (before: the join screen came back with every reload)
    assert tv.locator("#join-panel").is_visible()
    tv.click("#lobby-close")
    tv.wait_for_function("() => document.getElementById('join-panel').hidden")
    tv.wait_for_function("() => TC.view.play_on === true")
    tv.reload()
    tv.wait_for_function("() => window.TC && window.TC.view")
    assert tv.locator("#join-panel").is_hidden()

    # 1: Dario's turn: the TV shows his seat's join code and that the host may play for him
    box = tv.locator("#turn-join")
    box.wait_for(state="visible")
    assert box.get_attribute("data-seat") == "W"
    assert box.locator(".turn-join-qr svg").count() == 1
    assert f"/join/{game_id}/W?code=" in box.inner_text()
    assert "Dario" in box.inner_text()
    snap(tv, f"nophone-{game}-tv-1080-{tv_lang}")
    tv.set_viewport_size({"width": 1280, "height": 720})
    tv.wait_for_timeout(300)
    inside = tv.evaluate("""() => { const r = document.getElementById('turn-join')
      .getBoundingClientRect(); return r.left >= 0 && r.top >= 0 && r.right <= innerWidth
      && r.bottom <= innerHeight; }""")
    assert inside, "the join code at Dario's turn is cut at 1280x720"
    snap(tv, f"nophone-{game}-tv-720-{tv_lang}")

    # the host page says it and offers to play for him; his screen, said plainly
    host = host_login(browser, base, game_id, phone_lang, errors)
    row = host.locator("#no-phone li[data-seat=W]")
    row.wait_for(state="visible")
    assert row.get_attribute("data-turn") == "1"
    assert host.locator("#no-phone li").first.get_attribute("data-seat") == "W"
    snap(host, f"nophone-{game}-host-{phone_lang}")
    host.click("#play-for-W")
    host.wait_for_url(f"**/host/{game_id}/play/W")
    host.wait_for_function("() => window.TC && window.TC.view && TC.view.seat === 'W'")
    assert host.evaluate("() => TC.view.by_host") is True
    assert PLAYING_FOR[phone_lang] in host.locator("#host-plays").inner_text()
    snap(host, f"nophone-{game}-host-plays-{phone_lang}", whole=False)
    box = host.locator("#host-plays").bounding_box()
    assert box["height"] < 844 / 5, "the host's note takes the phone's screen"
    tv.wait_for_function("() => TC.view.players.some(p => p.seat === 'W' && p.host_plays)")
    snap(tv, f"nophone-{game}-tv-720-host-plays-{tv_lang}")

    before = host.evaluate(STEP)
    assert before is not None, "no move for Dario on the host's device"
    tv.wait_for_function("v => TC.view.version > v", arg=before, timeout=15000)
    tv.wait_for_function("t => TC.view.log.some(e => e.text === t)", arg=HOST_PLAYED[tv_lang])
    phones["N"].wait_for_function("v => TC.view.version > v", arg=before)
    assert phones["N"].evaluate("t => TC.view.log.some(e => e.text === t)",
                                HOST_PLAYED[phone_lang])
    tv.set_viewport_size({"width": 1920, "height": 1080})
    snap(tv, f"nophone-{game}-tv-1080-after-{tv_lang}")
    # nobody else ever had Dario's screen: each phone's own, none by the host
    for seat, page in phones.items():
        assert page.evaluate("() => [TC.view.seat, TC.view.by_host]") == [seat, False]
    assert errors == []


def test_no_phone_in_webkit(tables, webkit):  # noqa: F811 (the fixture)
    """The same in WebKit (iPhones, the Pi's kiosk): the TV (a 1280x720 frame) keeps the
    table playing on through a reload and shows Dario's join code at his turn; the host's
    phone (390x844) plays for him, said plainly, and the TV's log says so."""
    from tests.web.test_webkit_browser import (
        CATCH,
        errors_of,
        framed,
        phone_frame_shot,
        to_phone,
        until,
    )

    base, made = tables
    game_id, pairing, codes = made["webkit"]
    driver = webkit
    driver.get(f"{base}/table/{game_id}/pair?code={pairing}")  # the cookie, then framed
    until(driver, "return window.TC && TC.view")
    tv = framed(driver, base, f"/table/{game_id}?lang=es", 1280, 720)
    until(driver, "return window.TC && TC.view && TC.view.role === 'table'")
    driver.execute_script(CATCH)
    driver.find_element("id", "lobby-close").click()
    until(driver, "return TC.view.play_on === true")
    driver.execute_script("location.reload()")
    until(driver, "return window.TC && TC.view && TC.view.role === 'table'")
    driver.execute_script(CATCH)
    assert driver.execute_script("return document.getElementById('join-panel').hidden")
    until(driver, "return !document.getElementById('turn-join').hidden")
    assert driver.execute_script(
        "return document.querySelectorAll('#turn-join .turn-join-qr svg').length") == 1
    assert "Dario" in driver.find_element("id", "turn-join").text
    phone_frame_shot(driver, "nophone-tv-720-es", (1280, 720))
    keep_webkit("nophone-tv-720-es")

    host = framed(driver, base, f"/host/{game_id}?lang=es", 390, 844)
    driver.find_element("id", "pin").send_keys(PIN)
    driver.find_element("css selector", "#host-login button[type=submit]").click()
    until(driver, "return window.TC && TC.view && TC.view.role === 'host'")
    until(driver, "return !!document.getElementById('play-for-W')")
    driver.find_element("id", "play-for-W").click()
    until(driver, "return location.pathname.endsWith('/play/W') && window.TC && TC.view"
                  " && TC.view.seat === 'W' && TC.view.by_host === true")
    driver.execute_script(CATCH)
    assert ("Estás jugando por Dario: esta es la pantalla privada de Dario."
            in driver.find_element("id", "host-plays").text)
    phone_frame_shot(driver, "nophone-host-plays-es")
    keep_webkit("nophone-host-plays-es")
    sent = driver.execute_script("return (" + STEP + ")()")
    assert sent is not None
    to_phone(driver, tv)
    until(driver, "return TC.view.log.some(e => e.text === arguments[0])",
          "Jugada hecha por el anfitrión en nombre de Dario.")
    assert errors_of(driver) == []
    to_phone(driver, host)
    assert errors_of(driver) == []


def keep_webkit(name: str) -> None:
    keep_as = f"webkit-{name}"
    folder = os.environ.get("H69A_SHOTS")
    if folder and screenshots_wanted():
        os.makedirs(folder, exist_ok=True)
        shutil.copy(ARTIFACTS / f"{keep_as}.png", os.path.join(folder, f"{keep_as}.png"))

"""Issue 46 #3, #5, #6 in real chromium (and the TV's page in WebKit) against the real server:

- #3 the games list says a game the host ended early is "ended early" and ranks no one
  (beside a game finished by its rules, ranked);
- #5 a TV pairing link opened after its 10 minutes says it expired and where the host makes
  a new one, on the TV and on a phone-sized screen (not the phone's "scan your seat's code");
- #6 a new game asks whether to play it at the table now; from a game in play the camera
  and dice move only with that game's host PIN (a wrong or missing PIN changes nothing).

Games are made on the data before the server starts (a pairing code aged in the SQLite
file). Screenshots at TV and phone size, English, German and Polish:
test-artifacts/browser/doors-*.png (WebKit: webkit-doors-*.png)."""
from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from companion import context
from tests.web.conftest import play_to, running_server
from tests.web.test_browser import shot
from tests.web.test_webkit_browser import display, webkit  # noqa: F401 - fixtures

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(900)]
PIN = "1357"  # the host PIN of the game at the table
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
PLAYERS = [{"seat": s, "name": n} for s, n in zip("NES", ("Uwe", "Eva", "Sven"), strict=True)]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A World Without End game at the table (PIN 1357), one ended early by its host, one
    finished by its rules, and two pairing codes of the first made 11 minutes ago."""
    from companion.app import create_app

    data = tmp_path_factory.mktemp("doorsdata")
    (data / "config.json").write_text('{"dice": {"emulator_http_port": 0}}')
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    early = service.create("monasterium", {"players": PLAYERS}, "2468")
    service.end(early.id)  # in its first round: nobody won
    done = service.create("monasterium", {"players": PLAYERS[:2], "seed": 3}, "2468")
    play_to(service, done, lambda m, s: m.is_over(s), seed=3)
    playing = service.create("wwe", {"players": PLAYERS}, PIN)
    assert service.access.at_table() is playing
    codes = [service.access.new_table_pairing(playing.id) for _ in range(3)]
    # a game of its own for more expired links (a device gets 5 failed pairings a minute)
    other = service.create("pillars", {"players": PLAYERS}, "2468", to_table=False)
    codes += [service.access.new_table_pairing(other.id) for _ in range(2)]
    service.store.close()
    made = (datetime.now(UTC) - timedelta(minutes=11)).isoformat()
    with sqlite3.connect(data / "companion.sqlite3") as db:
        db.execute("UPDATE tokens SET created = ? WHERE role = 'pairing'", (made,))
    log = tmp_path_factory.mktemp("doorslog") / "server.log"
    env = dict(os.environ, COMPANION_DICE_EMULATE="on")
    with running_server(data, log, "--threads", "20", env=env) as base:
        yield base, {"early": early.id, "done": done.id, "playing": playing.id,
                     "other": other.id, "pairing": codes}


def test_the_games_list_says_ended_early_and_ranks_no_one(server, browser):
    base, games = server
    page = browser.new_context(viewport=TV).new_page()
    for lang, early_word, finished_word in (("en", "ended early", "finished"),
                                            ("pl", "zakończona przedwcześnie", "zakończona")):
        page.goto(f"{base}/?lang={lang}")
        early = page.locator(f'tr[data-game="{games["early"]}"]')
        assert early.locator(".game-state").inner_text() == early_word
        result = early.locator(".game-result").inner_text()
        assert "1." not in result and "Uwe" in result and "Eva" in result, result
        done = page.locator(f'tr[data-game="{games["done"]}"]')
        assert done.locator(".game-state").inner_text() == finished_word
        assert "1. " in done.locator(".game-result").inner_text()  # by its rules: ranked
        for size, name in ((TV, "tv"), (PHONE, "phone")):
            page.set_viewport_size(size)
            # the whole list on the screen's width: nothing to scroll sideways on a phone
            wide = page.evaluate("() => Math.max(document.documentElement.scrollWidth, ...["
                                 "...document.querySelectorAll('#games td, #games th')]"
                                 ".map(e => e.getBoundingClientRect().right))")
            assert wide <= size["width"] + 1, f"{lang} {name}: the list is {wide} px wide"
            shot(page, f"doors-games-list-{lang}-{name}")
        page.set_viewport_size(TV)
    page.context.close()


def test_an_expired_pairing_link_says_so_and_where_to_make_a_new_one(server, browser):
    base, games = server
    for (lang, expired, where), (game, code), size in (
            (("en", "This pairing link has expired", "Pair the table display"),
             ("playing", games["pairing"][0]), TV),
            (("de", "Dieser Kopplungslink ist abgelaufen", "Tischanzeige koppeln"),
             ("playing", games["pairing"][1]), PHONE),
            (("es", "Este enlace de emparejamiento ha caducado", "Emparejar la pantalla"),
             ("other", games["pairing"][3]), PHONE)):
        page = browser.new_context(viewport=size).new_page()
        answer = page.goto(f"{base}/table/{games[game]}/pair?code={code}&lang={lang}")
        assert answer.status == 403
        message = page.locator("#page-error").inner_text()
        assert expired in message and where in message, message
        assert page.locator("#pair-host-url").inner_text().endswith(f"/host/{games[game]}")
        text = page.locator("main").inner_text()
        assert "QR" in text and where in text
        assert "seat" not in text.lower() and "platz" not in text.lower()  # not a phone's
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
        shot(page, f"doors-pairing-expired-{lang}-{'tv' if size is TV else 'phone'}")
        # used once already: it does not work either, and says so
        again = page.goto(f"{base}/table/{games[game]}/pair?code={code}&lang={lang}")
        assert again.status == 403
        page.click("#watch-board")  # the board still shows, watched
        page.wait_for_function("() => window.TC && TC.view && TC.view.role === 'viewer'")
        page.context.close()


def test_an_expired_pairing_link_in_webkit(server, webkit):  # noqa: F811
    from tests.web.test_webkit_browser import shot as webkit_shot

    base, games = server
    driver = webkit
    driver.set_window_size(1920, 1080)
    driver.get(f"{base}/table/{games['playing']}/pair?code={games['pairing'][2]}&lang=pl")
    message = driver.find_element("id", "page-error").text
    assert "Ten link parowania wygasł" in message and "Sparuj ekran stołu" in message, message
    assert driver.find_element("id", "pair-host-url").text.endswith(
        f"/host/{games['playing']}")
    webkit_shot(driver, "doors-pairing-expired-pl-tv")
    # on a phone-sized screen, in German: the same words, nothing wider than the screen
    from tests.web.test_webkit_browser import framed, phone_frame_shot

    framed(driver, base, f"/table/{games['other']}/pair?code={games['pairing'][4]}&lang=de",
           390, 844)
    message = driver.find_element("id", "page-error").text
    assert "Dieser Kopplungslink ist abgelaufen" in message, message
    assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
    phone_frame_shot(driver, "doors-pairing-expired-de-phone")


def new_game_form(browser, base: str, lang: str):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{base}/new?game=monasterium&lang={lang}")
    page.fill("#name_N", "Ala")
    page.fill("#name_E", "Ola")
    page.fill("#host_pin", "8642")
    return page


def test_a_new_game_asks_and_takes_the_camera_only_with_the_hosts_pin(server, browser):
    base, games = server
    page = new_game_form(browser, base, "de")
    # the question, with the game that has them: "not now" chosen, its PIN asked for "now"
    question = page.locator("#at-table")
    assert "Die Tore der Welt" in question.inner_text() and "Uwe, Eva, Sven" in (
        question.inner_text())
    # a title after a German preposition is quoted ("bei Die Tore der Welt" read as broken)
    assert "bei „Die Tore der Welt“" in question.inner_text(), question.inner_text()
    assert page.locator("#at_table_later").is_checked()
    shot(page, "doors-new-game-asks-de-phone")
    page.check("#at_table_now")
    page.click("#create-game")  # no PIN: nothing made, nothing moves
    page.wait_for_selector("#page-error")
    assert "Nur ihr Gastgeber" in page.locator("#page-error").inner_text()
    assert page.input_value("#name_N") == "Ala"  # the form keeps what was typed
    page.fill("#host_pin", "8642")
    page.check("#at_table_now")
    page.fill("#table_pin", "9999")
    page.click("#create-game")
    page.wait_for_selector("#page-error")
    assert "PIN ist falsch" in page.locator("#page-error").inner_text()
    shot(page, "doors-new-game-wrong-pin-de-phone")
    listed = page.context.new_page()
    listed.goto(f"{base}/?lang=en")
    assert listed.locator("tr[data-game]").count() == 4  # none was made
    listed.close()
    page.fill("#host_pin", "8642")
    page.check("#at_table_now")
    page.fill("#table_pin", PIN)
    page.click("#create-game")
    page.wait_for_url("**/host/**")
    made = page.url.rstrip("/").split("/")[-1]
    page.wait_for_function("() => window.TC && TC.view && TC.view.hardware.table.here")
    # the game that had them says where they are now
    tv = browser.new_context(viewport=TV).new_page()
    tv.goto(f"{base}/table/{games['playing']}?lang=en")
    tv.wait_for_function("() => window.TC && TC.view && !document.getElementById('hw-away')"
                         ".hidden")
    assert "Monasterium (Ala, Ola)" in tv.locator("#hw-away").inner_text()
    shot(tv, "doors-the-old-game-says-where-en-tv")

    # "not now": made, and the camera stays with the new one
    later = new_game_form(browser, base, "en")
    assert later.locator("#at_table_later").is_checked()
    later.click("#create-game")
    later.wait_for_url("**/host/**")
    later.wait_for_function("() => window.TC && TC.view && TC.view.hardware.table.game")
    assert later.evaluate("() => TC.view.hardware.table.game") == made
    shot(later, "doors-new-game-not-now-host-en-phone")
    for p in (page, tv, later):
        p.context.close()

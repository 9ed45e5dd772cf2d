"""The camera and dice serve the game at the table, in the browser: the real server with an
emulated dice reader, two games each with its paired TV. The game that is not at the table
says so on its TV, its phones and its host page (in the page's language), promises no
reading, and its host moves the table to it with one button; the host's "End the game" is
answered (no false "No answer from the server") and the game, ended in its first round, is
in history as ended early, with no winner. "Your turn" sits at the top of every game's
phone. Screenshots at TV and phone size in English, German and Polish under
test-artifacts/browser/."""
from __future__ import annotations

import os

import pytest

from tests.web.conftest import join_phone, new_table, running_server
from tests.web.test_browser import shot

PIN = "2468"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("tabledata")
    (data / "config.json").write_text('{"dice": {"emulator_http_port": 0}}')
    log = tmp_path_factory.mktemp("tablelog") / "server.log"
    env = dict(os.environ, COMPANION_DICE_EMULATE="on")
    with running_server(data, log, "--threads", "20", env=env) as base:
        yield base


def host_page(browser, base: str, game: str, lang: str, errors: list):
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.on("pageerror", lambda e: errors.append(f"host: {e}"))
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{base}/host/{game}?lang={lang}")
    page.fill("#pin", PIN)
    page.click("#host-login button[type=submit]")
    page.wait_for_function("() => window.TC && window.TC.view")
    return page


def away_text(page) -> str:
    return page.evaluate("() => { const e = document.getElementById('hw-away');"
                         " return e && e.offsetParent !== null ? e.textContent : ''; }")


def test_the_game_not_at_the_table_says_where_the_hardware_is(server, browser):
    base = server
    errors: list = []
    mon_tv, mon_links, mon = new_table(browser, base, "monasterium",
                                       {"N": "Anna", "E": "Bruno"}, PIN, errors)
    mon_tv.click("#lobby-close")
    wwe_tv, _links, wwe = new_table(browser, base, "wwe",
                                    {"N": "Chiara", "E": "Dario", "S": "Emma"}, PIN, errors)
    # pairing World Without End's TV put it at the table: Monasterium's screens say so
    mon_tv.wait_for_function("() => !document.getElementById('hw-away').hidden")
    assert "World Without End" in away_text(mon_tv)
    assert "Play this game at the table" in away_text(mon_tv)
    status = mon_tv.locator("#hw-status").inner_text()
    assert "with the game at the table" in status and "ready" not in status
    steps = mon_tv.locator("#table-steps").inner_text()
    assert "World Without End" in steps and "records the roll." not in steps
    shot(mon_tv, "table-game-01-tv-not-at-the-table-en")
    assert wwe_tv.locator("#hw-away").is_hidden()
    assert "ready" in wwe_tv.locator("#hw-status").inner_text()

    phone = join_phone(browser, base, mon_links["N"], "N", errors, lang="de")
    phone.wait_for_function("() => !document.getElementById('hw-away').hidden")
    text = away_text(phone)
    assert "Diese Partie am Tisch spielen" in text and "Die Tore der Welt" in text
    shot(phone, "table-game-02-phone-not-at-the-table-de")

    # Monasterium's host moves the table to it: every screen of both games follows
    host = host_page(browser, base, mon, "de", errors)
    host.wait_for_function("() => !document.getElementById('hw-away-panel').hidden")
    # what keeps screens awake on plain http: said on the host page
    host.click("#wake-note summary")
    note = host.locator("#wake-note").inner_text()
    assert "localhost" in note and "Ruhezustand" in note and "verbindet sich" in note
    shot(host, "table-game-03-host-take-the-table-de")
    # World Without End is in play: without its host's PIN nothing moves (issue 46 #6)
    assert host.locator("#take-table-pin-field").is_visible()
    host.click("#take-table")
    host.wait_for_function("() => { const e = document.getElementById('toast');"
                           " return e && !e.hidden; }")
    assert "Nur ihr Gastgeber" in host.locator("#toast").inner_text()
    assert not host.locator("#hw-away-panel").is_hidden()
    host.fill("#take-table-pin", PIN)
    host.click("#take-table")
    host.wait_for_function("() => document.getElementById('hw-away-panel').hidden")
    mon_tv.wait_for_function("() => document.getElementById('hw-away').hidden")
    assert "ready" in mon_tv.locator("#hw-status").inner_text()
    phone.wait_for_function("() => document.getElementById('hw-away').hidden")
    wwe_tv.wait_for_function("() => !document.getElementById('hw-away').hidden")
    assert "Monasterium" in away_text(wwe_tv)
    shot(wwe_tv, "table-game-04-tv-table-moved-away-en")

    phone.wait_for_selector("#setup-pieces:not([hidden]) li", timeout=15000)
    # Anna rolls first: her phone says "your dice", not "the dice of Anna"
    phone.wait_for_selector("#my-prompt.my-turn .turn-what")
    what = phone.locator("#my-prompt .turn-what").inner_text()
    assert "Wirf deine Würfel" in what and "Anna" not in what, what
    pieces = phone.locator("#setup-pieces")
    assert pieces.get_attribute("open") is not None  # open while the table sets up
    host.click("#table-steps .step-fallback")  # "Let the app roll": the first action
    phone.wait_for_function("() => TC.view.version > 0")
    # play has begun: the starting pieces fold away to one line at the bottom (issue 32 #15)
    phone.wait_for_function("() => !document.getElementById('setup-pieces').open")
    assert pieces.is_visible() and pieces.locator("li").first.is_hidden()
    below = phone.evaluate("""() => document.getElementById('setup-pieces')
      .getBoundingClientRect().top >= Math.max(...[...document.querySelectorAll(
      '.closed-hide section.panel:not([hidden])')].map(e => e.getBoundingClientRect().bottom))""")
    assert below, "the folded pieces are not below every panel"
    pieces.locator("summary").click()  # still there to look up
    assert pieces.locator("li").first.is_visible()
    pieces.locator("summary").click()
    # Anna places first: "Your turn" at the top of her phone, as in every game
    phone.wait_for_selector("#my-prompt.my-turn .turn-big")
    assert phone.locator("#my-prompt .turn-big").inner_text() == "Du bist dran"
    top = phone.evaluate("() => document.getElementById('my-prompt').getBoundingClientRect().top")
    assert top < 250, top
    titles = phone.eval_on_selector_all(".die.personal", "els => els.map(e => e.title)")
    assert titles and all("Anna" in x or "Bruno" in x for x in titles), titles  # not "N"
    shot(phone, "table-game-05-phone-playing-de")

    # the host ends the game: it is answered, not "No answer from the server"
    host.click("#end")
    host.wait_for_function("() => document.body.dataset.conn === 'closed'")
    phone.wait_for_function("() => document.body.dataset.conn === 'closed'")
    host.wait_for_function("() => { const e = document.getElementById('toast');"
                           " return e && !e.hidden && /info|error/.test(e.className); }")
    toast = host.locator("#toast")
    assert "info" in toast.get_attribute("class"), toast.inner_text()  # "Done.", no error
    shot(host, "table-game-06-host-ended-de")
    # ended in year 1, round 1: history keeps it as ended early, no winner, in prestige
    host.goto(f"{base}/host/{mon}/history?lang=de")
    section = host.locator(f'.history-game[data-game="{mon}"]')
    assert section.get_attribute("data-ended-early") == "yes"
    assert "Vorzeitig beendet" in section.inner_text() and "★" not in section.inner_text()
    assert "Prestige" in section.locator("thead").inner_text()
    shot(host, "table-game-07-history-ended-early-de")
    assert not errors, errors


def test_pillars_phone_says_your_turn_at_the_top(server, browser):
    """The Pillars of the Earth: the player who owes a decision reads "Your turn" and what to
    do at the top of the phone, in the seat's colour, like World Without End's; the other
    phone says who is awaited."""
    from tests.web.conftest import table_and_phones
    from tests.web.test_rules_cited_browser import play_until

    errors: list = []
    table, phones, _game = table_and_phones(
        browser, server, "pillars", {"N": ("Anna", "en"), "E": ("Bruno", "pl")}, PIN, errors,
        start="N")
    # before the round's cards are out the TV does not say the supply has "Nothing left."
    table.wait_for_selector(".supply-empty")
    assert table.locator(".supply-empty").first.inner_text() == (
        "The round's cards are being laid out.")
    shot(table, "table-game-10-pillars-tv-preparation-en")
    # the round's preparation (the table's draws), up to the first player's decision
    play_until("pillars", table, {}, "v => (v.prompts || []).some(p => p.seat !== 'table')",
               200)
    version = table.evaluate("() => TC.view.version")
    turn = None
    for seat, page in phones.items():
        page.wait_for_function("v => TC.view && TC.view.version >= v", arg=version)
        if page.evaluate("s => TC.view.prompts.some(p => p.seat === s)", seat):
            turn = seat
    assert turn, "nobody owes a decision"
    page = phones[turn]
    page.wait_for_selector("#my-prompt.my-turn .turn-big")
    assert page.locator("#my-prompt .turn-big").inner_text() == (
        "Your turn" if turn == "N" else "Twoja kolej")
    assert page.locator("#my-prompt .turn-what").inner_text().strip()
    box = page.evaluate("() => document.getElementById('my-prompt').getBoundingClientRect()"
                        ".toJSON()")
    assert box["top"] < 250 and box["height"] > 40, box
    assert page.evaluate("() => document.body.classList.contains('my-turn')")
    other = phones["E" if turn == "N" else "N"]
    assert other.locator("#my-prompt.my-turn").count() == 0
    # the starting pieces are folded away at the bottom once play has begun (issue 32 #15)
    for phone in phones.values():
        phone.wait_for_function("() => document.getElementById('setup-pieces')"
                                ".classList.contains('folded')")
        assert phone.evaluate("() => !document.getElementById('setup-pieces').open")
    shot(page, f"table-game-08-pillars-phone-your-turn-{'en' if turn == 'N' else 'pl'}")
    shot(other, f"table-game-09-pillars-phone-waiting-{'pl' if turn == 'N' else 'en'}")
    assert not errors, errors

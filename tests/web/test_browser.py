"""The whole table in a real browser: Debian's chromium, headless, driven by Playwright.

The real server (`companion serve`, gunicorn) runs in a subprocess on a free port with a
temporary data directory. A table display creates the game through the new-game form, four
phone contexts (separate cookie jars, phone-sized) join through the join links the table
shows, and the phones play a whole chapter through their manual inputs (event card picked
by name, orientation, cards, discards); the table taps in the tax die. Screenshots go to
test-artifacts/browser/ (gitignored).
"""
from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

from tests.web.conftest import ROOT, pair_here, running_server, screenshots_wanted

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]

ARTIFACTS = ROOT / "test-artifacts" / "browser"
PLAYERS = [("N", "Ala", "blue"), ("E", "Bruno", "red"), ("S", "Carmen", "green"),
           ("W", "Dieter", "yellow")]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("data")
    log = tmp_path_factory.mktemp("log") / "server.log"
    with running_server(data, log, "--no-hardware", "--threads", "40") as base:
        yield base


# a template's placeholder left unfilled ("now {after}"): never on a page a player reads
UNFILLED = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def check_filled(page, name: str) -> None:
    """Every screenshot's page is read too: no "{placeholder}" may reach a player."""
    text = page.evaluate("() => document.body ? document.body.innerText : ''")
    left = sorted({m.group(0) for m in UNFILLED.finditer(text)})
    assert not left, f"{name}: unfilled {left} in {text[:2000]!r}"


def shot(page, name: str) -> None:
    if screenshots_wanted():
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    check_filled(page, name)


def view(page) -> dict:
    return page.evaluate("() => window.TC && window.TC.view")


def wait_version_above(page, version: int) -> None:
    page.wait_for_function("v => window.TC.view && window.TC.view.version > v", arg=version,
                           timeout=15000)


def my_turn(page) -> bool:
    """This phone owes a decision, or holds choices (the active seat may act for the table)."""
    msg = view(page)
    if not msg or msg["closed"]:
        return False
    return any(p["seat"] == msg["seat"] for p in msg["prompts"]) or bool(msg["choices"])


def owing_seat(phones: dict, msg: dict) -> str:
    """The first seat whose phone owes a decision in the table's ``msg`` (none: the table
    would wait), once that phone has caught up with it."""
    owing = [s for s, page in phones.items() if my_turn(page)]
    assert owing, f"nobody owes a decision in phase {msg['view']['phase']}"
    phones[owing[0]].wait_for_function("v => TC.view.version >= v", arg=msg["version"])
    return owing[0]


def act_on_phone(phone, name: str, record: dict) -> None:
    """Decide whatever this phone owes, through its screen only."""
    msg = view(phone)
    kinds = {p["kind"] for p in msg["prompts"] if p["seat"] == msg["seat"]}
    kinds |= {c["action"]["type"] for c in msg["choices"]}
    before = msg["version"]
    if "reveal_event" in kinds:
        phone.fill("#event-search", "")
        phone.locator("#event-results button:not([disabled])").first.click()
    elif "orient_event" in kinds:
        buttons = phone.locator("#rotation-buttons button:not(.refused)")
        buttons.first.click()
        phone.locator("#orient .choices button.choice:not([disabled])").first.click()
    elif "play_card" in kinds:
        phone.locator("#play-card .choices button.choice").first.click()
        card = phone.locator("#play-card .row b").first.inner_text()
        select = phone.locator("#discard-select")
        discard = None
        if select.count():
            options = select.locator("option")
            discard = options.nth(1).get_attribute("value")
            select.select_option(discard)
        ids = phone.evaluate(
            "() => { const b = document.querySelector('#play-card .choices "
            "button.choice:not([disabled])'); b.click(); return b.dataset.card; }")
        record.setdefault(name, []).append((ids, discard, card))
    elif "answer_trade" in kinds:
        phone.locator("#trade button.choice:not([disabled])").last.click()
    elif "choose_protection" in kinds:
        phone.locator("#protection button.choice:not([disabled])").first.click()
    elif "roll_tax" in kinds:
        phone.locator("#die-input button").first.click()
    else:
        phone.locator(".choice-group button.choice:not([disabled])").first.click()
    wait_version_above(phone, before)


def test_a_table_plays_a_chapter(server, browser):
    table_ctx = browser.new_context(viewport={"width": 1600, "height": 1000})
    table = table_ctx.new_page()
    errors: list[str] = []
    table.on("pageerror", lambda e: errors.append(f"table: {e}"))

    # New game on the table display (the creator becomes host).
    table.goto(server + "/new?game=wwe")
    for seat, name, colour in PLAYERS:
        table.fill(f"#name_{seat}", name)
        table.select_option(f"#colour_{seat}", colour)
    table.fill("#host_pin", "2468")
    shot(table, "01-new-game")
    table.click("#create-game")
    table.wait_for_url("**/host/**")
    game_id = table.url.rstrip("/").split("/")[-1]
    shot(table, "02-host")
    pair_here(table, server, game_id)
    table.wait_for_function("() => window.TC && window.TC.view")
    links = {a.get_attribute("data-seat"): a.get_attribute("href")
             for a in table.locator("a.join-link").all()}
    assert sorted(links) == ["E", "N", "S", "W"]
    assert table.locator(".join-card svg").count() == 4, "a join QR code per seat"
    shot(table, "03-table-join")

    # Four phones join through the links (path and code; the host part is the LAN address).
    phones = {}
    for seat, name, _colour in PLAYERS:
        ctx = browser.new_context(**PHONE)
        page = ctx.new_page()
        page.on("pageerror", lambda e, s=seat: errors.append(f"{s}: {e}"))
        parts = urlsplit(links[seat])
        page.goto(f"{server}{parts.path}?{parts.query}")
        page.wait_for_url("**/play/**")
        page.wait_for_function("() => window.TC && window.TC.view")
        assert page.locator("#me-name").inner_text() == name
        phones[seat] = page
    table.wait_for_function("() => TC.view.players.every(p => p.connected)")
    shot(table, "04-table-all-joined")

    # Play chapter I: every decision through the phones; the table taps in the tax die.
    played: dict[str, list] = {}
    for _step in range(400):
        msg = view(table)
        v = msg["view"]
        if v["chapter"] == 2:
            break
        if v["phase"] == "roll_tax":
            # Before the chapter-end: each phone shows only its own cards.
            for seat, page in phones.items():
                page.wait_for_function("v => TC.view.version >= v", arg=msg["version"])
                check_only_own_cards(page, seat, played.get(seat, []))
                shot(page, f"10-phone-{seat}-chapter-end")
            shot(table, "11-table-before-tax")
            table.locator("#die-input button").first.click()
            wait_version_above(table, msg["version"])
            continue
        seat = owing_seat(phones, msg)
        if v["phase"] == "orient_event" and v["round"] == 1:
            # Tapping an orientation previews it on the table: every seat's income, the
            # favor move and its landing space.
            phones[seat].click("#rotation-buttons button[data-rotation='2']")
            table.wait_for_function("() => TC.view.preview && TC.view.preview.rotation === 2")
            assert table.locator(".player-card .preview").count() == 4
            assert table.locator(".favor-space.target").count() == 1
            shot(phones[seat], "05-phone-orient")
            shot(table, "05-table-orient-preview")
        if v["phase"] == "play_card" and v["round"] == 2 and seat == v["active"]:
            shot(phones[seat], "06-phone-play-card")
            phones[seat].locator("#play-card .choices button.choice").first.click()
            shot(phones[seat], "07-phone-card-options")
            phones[seat].click("#card-back")
        if v["phase"] == "play_card" and v["round"] == 3 and seat == v["active"]:
            shot(table, "08-table-round-3")
        act_on_phone(phones[seat], seat, played)
        table.wait_for_function("v => TC.view.version >= v", arg=view(phones[seat])["version"])
    else:
        pytest.fail("chapter I did not end")

    msg = view(table)
    assert msg["view"]["chapter"] == 2 and msg["view"]["round"] == 1
    assert table.locator("#chapter-summary").is_visible(), "the chapter-end summary shows"
    summary = table.locator("#chapter-summary").inner_text()
    for _seat, name, _colour in PLAYERS:
        assert name in summary
    shot(table, "12-table-chapter-summary")
    # the VP chart's legend gives the scores after the chapter end, not those before
    legend = table.locator("#vp-chart .row").inner_text()
    for seat, name, _colour in PLAYERS:
        assert f"{name} {msg['view']['seats'][seat]['vp']}" in legend, legend
    for seat, page in phones.items():
        page.wait_for_function("v => TC.view.version >= v", arg=msg["version"])
        # each phone shows its own chapter-end breakdown (paid, missing, VP lost), only its own
        rows = page.locator("#my-summary [data-seat]")
        assert rows.count() == 1 and rows.first.get_attribute("data-seat") == seat
        # the tax the die asked, and how the VP lost add up (1 Grain × 2 + 2 Piety × 3)
        tax = next(e["params"]["value"] for e in reversed(msg["log"])
                   if e["type"] == "tax_rolled")
        assert page.locator("#my-summary .tax-due td").inner_text().startswith(str(tax))
        lost = page.locator("#my-summary .vp-lost").inner_text()
        short = {k: v for k, v in (
            next(e["params"]["short"] for e in reversed(msg["log"])
                 if e["type"] == "duties_paid" and e["params"]["seat"] == seat)).items() if v}
        per = {"piety": 3, "grain": 2, "gold": 1}
        assert lost.split(" ")[0] == str(sum(n * per[k] for k, n in short.items())), lost
        assert ("=" in lost) == bool(short) and lost.count("×") == len(short), lost
        assert page.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")
        forecast = page.locator("#forecast").inner_text()
        assert not re.search(r"lose (\d+) to \1 VP", forecast), forecast
        # All 12 cards back in hand; Penance (a piety shortfall) discards one at random.
        in_hand = page.locator("#hand [data-pile=hand]").count()
        discarded = page.locator("#hand [data-pile=discards]").count()
        penance = "penance" in msg["view"]["seats"][seat]["round_flags"]
        assert (in_hand, discarded) == ((11, 1) if penance else (12, 0))
        shot(page, f"13-phone-{seat}-chapter-2")

    # Language choice on a phone: the page and its messages switch to Polish.
    east = phones["E"]
    east.select_option("#lang-select", "pl")
    east.wait_for_url("**lang=pl**")
    east.wait_for_function("() => window.TC && window.TC.view && TC.view.lang === 'pl'")
    assert "w ręce" in east.locator("#hand").inner_text()
    assert "Za moją zasłonką" in east.locator("main").inner_text()
    shot(east, "13-phone-E-polish")
    # An illegal action is refused with the reason in the phone's language; nothing changes.
    version = view(east)["version"]
    ack = east.evaluate("() => TC.act({type: 'play_card', card: 'grain', discard: null, "
                        "params: {}, perform: true})")
    assert ack["ok"] is False and ack["message"]
    from engine.wwe.reasons import REASONS
    assert ack["message"] != REASONS.get(ack["code"]), "translated"
    assert east.locator("#toast").inner_text().startswith(ack["message"])  # then "Why?"
    assert view(east)["version"] == version

    # A refresh gives back the same seat, never a new player.
    phones["S"].reload()
    phones["S"].wait_for_function("() => window.TC && window.TC.view")
    assert view(phones["S"])["seat"] == "S"
    assert phones["S"].locator("#me-name").inner_text() == "Carmen"

    # A dropped socket: "reconnecting" only after the grace period, back on visibilitychange.
    north = phones["N"]
    north.evaluate("() => TC.socket.disconnect()")
    assert north.evaluate("() => document.body.dataset.conn") == "ok", "no banner at once"
    north.wait_for_function("() => document.body.dataset.conn === 'reconnecting'")
    assert north.locator("#conn-status").is_visible()
    north.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    north.wait_for_function("() => document.body.dataset.conn === 'ok'")

    # Host controls: a correction with a reason shows in the log and on the phone; undo.
    host = table_ctx.new_page()
    host.on("dialog", lambda d: d.accept())
    host.goto(f"{server}/host/{game_id}")
    host.wait_for_function("() => window.TC && window.TC.view")
    gold = view(north)["view"]["private"]["resources"]["gold"]
    before = view(north)["version"]
    host.select_option("#adj-seat", "N")
    host.select_option("#adj-item", "gold")
    host.fill("#adj-delta", "2")
    host.fill("#adj-reason", "coins found under the board")
    host.click("#adjust-form button[type=submit]")
    wait_version_above(north, before)
    assert view(north)["view"]["private"]["resources"]["gold"] == gold + 2
    table.wait_for_function("() => document.getElementById('log').textContent"
                            ".includes('coins found under the board')")
    host.wait_for_function("() => document.getElementById('last-actions').textContent"
                           ".includes('coins found under the board')")
    shot(host, "15-host-after-correction")
    host.click("#undo-1")
    north.wait_for_function("v => TC.view.version === v", arg=before)
    assert view(north)["view"]["private"]["resources"]["gold"] == gold

    # Pause and resume: the phones show the pause and offer no action meanwhile.
    host.click("#pause")
    north.wait_for_function("() => document.body.dataset.paused === 'yes'")
    assert north.locator(".paused-banner").is_visible()
    assert north.locator("#act-now button").count() == 0
    host.click("#resume")
    north.wait_for_function("() => document.body.dataset.paused === 'no'")

    # The host ends the game: every phone shows the closed state.
    host.click("#end")
    for page in phones.values():
        page.wait_for_function("() => document.body.dataset.conn === 'closed'")
    assert phones["N"].locator("#closed-state").is_visible()
    shot(phones["N"], "16-phone-closed")
    assert not errors, errors


def check_only_own_cards(page, seat: str, mine: list) -> None:
    """The phone shows the cards this seat played and discarded, and its messages carry no
    other seat's private data."""
    msg = view(page)
    assert msg["seat"] == seat and msg["view"]["seat"] == seat
    for other, data in msg["view"]["seats"].items():
        assert not ({"resources", "hand", "discards", "private"} & set(data)), other
    played = page.eval_on_selector_all("#hand [data-pile=played]",
                                       "els => els.map(e => e.dataset.card)")
    discarded = page.eval_on_selector_all("#hand [data-pile=discards]",
                                          "els => els.map(e => e.dataset.card)")
    assert played == [card for card, _d, _n in mine]
    assert discarded == [d for _c, d, _n in mine if d]


def finished_record() -> dict:
    """A whole game played by the engine's random legal actions (fast, no browser)."""
    import random

    from companion.box.catalog import load_catalog
    from engine import record
    from engine.wwe import GAME

    setup = {"players": [{"seat": s, "name": n, "colour": c} for s, n, c in PLAYERS],
             "seed": 7}
    state = GAME.setup(load_catalog("wwe"), setup)
    rnd = random.Random(3)
    actions = []
    while not state["over"]:
        action = GAME.random_action(state, rnd)
        state, _events = GAME.apply(state, action)
        actions.append(action)
    return record.build("wwe", setup, actions), GAME.scores(state)


def test_an_imported_finished_game_shows_final_scores_in_polish(server, browser, tmp_path):
    rec, scores = finished_record()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(rec))
    ctx = browser.new_context(viewport={"width": 1600, "height": 1000})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/?lang=pl")
    page.click("details summary")
    page.set_input_files("#record", str(path))
    page.fill("#import-pin", "1357")
    page.click("details form button[type=submit]")
    page.wait_for_url("**/host/**")
    game_id = page.url.rstrip("/").split("/")[-1]
    page.goto(f"{server}/table/{game_id}")  # any screen may watch the final scores
    page.wait_for_selector("#final-scores")
    rows = page.eval_on_selector_all("#final-scores tbody tr",
                                     "els => els.map(e => e.dataset.seat)")
    assert rows == [r["seat"] for r in scores]
    text = page.locator("#final-scores").inner_text()
    assert "Wyniki końcowe" in text and "Pobożność" in text  # Polish, tie-breakers named
    assert page.evaluate("() => document.body.dataset.conn") == "finished"
    # Polish plural forms chosen by Intl.PluralRules from the server's CLDR forms.
    plural = page.evaluate("() => [0, 1, 2, 5, 22].map(n => TC.t('houses_n', {n: n}))")
    assert plural == ["0 domów", "1 dom", "2 domy", "5 domów", "22 domy"]
    assert "0 kart w ręce" in page.locator("#players").inner_text()
    log = page.locator("#log").inner_text()
    assert "(obowiązki)" in log and "(duties)" not in log, "why VP were lost, in Polish"
    shot(page, "20-table-final-scores-pl")
    page.goto(server + "/")
    assert page.locator(f"tr[data-game='{game_id}']").inner_text().count(".") >= 4
    shot(page, "21-games-list")
    assert not errors, errors


def test_host_controls_need_the_pin(server, browser):
    creator = browser.new_context().new_page()
    creator.goto(server + "/new?game=wwe")
    creator.fill("#name_N", "Ala")
    creator.fill("#name_S", "Bo")
    creator.fill("#host_pin", "8642")
    creator.click("#create-game")
    creator.wait_for_url("**/host/**")
    game_id = creator.url.rstrip("/").split("/")[-1]

    other = browser.new_context(**PHONE).new_page()
    other.goto(f"{server}/host/{game_id}?lang=de")
    assert other.locator("#host-login").is_visible()
    assert other.locator("#undo-1").count() == 0, "no host controls without the PIN"
    other.fill("#pin", "1111")
    other.click("#host-login button[type=submit]")
    assert other.locator("#page-error").inner_text() == "Die PIN ist falsch."
    other.fill("#pin", "8642")
    other.click("#host-login button[type=submit]")
    other.wait_for_selector("#undo-1")
    other.wait_for_function("() => window.TC && window.TC.view && TC.view.role === 'host'")
    shot(other, "22-host-after-pin-de")

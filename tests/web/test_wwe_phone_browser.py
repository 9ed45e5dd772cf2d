"""Issue 32, World Without End's phone at 390x844 in real chromium (points 4, 7 and 8):

- an action that will be lost is said before the tap, with its cause and its "Why?" (the
  Royal Court on Anna's English phone, King Edward III's war on Bartek's Polish one), and
  the phone offers only which card to give up; the log says the action was lost and why;
- the chapter-end box shows the tax, the income of the new chapter's first round and how
  the VP loss adds up; the log says what was handed in and what was missing;
- a card that cannot be carried out has one "play it without carrying it out" control; the
  missing face-down card is said beside its list, never in a toast over the buttons; the
  choices dock takes at most 40% of the screen and folds away so the log's "Why?" can be
  read.

The games reach their positions by importing a record played in-process (the engine's own
actions: passive plays, the host's corrections of holdings, a chosen event card).
Screenshots: test-artifacts/browser/wwe32-*.png (phones 390x844, the TV 1920x1080)."""
from __future__ import annotations

import json

import pytest

from companion.box.catalog import load_catalog
from engine import record as engine_record
from engine.wwe import GAME
from tests.engine.wwe_helpers import head, passive
from tests.web.conftest import join_phone, pair_here, running_server
from tests.web.test_accessibility_browser import check as a11y
from tests.web.test_browser import server, shot  # noqa: F401 (server is a fixture)
from tests.web.test_rules_cited_browser import expected, words
from tests.web.test_table_experience_browser import phone_shot

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]
PIN = "2468"
PLAYERS = (("N", "Anna", "blue"), ("S", "Bartek", "red"))


class Recorder:
    """A game played in-process, action by action, for a record to import."""

    def __init__(self, seed: int = 5, catalog: dict | None = None, players=PLAYERS):
        self.setup = {"players": [{"seat": s, "name": n, "colour": c} for s, n, c in players],
                      "seed": seed}
        self.state = GAME.setup(catalog or load_catalog("wwe"), self.setup)
        self.actions: list[dict] = []

    def do(self, action: dict) -> None:
        self.state, _events = GAME.apply(self.state, action)
        self.actions.append(action)

    def until(self, kind: str) -> None:
        while head(self.state)["kind"] != kind:
            self.do(passive(self.state))

    def hold(self, seat: str, **wanted: int) -> None:
        """The host corrects ``seat``'s holdings to ``wanted`` (an `adjust` each)."""
        player = self.state["players"][seat]
        for item, n in wanted.items():
            have = player["vp"] if item == "vp" else player["res"][item]
            if n != have:
                self.do({"type": "adjust", "by": "host", "seat": seat, "item": item,
                         "delta": n - have})

    def record(self) -> dict:
        return engine_record.build("wwe", self.setup, self.actions)


def chapter_two_under_king_edward() -> dict:
    """Chapter I ends with Anna short of 2 piety, 1 grain and the whole tax (tax die 2: she
    goes to the Royal Court, and begs), Bartek paying all; chapter II opens with "King
    Edward III goes to war against France": Bartek loses his action to the war, Anna, spared
    the war (§5.5), loses hers to the Royal Court."""
    rec = Recorder()
    rec.until("roll_tax")
    rec.hold("N", piety=0, grain=1, gold=0, loyalty=0, vp=20)
    rec.hold("S", piety=2, grain=2, gold=4, loyalty=0)
    rec.do({"type": "roll_tax", "by": "table", "value": 2})
    rec.until("reveal_event")
    rec.do({"type": "reveal_event", "by": "table", "card": "king_edward_iii"})
    rec.until("play_card")
    return rec.record()


LONG_NAMES = (("N", "Annaowski", "blue"), ("E", "Bartekowski", "red"),
              ("S", "Christineowski", "green"), ("W", "Dieterowski", "yellow"))


def chapter_end_four_short() -> dict:
    """Four long-named players each short of piety, grain and gold at chapter I's end (tax
    die 4): the chapter-end box at its fullest, three chips in a row and three punishments
    a player (tests/web/test_table_experience_browser.py, test_webkit_browser.py)."""
    rec = Recorder(players=LONG_NAMES)
    rec.until("roll_tax")
    rec.hold("N", piety=1, grain=0, gold=1, loyalty=0)
    rec.hold("E", piety=0, grain=1, gold=0, loyalty=1)
    rec.hold("S", piety=1, grain=1, gold=1, loyalty=0)
    rec.hold("W", piety=0, grain=0, gold=2, loyalty=0)
    rec.do({"type": "roll_tax", "by": "table", "value": 4})
    rec.until("reveal_event")
    return rec.record()


def import_game(browser, base: str, rec: dict, tmp_path, errors: list):
    """The record imported on the games page, this browser paired as the table (a TV)."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(rec))
    table = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    table.on("pageerror", lambda e: errors.append(f"table: {e}"))
    table.goto(base + "/")
    table.click("text=Import a game record")
    table.set_input_files("#record", str(path))
    table.fill("#import-pin", PIN)
    table.locator("form[action='/games/import'] button[type=submit]").click()
    table.wait_for_url("**/host/**")
    game_id = table.url.rstrip("/").split("/")[-1]
    pair_here(table, base, game_id)
    table.wait_for_function("() => window.TC && window.TC.view")
    return table


def join(browser, base: str, table, seat: str, lang: str, errors: list):
    """``seat``'s phone joins through the link the table shows, in ``lang``."""
    link = table.locator(f"a.join-link[data-seat={seat}]").get_attribute("href")
    return join_phone(browser, base, link, seat, errors, lang)


def t(page, key: str, **params) -> str:
    return page.evaluate("([k, p]) => TC.t(k, p)", [key, params])


def not_covered(page, selector: str) -> bool:
    """The element's centre is the element itself (or inside it): nothing lies over it."""
    return page.evaluate("""s => {
      const e = document.querySelector(s), r = e.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !!top && (top === e || e.contains(top));
    }""", selector)


def give_up_on_phone(page, table, lang: str, cause: str, rule_lang: str, name: str) -> str:
    """The seat owing the play sees its action is lost, why (cited), and gives up a card
    (and a face-down one, unless Penance already took it)."""
    page.wait_for_selector("#action-lost")
    banner = page.locator("#my-prompt").inner_text()
    assert t(page, "your_turn") in banner and t(page, "action_lost_give_up") in banner, banner
    assert t(page, "play_a_card") not in banner
    lost = page.locator("#action-lost")
    assert cause in lost.inner_text(), lost.inner_text()
    why = lost.locator("details.rule-why > summary")
    assert why.inner_text() == t(page, "why")
    why.click()
    ref, text = expected("wwe", rule_lang, "lost_action")
    assert words(lost.locator(".rule-text").inner_text()) == words(f"{ref} {text}")
    # only which card to give up: no "Perform it", no way that claims an effect
    texts = page.locator("#act-now").inner_text()
    assert t(page, "perform") not in texts and t(page, "play_without_performing") not in texts
    page.evaluate("() => window.scrollTo(0, 0)")  # the band at the top, the dock below
    phone_shot(page, f"wwe32-{name}-lost-{lang}")
    a11y(page, f"wwe32-{name}-lost-{lang}")
    first = page.locator("#play-card .choices button.choice").first
    card = first.get_attribute("data-card")
    first.click()
    give_up = page.locator("#give-up")
    assert give_up.count() == 1 and t(page, "perform") not in page.locator("#act-now").inner_text()
    version = table.evaluate("() => TC.view.version")
    if page.locator("#discard-select").count():
        # no face-down card chosen yet: said beside its list; nothing covers the button
        give_up.click()
        page.wait_for_selector("#discard-needed")
        phone_shot(page, f"wwe32-{name}-discard-needed-{lang}")
        assert page.locator("#toast").is_hidden()
        assert page.evaluate("() => document.activeElement.id") == "discard-select"
        assert not_covered(page, "#give-up")
        options = page.locator("#discard-select option:not([value=''])")
        page.select_option("#discard-select", options.first.get_attribute("value"))
    page.locator("#give-up").click()
    table.wait_for_function("v => TC.view.version > v", arg=version)
    return card


def box_shot(page, selector: str, name: str) -> None:
    """The phone with ``selector`` in sight, the choices dock folded away if there is one
    (and unfolded again after the screenshot)."""
    folded = page.locator("#dock-fold").count() > 0
    if folded:
        page.locator("#dock-fold").click()
        page.wait_for_selector("#act-now.folded")
    page.locator(selector).scroll_into_view_if_needed()
    phone_shot(page, name)
    if folded:
        page.locator("#dock-fold").click()
        page.wait_for_selector("#act-now:not(.folded)")


def check_chapter_end_box(table, phones) -> None:
    """Point 7: each phone's box of chapter I's end: the tax, how the VP loss adds up (the
    engine's VP per missing unit), chapter II's first income (none for Anna: Begging); the
    log says what was handed in and what was missing."""
    anna, bartek = phones["N"], phones["S"]
    box = anna.locator("#my-summary")
    box.wait_for()
    assert box.locator(".tax-due td").inner_text().startswith("2 gold")
    # 2 piety × 3 + 1 grain × 2 + 2 gold × 1 (shared/rules §5.4)
    # each count in its plural form (issue 46 #13): "2 monety × 1" on a Polish phone
    assert box.locator(".vp-lost").inner_text() == "10 = 2 piety × 3 + 1 grain × 2 + 2 gold × 1"
    assert box.locator("tr.income th").inner_text() == "Income, chapter II round 1"
    assert box.locator("tr.income td").inner_text() == "none (Begging)"
    box_shot(anna, "#my-summary", "wwe32-N-chapter-end-box-en")
    pl = bartek.locator("#my-summary")
    assert pl.locator(".vp-lost").inner_text() == "0"
    assert bartek.evaluate("() => [1, 2, 5].map(n => WWE.amount('gold', n))") == [
        "1 monetę", "2 monety", "5 monet"]
    assert pl.locator("tr.income th").inner_text() == "Dochód, rozdział II runda 1"
    income = bartek.evaluate("""() => TC.view.log.filter(e => e.type === 'income'
                                && e.params.seat === 'S').length""")
    assert income and pl.locator("tr.income td .item").count() >= 1
    box_shot(bartek, "#my-summary", "wwe32-S-chapter-end-box-pl")
    anna.evaluate("() => { document.getElementById('log').closest('details').open = true; }")
    log = anna.locator("#log").inner_text()
    assert "Anna hands in for the duties: Grain 1; missing: Piety 2, Grain 1, Gold 2." in log
    assert "Bartek hands in for the duties: Piety 2, Grain 2, Gold 2; missing: nothing." in log
    assert "paid the duties" not in log
    polish = bartek.evaluate("() => TC.view.log.map(e => e.text).join('\\n')")
    assert "Anna oddaje na zobowiązania: Zboże 1; brakuje:" in polish, polish


def test_a_lost_action_is_said_before_the_tap(server, browser, tmp_path):  # noqa: F811
    errors: list[str] = []
    table = import_game(browser, server, chapter_two_under_king_edward(), tmp_path, errors)
    phones = {"N": join(browser, server, table, "N", "en", errors),
              "S": join(browser, server, table, "S", "pl", errors)}
    table.wait_for_function("() => document.getElementById('join-panel').hidden")
    # the TV says beside each seat that its action is lost, and what takes it
    assert tv_lost(table) == {"N": "✗ Action lost this round: Royal Court",
                              "S": "✗ Action lost this round: King Edward III goes to war "
                                   "against France"}
    shot(table, "wwe32-tv-lost-actions-en")
    # the chapter-end table beside the cards fits its column on a 720p TV too
    table.set_viewport_size({"width": 1280, "height": 720})
    assert table.evaluate("""() => { const p = document.getElementById('chapter-summary');
      return p.querySelector('table').getBoundingClientRect().right
             <= p.getBoundingClientRect().right; }"""), "the chapter-end table is cut off"
    shot(table, "wwe32-tv-lost-actions-en-720p")
    table.set_viewport_size({"width": 1920, "height": 1080})
    check_chapter_end_box(table, phones)
    # Anna also does Penance (her face-down card was drawn at random): she gives up only
    # the face-up one; Bartek chooses his face-down card too
    causes = {"N": ("en", "Royal Court", "en", "royal_court"),
              "S": ("pl", "Król Edward III", "pl", "king_edward_iii")}
    done = []
    for _ in range(2):
        seat = table.evaluate("() => TC.view.prompts[0].seat")
        lang, cause, rule_lang, logged = causes[seat]
        page = phones[seat]
        other = phones["S" if seat == "N" else "N"]
        # the other phone waits: no warning there
        other.wait_for_function("v => TC.view.version >= v",
                                arg=table.evaluate("() => TC.view.version"))
        assert other.locator("#action-lost").count() == 0
        card = give_up_on_phone(page, table, lang, cause, rule_lang, seat)
        # the log: the card went down, the action was lost, and why
        entry = table.evaluate("""seat => TC.view.log.filter(e => e.type === 'action_lost'
                                   && e.params.seat === seat).pop()""", seat)
        assert entry["params"]["card"] == card and entry["params"]["cause"] == logged
        assert entry["rule"] == "lost_action"
        done.append(seat)
    assert sorted(done) == ["N", "S"]
    assert phones["N"].locator("#discard-select").count() == 0
    log = table.locator("#log").inner_text()
    assert "action of Anna is lost (Royal Court)" in log, log
    assert "action of Bartek is lost (King Edward III" in log, log
    shot(table, "wwe32-tv-after-lost-actions")
    assert not errors, errors


def covered_share(page, selector: str) -> float:
    """How much of the element's height the choices dock covers (0: none, 1: all)."""
    return page.evaluate("""s => {
      const r = document.querySelector(s).getBoundingClientRect();
      const d = document.getElementById('act-now').getBoundingClientRect();
      if (!r.height) return 1;
      const over = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, d.top));
      return d.height ? over / r.height : 0;
    }""", selector)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_one_control_for_a_card_played_for_nothing_and_a_dock_that_folds(
        server, browser, tmp_path, lang):  # noqa: F811
    """Chapter I, round 1: Rent with no house cannot be carried out."""
    errors: list[str] = []
    rec = Recorder()
    rec.until("play_card")
    assert head(rec.state)["seat"] == "N" and not rec.state["players"]["N"]["houses"]
    table = import_game(browser, server, rec.record(), tmp_path, errors)
    page = join(browser, server, table, "N", lang, errors)
    bartek = join(browser, server, table, "S", lang, errors)
    table.wait_for_function("() => document.getElementById('join-panel').hidden")
    page.wait_for_selector("#play-card")
    height = page.evaluate("() => innerHeight")
    dock = page.locator("#act-now")
    assert dock.bounding_box()["height"] <= 0.4 * height + 1

    page.locator("#play-card button.choice[data-card=rent]").click()
    without = t(page, "play_without_performing")
    buttons = page.locator("#act-now button.choice")
    labels = buttons.all_inner_texts()
    assert sum(1 for x in labels if x.startswith(without)) == 1, labels
    idle = page.locator("#act-now button.choice[data-idle=yes]")
    assert idle.count() == 1 and idle.inner_text().startswith(without)
    # the reason it does nothing, before any tap (Rent needs a house of one's own)
    why = page.evaluate("""() => TC.view.choices.find(c => c.action.card === 'rent'
                             && c.effect.no_effect).effect.no_effect.message""")
    assert t(page, "does_nothing", why=why) in idle.inner_text()

    # tapped (and confirmed) before the face-down card is chosen: said under the list, in
    # the dock; no toast; the button stays in sight and one tap sends once it is chosen
    idle.click()
    assert idle.inner_text().startswith(t(page, "confirm_does_nothing"))
    idle.click()
    page.wait_for_selector("#discard-needed")
    phone_shot(page, f"wwe32-phone-discard-needed-{lang}")
    assert page.locator("#toast").is_hidden()
    assert not_covered(page, "#act-now button.choice[data-idle=yes]")
    assert not_covered(page, "#discard-select")
    page.select_option("#discard-select", page.locator(
        "#discard-select option:not([value=''])").first.get_attribute("value"))
    version = table.evaluate("() => TC.view.version")
    page.locator("#act-now button.choice[data-idle=yes]").click()
    table.wait_for_function("v => TC.view.version > v", arg=version)
    entry = table.evaluate("() => TC.view.log.filter(e => e.params.seat === 'N').pop()")
    assert entry["type"] in ("card_no_effect", "card_discarded"), entry

    # Bartek's turn now: on his phone, the log's "Why?" under a dock that folds away.
    page = bartek
    page.wait_for_selector("#play-card")
    assert page.locator("#act-now").bounding_box()["height"] <= 0.4 * height + 1
    page.evaluate("() => { document.getElementById('log').closest('details').open = true; }")
    why = page.locator("#log li details.rule-why > summary").first
    why.scroll_into_view_if_needed()
    why.click()
    page.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")
    text = "#log li details.rule-why[open] .rule-text"
    page.wait_for_selector(text)
    page.locator("#dock-fold").click()
    page.wait_for_function("() => document.getElementById('act-now').classList.contains('folded')")
    assert page.locator("#act-now").bounding_box()["height"] < 80
    page.locator(text).first.scroll_into_view_if_needed()
    assert covered_share(page, text) == 0
    phone_shot(page, f"wwe32-phone-dock-folded-{lang}")
    a11y(page, f"wwe32-phone-dock-folded-{lang}")
    page.locator("#dock-fold").click()
    page.wait_for_selector("#play-card")
    assert page.locator("#dock-fold").get_attribute("aria-expanded") == "true"
    phone_shot(page, f"wwe32-phone-dock-{lang}")
    table.goto(table.url.split("?")[0] + f"?lang={lang}")  # the TV in the test's language
    table.wait_for_function("() => window.TC && window.TC.view")
    shot(table, f"wwe32-tv-round-1-{lang}")
    assert not errors, errors


def tv_lost(table) -> dict:
    """{seat: the TV's lost-action line} for every seat that shows one."""
    return table.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#players .player-card')].filter(c => c.querySelector('.action-lost')).map(
        c => [c.dataset.seat, c.querySelector('.action-lost').innerText]))""")


# An owner's card (the deck's override folder): a permanent event whose `lose_action` takes
# the action of the player who was active at its reveal (the catalog's "who": "active",
# engine/wwe/effects.py seats_for) every round it is in force. No round flag says so.
THIEF_TEXT = {"en": "While in force: the active player at its reveal loses every round's "
                    "action.",
              "it": "Finché è in vigore: il giocatore attivo alla sua rivelazione perde "
                    "l'azione di ogni turno.",
              "pl": "Dopóki obowiązuje: gracz aktywny w chwili odkrycia traci akcję każdej "
                    "rundy."}


@pytest.fixture(scope="module")
def owner_server(tmp_path_factory):
    """A server with the owner's permanent lose-action card; yields (base URL, catalog)."""
    data = tmp_path_factory.mktemp("data")
    card = next(e for e in load_catalog("wwe")["event_cards"] if e["id"] == "demo_feast")
    card.update(permanent=True, text=THIEF_TEXT,
                effects=[{"type": "lose_action", "who": "active"}])
    folder = data / "catalogs" / "wwe"
    folder.mkdir(parents=True)
    (folder / "event_cards.json").write_text(json.dumps([card]))
    log = tmp_path_factory.mktemp("log") / "server.log"
    with running_server(data, log, "--no-hardware", "--threads", "40") as base:
        yield base, load_catalog("wwe", data)


def test_the_tv_says_whose_action_a_permanent_card_takes(owner_server, browser, tmp_path):
    """Follow-up to point 4: a permanent card's `lose_action` sets no round flag, yet the TV
    says beside the seat it hits that this round's action is lost and which card takes it,
    in the TV's language: in round 2 too, though the start player has moved on; the other
    seat plays as usual."""
    base, catalog = owner_server
    rec = Recorder(catalog=catalog)
    rec.until("reveal_event")
    rec.do({"type": "reveal_event", "by": "table", "card": "demo_feast"})
    rec.until("play_card")
    rounds = {1: (rec.record(), rec.state["active"])}
    while not (rec.state["round"] == 2 and head(rec.state)["kind"] == "play_card"):
        rec.do(passive(rec.state))
    assert rec.state["active"] != rounds[1][1]  # the start player moved on
    rounds[2] = (rec.record(), rounds[1][1])  # the card still takes the same seat's action
    lines = {"it": "✗ Azione persa in questo turno: Demo: Banchetto",
             "pl": "✗ Akcja utracona w tej rundzie: Demo: Uczta"}
    errors: list[str] = []
    for (n, (record, start)), lang in zip(rounds.items(), ("it", "pl"), strict=True):
        table = import_game(browser, base, record, tmp_path, errors)
        table.goto(table.url.split("?")[0] + f"?lang={lang}")
        table.wait_for_function("n => window.TC && TC.view && TC.view.view.round === n", arg=n)
        assert tv_lost(table) == {start: lines[lang]}
        assert "⚑" not in table.locator(f".player-card[data-seat={start}]").inner_text()
        shot(table, f"wwe32-tv-permanent-lost-round-{n}-{lang}")
        a11y(table, f"wwe32-tv-permanent-lost-round-{n}-{lang}")
        table.context.close()
    assert not errors, errors


def test_chapter_one_into_two_in_polish_and_italian(server, browser, tmp_path):  # noqa: F811
    """Follow-up point 3: chapter I into chapter II played on the phones only, Anna's in
    Polish and Bartek's in Italian, the TV in Polish: no raw code on any screen at any step
    (tests/web/test_table_experience_browser.py check_words), every phase's first screens
    kept (test-artifacts/browser/wwe32-play-*.png)."""
    from tests.web.test_browser import act_on_phone, owing_seat, view, wait_version_above
    from tests.web.test_table_experience_browser import check_words

    errors: list[str] = []
    table = import_game(browser, server, Recorder().record(), tmp_path, errors)
    phones = {"N": join(browser, server, table, "N", "pl", errors),
              "S": join(browser, server, table, "S", "it", errors)}
    table.wait_for_function("() => document.getElementById('join-panel').hidden")
    table.goto(table.url.split("?")[0] + "?lang=pl")
    table.wait_for_function("() => window.TC && window.TC.view")
    seen: set[str] = set()
    played: dict = {}
    for _step in range(300):
        msg = view(table)
        v = msg["view"]
        if v["chapter"] == 2 and v["phase"] == "play_card":
            break
        check_words(table, f"TV, {v['phase']}")
        if v["phase"] == "roll_tax":
            table.locator("#die-input button").first.click()
            wait_version_above(table, msg["version"])
            continue
        seat = owing_seat(phones, msg)
        phone = phones[seat]
        check_words(phone, f"phone {seat}, {v['phase']}")
        key = f"{v['chapter']}-{v['phase']}"
        if key + seat not in seen:  # each phone's first screen of each phase
            seen.add(key + seat)
            phone_shot(phone, f"wwe32-play-{key}-{seat}")
        if key not in seen:
            seen.add(key)
            shot(table, f"wwe32-play-{key}-tv-pl")
        act_on_phone(phone, seat, played)
        table.wait_for_function("v => TC.view.version >= v", arg=view(phone)["version"])
    else:
        pytest.fail("chapter II did not start")
    for seat, page in phones.items():
        page.wait_for_function("v => TC.view.version >= v", arg=view(table)["version"])
        check_words(page, f"phone {seat}, chapter II")
        phone_shot(page, f"wwe32-play-2-start-{seat}")
    shot(table, "wwe32-play-2-start-tv-pl")
    assert not errors, errors

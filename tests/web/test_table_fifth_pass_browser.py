"""Issue 69's points 2, 3, 4, 6, 7, 8, 9 and 11 (the table experience, fifth pass), in real
chromium against the real server, the TV and phone ones in WebKit too:

- #2 Pillars' workers in phase I as the table has them: free, placed and at the mill, on
  the TV's player cards and the phone (Anna put 5 on Forest 4: 7 free, 5 placed; Chiara
  passed: her 12 at the mill), TV 1920x1080 and 1280x720, phones 390x844, in Italian and
  Polish (German and Spanish on the TV too);
- #3 World Without End's VP chart keeps round 1 in round 2 (it starts at the game's first
  VP and goes through each round's end), its legend whole at 1280x720;
- #4 the TV's player cards show only this round's "played: …";
- #6 the Pillars phone's header writes gold in the form its count asks for ("20 złota");
- #7 the log says "die Gunst der Königin" (the name with its article and case);
- #8 English labels capitalised in Monasterium (the resources, prestige, "Column A") and
  in Pillars' correction list (Gold, Wood ...), as World Without End's are;
- #9 the phone that chose the event card's turn still has its "Confirm" after a reload;
- #11 "Because the works…" listed among the permanent events in round 1 already.

The games are imported or made on the data before the server starts. Screenshots:
test-artifacts/browser/fifth69-*.png."""
from __future__ import annotations

import pytest

from companion import context
from engine import record as engine_record
from tests.web.conftest import joined_phone, paired_tv, running_server
from tests.web.test_browser import shot
from tests.web.test_table_experience_browser import phone_shot, resize
from tests.web.test_webkit_browser import display, webkit  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(900)]
PIN = "2468"
TV = {"width": 1920, "height": 1080}
TV_SMALL = {"width": 1280, "height": 720}
PILLARS_PLAYERS = (("N", "Anna"), ("E", "Bartek"), ("S", "Chiara"))
MATERIALS = ["wood_2", "wood_3", "wood_4", "stone_2", "stone_3", "stone_4", "sand_2"]


def pillars_draft() -> dict:
    """Pillars' phase I of round 1: Anna puts 5 workers on Forest 4, Bartek 2 on Gravel pit
    2, Chiara passes ("my other workers go to the mill"); Anna's turn again."""
    from companion.box.catalog import load_catalog
    from engine.pillars import GAME

    setup = {"players": [{"seat": s, "name": n} for s, n in PILLARS_PLAYERS], "seed": 1,
             "start_seat": "N"}
    craftsmen = GAME.setup(load_catalog("pillars"), setup)["cat"]["craftsmen_by_round"]["1"]
    actions = [{"type": "reveal_privilege", "by": "table", "card": c} for c in ("gold_8", "vp_2")]
    actions += [{"type": "reveal_craftsman", "by": "table", "card": c} for c in craftsmen]
    actions += [{"type": "reveal_material", "by": "table", "card": c} for c in MATERIALS]
    actions += [{"type": "take_material", "by": "N", "card": "wood_4"},
                {"type": "take_material", "by": "E", "card": "sand_2"},
                {"type": "pass", "by": "S"}]
    return engine_record.build("pillars", setup, actions)


def wwe_round_one() -> dict:
    """World Without End, round 1: the table reveals "Because the works…" (a permanent
    event, in force from now: wool sells for 1), its turn chosen."""
    from tests.web.test_wwe_phone_browser import Recorder

    rec = Recorder()
    rec.until("reveal_event")
    rec.do({"type": "reveal_event", "by": "table", "card": "because_the_works"})
    rec.until("play_card")
    return rec.record()


def wwe_round_two() -> dict:
    """Round 1 played with Anna at 12 VP (a host's correction), round 2's event card
    revealed: its turn is to be chosen on the start player's phone."""
    from tests.web.test_wwe_phone_browser import Recorder

    rec = Recorder()
    rec.until("reveal_event")
    rec.do({"type": "reveal_event", "by": "table", "card": "because_the_works"})
    rec.hold("N", vp=12)
    rec.until("reveal_event")
    assert rec.state["round"] == 2
    reveal = next(c for c in sorted(rec.state["cat"]["events"])
                  if not rec.state["cat"]["events"][c].get("permanent")
                  and rec.state["cat"]["events"][c].get("chapter") in (None, 1)
                  and _legal(rec, c))
    rec.do({"type": "reveal_event", "by": "table", "card": reveal})
    assert rec.state["queue"][0]["kind"] == "orient_event", rec.state["queue"][0]
    return rec.record()


def _legal(rec, card: str) -> bool:
    from engine.api import Refused
    from engine.wwe import GAME

    try:
        GAME.apply(rec.state, {"type": "reveal_event", "by": "table", "card": card})
    except Refused:
        return False
    return True


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """(base, {label: (id, table token, {seat: join code})}) for the games above and a
    Monasterium of two."""
    from companion.app import create_app
    from tests.web.test_wwe_phone_browser import PIN as RECORD_PIN

    data = tmp_path_factory.mktemp("fifth69data")
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    games = {}
    for label, record in (("pillars", pillars_draft()), ("wwe1", wwe_round_one()),
                          ("wwe2", wwe_round_two())):
        live = service.import_record(record, RECORD_PIN)
        games[label] = (live.id, service.access.new_table_token(live.id),
                        service.store.join_codes(live.id))
    mona = service.create("monasterium", {"players": [{"seat": "N", "name": "Uwe"},
                                                      {"seat": "S", "name": "Eva"}],
                                          "seed": 3}, PIN, to_table=False)
    games["mona"] = (mona.id, service.access.new_table_token(mona.id),
                     service.store.join_codes(mona.id))
    service.store.close()
    log = tmp_path_factory.mktemp("fifth69log") / "server.log"
    with running_server(data, log, "--threads", "20") as base:
        yield base, games


def tv(browser, base: str, games: dict, label: str, lang: str, errors: list, size=TV):
    game_id, token, _codes = games[label]
    return paired_tv(browser, base, game_id, token, lang, errors, size)


JOINED: dict = {}  # (game id, seat) -> the phone's cookies once joined (a code is for one)


def phone(browser, base: str, games: dict, label: str, seat: str, lang: str, errors: list):
    game_id, _token, codes = games[label]
    return joined_phone(browser, base, game_id, seat, codes[seat], lang, errors, JOINED)


def workers_said(page, seat: str) -> str:
    return page.locator(f".player-card[data-seat='{seat}'] .workers").inner_text()


WORKERS = {  # what each seat's line says: 12 each; Anna 5 placed, Bartek 2, Chiara passed
    "it": {"N": "Lavoratori: 12 · liberi: 7 · piazzati: 5 · al mulino: 0",
           "S": "Lavoratori: 12 · liberi: 0 · piazzati: 0 · al mulino: 12"},
    "pl": {"N": "Robotnicy: 12 · wolni: 7 · na kartach: 5 · w młynie: 0",
           "S": "Robotnicy: 12 · wolni: 0 · na kartach: 0 · w młynie: 12"},
    "de": {"N": "Arbeiter: 12 · frei: 7 · eingesetzt: 5 · in der Mühle: 0",
           "S": "Arbeiter: 12 · frei: 0 · eingesetzt: 0 · in der Mühle: 12"},
    "es": {"N": "Trabajadores: 12 · libres: 7 · colocados: 5 · en el molino: 0",
           "S": "Trabajadores: 12 · libres: 0 · colocados: 0 · en el molino: 12"},
    "en": {"N": "Workers: 12 · free: 7 · placed: 5 · at the mill: 0",
           "S": "Workers: 12 · free: 0 · placed: 0 · at the mill: 12"},
}


GENITIVE = {"outlaws": "der Geächteten", "queen": "der Königin", "prior": "des Priors",
            "guild": "der Zunft", "prioress": "der Priorin", "merchants": "der Kaufleute",
            "king": "des Königs", "earl": "des Grafen von Shiring", "bishop": "des Bischofs"}


@pytest.mark.parametrize("lang", ["it", "pl", "de", "es"])
def test_pillars_workers_free_placed_and_at_the_mill(server, browser, lang):
    """#2 on the TV at both sizes and (it, pl) on Anna's phone; #6 the phone's header."""
    base, games = server
    errors: list = []
    page = tv(browser, base, games, "pillars", lang, errors)
    page.wait_for_selector(".player-card[data-seat='S'] .workers")
    for seat, line in WORKERS[lang].items():
        assert workers_said(page, seat) == line
    # #6 on the TV's cards too: each count's word in its form
    gold = page.locator(".player-card[data-seat='N'] .gold-word").inner_text()
    assert gold == page.evaluate("() => TC.countWord('gold', 20)") and gold != "Złoto"
    shot(page, f"fifth69-pillars-workers-tv-{lang}")
    resize(page, TV_SMALL)
    for seat, line in WORKERS[lang].items():
        assert workers_said(page, seat) == line
    assert page.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight + 1")
    shot(page, f"fifth69-pillars-workers-tv720-{lang}")
    page.context.close()
    if lang in ("it", "pl"):
        anna = phone(browser, base, games, "pillars", "N", lang, errors)
        anna.wait_for_selector("#summary .workers")
        assert anna.locator("#summary .workers").inner_text() == WORKERS[lang]["N"]
        gold = anna.evaluate("() => TC.view.view.mine.gold")
        assert gold == 20
        word = anna.locator("#my-gold-word").inner_text()
        assert word == {"it": "oro", "pl": "złota"}[lang]  # #6: not "20 złoto"
        chip = anna.locator("#summary .item[data-item='gold']").inner_text()
        assert chip.split()[-2:] == ["20", word], chip  # "What I have" counts alike
        wood = anna.locator("#summary .item[data-item='wood']").inner_text()
        assert wood.split()[-1] == anna.evaluate("() => TC.countWord('wood', 0)"), wood
        assert anna.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")
        header = anna.locator(".me-line > div").last.bounding_box()
        assert header["height"] < 60, header  # "20 złota" on one line, not broken after 20
        phone_shot(anna, f"fifth69-pillars-workers-phone-{lang}")
        anna.locator("#summary .workers").scroll_into_view_if_needed()
        phone_shot(anna, f"fifth69-pillars-workers-summary-phone-{lang}")
        anna.context.close()
    assert not errors, errors


def test_wwe_round_two_keeps_round_one_and_this_rounds_cards(server, browser):
    """#3: the chart's lines start at 8 VP, go through round 1's end (Anna's 12) and its
    legend is whole at 1280x720; #4: no player card says round 1's card in round 2."""
    base, games = server
    errors: list = []
    page = tv(browser, base, games, "wwe2", "en", errors)
    page.wait_for_selector("#vp-chart .vp-plot")
    series = page.evaluate("() => TC.view.view.vp_history")
    assert [p["vp"]["N"] for p in series] == [12]
    assert page.evaluate("() => TC.view.view.vp_start") == 8
    # the plotted line: 8 at the start, 12 at round 1's end
    points = page.locator("#vp-chart polyline").first.get_attribute("points").split()
    assert len(points) >= 2, points
    assert page.evaluate("() => TC.view.view.round") == 2
    played = page.locator(".player-card .played")
    assert played.count() == 0, played.all_inner_texts()
    shot(page, "fifth69-wwe-round2-tv")
    for size in (TV_SMALL, TV):  # the legend whole inside the chart's box at both sizes
        resize(page, size)
        legend = page.locator("#vp-chart figure > .row")
        assert legend.is_visible()
        box, fig = legend.bounding_box(), page.locator("#chart-panel").bounding_box()
        assert box["height"] > 8 and box["y"] + box["height"] <= fig["y"] + fig["height"] + 1, (
            size, box, fig)
        assert box["x"] + box["width"] <= fig["x"] + fig["width"] + 1, (size, box, fig)
        assert legend.inner_text().split() == ["Anna", "12", "Bartek", "8"]
        plot = page.locator("#vp-chart .vp-plot").bounding_box()
        assert plot["height"] >= 0.08 * size["height"], (size, plot)  # the lines keep room
    resize(page, TV_SMALL)
    shot(page, "fifth69-wwe-round2-tv720")
    page.context.close()
    assert not errors, errors


def test_wwe_the_turn_chosen_survives_a_reload(server, browser):
    """#9: the start player taps a turn; the TV previews it; after a reload the phone still
    shows that turn chosen and its "Confirm"."""
    base, games = server
    errors: list = []
    table = tv(browser, base, games, "wwe2", "en", errors)
    seat = table.evaluate("() => TC.view.prompts.find(p => p.kind === 'orient_event').seat")
    page = phone(browser, base, games, "wwe2", seat, "de", errors)
    page.wait_for_selector("#orient")
    tiles = page.locator("#orient [data-rotation]")
    assert tiles.count() >= 2
    rotation = int(tiles.nth(1).get_attribute("data-rotation"))
    tiles.nth(1).click()
    confirm = page.locator("#orient .choices button")
    confirm.wait_for()
    said = confirm.inner_text()
    table.wait_for_function("r => TC.view.preview && TC.view.preview.rotation === r",
                            arg=rotation)
    page.reload()
    page.wait_for_function("() => window.TC && TC.view && TC.view.seat")
    page.locator("#orient .choices button").wait_for()
    assert page.locator("#orient .choices button").inner_text() == said
    phone_shot(page, "fifth69-wwe-orient-reloaded-de")
    # #7: confirmed, the favor goes to a person named with article and case in German
    version = page.evaluate("() => TC.view.version")
    page.locator("#orient .choices button").click()
    page.wait_for_function("v => TC.view.version > v && TC.view.log.some(e => e.type === 'favor')",
                           arg=version)
    favor = page.evaluate("() => TC.view.log.filter(e => e.type === 'favor').pop()")
    name = page.evaluate("() => TC.view.players.find(p => p.seat === TC.view.seat).name")
    assert favor["text"] == f"{name} erhält die Gunst {GENITIVE[favor['params']['space']]}."
    assert " von " not in favor["text"] or favor["params"]["space"] == "earl"
    page.context.close()
    table.context.close()
    assert not errors, errors


def test_wwe_permanent_event_in_force_in_round_one(server, browser):
    """#11: "Because the works…" among the permanent events in round 1, on the TV."""
    base, games = server
    errors: list = []
    page = tv(browser, base, games, "wwe1", "en", errors)
    page.wait_for_selector("#permanents")
    assert page.evaluate("() => TC.view.view.round") == 1
    panel = page.locator("#permanents")
    assert panel.locator("[data-card='because_the_works']").count() == 1
    assert "None" not in panel.inner_text()
    shot(page, "fifth69-wwe-permanent-round1-tv")
    page.context.close()
    assert not errors, errors


def test_labels_capitalised_in_english(server, browser):
    """#8: Monasterium's TV labels and the Pillars host's correction list in English."""
    base, games = server
    errors: list = []
    page = tv(browser, base, games, "mona", "en", errors)
    page.wait_for_selector(".space-head")
    heads = page.locator(".space-head").all_inner_texts()
    assert any("Column A" in x for x in heads), heads
    assert not any("column" in x for x in heads), heads
    assert page.evaluate("() => ['influence', 'soup', 'rosary', 'tool', 'book', 'prestige']"
                         ".map(k => MONA.itemName(k))") == [
        "Influence", "Soup", "Rosary", "Tool", "Book", "Prestige"]
    cards = page.locator(".player-card").first.inner_text()
    assert "Road space 1" in cards and "road space" not in cards, cards
    monasteries = page.locator("#monasteries").inner_text()
    assert "Chapel:" in monasteries and "Cloister:" in monasteries, monasteries
    assert "chapel:" not in monasteries and "cloister:" not in monasteries
    shot(page, "fifth69-mona-labels-tv")
    page.context.close()
    game_id = games["pillars"][0]
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.goto(f"{base}/host/{game_id}?lang=en")
    host.fill("#pin", PIN)
    host.click("#host-login button[type=submit]")
    host.wait_for_function("() => document.querySelectorAll('#adj-item option').length > 2")
    labels = host.locator("#adj-item option").all_inner_texts()
    assert "Gold" in labels and "Wood" in labels, labels
    assert all(x[:1] == x[:1].upper() for x in labels), labels
    host.context.close()
    assert not errors, errors


def test_the_tvs_and_a_phone_in_webkit(server, webkit):  # noqa: F811 (the fixture)
    """#2 and #6 on an iPhone's engine: the Polish Pillars TV's workers and Bartek's Polish
    phone (390x844) with its workers and its header; #3, #4 and #11 on World Without End's
    TVs (1280x720 and 1920x1080)."""
    from tests.web.test_webkit_browser import CATCH, errors_of, open_phone, phone_frame_shot, until
    from tests.web.test_webkit_browser import shot as webkit_shot

    base, games = server
    driver = webkit
    driver.set_window_size(1920, 1080)

    def open_tv(label: str, lang: str) -> None:
        game_id, token, _codes = games[label]
        driver.get(f"{base}/healthz")  # the paired TV's cookie (pairing would move the table)
        driver.add_cookie({"name": f"tc_table_{game_id}", "value": token, "path": "/"})
        driver.get(f"{base}/table/{game_id}?lang={lang}")
        driver.execute_script(CATCH)
        until(driver, "return window.TC && TC.view && TC.view.view"
                      " && document.documentElement.lang === arguments[0]", lang)
        if driver.execute_script("const b = document.getElementById('lobby-close');"
                                 "return !!b && b.offsetParent !== null"):
            driver.find_element("id", "lobby-close").click()

    open_tv("pillars", "pl")
    until(driver, "return !!document.querySelector(\".player-card[data-seat='S'] .workers\")")
    for seat, line in WORKERS["pl"].items():
        assert driver.find_element(
            "css selector", f".player-card[data-seat='{seat}'] .workers").text == line
    assert driver.find_element(
        "css selector", ".player-card[data-seat='N'] .gold-word").text == "złota"
    webkit_shot(driver, "fifth69-pillars-workers-tv-pl")
    assert errors_of(driver) == []
    open_tv("wwe2", "en")
    until(driver, "return !!document.querySelector('#vp-chart polyline')")
    assert driver.execute_script("return document.querySelectorAll('.player-card .played')"
                                 ".length") == 0
    driver.set_window_size(1280, 720)
    until(driver, "const r = document.querySelector('#vp-chart figure > .row');"
                  "return r && r.offsetHeight > 8")
    inside = driver.execute_script(
        "const r = document.querySelector('#vp-chart figure > .row').getBoundingClientRect();"
        "const p = document.getElementById('chart-panel').getBoundingClientRect();"
        "return r.bottom <= p.bottom + 1 && r.right <= p.right + 1")
    assert inside
    webkit_shot(driver, "fifth69-wwe-round2-tv720")
    driver.set_window_size(1920, 1080)
    open_tv("wwe1", "en")
    until(driver, "return !!document.querySelector("
                  "\"#permanents [data-card='because_the_works']\")")
    assert errors_of(driver) == []
    game_id, _token, codes = games["pillars"]
    open_phone(driver, base, game_id, "E", codes["E"], "pl")
    until(driver, "return !!document.querySelector('#summary .workers')")
    assert driver.execute_script("return document.querySelector('#summary .workers').innerText"
                                 ) == "Robotnicy: 12 · wolni: 10 · na kartach: 2 · w młynie: 0"
    assert driver.execute_script("return document.getElementById('my-gold-word').innerText"
                                 ) == "złota"
    assert driver.execute_script("return document.querySelector(\"#summary .item[data-item="
                                 "'gold']\").innerText").split()[-2:] == ["21", "złota"]
    phone_frame_shot(driver, "fifth69-pillars-workers-phone-pl")
    assert errors_of(driver) == []

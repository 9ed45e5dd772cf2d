"""The owner's "Your deck" page in real chromium (issue 12), against the real server with a
camera (a folder of synthetic frames showing one event card's printed sticker).

World Without End on a German page: three demo event cards entered through the forms (one
first with a value out of range, refused live with a German message naming the field, then
fixed), one photographed from the camera, the progress line, the export; the export imported
into a fresh data folder with `companion catalog import`, where a game created afterwards
uses the entered cards and a game created before keeps its own. The same page for the toy
game of the plug-in tests. Screenshots: test-artifacts/browser/7*.png.
"""
from __future__ import annotations

import json
import os
import time
import warnings
from pathlib import Path

import cv2
import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from companion import context
from tests.web.conftest import PHONE_CONTEXT, running_server
from tests.web.test_accessibility_browser import check as a11y
from tests.web.test_browser import shot

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(400)]
PIN = "1357"
CARDS = ["because_the_works", "ralph_fitzgerald", "demo_wool_trader"]  # demo cards, chapter I
PHOTO = CARDS[2]
COVERS_ALL = "with_godwyns_help"  # its cover effect: "all_other_projects"


def sticker_frames(folder: Path) -> None:
    """The board marker and one event card with its sticker, steady (the camera's view)."""
    from hardware.synthetic.scene import Camera, Placement
    from hardware.synthetic.video import MARKER_AT, board_to_table
    from hardware.tags.format import BOARD_MARKER, card_payload

    camera = Camera.create(5)
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    card = Placement(card_payload("wwe", "E", PHOTO), *board_to_table(0, 60), 4.0)
    folder.mkdir()
    for i in range(6):
        image, _ = camera.render([marker, card], seed=i)
        cv2.imwrite(str(folder / f"{i:03d}.jpg"), image)


def create_game(data: Path, game: str = "wwe", players=("N", "E")) -> tuple[str, dict]:
    """A game created in ``data`` (in-process, as the new-game page does): id and catalog."""
    from companion.app import create_app

    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    live = service.create(game, {"players": [{"seat": s, "name": s} for s in players]}, PIN)
    catalog = service.store.catalog(live.id)
    service.store.close()
    return live.id, catalog


def event_entry(catalog: dict, card: str) -> dict:
    return next(e for e in catalog["event_cards"] if e["id"] == card)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("deckdata")
    frames = data / "frames"
    sticker_frames(frames)
    (data / "config.json").write_text(json.dumps({"camera": {"source": f"folder:{frames}"}}))
    game_id, _ = create_game(data)
    log = tmp_path_factory.mktemp("decklog") / "server.log"
    with running_server(data, log, "--threads", "20", env=dict(os.environ)) as base:
        yield base, game_id, data


OPENED: list = []  # the browser contexts a test opened: closed after it (`_close_opened`)


@pytest.fixture(autouse=True)
def _close_opened():
    """Every context a test opened is closed after it: the session's chromium otherwise
    keeps each page (and its connections to the module's server, 20 threads) open to the
    end; in two fresh-clone runs the page opened late in this module never loaded."""
    yield
    while OPENED:
        OPENED.pop().close()


def open_deck(browser, base: str, game_id: str, query: str = "?lang=de"):
    opened = browser.new_context(viewport={"width": 1100, "height": 900})
    OPENED.append(opened)
    page = opened.new_page()
    page.goto(f"{base}/host/{game_id}{query}")
    page.fill("#pin", PIN)
    page.click("#host-login button[type=submit]")
    page.wait_for_selector("#deck-link")
    page.click("#deck-link")
    # 90 s, not Playwright's 30: in the full suite (stop 74's fresh clone) a demo server's
    # first deck page once took over 30 s while it was 10 s alone; suspected: the demo
    # camera judging its 56 taught faces at start (issue 63), not proven. A pass waits no longer.
    # Stop 80's fresh clone: the fifth page of a module's server waited the whole 90 s
    # (test_every_field_..._gift_stone; under 10 s in the two runs before, and alone): a
    # page whose load stalled. It is opened once more before the test fails; the warning
    # says it happened. Cause not found (docs/pi-appliance.md: "a deck page stall").
    # Session 90's run (load 18) showed the stall's first half: the click on the link left no
    # GET of the deck in the server's log, and the retry reloaded the host page, where no
    # deck part can ever show. So the retry now opens the deck's own address, and the
    # warning says where the page was and how long the server took to answer that address
    # directly (a lost click answers fast; a server stuck on the deck does not).
    try:
        page.wait_for_selector(".deck-part", timeout=90000)
    except PlaywrightTimeout:
        deck = f"{base}/host/{game_id}/deck"
        took = time.monotonic()
        try:
            answer = page.context.request.get(deck, timeout=60000).status
        except PlaywrightError as error:
            answer = f"no answer ({type(error).__name__})"
        warnings.warn(f"the deck page showed no part in 90 s (the page at {page.url}; the "
                      f"deck's address answered {answer} in {time.monotonic() - took:.1f} s); "
                      "opened again", stacklevel=2)
        page.goto(deck)
        page.wait_for_selector(".deck-part", timeout=90000)
    return page


def open_card(page, part: str, card: str):
    section = page.locator(f".deck-part[data-part={part}]")
    if section.get_attribute("open") is None:
        section.locator("summary").click()
    section.locator(f".deck-entry[data-entry='{card}'] .deck-open").click()
    page.wait_for_selector(f"#deck-form[data-entry='{card}']")


def save(page, card: str) -> None:
    page.click("#deck-form .deck-save")
    page.wait_for_function("c => !document.querySelector(`#deck-form[data-entry='${c}']`)",
                           arg=card, timeout=15000)
    page.wait_for_selector(f".deck-entry[data-entry='{card}'] .state-checked", timeout=15000)


def no_sideways_scroll(page) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page scrolls sideways by {wide} px"


def new_game_on_the_page(page, base: str, names=("Ada", "Ben")) -> str:
    """A World Without End game from the new-game page (this browser becomes its host)."""
    page.goto(f"{base}/new?game=wwe")
    for seat, name in zip(("N", "E"), names, strict=True):
        page.fill(f"#name_{seat}", name)
    page.fill("#host_pin", PIN)
    page.click("#create-game")
    page.wait_for_url("**/host/**")
    return page.url.rstrip("/").split("/")[-1].split("?")[0]


def test_the_owner_enters_photographs_exports_and_imports_cards(server, browser, tmp_path):
    base, game_id, data = server
    errors: list[str] = []
    page = open_deck(browser, base, game_id)
    page.on("pageerror", lambda e: errors.append(str(e)))
    assert page.locator("h1").first.inner_text() == "Dein Kartensatz"
    assert "0 von 44 Ereigniskarten eingegeben" in page.locator("#deck-progress").inner_text()

    # card 1: its German name corrected, saved
    open_card(page, "event_cards", CARDS[0])
    assert page.locator(".field[data-name=chapter] label").inner_text() == "Kapitel"
    assert page.locator("#f-corners select").count() == 4  # the corners are choices
    page.locator("#deck-form .field[data-name=names] [data-lang=de]").fill("Weil die Bauarbeiten…")
    save(page, CARDS[0])
    assert "ist gespeichert" in page.locator("#deck-notice").inner_text()

    # card 2: a chapter out of range is refused as it is typed, in German, naming the field
    # by its label and the card by its name
    open_card(page, "event_cards", CARDS[1])
    page.fill("#f-chapter", "9")
    why = page.locator(".field[data-name=chapter] .field-why")
    why.wait_for(state="visible")
    page.wait_for_function("() => /zwischen 1 und 4/.test(document.querySelector("
                           "'.field[data-name=chapter] .field-why').textContent)", timeout=15000)
    assert "Kapitel:" in why.inner_text() and "Ralph Fitzgerald" in why.inner_text()
    assert "chapter" not in why.inner_text() and CARDS[1] not in why.inner_text()
    assert page.locator("#deck-form .deck-save").is_disabled()
    shot(page, "70-deck-refused-de")
    # the server refuses it too, and nothing is written
    refused = page.evaluate("""async (c) => {
        const r = await fetch(location.pathname + '/save', {method: 'POST',
          headers: {'Content-Type': 'application/json', 'X-CSRF-Token':
                    JSON.parse(document.getElementById('page-config').textContent).csrf_token},
          body: JSON.stringify({game: 'wwe', part: 'event_cards',
                                entry: {id: c, chapter: 9}})});
        return [r.status, await r.json()];
    }""", CARDS[1])
    assert refused[0] == 422 and not refused[1]["ok"]
    assert not (data / "catalogs" / "wwe" / "event_cards.json").read_text().count(CARDS[1])
    page.fill("#f-chapter", "1")
    page.wait_for_function("() => !document.querySelector('#deck-form .deck-save').disabled",
                           timeout=15000)
    save(page, CARDS[1])

    # card 3: its effects are a list of kinds with their fields, not JSON: the trade offer
    # as shipped (give 1 wool, get 3 gold), and a new one added, "every player gains 2 gold"
    open_card(page, "event_cards", CARDS[2])
    effects = page.locator("#f-effects .deck-variant")
    assert effects.count() == 1 and page.locator("#f-effects textarea").count() == 0
    first = effects.nth(0)
    assert first.locator("select").first.evaluate("s => s.selectedOptions[0].text") == \
        "Ein Tauschangebot"
    assert first.get_by_role("group", name="Abgeben").get_by_label("Wolle").input_value() == "1"
    page.click("#f-effects .deck-add")
    added = effects.nth(1)
    added.locator("select").first.select_option("gain")
    added.get_by_label("Wer").select_option(label="Jeder Spieler")
    added.get_by_label("Gold", exact=True).fill("2")
    shot(page, "73-deck-effects-de")
    save(page, CARDS[2])
    saved = json.loads((data / "catalogs" / "wwe" / "event_cards.json").read_text())
    mine = saved if isinstance(saved, list) else saved.get("event_cards", saved)
    card = next(c for c in mine if c["id"] == CARDS[2])
    assert card["effects"] == [{"type": "trade", "give": {"wool": 1}, "get": {"gold": 3}},
                               {"type": "gain", "who": "all", "items": {"gold": 2}}]

    # card 3, photographed from the camera (found by its sticker)
    open_card(page, "event_cards", PHOTO)
    page.click("#deck-form .deck-photo")
    page.wait_for_selector("#deck-form .deck-picture img", timeout=20000)
    picture = data / "catalogs" / "wwe" / "pictures" / f"{PHOTO}.jpg"
    assert picture.is_file() and cv2.imread(str(picture)).shape[1] == 480
    shot(page, "71-deck-photo-de")
    a11y(page, "deck-form-de")
    page.click("#deck-form .deck-close")
    assert "3 von 44 Ereigniskarten eingegeben" in page.locator("#deck-progress").inner_text()
    assert page.locator(f".deck-entry[data-entry='{PHOTO}'] img.deck-thumb").count() == 1

    # the same page on a phone: nothing scrolls sideways, the form fits
    phone = browser.new_context(**PHONE_CONTEXT, storage_state=page.context.storage_state())
    small = phone.new_page()
    small.on("pageerror", lambda e: errors.append(f"phone: {e}"))
    small.goto(f"{base}/host/{game_id}/deck?lang=de")
    small.wait_for_selector(".deck-part")
    no_sideways_scroll(small)
    shot(small, "74-deck-phone-de")
    open_card(small, "event_cards", PHOTO)
    no_sideways_scroll(small)
    shot(small, "75-deck-phone-form-de")
    phone.close()

    # the export (the page's download) holds the three cards, as the owner's real data
    with page.expect_download() as download:
        page.click("#deck-export")
    export = tmp_path / "export.json"
    download.value.save_as(export)
    bundle = json.loads(export.read_text())
    entered = [e for e in bundle["files"]["event_cards.json"]]
    assert sorted(e["id"] for e in entered) == sorted(CARDS)
    assert all(e["demo"] is False for e in entered)

    # another table (a fresh data folder): a game started there before the import keeps its
    # cards; the export is imported through its deck page; a game started afterwards on the
    # new-game page uses the entered cards
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    log = tmp_path / "fresh.log"
    OPENED.append(browser.new_context(viewport={"width": 1100, "height": 900}))
    other = OPENED[-1].new_page()
    other.on("pageerror", lambda e: errors.append(f"other table: {e}"))
    with running_server(fresh, log, env=dict(os.environ)) as there:
        before_id = new_game_on_the_page(other, there)
        other.goto(f"{there}/host/{before_id}/deck?lang=de")
        other.wait_for_selector(".deck-part")
        assert "0 von 44 Ereigniskarten" in other.locator("#deck-progress").inner_text()
        broken = tmp_path / "broken.json"  # a broken export: refused, nothing applied
        broken.write_text(json.dumps(dict(bundle, files={"event_cards.json": [
            dict(entered[0], chapter=9)]})))
        other.set_input_files("#deck-import", str(broken))
        other.wait_for_function("() => /nichts/i.test(document.getElementById('deck-notice')"
                                ".textContent)", timeout=15000)
        assert not (fresh / "catalogs" / "wwe" / "event_cards.json").exists()
        other.set_input_files("#deck-import", str(export))
        other.wait_for_function("() => /3 von 44 Ereigniskarten/.test(document.getElementById("
                                "'deck-progress').textContent)", timeout=15000)
        shot(other, "76-deck-imported-de")
        after_id = new_game_on_the_page(other, there, ("Cleo", "Dan"))
        shown = {}
        for gid in (before_id, after_id):
            other.goto(f"{there}/table/{gid}?lang=de")
            other.wait_for_function("() => window.TC && window.TC.config")
            shown[gid] = other.evaluate("(c) => JSON.stringify(TC.config.names[c])", CARDS[0])
        assert "Weil die Bauarbeiten" in shown[after_id], shown
        assert "Weil die Bauarbeiten" not in shown[before_id], shown
    from companion.game.store import Store

    store = Store(fresh / "companion.sqlite3")
    assert event_entry(store.catalog(after_id), CARDS[0])["names"]["de"] == \
        "Weil die Bauarbeiten…"
    assert event_entry(store.catalog(after_id), CARDS[0])["demo"] is False
    assert event_entry(store.catalog(before_id), CARDS[0])["names"]["de"] == "Weil die Arbeiten…"
    store.close()
    assert not errors, errors


def test_the_same_page_serves_the_toy_game(server, browser):
    from importlib.metadata import entry_points

    if not any(e.name == "toy" for e in entry_points(group="table_companion.games")):
        pytest.skip("the toy plug-in is not installed (make test installs it)")
    base, game_id, data = server
    page = open_deck(browser, base, game_id, "?lang=en")
    page.select_option("#deck-game", "toy")
    page.wait_for_selector(".deck-part[data-part=cards]")
    assert "0 of 3 coins entered" in page.locator("#deck-progress").inner_text()
    open_card(page, "cards", "copper_coin")
    page.fill("#f-points", "-4")
    page.wait_for_function("() => document.querySelector('#deck-form .deck-save').disabled",
                           timeout=15000)
    assert page.locator(".field[data-name=points] .field-why").inner_text()
    page.fill("#f-points", "3")
    page.wait_for_function("() => !document.querySelector('#deck-form .deck-save').disabled",
                           timeout=15000)
    save(page, "copper_coin")
    assert "1 of 3 coins entered" in page.locator("#deck-progress").inner_text()
    saved = json.loads((data / "catalogs" / "toy" / "cards.json").read_text())
    assert saved == [{**saved[0], "id": "copper_coin", "points": 3, "demo": False}]
    shot(page, "72-deck-toy")


@pytest.mark.parametrize("game,part,entry", [
    ("wwe", "building_sites", "site_01"), ("wwe", "projects", "lady_chapel"),
    ("pillars", "craftsmen", "carpenter_blue"), ("pillars", "privileges", "gold_8"),
    ("pillars", "events", "gift_stone"), ("monasterium", "missions", "a1")])
def test_every_field_of_a_game_is_labelled_and_shown_as_fields(server, browser, game, part,
                                                                 entry):
    """Each game's forms in Polish: every field labelled by its translated title (never
    its key), bags of items and other objects as fields; never a JSON box."""
    base, game_id, _ = server
    page = open_deck(browser, base, game_id, "?lang=pl")
    page.select_option("#deck-game", game)
    page.wait_for_selector(f".deck-part[data-part={part}]")
    open_card(page, part, entry)
    fields = page.evaluate("""() => [...document.querySelectorAll('#deck-form .field')].map(
        f => [f.dataset.name, f.querySelector(':scope > label').textContent.trim(),
              !!f.querySelector('textarea:not([data-lang])')])""")
    assert fields
    for name, text, raw_json in fields:
        assert text and text != name, (name, text)  # a title, in Polish
        assert not raw_json, name
    shot(page, f"77-deck-{game}-{part}-pl")


def test_a_board_is_entered_on_the_page_as_one_form(server, browser):
    """Monasterium's board is one object, not a list of cards: the page edits all of it as
    one form (monasteries and their buildings, the road, the window), checked as typed; a
    road space's bonus changed there is saved into the owner's board file, the rest kept."""
    base, game_id, data = server
    page = open_deck(browser, base, game_id, "?lang=en")
    page.select_option("#deck-game", "monasterium")
    section = page.locator(".deck-part[data-part=board]")
    section.locator("summary").click()
    section.locator(".deck-edit-part").click()
    page.wait_for_selector("#deck-form[data-entry=whole]")
    assert page.locator("#deck-form textarea:not([data-lang])").count() == 0  # all fields
    spaces = page.locator("#f-road [data-sub=spaces] > ol > li")
    assert spaces.count() == 12
    third = spaces.nth(2)
    assert third.get_by_label("Bonus").evaluate("s => s.selectedOptions[0].text") == \
        "R2: Influence or Rosary"
    third.get_by_label("Bonus").select_option(label="R4: a stained-glass tile")
    # a space that reaches a sixth monastery is refused as typed, naming the road
    spaces.nth(0).get_by_label("Space", exact=True).fill("0")
    page.wait_for_function("() => document.querySelector('#deck-form .deck-save').disabled",
                           timeout=15000)
    spaces.nth(0).get_by_label("Space", exact=True).fill("1")
    page.wait_for_function("() => !document.querySelector('#deck-form .deck-save').disabled",
                           timeout=15000)
    shot(page, "78-deck-board-en")
    page.click("#deck-form .deck-save")
    page.wait_for_function("() => !document.querySelector('#deck-form')", timeout=15000)
    saved = json.loads((data / "catalogs" / "monasterium" / "board.json").read_text())
    road = {s["space"]: s for s in saved["road"]["spaces"]}
    assert road[3]["bonus"] == "R4" and road[5]["bonus"] == "R3" and len(road) == 12
    assert [m["id"] for m in saved["monasteries"]] == list("ABCDE")


@pytest.mark.parametrize("game,part", [("wwe", "game"), ("pillars", "board"),
                                       ("monasterium", "actions")])
def test_a_whole_part_saved_unchanged_keeps_every_value(server, browser, game, part):
    """The form of a whole part reads back exactly what it was given: saved untouched, the
    owner's file holds the shipped part, value for value (nothing dropped or retyped)."""
    from companion.box.catalog import load_catalog

    base, game_id, data = server
    page = open_deck(browser, base, game_id, "?lang=it")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.select_option("#deck-game", game)
    section = page.locator(f".deck-part[data-part={part}]")
    section.locator("summary").click()
    section.locator(".deck-edit-part").click()
    page.wait_for_selector("#deck-form[data-entry=whole]")
    page.click("#deck-form .deck-save")
    page.wait_for_function("() => !document.querySelector('#deck-form')", timeout=15000)
    saved = json.loads((data / "catalogs" / game / f"{part}.json").read_text())
    assert saved == load_catalog(game)[part]
    assert not errors, errors


NO_JSON_BOX = """() => [...document.querySelectorAll('#deck-form textarea:not([data-lang])')]
  .map(t => (t.closest('[data-name]') || {dataset: {}}).dataset.name + ':' +
            (t.closest('[data-sub]') || {dataset: {}}).dataset.sub)"""


@pytest.mark.parametrize("game", ["wwe", "pillars", "monasterium"])
def test_every_form_of_every_part_has_no_json_box(server, browser, game):
    """Every entry of every part of a game (and every part that is one object) opens as a
    form of controls: no text box asks the owner for JSON (a cover effect's ids, a mission's
    points by year among them): a mission's points by year are three number boxes, a
    cover effect's "All other projects" one choice of its kind list."""
    base, game_id, _ = server
    page = open_deck(browser, base, game_id, "?lang=en")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.select_option("#deck-game", game)
    page.wait_for_selector(".deck-part")
    parts = page.evaluate("() => [...document.querySelectorAll('.deck-part')].map(p => "
                          "p.dataset.part)")
    opened = 0
    for part in parts:
        section = page.locator(f".deck-part[data-part={part}]")
        if not section.evaluate("s => s.open"):
            section.locator("summary").click()
        entries = section.locator(".deck-entry").evaluate_all(
            "els => els.map(e => e.dataset.entry)")
        if not entries:
            section.locator(".deck-edit-part").click()
            page.wait_for_selector("#deck-form[data-entry=whole]")
            assert page.evaluate(NO_JSON_BOX) == [], (game, part)
            opened += 1
            continue
        for entry in entries:
            section.locator(f".deck-entry[data-entry='{entry}'] .deck-open").click()
            page.wait_for_selector(f"#deck-form[data-entry='{entry}']")
            assert page.evaluate(NO_JSON_BOX) == [], (game, part, entry)
            opened += 1
            if (game, entry) == ("monasterium", "a1"):
                boxes = page.locator("#f-points input[type=number]")
                assert boxes.evaluate_all("bs => bs.map(b => b.value)") == ["6", "4", "2"]
            if (game, entry) == ("wwe", COVERS_ALL):
                kinds = page.locator("#f-effects select[aria-label='Which: kind']")
                assert "All other projects" in kinds.evaluate_all(
                    "ss => ss.map(s => s.selectedOptions[0].text)")
    assert opened >= len(parts)
    assert not errors, errors

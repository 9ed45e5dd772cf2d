"""The table display in a real browser (chromium, Playwright): action cards by their catalog
names from the page context, and the revealed event card picked on the table itself."""
from __future__ import annotations

import json

import pytest

from tests.web.conftest import ROOT, pair_here, play_on_without_phones
from tests.web.test_browser import server, shot, view  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300)]


def wwe_table(browser, server, names, lang):  # noqa: F811 (the fixtures, passed on)
    """A two-player World Without End table made on the new-game page, this browser paired
    as its table display in ``lang`` and play begun: (context, page, page errors)."""
    ctx = browser.new_context(viewport={"width": 1600, "height": 1000})
    table = ctx.new_page()
    errors: list[str] = []
    table.on("pageerror", lambda e: errors.append(str(e)))
    table.goto(server + "/new?game=wwe")
    table.fill("#name_N", names[0])
    table.fill("#name_E", names[1])
    table.fill("#host_pin", "1357")
    table.click("#create-game")
    table.wait_for_url("**/host/**")
    game_id = table.url.rstrip("/").split("/")[-1]
    pair_here(table, server, game_id, f"?lang={lang}")
    play_on_without_phones(table)
    return ctx, table, errors


def test_table_shows_card_names_and_picks_the_event(server, browser):  # noqa: F811
    cards = json.loads((ROOT / "engine/wwe/data/action_cards.json").read_text())
    polish = {c["id"]: c["names"]["pl"] for c in cards}
    ctx, table, errors = wwe_table(browser, server, ("Ala", "Bruno"), "pl")
    # a fresh browser has no cached names: these come from the page context
    shown = table.evaluate("ids => ids.map(id => WWE.nm('cards', id))", list(polish))
    assert shown == list(polish.values())

    msg = view(table)
    assert {p["kind"] for p in msg["prompts"]} == {"reveal_event"}
    buttons = table.locator("#event-results button:not([disabled])")
    assert buttons.count() == len(msg["choices"]) > 0
    card = buttons.first.get_attribute("data-card")
    shot(table, "table-event-picker")
    buttons.first.click()
    table.wait_for_function("v => TC.view.version > v", arg=msg["version"], timeout=15000)
    assert view(table)["view"]["event"]["id"] == card
    assert table.locator("#event-results").count() == 0  # the picker is gone
    assert not errors
    ctx.close()


def test_italian_table_shows_the_italian_event_text(server, browser):  # noqa: F811
    cards = json.loads((ROOT / "engine/wwe/data/event_cards.json").read_text())
    texts = {c["id"]: c["text"] for c in cards}
    ctx, table, errors = wwe_table(browser, server, ("Ada", "Bice"), "it")
    msg = view(table)
    table.locator("#event-results button:not([disabled])").first.click()
    table.wait_for_function("v => TC.view.version > v", arg=msg["version"], timeout=15000)
    card = view(table)["view"]["event"]["id"]
    italian, english = texts[card]["it"], texts[card]["en"]
    table.get_by_text(italian, exact=True).first.wait_for(timeout=15000)
    assert english not in table.locator("body").inner_text()
    shot(table, "table-event-text-it")
    assert not errors
    ctx.close()

"""The table display answers every prompt the table owes, not only the event card and the
tax die: here the value of a plague token turned over in chapter III (chromium, Playwright).
A game reaches that point by importing a record played in-process to the first plague."""
from __future__ import annotations

import json
import random

import pytest

from companion.box.catalog import load_catalog
from engine import record as engine_record
from engine.wwe import GAME
from tests.web.conftest import pair_here, play_on_without_phones
from tests.web.test_browser import server, shot, view  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300)]


def record_until_table_prompt(kind: str) -> dict:
    catalog = load_catalog("wwe")
    players = [{"seat": s, "name": n, "colour": c}
               for s, n, c in (("N", "Ala", "blue"), ("S", "Bruno", "red"))]
    setup = {"players": players, "seed": 5}
    state, actions, rnd = GAME.setup(catalog, setup), [], random.Random(5)
    while not any(p.kind == kind and p.seat == "table" for p in GAME.prompts(state)):
        action = GAME.random_action(state, rnd)
        state, _ = GAME.apply(state, action)
        actions.append(action)
    return engine_record.build("wwe", setup, actions)


def test_table_enters_a_plague_value(server, browser, tmp_path):  # noqa: F811
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record_until_table_prompt("reveal_plague")))
    ctx = browser.new_context(viewport={"width": 1600, "height": 1000})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.click("text=Import a game record")
    page.set_input_files("#record", str(path))
    page.fill("#import-pin", "2468")
    page.locator("form[action='/games/import'] button[type=submit]").click()
    page.wait_for_url("**/host/**")
    game_id = page.url.rstrip("/").split("/")[-1]
    pair_here(page, server, game_id, "?lang=de")
    play_on_without_phones(page)
    msg = view(page)
    prompt = next(p for p in msg["prompts"] if p["kind"] == "reveal_plague")
    group = page.locator("[data-kind=reveal_plague]")
    assert group.locator("h3").inner_text() == prompt["text"]  # the prompt in German words
    buttons = group.locator("button:not([disabled])")
    offered = sorted(int(b) for b in buttons.all_inner_texts())
    assert offered == sorted(c["action"]["value"] for c in msg["choices"]
                             if c["action"]["type"] == "reveal_plague" and not c.get("refused"))
    shot(page, "40-table-plague-value-de")
    buttons.first.click()
    page.wait_for_function("v => TC.view.version > v", arg=msg["version"], timeout=15000)
    assert not any(p["kind"] == "reveal_plague" and p["params"] == prompt["params"]
                   for p in view(page)["prompts"])
    assert not errors
    ctx.close()

"""Every text the three games send, scanned in all five languages (issue 24): the log lines,
the prompts, the table steps, the refusal and "does nothing" reasons of every choice, the
host's corrections and their log lines, from random whole games played through the real
service (SQLite, translations as the server looks them up; the log worded as the views word
it). No text may show a raw id (snake_case, or a catalog id with a number such as
"kingsbridge2") or an unfilled "{placeholder}", and none in Italian, Polish, Spanish or
German may be the English one left untranslated (compared with the English rendering of the
same text)."""
from __future__ import annotations

import random
import re

import pytest

from companion import context
from companion.game import views
from companion.game.service import Identity
from companion.table import table_steps
from engine.api import Refused

RAW_ID = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]{3,}\d+\b")
LANGS = ("it", "pl", "es", "de")
NAMES = {"N": "Ala", "E": "Bruno", "S": "Carmen", "W": "Dieter"}
SAMPLE_EVERY = 3  # choices and steps are read every few actions (the log at the end)


def new_game(service, game: str, seats) -> str:
    setup = {"players": [{"seat": s, "name": NAMES[s]} for s in seats], "start_seat": "N"}
    return service.create(game, setup, "1234").id


def texts_now(live, lang: str) -> dict:
    """Every text of the current state for every recipient, keyed so that the same text in
    two languages has the same key."""
    namer = views.Namer(live, lang)
    out = {}
    for p in views.prompt_entries(live, lang, namer):
        if p["text"]:
            out[("prompt", p["kind"], p["seat"])] = p["text"]
    for s in table_steps.entries(live, lang, namer, {}):
        out[("step", s["kind"])] = s["text"]
        if s["by_hand"]:
            out[("by_hand", s["kind"])] = s["by_hand"]
    for i, c in enumerate(views.board_corrections(live, lang)):  # the host's page
        out[("correction", i)] = c["title"]
        out[("correction_label", i)] = c["label"]
    module = live.kind.module
    for asker in ("table", *live.seats):
        for i, choice in enumerate(module.choices(live.state, asker)):
            for what, why in (("refused", choice.refused),
                              ("idle", choice.effect.get("no_effect"))):
                if isinstance(why, dict) and why.get("code"):
                    out[(what, asker, i)] = views.refusal(
                        live.kind.reasons, lang, why["code"], why.get("params", {}), namer,
                        live.kind.name)["message"]
    return out


def log_texts(live, lang: str) -> dict:
    """Every line of the whole log in ``lang``, worded as the views word it."""
    namer = views.Namer(live, lang)
    saved, views.LOG_LENGTH = views.LOG_LENGTH, 10**6
    try:
        window = views.log_window(live, lang, namer)
    finally:
        views.LOG_LENGTH = saved
    return {("log", i, entry["seq"]): entry["text"] for i, (_p, entry) in enumerate(window)}


# a count each game's host may correct (a whole random game makes no corrections itself)
COUNTS = {"wwe": "vp", "pillars": "vp", "monasterium": "prestige"}
CORRECT_EVERY = 40  # actions between two rounds of host corrections


def host_corrects(service, live, game: str) -> None:
    """The host corrects a count (+1, then back) and sets every part of the board it may
    correct now to its current value, so that their log lines are scanned too."""
    host = Identity("host", live.id)
    seat = live.seats[0]
    tries = [{"type": "adjust", "seat": seat, "item": COUNTS[game], "delta": d,
              "reason": "scan"} for d in (1, -1)]
    tries += [{**c["action"], "value": c["current"], "reason": "scan"}
              for c in views.board_corrections(live, "en")]
    for action in tries:
        try:
            service.act(host, action)
        except Refused:  # not now (a count at its limit, a part set to itself)
            continue


def problems(english: dict, other: dict, lang: str, names: set) -> list:
    out = []
    for key, text in other.items():
        stripped = text
        for name in names:  # player and catalog names may hold anything
            stripped = stripped.replace(name, "")
        if RAW_ID.search(stripped):
            out.append((lang, key, text))
        elif "{" in stripped or "}" in stripped:  # a placeholder left unfilled
            out.append((lang, key, "unfilled: " + text))
        elif lang != "en" and text == english.get(key) and len(stripped.split()) >= 3:
            out.append((lang, key, "English left: " + text))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("game,seats,seed", [("wwe", "NES", 3), ("pillars", "NESW", 5),
                                             ("monasterium", "NES", 7)])
def test_every_text_is_named_and_translated(games_in_context, game, seats, seed):
    app = games_in_context
    service = context.of(app).service
    game_id = new_game(service, game, seats)
    live = service.get(game_id)
    module = live.kind.module
    names = set(NAMES.values()) | {n for v in live.kind.names.values() for n in v.values()
                                   if isinstance(n, str)}
    rnd = random.Random(seed)
    found: list = []
    seen_kinds: set = set()
    for n in range(5000):
        if not module.prompts(live.state) or module.is_over(live.state):
            break
        if n % SAMPLE_EVERY == 0:
            english = texts_now(live, "en")
            seen_kinds |= {k[0] for k in english}
            found += problems({}, english, "en", names)
            for lang in LANGS:
                found += problems(english, texts_now(live, lang), lang, names)
        if n % CORRECT_EVERY == CORRECT_EVERY - 1:
            host_corrects(service, live, game)
        action = module.random_action(live.state, rnd)
        by = action["by"]
        who = Identity("seat", game_id, by) if by in live.seats else Identity("table", game_id)
        service.act(who, action)
    assert module.is_over(live.state), "the random game did not end"
    english = log_texts(live, "en")
    assert len(english) > 40
    found += problems({}, english, "en", names)
    for lang in LANGS:
        found += problems(english, log_texts(live, lang), lang, names)
    assert {"prompt", "step", "correction"} <= seen_kinds, seen_kinds
    assert {"adjusted", "corrected"} <= {event["type"] for _s, _a, event in live.log}
    assert game == "monasterium" or "refused" in seen_kinds, seen_kinds
    assert not found, found[:20]


@pytest.mark.parametrize("game", ["wwe", "pillars", "monasterium"])
def test_every_catalog_name_and_text_is_in_every_language(games_in_context, game):
    """Card, action, place, project and mission names in all five languages."""
    app = games_in_context
    from companion.box.catalog import load_kind

    kind = load_kind(game, app.config["DATA_DIR"])
    missing = []

    def walk(node, path):
        if isinstance(node, dict):
            if isinstance(node.get("en"), str) and path.endswith("/names"):
                missing.extend((path, lang) for lang in LANGS if not node.get(lang))
            for key, value in node.items():
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}[{value.get('id', i) if isinstance(value, dict) else i}]")

    walk(kind.catalog, game)
    assert not missing, missing[:20]

"""Every rule cited, over real sockets (docs/rules-cited.md): a refused act carries the rule
it follows, with the reference of the recipient's edition and the text in the recipient's
language; the log, the prompts and refused choices cite it by its id, and each socket gets
every rule once per language in a `rules` message."""
from __future__ import annotations

import importlib
import random

import pytest

from companion import context
from companion.game.service import Identity
from companion.table import citations as app_citations
from engine import citations
from engine.wwe import GAME
from tests.companion.conftest import Spy
from tests.companion.test_privacy import new_wwe_game
from tests.rules_reference import BOOK, shown_ref
from tests.waiting import wait_for
from web import i18n_tool


def translated(lang: str, msgid: str) -> str:
    return i18n_tool.read(lang, i18n_tool.domain("wwe")).get(msgid).string


def expected(rule_id: str, lang: str) -> dict:
    rule = GAME.info.texts.rules[rule_id]
    return {"id": rule_id, "ref": shown_ref("wwe", rule, lang),
            "text": rule["text"] if lang == "en" else translated(lang, rule["text"])}


def rules_of(spy: Spy, lang: str | None = None) -> dict:
    """The last `rules` message the socket got (in ``lang``), once it is in."""
    return wait_for(lambda: [m for event, m in list(spy.messages) if event == "rules"
                             and (lang is None or m["lang"] == lang)],
                    what=f"a rules message in {lang}")[-1]


def test_refusals_log_lines_and_prompts_carry_their_rule_per_language(games_live):
    app, server = games_live
    service = context.of(app).service
    game_id = new_wwe_game(app.test_client(), ("N", "S"))
    live = service.get(game_id)
    rnd = random.Random(3)
    while not any(e.get("type") == "income" for _seq, _a, e in live.log):
        action = GAME.random_action(live.state, rnd)
        by = action["by"]
        who = Identity("seat", game_id, by) if by in live.seats else Identity("table", game_id)
        service.act(who, action)
    codes = service.store.join_codes(game_id)
    idle = next(s for s in ("N", "S") if not GAME.choices(live.state, s))
    spies = {lang: Spy(server.url, {"role": "seat", "game": game_id, "lang": lang, "token":
                                    service.access.claim_seat(game_id, seat, codes[seat])})
             for lang, seat in (("it", idle), ("pl", "S" if idle == "N" else "N"))}
    spies["en"] = Spy(server.url, {"role": "table", "game": game_id,
                                   "table_token": service.access.new_table_token(game_id)})
    try:
        # a refused act: the rule of turns, in Italian, with the Italian edition's section
        before = live.version
        ack = spies["it"].call("act", {"action": {"type": "play_card", "card": "grain"}})
        assert ack["ok"] is False and ack["code"] in GAME.info.texts.cites["reasons"]
        rule_id = GAME.info.texts.cites["reasons"][ack["code"]]
        assert ack["rule"] == expected(rule_id, "it")
        assert ack["rule"]["ref"].startswith("Regolamento")
        assert live.version == before  # a refusal changes nothing
        for lang, spy in spies.items():
            view = spy.wait_version(live.version)
            book = rules_of(spy)  # every rule once, in the socket's language
            assert book["lang"] == lang and set(book["rules"]) == set(GAME.info.texts.rules)
            for rid, rule in book["rules"].items():
                assert dict(rule, id=rid) == expected(rid, lang)
            incomes = [e for e in view["log"] if e["type"] == "income"]
            assert incomes and all(e["rule"] == "income" for e in incomes)
            for entry in view["log"]:  # views cite the rule by its id alone
                found = citations.event_rule(GAME.info.texts, dict(entry["params"],
                                                                   type=entry["type"]))
                assert entry["rule"] == found[0]
            for prompt in view["prompts"]:
                assert prompt["rule"] == GAME.info.texts.cites["prompts"][prompt["kind"]]
            for choice in view["choices"]:
                if choice.get("refused"):
                    assert choice["refused"]["rule"] in book["rules"]
        # a new language: the rules again, in it, before the view in it
        assert spies["it"].call("set_lang", {"lang": "de"})["ok"]
        book = rules_of(spies["it"], "de")
        assert book["rules"]["income"] == {k: v for k, v in expected("income", "de").items()
                                           if k != "id"}
        spies["it"].wait_for(lambda v: v["lang"] == "de")
        assert [m for m, _ in spies["it"].messages].count("rules") == 2
        # the Polish edition names its own section and step; English its subject in English
        assert expected("income", "pl")["ref"] == "Instrukcja, «Przebieg rundy», krok 3"
        assert expected("income", "en")["ref"] == "Rulebook, «A round, step 3: income»"
    finally:
        for spy in spies.values():
            spy.close()



@pytest.mark.parametrize("game", ("wwe", "pillars", "monasterium"))
def test_a_reference_reads_the_same_way_in_every_language(games_in_context, game):
    """One form everywhere (issue 32 #10): "Rulebook, p. 6, «La Peste», step 1" in the
    reader's words, the edition's own page, section and step where the language has one,
    the section's subject in that language where it has none; never the rules reference's
    "§4.3", a seed's "ES:29-30" or a bare "App"."""
    kind = type("Kind", (), {"name": game})
    rules = importlib.import_module(f"engine.{game}").GAME.info.texts.rules
    for rid, rule in rules.items():
        for lang in ("en", "it", "pl", "es", "de"):
            said = app_citations.reference(kind, rule, lang)
            assert said == shown_ref(game, rule, lang), (rid, lang)
            assert "§" not in said and ":" not in said.split("«")[0], (rid, lang, said)
            if not citations.is_app(rule):
                assert said.startswith(BOOK[lang][0] + ", "), (rid, lang, said)


def test_the_setup_guide_cites_the_rulebooks_setup_in_every_language(games_in_context):
    """The TV's guided setup names the rulebook's setup section as every rule does: the
    Spanish edition's own «Preparar», the German subject in German (not "ES:29-30")."""
    from companion.table import table_guide

    client = games_in_context.test_client()
    game_id = new_wwe_game(client, ("N", "E"))
    live = context.of(games_in_context).service.get(game_id)
    guide = table_guide.guide_of(live.kind.info.table_guide)
    progress = {"at": 0, "done": {}, "skipped": [], "finished": False}
    said = {lang: table_guide.public(guide, live, progress, lang)["rule"]
            for lang in ("en", "es", "de", "pl")}
    assert said == {"en": "Rulebook, «Setting up the game»", "es": "Reglas, «Preparar»",
                    "de": "Spielregel, «Spielaufbau»", "pl": "Instrukcja, «Przygotowanie gry»"}
    page = client.get(f"/games/{game_id}/setup.json?lang=es").get_json()
    assert {s["rule"] for s in page["steps"]} == {"Reglas, «Preparar»"}

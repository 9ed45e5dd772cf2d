"""Every rule cited, over real sockets (docs/rules-cited.md): a refused act carries the rule
it follows, with the reference of the recipient's edition and the text in the recipient's
language; the log, the prompts and refused choices cite it by its id, and each socket gets
every rule once per language in a `rules` message."""
from __future__ import annotations

import random

from companion.game.service import Identity
from engine import citations
from engine.wwe import GAME
from tests.companion.conftest import Spy
from tests.companion.test_privacy import new_wwe_game
from tests.waiting import wait_for
from web import i18n_tool


def translated(lang: str, msgid: str) -> str:
    return i18n_tool.read(lang, i18n_tool.domain("wwe")).get(msgid).string


def expected(rule_id: str, lang: str) -> dict:
    rule = GAME.info.texts.rules[rule_id]
    return {"id": rule_id, "ref": citations.ref(rule, lang),
            "text": rule["text"] if lang == "en" else translated(lang, rule["text"])}


def rules_of(spy: Spy, lang: str | None = None) -> dict:
    """The last `rules` message the socket got (in ``lang``), once it is in."""
    return wait_for(lambda: [m for event, m in list(spy.messages) if event == "rules"
                             and (lang is None or m["lang"] == lang)],
                    what=f"a rules message in {lang}")[-1]


def test_refusals_log_lines_and_prompts_carry_their_rule_per_language(games_live):
    app, server = games_live
    service = app.extensions["companion"]
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
                                    service.claim_seat(game_id, seat, codes[seat])})
             for lang, seat in (("it", idle), ("pl", "S" if idle == "N" else "N"))}
    spies["en"] = Spy(server.url, {"role": "table", "game": game_id,
                                   "table_token": service.new_table_token(game_id)})
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
        # the Polish edition names its own section; English falls back to the reference
        assert expected("income", "pl")["ref"].startswith("Instrukcja")
        assert expected("income", "en")["ref"] == GAME.info.texts.rules["income"]["ref"]["*"]
    finally:
        for spy in spies.values():
            spy.close()

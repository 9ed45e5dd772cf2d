"""A refusal that names an action names it in the player's words: for each game, every
refusal met over a seeded game (each action type sent by every seat, the table and the
host, at many moments) reads, in every language, without a raw action type id such as
``reveal_privilege`` (the phone once said "Anna kann reveal_privilege nicht senden")."""
from __future__ import annotations

import random
import re

import pytest

from companion.game import views
from companion.game.service import Identity
from engine.api import Refused
from engine.monasterium.rules import HANDLERS as MONASTERIUM
from engine.pillars.rules import HANDLERS as PILLARS
from engine.wwe.actions import HANDLERS as WWE

LANGS = ("en", "it", "pl", "es", "de")
ACTION_TYPES = {"wwe": set(WWE), "pillars": set(PILLARS), "monasterium": set(MONASTERIUM)}
SEATS = {"wwe": "NES", "pillars": "NES", "monasterium": "NE"}
# the refusals of an action out of turn, from the wrong sender and of the wrong kind now
MET = {"wwe": {"not_your_turn", "wrong_phase"},
       "pillars": {"not_your_turn", "wrong_actor", "not_now"},
       "monasterium": {"not_your_turn", "not_for_seat", "wrong_phase"}}
# single words the engine uses as ids that are also words of a language's text
WORDS = {"en": {"pass", "place", "take", "use", "lose", "bonus", "build", "buy", "sell",
                "roll", "reroll", "adjust", "correct", "cure"},
         "de": {"bonus"}, "pl": {"bonus"}, "it": {"bonus"}, "es": {"bonus"}}


def refusals_of_a_seeded_game(app, game: str, seed: int) -> list[tuple[object, Refused]]:
    """Every action type from every sender (bare, then with the params a random legal
    action of that type carries), tried every few steps of a random game to its end."""
    from companion.game.games import discovered

    module = discovered()[game]
    service = app.extensions["companion"]
    live = service.create(game, {"players": [{"seat": s} for s in SEATS[game]],
                                 "seed": seed}, "1234")
    rnd = random.Random(seed)
    senders = (*live.seats, "table", "host")
    out: list[tuple[object, Refused]] = []
    step = 0
    while module.prompts(live.state) and step < 400:
        action = module.random_action(live.state, rnd)
        if step % 7 == 0:
            for kind in sorted(ACTION_TYPES[game]):
                for by in senders:
                    for tried in ({"type": kind, "by": by}, {**action, "type": kind, "by": by}):
                        try:
                            module.apply(live.state, tried)
                        except Refused as refused:
                            out.append((live, refused))
        by = action["by"]
        who = Identity("seat", live.id, by) if by in live.seats else Identity("table", live.id)
        service.act(who, action)
        step += 1
    return out


@pytest.mark.parametrize("game", ["wwe", "pillars", "monasterium"])
def test_no_refusal_names_an_action_by_its_id(games_in_context, game):
    app = games_in_context
    refusals = refusals_of_a_seeded_game(app, game, 7)
    codes = {r.code for _live, r in refusals}
    assert MET[game] <= codes, codes
    leaks = set()
    for lang in LANGS:
        ids = sorted(ACTION_TYPES[game] - WORDS.get(lang, set()))
        raw = re.compile(r"(?<![\w-])(" + "|".join(ids) + r")(?![\w-])")
        seen = set()
        for live, refused in refusals:
            key = (refused.code, repr(sorted(refused.params.items())))
            if key in seen:
                continue
            seen.add(key)
            for role in ("seat", "table", "host"):
                message = views.refused_json(live, lang, refused, role)["message"]
                if raw.search(message):
                    leaks.add((lang, refused.code, message))
    assert sorted(leaks) == [], "\n".join(map(str, sorted(leaks)))

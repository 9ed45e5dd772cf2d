"""A refusal that names an action names it in the player's words: for each game, every
refusal met over a seeded game (each action type sent by every seat, the table and the
host, at many moments) reads, in every language, without a raw action type id such as
``reveal_privilege`` (the phone once said "Anna kann reveal_privilege nicht senden")."""
from __future__ import annotations

import random
import re

import pytest

from companion import context
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
    return list(refusals_met(app, game, seed, every=7))


def refusals_met(app, game: str, seed: int, every: int = 1, players: dict | None = None):
    """(live, refusal) as they are met: every action type from every sender tried every
    ``every`` steps of a random game (``players``: seat -> name; none named by default),
    the refusal read at once (the game moves on after it)."""
    from companion.game.games import discovered

    module = discovered()[game]
    service = context.of(app).service
    live = service.create(game, {"players": [{"seat": s, **({"name": players[s]} if players
                                                            else {})} for s in SEATS[game]],
                                 "seed": seed}, "1234")
    rnd = random.Random(seed)
    senders = (*live.seats, "table", "host")
    step = 0
    while module.prompts(live.state) and step < 400:
        action = module.random_action(live.state, rnd)
        if step % every == 0:
            for kind in sorted(ACTION_TYPES[game]):
                for by in senders:
                    for tried in ({"type": kind, "by": by}, {**action, "type": kind, "by": by}):
                        try:
                            module.apply(live.state, tried)
                        except Refused as refused:
                            yield live, refused
        by = action["by"]
        who = Identity("seat", live.id, by) if by in live.seats else Identity("table", live.id)
        service.act(who, action)
        step += 1


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


NAMES = {"N": "Anna", "E": "Bruno", "S": "Carla"}
# a decision a seat owes first, and the new personal die the table rolls first: the
# refusal of anything else meanwhile, met in a seeded game, read by a seat in each language
OWED = {
    ("pillars", "decision_pending", "discard_craftsman"): {  # the action, as named on
        "en": "First Bruno must do “Discard a craftsman”.",  # the phone and the TV
        "it": "Prima Bruno deve fare «Scartare un artigiano».",
        "pl": "Najpierw Bruno musi wykonać „Odrzucić rzemieślnika”.",
        "es": "Primero Bruno debe hacer «Descartar un artesano».",
        "de": "Zuerst muss Bruno „Einen Handwerker abwerfen“ ausführen."},
    ("monasterium", "decide_first", "road_bonus"): {
        "en": "First Anna must decide: the road bonus.",
        "it": "Prima Anna deve decidere: il bonus della strada.",
        "pl": "Najpierw Anna musi zdecydować: premia drogi.",
        "es": "Primero Anna debe decidir: la bonificación del camino.",
        "de": "Zuerst muss Anna entscheiden: der Wegbonus."},
    ("monasterium", "new_die_first", "roll_extra"): {
        "en": "First the table rolls the new personal die.",
        "it": "Prima il tavolo tira il nuovo dado personale.",
        "pl": "Najpierw stół rzuca nową kością osobistą.",
        "es": "Primero la mesa tira el dado personal nuevo.",
        "de": "Zuerst würfelt der Tisch den neuen persönlichen Würfel."},
}


@pytest.mark.parametrize("game, code, kind", sorted(OWED))
def test_a_decision_owed_first_is_said_in_every_language(games_in_context, game, code, kind):
    refused = next((live, r) for live, r in refusals_met(games_in_context, game, 1,
                                                          players=NAMES)
                   if r.code == code and r.params.get("kind") == kind)
    live, refusal = refused
    said = {lang: views.refused_json(live, lang, refusal)["message"] for lang in LANGS}
    assert said == OWED[game, code, kind]

"""Every illegal action class is refused with a reason and leaves the state byte-identical;
malformed actions (wrong types, missing fields, huge ints, bools for ints) raise only Refused.
"""
from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.api import Refused, template_fields
from engine.pillars import GAME, rules
from engine.pillars.texts import REASONS
from tests.engine.pillars.helpers import act, by, layout, new_game, position, strip, t
from tests.engine.pillars.test_examples import at_build, market_position, to_architects


def refused(s, action, code=None):
    before = json.dumps(strip(s), sort_keys=True)
    with pytest.raises(Refused) as e:
        GAME.apply(s, action)
    assert json.dumps(strip(s), sort_keys=True) == before
    if code:
        assert e.value.code == code, (e.value.code, code)
    template = REASONS[e.value.code]
    fields = template_fields(template)  # (both forms of a plural pair)
    assert fields <= set(e.value.params), (template, e.value.params)
    return e.value


def draft_state():
    s = new_game(3)
    s, _ = layout(s, privileges=["gold_8", "vp_2"])
    return s


CASES = [
    # (name, state factory, action, code)
    ("not a dict", lambda: new_game(2), ["pass"], "malformed_action"),
    ("no type", lambda: new_game(2), {"by": "N"}, "malformed_action"),
    ("unknown action", lambda: new_game(2), by("N", "fly"), "unknown_action"),
    ("unknown seat", lambda: new_game(2), by("S", "pass"), "unknown_seat"),
    ("seat sends table action", lambda: new_game(2), by("N", "reveal_event", card="storm"),
     "wrong_actor"),
    ("table sends seat action", draft_state, t("pass"), "wrong_actor"),
    ("host sends seat action", draft_state, {"type": "pass", "by": "host"}, "wrong_actor"),
    ("seat sends host action", lambda: new_game(2), by("N", "adjust", seat="N", gold=1),
     "wrong_actor"),
    ("reveal unknown card", lambda: new_game(2), t("reveal_privilege", card="nope"),
     "no_such_card"),
    ("reveal final privilege early", lambda: new_game(2),
     t("reveal_privilege", card="final_metal"), "final_privilege"),
    ("craftsman of another round", lambda: new_game(2),
     t("reveal_craftsman", card="mason_2"), "wrong_round_card"),
    ("starting craftsman revealed", lambda: new_game(2),
     t("reveal_craftsman", card="carpenter_blue"), "wrong_round_card"),
    ("draft before lay out", lambda: new_game(2), by("N", "pass"), "not_now"),
    ("draft out of turn", draft_state, by("E", "pass"), "not_your_turn"),
    ("material not in supply", draft_state, by("N", "take_material", card="sand_4"),
     "card_not_in_supply"),
    ("craftsman not in supply", draft_state, by("N", "take_craftsman", card="mason_2"),
     "card_not_in_supply"),
    ("material out of turn", draft_state, by("E", "take_material", card="stone_4"),
     "not_your_turn"),
    ("craftsman out of turn", draft_state, by("E", "take_craftsman", card="mason_2"),
     "not_your_turn"),
    ("craftsman before lay out", lambda: new_game(2),
     by("N", "take_craftsman", card="mason_2"), "not_now"),
    ("too few workers", lambda: act(draft_state(), by("N", "take_material", card="stone_4"),
                                    by("E", "pass"), by("S", "pass"))[0],
     by("N", "take_material", card="stone_3"), "not_enough_workers"),
    ("draw by a non-start seat", lambda: to_architects(3), by("E", "draw_architect", seat="E"),
     "wrong_actor"),
    ("draw an empty colour", lambda: to_architects(2),
     t("draw_architect", seat="S"), "unknown_seat"),
    ("place without a draw", lambda: to_architects(2), by("N", "place", space="prior1"),
     "not_your_turn"),
    ("place on no space", lambda: act(to_architects(2), t("draw_architect", seat="N"))[0],
     by("N", "place", space="mill1"), "no_such_space"),
    ("place unaffordable", lambda: _poor_draw(), by("N", "place", space="prior1"),
     "cannot_afford"),
    ("refuse by non-start", lambda: act(to_architects(2), t("draw_architect", seat="N"))[0],
     by("E", "refuse_draw"), "not_start_player"),
    ("second refusal", lambda: act(to_architects(2), t("draw_architect", seat="E"),
                                   by("N", "refuse_draw"), t("draw_architect", seat="E"))[0],
     by("N", "refuse_draw"), "refusal_used"),
    ("space taken", lambda: act(to_architects(2), t("draw_architect", seat="N"),
                                by("N", "place", space="prior1"),
                                t("draw_architect", seat="E"))[0],
     by("E", "place", space="prior1"), "space_taken"),
    ("bad tax face", lambda: position(new_game(2), "tax", queue=[]), t("roll_tax", face=6),
     "bad_die_value"),
    ("tax face a bool", lambda: position(new_game(2), "tax", queue=[]), t("roll_tax", face=True),
     "bad_die_value"),
    ("event twice", lambda: _event_seen(), t("reveal_event", card="storm"),
     "card_already_used"),
    ("buy metal", market_position, by("N", "buy", cube="metal", amount=1), "cannot_buy"),
    ("buy none", market_position, by("N", "buy", cube="sand", amount=0), "bad_field"),
    ("sell none", market_position, by("N", "sell", cube="metal", amount=0), "bad_field"),
    ("buy more than the market", market_position, by("N", "buy", cube="sand", amount=5),
     "market_short"),
    ("buy unaffordable", market_position, by("N", "buy", cube="stone", amount=2),
     "cannot_afford"),
    ("sell what you lack", market_position, by("N", "sell", cube="wood", amount=1),
     "cannot_afford"),
    ("market out of turn", market_position, by("E", "leave_market"), "not_your_turn"),
    ("build over capacity", lambda: at_build(new_game(2), "N", ["carpenter_blue"],
                                             {"wood": 10}),
     by("N", "build", uses={"carpenter_blue": 5}), "over_capacity"),
    ("build with a craftsman not held", lambda: at_build(new_game(2), "N", [], {}),
     by("N", "build", uses={"mason_1": 1}), "card_not_held"),
    ("build beyond holdings", lambda: at_build(new_game(2), "N", ["carpenter_blue"],
                                               {"wood": 3}),
     by("N", "build", uses={"carpenter_blue": 2}), "cannot_afford"),
    ("adjust too much", lambda: new_game(2), {"type": "adjust", "by": "host", "seat": "N",
                                              "gold": 11}, "adjust_out_of_range"),
    ("adjust below zero", lambda: new_game(2), {"type": "adjust", "by": "host", "seat": "N",
                                                "wood": -1}, "adjust_out_of_range"),
    ("start player after the draft", draft_state,
     {"type": "set_start_player", "by": "host", "seat": "E"}, "start_player_fixed"),
    ("game over", lambda: dict(new_game(2), over=True), by("N", "pass"), "game_over"),
    ("deal with nothing to deal", draft_state, t("deal"), "nothing_to_deal"),
]


def _poor_draw():
    s = to_architects(2)
    s["players"]["N"]["gold"] = 3
    s, _ = act(s, t("draw_architect", seat="N"))
    return s


def _event_seen():
    s = position(new_game(2), "event")
    s["seen"]["events"] = ["storm"]
    return s


@pytest.mark.parametrize("name,make,action,code", CASES, ids=[c[0] for c in CASES])
def test_illegal_action_refused_state_unchanged(name, make, action, code):
    refused(make(), action, code)


GARBAGE = [None, True, False, -1, 0, 1.5, 10 ** 30, -10 ** 30, "", "x" * 500, [], {}, [1],
           {"a": 1}, "N", "table", "wood", "prior1", "carpenter_blue"]
FIELDS = ["card", "seat", "space", "cube", "amount", "choice", "use", "uses", "cubes", "face",
          "part", "value",
          "to", "gold", "vp", "wood", "reason"]
TYPES = sorted(rules.TABLE_ACTIONS | rules.HOST_ACTIONS | rules.SEAT_ACTIONS) + ["nope", 3, None]
ACTORS = ["N", "E", "S", "W", "table", "host", 7, None, ""]


def _positions():
    out = []
    rnd = random.Random(5)
    s = new_game(3)
    while not s["over"]:
        if rnd.random() < 0.15:
            out.append(s)
        s, _ = GAME.apply(s, GAME.random_action(s, rnd))
    return out + [market_position(), at_build(new_game(2), "N", ["carpenter_blue"],
                                               {"wood": 7})]


POSITIONS = _positions()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(i=st.integers(0, len(POSITIONS) - 1), kind=st.sampled_from(TYPES),
       actor=st.sampled_from(ACTORS),
       fields=st.dictionaries(st.sampled_from(FIELDS), st.sampled_from(GARBAGE), max_size=4))
def test_fuzz_malformed_actions_raise_only_refused(i, kind, actor, fields):
    s = POSITIONS[i]
    before = json.dumps(strip(s), sort_keys=True)
    action = {"type": kind, "by": actor, **fields}
    with contextlib.suppress(Refused):
        GAME.apply(s, action)
    assert json.dumps(strip(s), sort_keys=True) == before
    for seat in ("N", "E", "S", "table", "zz"):
        GAME.choices(s, seat)
    GAME.preview(s, action)


def test_every_refused_choice_is_really_refused():
    for s in POSITIONS[::3]:
        for seat in s["seats"] + ["table"]:
            for c in GAME.choices(s, seat):
                if c.refused is None:
                    GAME.apply(s, c.action)
                else:
                    with pytest.raises(Refused):
                        GAME.apply(s, c.action)

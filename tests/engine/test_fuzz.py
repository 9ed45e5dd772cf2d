"""Garbage in: any action dict, at several points of a game, either applies or is refused
with a known code. Never another exception, never a change to the given state."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.api import Refused
from engine.wwe import GAME
from engine.wwe.reasons import REASONS
from engine.wwe.state import CARD_IDS
from tests.engine.wwe_helpers import at, english, new_game, plain, run_until

TYPES = ["reveal_event", "reveal_plague", "orient_event", "play_card", "answer_trade",
         "roll_tax", "choose_protection", "choose_target", "resolve_manual", "cure",
         "place_free_house", "return_houses", "adjust", "set_start_player", "record_discard",
         "correct", "bogus"]
scalars = hs.one_of(hs.none(), hs.booleans(), hs.integers(-3, 12), hs.text(max_size=6),
                    hs.sampled_from(["N", "E", "table", "host", "bridge", "site_01", "stone",
                                     "vp", "penance", "gold", "favor", "covers", "project",
                                     "plague", "slots", "supply", "start_player", *CARD_IDS]))
values = hs.recursive(scalars, lambda inner: hs.one_of(hs.lists(inner, max_size=3),
                                                      hs.dictionaries(hs.text(max_size=8),
                                                                      inner, max_size=3)),
                      max_leaves=6)
fields = ["card", "discard", "params", "perform", "rotation", "value", "accept",
          "cancel", "seat", "item", "delta", "location", "locations", "site", "sites", "index",
          "part", "key"]
actions = hs.fixed_dictionaries(
    {"type": hs.sampled_from(TYPES), "by": hs.sampled_from(["N", "E", "table", "host", "Q"])},
    optional={f: values for f in fields} | {
        "params": hs.dictionaries(hs.sampled_from(["item", "project", "stone", "wood", "wool",
                                                   "cloth", "site", "sites", "mode",
                                                   "locations"]), values, max_size=3)})


@pytest.fixture(scope="module")
def positions(shipped_catalog):
    import copy
    catalog = plain(copy.deepcopy(shipped_catalog))
    s = new_game(catalog, seats=("N", "E"))
    out = [s, run_until(s, at("orient_event")), run_until(s, at("play_card")),
           run_until(s, at("roll_tax")), run_until(s, at("play_card", chapter=3))]
    return out


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(action=actions, which=hs.integers(0, 4))
def test_garbage_is_refused_cleanly(positions, action, which):
    state = positions[which]
    before = json.dumps({k: v for k, v in state.items() if k != "cat"}, sort_keys=True)
    try:
        GAME.apply(state, action)
    except Refused as r:
        assert r.code in REASONS
        english(REASONS[r.code], r.params)
    assert json.dumps({k: v for k, v in state.items() if k != "cat"}, sort_keys=True) == before

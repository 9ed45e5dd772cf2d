"""Hypothesis property tests over random legal games (2, 3 and 4 players, random options).

Conservation of cubes, grey and black workers; gold 0..30; craftsmen <= 5; cubes <= 5 after
step 13; one architect a space; exactly 6 rounds; JSON round trip; replay; apply never
mutates its input; views hold no seed and no unrevealed card.
"""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.pillars import GAME, state
from engine.pillars.options import OPTIONS
from tests.engine.pillars.helpers import catalog, new_game, strip

CAT = catalog()


def play(n, seed, options=None, check=None):
    s = GAME.setup(CAT, {"players": [{"seat": x} for x in "NESW"[:n]], "seed": seed,
                         **({"options": options} if options else {})})
    rnd = random.Random(seed)
    actions, states, events = [], [s], []
    while not GAME.is_over(s):
        a = GAME.random_action(s, rnd)
        s, ev = GAME.apply(s, a)
        actions.append(a)
        states.append(s)
        events += ev
        if check:
            check(s, ev)
        assert len(actions) < 3000
    return s, actions, states, events


def invariants(s, ev):
    cap = state.board(s)["gold_cap"]
    total = s["cat"]["cubes"]
    for c in state.CUBES:
        held = sum(p["cubes"][c] for p in s["players"].values())
        extra = s["market"].get(c, 0) + (s["court_metal"] if c == "metal" else 0)
        assert s["sites"][c] + held + extra == total[c], c
        assert s["sites"][c] >= 0
    for c in state.BUYABLE:
        assert 0 <= s["market"][c] <= state.board(s)["market_stock"]
    grey = s["castle"] + sum(p["grey"] + p["grey_next"] for p in s["players"].values())
    assert grey == state.board(s)["grey_workers"]
    assert s["black_free"] + sum(p["black"] for p in s["players"].values()) == 1
    for seat, p in s["players"].items():
        assert 0 <= p["gold"] <= cap
        assert p["vp"] >= 0
        if s["pending"] is None or s["pending"]["seat"] != seat:
            assert len(p["craftsmen"]) <= state.board(s)["craftsman_limit"]
        assert p["committed"] + p["mill"] <= state.worker_total(s, seat)
        if s["phase"] == "prep":
            assert state.storage_count(s, seat) <= state.board(s)["storage_limit"]
    per_seat = {}
    for space, seat in s["spaces"].items():
        assert state.space_loc(s, space) is not None
        per_seat[seat] = per_seat.get(seat, 0) + 1
    assert all(v <= 3 for v in per_seat.values())
    assert len(set(s["spaces"])) == len(s["spaces"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10 ** 6))
def test_random_games_keep_invariants_and_last_six_rounds(n, seed):
    s, actions, states, events = play(n, seed, check=invariants)
    assert s["round"] == 6 and s["cathedral"] == 6
    assert [e["round"] for e in events if e["type"] == "round_ended"] == [1, 2, 3, 4, 5, 6]
    for seat in s["players"]:
        assert state.storage_count(s, seat) <= 5
    assert GAME.prompts(s) == [] and GAME.scores(s)[0]["winner"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10 ** 6),
       opt=st.fixed_dictionaries({k: st.sampled_from(v[1]) for k, v in OPTIONS.items()}))
def test_random_options_games_finish(n, seed, opt):
    def check(s, ev):
        if opt["gold_cap_all_gains"]:
            assert all(p["gold"] <= 30 for p in s["players"].values())
    s, *_ = play(n, seed, opt, check)
    assert s["over"] and s["round"] == 6


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10 ** 6))
def test_json_round_trip_replay_and_no_mutation(n, seed):
    s, actions, states, _ = play(n, seed)
    for st_ in states[::7]:
        assert json.loads(json.dumps(st_)) == st_
    # replay from setup gives the same state
    r = GAME.setup(CAT, {"players": [{"seat": x} for x in "NESW"[:n]], "seed": seed})
    for i, a in enumerate(actions):
        before = json.dumps(strip(r), sort_keys=True)
        r2, _ = GAME.apply(r, a)
        assert json.dumps(strip(r), sort_keys=True) == before  # input not mutated
        r = r2
        if i % 50 == 0:
            assert strip(r) == strip(states[i + 1])
    assert strip(r) == strip(s)


def _strings(x, out):
    if isinstance(x, dict):
        for k, v in x.items():
            out.add(k)
            _strings(v, out)
    elif isinstance(x, list):
        for v in x:
            _strings(v, out)
    elif isinstance(x, str):
        out.add(x)
    return out


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10 ** 6))
def test_views_hide_seed_and_unrevealed_cards(n, seed):
    _, _, states, _ = play(n, seed)
    for s in states[::11]:
        unseen_events = set(s["cat"]["events"]) - set(s["seen"]["events"])
        unseen_priv = set(s["cat"]["deck_privileges"]) - set(s["seen"]["privileges"])
        views = [GAME.public_view(s)] + [GAME.seat_view(s, x) for x in s["seats"]]
        for v in views:
            assert "seed" not in v and "rng_n" not in v and "cat" not in v
            words = _strings(v, set())
            assert not words & unseen_events
            assert not words & unseen_priv
            assert str(s["seed"]) not in json.dumps(v) or s["seed"] < 100


def test_views_are_json_and_seat_view_is_public_plus_own():
    s = new_game(3)
    pub = GAME.public_view(s)
    for seat in s["seats"]:
        v = GAME.seat_view(s, seat)
        assert json.loads(json.dumps(v)) == v
        assert {k: v[k] for k in pub} == pub
        assert v["me"] == seat


def test_record_replay_through_engine_record():
    from engine import record as records

    s, actions, _, events = play(4, 11)
    setup = {"players": [{"seat": x} for x in "NESW"], "seed": 11}
    rec = json.loads(json.dumps(records.build("pillars", setup, actions,
                                             GAME.info.rules_version)))
    final, ev = records.replay(GAME, CAT, rec)
    assert strip(final) == strip(s) and ev == events


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10 ** 6))
def test_every_prompt_has_a_legal_choice_and_previews(n, seed):
    _, _, states, _ = play(n, seed)
    for s in states[:-1:5]:
        for p in GAME.prompts(s):
            legal = [c for c in GAME.choices(s, p.seat) if c.refused is None]
            assert legal, (p.kind, s["phase"])
            assert GAME.preview(s, legal[0].action) is not None


def _placeholders(template):
    """The fields a text names; a counted text is a (singular, plural) pair: both forms'."""
    import string

    forms = template if isinstance(template, tuple) else (template,)
    return {f for form in forms for _, f, _, _ in string.Formatter().parse(form) if f}


def test_templates_fill_from_their_events_prompts_and_refusals():
    from engine.pillars.texts import EVENT_TEXTS, PROMPT_TEXTS, REASONS

    seen_events, seen_prompts, seen_refusals = set(), set(), set()
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        _, _, states, events = play(n, seed)
        for e in events:
            assert _placeholders(EVENT_TEXTS[e["type"]]) <= set(e), e
            seen_events.add(e["type"])
        for s in states[::3]:
            for p in GAME.prompts(s):
                assert _placeholders(PROMPT_TEXTS[p.kind]) <= set(p.params), p
                seen_prompts.add(p.kind)
                for c in GAME.choices(s, p.seat):
                    if c.refused:
                        r = c.refused
                        assert _placeholders(REASONS[r["code"]]) <= set(r["params"]), r
                        seen_refusals.add(r["code"])
    assert len(seen_events) >= 30 and len(seen_prompts) >= 12

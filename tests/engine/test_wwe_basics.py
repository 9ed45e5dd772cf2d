"""Setup, the round steps, views and refusals of the World Without End engine."""
from __future__ import annotations

import json

from engine.wwe import GAME
from tests.engine.wwe_helpers import act, head, new_game, refused, res, vp


def test_setup_start_values(catalog):
    """§1.4/§2: 8 VP, 1 wool, 2 gold; supplies filled; cloth space covered (S16)."""
    s = new_game(catalog, seats=("N", "S"))
    assert vp(s, "N") == 8 and res(s, "N")["wool"] == 1 and res(s, "N")["gold"] == 2
    assert s["supply"]["stone"] == 25 and s["supply"]["grain"] == 10
    assert s["covers"]["market"] == ["cloth"]
    assert "bridge" in s["projects"] and "tower" not in s["projects"]
    assert len(s["players"]["N"]["hand"]) == 12
    assert head(s)["kind"] == "reveal_event"
    assert json.loads(json.dumps(s)) == s


def test_first_game_six_starred_cards(catalog):
    """S4: first game, chapter I: only the 6 starred action cards."""
    s = new_game(catalog, seats=("N", "S"), first_game=True)
    hand = s["players"]["N"]["hand"]
    assert len(hand) == 6 and "privilege" in hand and "favor" not in hand


def test_round_reveal_orient_play(catalog):
    s = new_game(catalog, seats=("N", "E", "S", "W"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")  # active gains 2 VP
    assert vp(s, "N") == 10
    assert head(s)["kind"] == "orient_event"
    s = act(s, type="orient_event", by="N", rotation=0)
    # corners ['mk', 'vp', 'grain', 'loyalty'] at rotation 0: N mk, E vp, S grain, W loyalty
    assert res(s, "N")["mk"] == 1 and vp(s, "E") == 9
    assert res(s, "S")["grain"] == 1 and res(s, "W")["loyalty"] == 1
    assert head(s) == {"do": "await", "kind": "play_card", "seat": "N"}
    s = act(s, type="play_card", by="N", card="grain", discard="piety", params={})
    assert res(s, "N")["grain"] == 1 and s["players"]["N"]["discards"] == ["piety"]
    assert head(s)["seat"] == "E"


def test_views_hide_private_data(catalog):
    s = new_game(catalog, seats=("N", "S"), seed=987654)
    pub = json.dumps(GAME.public_view(s))
    assert "987654" not in pub and "hand\"" not in pub and "resources" not in pub
    mine = GAME.seat_view(s, "N")
    assert mine["private"]["resources"]["gold"] == 2
    assert "987654" not in json.dumps(mine)
    assert "private" in mine and mine["seat"] == "N"


def test_wrong_seat_refused_state_unchanged(catalog):
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    r = refused(s, type="orient_event", by="S", rotation=0)
    assert r.code == "not_your_turn"


def containers(node, found=None) -> set[int]:
    """The ids of every dict and list in ``node`` (the catalog's are left out: a view may
    show catalog texts, which nobody changes)."""
    found = set() if found is None else found
    if isinstance(node, dict | list) and id(node) not in found:
        found.add(id(node))
        for value in (node.values() if isinstance(node, dict) else node):
            containers(value, found)
    return found


def test_apply_never_mutates_its_input_and_round_trips(catalog):
    """apply works on a copy (engine/api.py): the given state is unchanged, also on refusal;
    every state survives JSON exactly."""
    import random

    rnd = random.Random(4)
    s = GAME.setup(catalog, {"players": [{"seat": x} for x in "NESW"], "seed": 4,
                             "options": {"plague_values": "app"}})
    steps = 0
    while (action := GAME.random_action(s, rnd)) is not None:
        before = json.dumps(s, sort_keys=True)
        new, _ = GAME.apply(s, action)
        refused(new, type="play_card", by="N", card="nope")  # unchanged on refusal too
        assert json.dumps(s, sort_keys=True) == before
        # a view shares no container with the state (views are read-only to their callers
        # and kept between calls, engine/viewparts.py; the state must not be reachable)
        view, position = GAME.seat_view(new, "N"), {id(new)}
        for key, value in new.items():
            if key != "cat":
                containers(value, position)
        assert not (containers(view) & position) - containers(new["cat"])
        assert json.loads(json.dumps(new)) == new
        s = new
        steps += 1
    assert s["over"] and steps > 100


def test_seat_view_holds_only_its_own_secrets(catalog):
    """Private information goes only to its seat: other seats show counts, never contents."""
    s = new_game(catalog, seats=("N", "E"))
    s["players"]["E"]["res"]["mk"] = 4
    view = GAME.seat_view(s, "N")
    east = view["seats"]["E"]
    assert set(east) == set(GAME.public_view(s)["seats"]["E"])
    assert "res" not in east and "hand" not in east and "discards" not in east
    assert east["hand_count"] == 12
    assert view["private"]["resources"]["mk"] == 0
    assert "rng" not in json.dumps(view) and "seed" not in json.dumps(view)
    # hidden plague values appear in no view
    s["plague"] = {"3": {"state": "hidden", "value": 5}}
    assert GAME.public_view(s)["plague"]["3"]["value"] is None
    assert GAME.seat_view(s, "E")["plague"]["3"]["value"] is None


def test_orient_choices_preview_every_seat(catalog):
    """The table's live preview: each rotation with favor steps, landing space, every seat's
    income; the public part carries no private counts."""
    s = new_game(catalog, seats=("N", "E", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")  # corners mk vp grain loyalty
    choices = GAME.choices(s, "N")
    assert sorted(c.action["rotation"] for c in choices) == [0, 1, 2, 3]
    zero = next(c for c in choices if c.action["rotation"] == 0)
    assert zero.effect["income"] == {"N": {"mk": 1}, "E": {"vp": 1}, "S": {"grain": 1}}
    assert set(zero.effect["public"]) == {"favor", "space", "income"}
    values = {c.effect["favor"] for c in choices}
    assert values == {0, 1, 2, 3}
    assert all(c.effect["space"] is None for c in choices if c.effect["favor"] == 0)


def test_bad_setups_refused(catalog):
    import pytest

    from engine.api import Refused

    bad = [
        {"players": [{"seat": "N"}]},
        {"players": [{"seat": "N"}, {"seat": "N"}]},
        {"players": [{"seat": "N"}, {"seat": "X"}]},
        {"players": [{"seat": "N", "colour": "pink"}, {"seat": "S"}]},
        {"players": [{"seat": "N", "colour": "red"}, {"seat": "S", "colour": "red"}]},
        {"players": [{"seat": "N"}, {"seat": "S"}], "start_seat": "E"},
        {"players": [{"seat": "N"}, {"seat": "S"}], "seed": [1]},
        "nonsense",
    ]
    for setup in bad:
        with pytest.raises(Refused) as info:
            GAME.setup(catalog, setup)
        assert info.value.code == "bad_setup", setup

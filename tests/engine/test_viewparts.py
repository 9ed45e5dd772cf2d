"""The games' views keep the parts that did not change as the same objects (engine/viewparts.py),
and say exactly what views made from nothing say."""
from __future__ import annotations

import importlib
import json
import random

import pytest

from companion.box.catalog import load_catalog
from companion.game import games
from engine import viewparts
from engine.api import random_move

GAMES = ("wwe", "pillars", "monasterium")


def test_a_part_is_given_back_only_for_the_same_catalog_and_the_same_json():
    parts = viewparts.Parts()
    cat, other_cat = {"x": 1}, {"x": 1}
    made = []

    def make(value):
        return lambda: made.append(value) or {"made": value}

    first = parts.get(cat, ("vp", 1), make(1))
    assert parts.get(cat, ("vp", 1), make(1)) is first and made == [1]
    # equal for ==, but another JSON: a bool, a float, another key order; another catalog
    assert parts.get(cat, ("vp", True), make(True)) == {"made": True}
    assert parts.get(cat, ("vp", 1.0), make(1.0)) == {"made": 1.0}
    assert parts.get(other_cat, ("vp", 1), make(1)) is not first
    a = parts.get(cat, {"a": 1, "b": 2}, make("ab"))
    assert parts.get(cat, {"b": 2, "a": 1}, make("ba")) is not a
    assert made == [1, True, 1.0, 1, "ab", "ba"]


def test_a_group_of_the_same_parts_is_the_group_before():
    parts = viewparts.Parts()
    one, two = {"vp": 1}, {"vp": 2}
    group = parts.same({"A": one, "B": two})
    assert parts.same({"A": one, "B": two}) is group
    assert parts.same({"A": one, "B": {"vp": 2}}) is not group
    assert parts.same({"B": two, "A": one}) is not group  # another key order
    items = parts.same([one, two])
    assert parts.same([one, two]) is items and parts.same([two, one]) is not items


def test_a_full_memo_starts_again():
    parts = viewparts.Parts(size=3)
    cat = {}
    for n in range(10):
        assert parts.get(cat, n, lambda n=n: [n]) == [n]
    assert len(parts._memo) <= 3


def _states(game: str, seed: int, actions: int):
    module = games.module_of(game)
    seats = [s.id for s in module.info.seats][:min(4, module.info.max_players)]
    state = module.setup(load_catalog(game), {
        "players": [{"seat": s, "name": f"Player {s}"} for s in seats], "seed": seed})
    rnd = random.Random(seed)
    yield module, seats, state
    for _ in range(actions):
        action = random_move(module, state, rnd)
        if action is None:
            return
        state, _events = module.apply(state, action)
        yield module, seats, state


@pytest.mark.parametrize("game", GAMES)
def test_views_with_kept_parts_say_what_views_made_anew_say(game, monkeypatch):
    """Every part the memo gives back equals the part made from nothing (a forgotten input
    would show here), and an unchanged seat's row is the object of the view before."""
    module_views = importlib.import_module(games.module_of(game).public_view.__module__)
    kept_rows = 0
    before = None
    for module, seats, state in _states(game, 3, 250):
        kept = module.public_view(state)
        kept_private = [module.private_view(state, seat) for seat in seats]
        with monkeypatch.context() as m:
            m.setattr(module_views, "_PARTS", viewparts.Parts())  # nothing made before
            fresh = module.public_view(state)
            fresh_private = [module.private_view(state, seat) for seat in seats]
        assert json.dumps(kept) == json.dumps(fresh)
        assert json.dumps(kept_private) == json.dumps(fresh_private)
        rows = "seats" if game == "wwe" else "players"
        if before is not None:
            for seat in seats:
                same_json = json.dumps(before[rows][seat]) == json.dumps(kept[rows][seat])
                kept_rows += same_json and before[rows][seat] is kept[rows][seat]
        before = kept
    assert kept_rows > 100  # most actions change one seat's row at most


def test_pillars_cards_come_in_the_order_they_turned_face_up():
    """A card turned up is added at the end of ``cards`` (a phone's patch only adds it), and
    the cards in view keep their order. Materials are the exception: in view only in their
    round, they stand in catalog order."""
    added = 0
    before = None
    for module, _seats, state in _states("pillars", 5, 500):
        view = module.public_view(state)
        keys = list(view["cards"])
        if before is not None:
            assert [k for k in keys if k in before] == [k for k in before if k in keys]
            new = [k for k in keys if k not in before]
            if new and view["cards"][new[0]]["part"] != "materials":
                assert keys[-len(new):] == new
                added += 1
        before = keys
    assert added > 20


@pytest.mark.parametrize("name", GAMES)
def test_a_view_changed_in_place_fails_loudly_where_its_parts_are_given_again(name):
    """Views share parts between calls and recipients; a caller who edits one would corrupt
    the others' silently. In tests the next view that would share it raises instead."""
    module = games.module_of(name)
    state = module.setup(load_catalog(name), {"players": [{"seat": s, "name": s}
                                                          for s in ("N", "E", "S")],
                                              "seed": 3})
    view = module.public_view(state)
    assert module.public_view(state) == view  # untouched: given again, no complaint
    for part in view.values():  # a careless caller marks every part it got
        if isinstance(part, dict):
            part["changed by a caller"] = True
        elif isinstance(part, list):
            part.append("changed by a caller")
    parts = importlib.import_module(f"engine.{name}.views")._PARTS
    try:
        with pytest.raises(viewparts.SharedPartChanged, match="changed in place"):
            module.public_view(state)
    finally:  # the corrupted parts go, so no later test meets them
        parts._memo.clear()
        parts._made.clear()

"""View patches (companion/game/patches.py): exact, and small where the views are alike."""
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.patches import apply, diff

JSONS = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner,
                                                                 max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(JSONS, JSONS)
def test_apply_of_diff_gives_the_new_document(old, new):
    import copy

    kept = copy.deepcopy(old)
    ops = diff(old, new)
    assert json.dumps(apply(old, ops)) == json.dumps(new)  # byte for byte: order, types
    assert old == kept  # the input is shared, never changed


def test_keys_in_another_order_are_sent_in_the_new_order():
    """Two objects with the same keys in another order are ==, but not the same JSON."""
    old = {"a": {"x": 1, "y": [1, {"p": 1, "q": 2}]}, "n": 1}
    for new in ({"a": {"y": [1, {"p": 1, "q": 2}], "x": 1}, "n": 1},
                {"a": {"x": 1, "y": [1, {"q": 2, "p": 1}]}, "n": 1},
                {"n": 1, "a": {"x": 1, "y": [1, {"p": 1, "q": 2}]}},
                {"a": {"x": 1.0, "y": [True, {"p": 1, "q": 2}]}, "n": 1}):
        assert new == old or new["a"]["x"] == 1.0
        assert json.dumps(apply(old, diff(old, new))) == json.dumps(new)
    moved = {"a": 1, "b": 2, "c": 3, "d": 4}
    assert diff(moved, {"a": 1, "c": 3, "d": 4, "b": 2}) == [["d", ["b"]], ["s", ["b"], 2]]
    grown = {"a": {"x": 1, "y": [1, {"p": 1, "q": 2}], "z": 0}, "n": 1}
    assert diff(old, grown) == [["s", ["a", "z"], 0]]  # a new key at the end: only it


def test_types_are_kept_exactly():
    assert apply({"a": 1}, diff({"a": 1}, {"a": True})) == {"a": True}
    assert apply({"a": True}, diff({"a": True}, {"a": 1}))["a"] is not True
    assert diff({"a": 1.0}, {"a": 1}) == [["s", ["a"], 1]]


def test_a_scrolling_log_is_trimmed_and_appended():
    old = {"log": [{"seq": i} for i in range(60)], "version": 7}
    new = {"log": [{"seq": i} for i in range(2, 63)], "version": 8}
    ops = diff(old, new)
    assert ops == [["t", ["log"], 2], ["a", ["log"], [{"seq": 60}, {"seq": 61}, {"seq": 62}]],
                   ["s", ["version"], 8]]
    assert apply(old, ops) == new
    assert len(json.dumps(ops)) < len(json.dumps(new)) / 5


def test_a_whole_world_without_end_game_patches_exactly():
    """Every consecutive pair of real views of a random game."""
    from companion.box.catalog import load_catalog
    from engine.wwe import GAME

    state = GAME.setup(load_catalog("wwe"), {"players": [{"seat": s, "name": s}
                                                         for s in "NES"], "seed": 2})
    rnd = random.Random(2)
    previous = GAME.seat_view(state, "N")
    for _ in range(150):  # (a random game may end sooner: 148 actions with seed 2)
        if state["over"]:
            break
        state, _ = GAME.apply(state, GAME.random_action(state, rnd))
        view = GAME.seat_view(state, "N")
        assert apply(previous, diff(previous, view)) == view
        previous = view


def test_replica_applies_swapped_patches_in_base_order():
    """engineio's Python client can hand two patches to their handlers swapped."""
    from companion.game.patches import Replica

    seen = []
    replica = Replica(seen.append)
    v0 = {"n": 0, "log": [1]}
    v1 = {"n": 1, "log": [1, 2]}
    v2 = {"n": 2, "log": [2, 3]}
    replica.view(v0)
    replica.patch({"base": 1, "n": 2, "ops": diff(v1, v2)})  # before its base
    assert replica.current == v0
    replica.patch({"base": 0, "n": 1, "ops": diff(v0, v1)})
    assert seen == [v0, v1, v2] and replica.current == v2
    # a full view drops patches older than itself, keeps a later one waiting for it
    replica.patch({"base": 3, "n": 4, "ops": [["s", ["log"], []]]})
    replica.patch({"base": 1, "n": 2, "ops": [["s", ["stale"], True]]})
    replica.view({"n": 3, "log": [9]})
    assert replica.current == {"n": 4, "log": []}


def test_a_few_changed_objects_of_a_list_are_patched_inside():
    """A table step's count, one player's row: the changed keys, not the whole list."""
    players = [{"seat": s, "vp": 3, "name": f"Player {s}", "coins": 5} for s in "NESW"]
    old = {"players": players, "steps": [{"kind": "lay_out", "done": 1, "of": 4,
                                          "text": "lay out card 2 of 4", "zone": "shiring"}]}
    new = {"players": [dict(players[0]), dict(players[1], vp=4), *players[2:]],
           "steps": [dict(old["steps"][0], done=2, text="lay out card 3 of 4")]}
    ops = diff(old, new)
    assert ops == [["s", ["players", 1, "vp"], 4], ["s", ["steps", 0, "done"], 2],
                   ["s", ["steps", 0, "text"], "lay out card 3 of 4"]]
    assert apply(old, ops) == new
    # scalars, or every item changed: the list is set whole (smaller than one op per item)
    assert diff({"dice": [1, 2, 3]}, {"dice": [1, 5, 3]}) == [["s", ["dice"], [1, 5, 3]]]
    moved = [dict(p, vp=9) for p in players]
    assert diff({"players": players}, {"players": moved}) == [["s", ["players"], moved]]

"""The shared path (companion/game/shared.py: what every view of one state shares, computed
once) gives exactly the views of the unshared path, for every recipient, over whole random
games of every installed game; and a shared value is never served for another state.
"""
from __future__ import annotations

import random

import pytest

from companion import context
from companion.game import games, shared, views
from companion.game.service import Identity
from engine.api import random_move
from tests.companion.conftest import make_app

LANGS = ("en", "pl")


def recipients(live):
    return ([("seat", seat) for seat in live.seats]
            + [("table", None), ("host", None), ("viewer", None)])


def new_game(app, game, seed):
    module = games.module_of(game)
    seats = [s.id for s in module.info.seats][:min(4, module.info.max_players)]
    players = [{"seat": s, "name": f"Player {s}"} for s in seats]
    return context.of(app).service.create(game, {"players": players, "seed": seed}, "1234")


def who(live, by):
    if by in live.seats:
        return Identity("seat", live.id, by)
    return Identity("host" if by == "host" else "table", live.id)


def assert_same_views(live, langs=LANGS):
    for lang in langs:
        for role, seat in recipients(live):
            kept = views.build(live, role, seat, lang, connected={live.seats[0]})
            again = views.build(live, role, seat, lang, connected={live.seats[0]})
            fresh = views.build(live, role, seat, lang, connected={live.seats[0]},
                                shared=shared.Fresh(live))
            assert kept == fresh, (live.kind.name, live.version, role, seat, lang)
            assert again == fresh
            assert kept["version"] == live.version


@pytest.mark.parametrize("game", games.known())
def test_shared_views_equal_fresh_ones_over_a_whole_game(tmp_path, game):
    app = make_app(tmp_path)
    with app.app_context():
        live = new_game(app, game, seed=3)
        service = context.of(app).service
        module = live.kind.module
        rnd = random.Random(3)
        assert_same_views(live)
        for step in range(400):
            action = random_move(module, live.state, rnd)
            if action is None:
                break
            service.act(who(live, action.get("by", "")), action)
            assert_same_views(live, LANGS if step % 7 == 0 else LANGS[:1])
        assert step > 10, "the random player played a game"
        assert_same_views(live)
        context.of(app).service.store.close()


@pytest.mark.parametrize("game", games.known())
def test_seat_view_is_the_public_view_plus_the_private_part(tmp_path, game):
    """The shared path builds a seat's view from the public view and ``private_view``:
    the game's own ``seat_view`` must be exactly that."""
    app = make_app(tmp_path)
    with app.app_context():
        live = new_game(app, game, seed=5)
        module = live.kind.module
        if not hasattr(module, "private_view"):
            pytest.skip("the game declares no private_view: its seat_view is used")
        rnd = random.Random(5)
        state = live.state
        for _ in range(300):
            for seat in live.seats:
                assert module.seat_view(state, seat) == {**module.public_view(state),
                                                         **module.private_view(state, seat)}
            action = random_move(module, state, rnd)
            if action is None:
                break
            state, _ = module.apply(state, action)
        context.of(app).service.store.close()


def test_no_view_of_an_older_state_after_undo_and_a_new_action(tmp_path):
    """Undo returns to a version number seen before, and another action makes another
    state of that number: every view is of the state now, never the one kept before."""
    app = make_app(tmp_path)
    with app.app_context():
        live = new_game(app, "wwe", seed=7)
        service = context.of(app).service
        module = live.kind.module
        rnd = random.Random(7)
        for _ in range(12):
            action = random_move(module, live.state, rnd)
            service.act(who(live, action["by"]), action)
        before = live.state
        seen = views.build(live, "table", None, "en")
        service.undo(live.id, 1)
        assert_same_views(live)
        assert views.build(live, "table", None, "en")["version"] == seen["version"] - 1
        prompt = module.prompts(live.state)[0]
        asker = prompt.seat if prompt.seat != "table" else live.state["active"]
        other = next(c.action for c in module.choices(live.state, asker)
                     if c.refused is None and module.apply(live.state, c.action)[0] != before)
        service.act(who(live, other["by"]), other)
        assert live.version == seen["version"]
        assert_same_views(live)
        assert views.build(live, "table", None, "en")["view"] != seen["view"]
        context.of(app).service.store.close()

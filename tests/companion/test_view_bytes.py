"""What the cheaper view path sends is byte for byte what the plain path would: over seeded
games of every installed game, for every recipient, the shared view (translations reused
from the state before, companion/game/shared.py) encodes to the same JSON as a view made anew
(`shared.Fresh`), a phone that applies the patches (companion/game/patches.py) holds the same
bytes, and the log window kept up to date action by action equals the one read from the
whole log. The plain path also starts the engines' kept view parts (engine/viewparts.py)
from nothing, so a caller writing into a view it was given (views are read-only) would
show here as a difference."""
from __future__ import annotations

import contextlib
import importlib
import json
import random

import pytest

from companion import context
from companion.game import games, patches, shared, views
from engine import viewparts
from engine.api import random_move
from tests.companion.conftest import make_app
from tests.companion.test_shared_views import new_game, recipients, who


def encoded(view: dict) -> str:
    return json.dumps(view, ensure_ascii=False)


@contextlib.contextmanager
def parts_from_nothing(module):
    """The game's views with an empty memo of kept parts, for the time of the block."""
    views_module = importlib.import_module(module.public_view.__module__)
    kept = getattr(views_module, "_PARTS", None)
    if kept is not None:
        views_module._PARTS = viewparts.Parts()
    try:
        yield
    finally:
        if kept is not None:
            views_module._PARTS = kept


def window_from_scratch(live, lang: str) -> list:
    """The log window read back from the whole log (the incremental one put aside)."""
    key = ("window", lang)
    kept = live.log_cache.pop(key, None)
    try:
        return views.log_window(live, lang, views.Namer(live, lang))
    finally:
        if kept is not None:
            live.log_cache[key] = kept


@pytest.mark.parametrize("game", games.known())
def test_views_patches_and_log_are_byte_identical_to_the_plain_path(tmp_path, game):
    app = make_app(tmp_path)
    with app.app_context():
        live = new_game(app, game, seed=11)
        service = context.of(app).service
        module = live.kind.module
        rnd = random.Random(11)
        held: dict = {}  # (role, seat, lang) -> the view a client holds, patch by patch
        steps = 0
        for step in range(160):
            langs = ("en", "de") if step % 5 == 0 else ("en",)
            memo: dict = {}
            for lang in langs:
                for role, seat in recipients(live):
                    view = views.build(live, role, seat, lang, connected={live.seats[0]})
                    with parts_from_nothing(module):
                        fresh = views.build(live, role, seat, lang, connected={live.seats[0]},
                                            shared=shared.Fresh(live))
                    assert encoded(view) == encoded(fresh), (game, step, role, seat, lang)
                    before = held.get((role, seat, lang))
                    if before is not None:
                        ops = patches.diff(before, view, memo=memo)
                        assert encoded(patches.apply(before, ops)) == encoded(view)
                    held[(role, seat, lang)] = view
                window = views.log_window(live, lang, views.Namer(live, lang))
                assert window == window_from_scratch(live, lang), (game, step, lang)
            action = random_move(module, live.state, rnd)
            if action is None:
                break
            service.act(who(live, action.get("by", "")), action)
            steps += 1
        assert steps > 10, "the random player played a game"
        service.store.close()


def test_the_log_window_after_undo_is_read_from_the_log_again(tmp_path):
    """Undo makes a new log: the window kept for the old one is not extended."""
    app = make_app(tmp_path)
    with app.app_context():
        live = new_game(app, "wwe", seed=4)
        service = context.of(app).service
        rnd = random.Random(4)
        for _ in range(30):
            action = random_move(live.kind.module, live.state, rnd)
            service.act(who(live, action["by"]), action)
            views.log_window(live, "en", views.Namer(live, "en"))
        service.undo(live.id, 3)
        for _ in range(5):
            action = random_move(live.kind.module, live.state, rnd)
            service.act(who(live, action["by"]), action)
            window = views.log_window(live, "en", views.Namer(live, "en"))
            assert window == window_from_scratch(live, "en")
            assert [e["seq"] for _, e in window] == sorted(e["seq"] for _, e in window)
            assert window[-1][1]["seq"] == live.log[-1][0]
        service.store.close()

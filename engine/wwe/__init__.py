"""World Without End (Kosmos 2009) as a game module: ``engine.wwe.GAME``.

Rules: /work/shared/rules/world-without-end.md. Documentation: docs/engine.md,
docs/options.md. The module is pure: no I/O, no clock, no global state.
"""
from __future__ import annotations

from engine.wwe import actions, choices, state, views


class _WorldWithoutEnd:
    """The GameModule of engine/api.py for World Without End."""

    name = "wwe"

    @staticmethod
    def setup(catalog, setup):
        return state.setup(catalog, setup)

    @staticmethod
    def apply(s, action):
        return actions.apply(s, action)

    @staticmethod
    def prompts(s):
        return views.prompts(s)

    @staticmethod
    def choices(s, seat):
        return choices.choices(s, seat)

    @staticmethod
    def public_view(s):
        return views.public_view(s)

    @staticmethod
    def seat_view(s, seat):
        return views.seat_view(s, seat)

    @staticmethod
    def scores(s):
        return views.scores(s)

    @staticmethod
    def random_action(s, rnd):
        """A random legal action (see engine.wwe.choices.random_action)."""
        return choices.random_action(s, rnd)


GAME = _WorldWithoutEnd()

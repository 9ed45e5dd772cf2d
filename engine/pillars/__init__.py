"""The Pillars of the Earth (Kosmos 2006) as a game module: ``engine.pillars.GAME``.

Rules: /work/shared/rules/pillars-of-the-earth.md. Documentation: docs/pillars.md,
docs/pillars-options.md. The module is pure: no I/O, no clock, no global state.
"""
from __future__ import annotations

from engine.pillars import choices, rules, views
from engine.pillars.info import INFO


class _Pillars:
    """The GameModule of engine/api.py for The Pillars of the Earth."""

    name = "pillars"
    info = INFO

    @staticmethod
    def setup(catalog, setup):
        return rules.setup(catalog, setup)

    @staticmethod
    def apply(s, action):
        return rules.apply(s, action)

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
    def is_over(s):
        return views.is_over(s)

    @staticmethod
    def preview(s, action):
        return choices.preview(s, action)

    @staticmethod
    def random_action(s, rnd):
        return choices.random_action(s, rnd)


GAME = _Pillars()

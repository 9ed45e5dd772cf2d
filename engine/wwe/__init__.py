"""World Without End (Kosmos 2009) as a game module: ``engine.wwe.GAME``.

Rules: /work/shared/rules/world-without-end.md. Documentation: docs/engine.md,
docs/options.md. The module is pure: no I/O, no clock, no global state.
"""
from __future__ import annotations

from engine.wwe import actions, choices, state, views
from engine.wwe.info import INFO


class _WorldWithoutEnd:
    """The GameModule of engine/api.py for World Without End."""

    name = "wwe"
    info = INFO

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
    def is_over(s):
        return s.get("over") is True

    @staticmethod
    def preview(s, action):
        """Turning the event card: the public part of what the orientation gives (never
        the active seat's own gains, which can reveal hidden counts: King = loyalty)."""
        if not isinstance(action, dict) or action.get("type") != "orient_event":
            return None
        for prompt in views.prompts(s):
            if prompt.kind != "orient_event":
                continue
            for choice in choices.choices(s, prompt.seat):
                if choice.action.get("type") == "orient_event" and \
                        choice.action.get("rotation") == action.get("rotation"):
                    return {"action": {"type": "orient_event", "by": prompt.seat,
                                       "rotation": action.get("rotation")},
                            "rotation": action.get("rotation"), "seat": prompt.seat,
                            "effect": choice.effect["public"]}
        return None

    @staticmethod
    def random_action(s, rnd):
        """A random legal action (see engine.wwe.choices.random_action)."""
        return choices.random_action(s, rnd)


GAME = _WorldWithoutEnd()

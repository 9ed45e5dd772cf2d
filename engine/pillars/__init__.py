"""The Pillars of the Earth (Kosmos 2006) as a game module: ``engine.pillars.GAME``.

Rules: /work/shared/rules/pillars-of-the-earth.md. Documentation: docs/pillars.md,
docs/pillars-options.md. The module is pure: no I/O, no clock, no global state.
"""
from __future__ import annotations

from engine.pillars import choices as C
from engine.pillars import rules as R
from engine.pillars import views as V
from engine.pillars.info import INFO


class _Pillars:
    """The GameModule of engine/api.py for The Pillars of the Earth."""

    name = "pillars"
    info = INFO
    setup = staticmethod(R.setup)
    apply = staticmethod(R.apply)
    prompts = staticmethod(V.prompts)
    choices = staticmethod(C.choices)
    public_view = staticmethod(V.public_view)
    seat_view = staticmethod(V.seat_view)
    private_view = staticmethod(V.private_view)
    scores = staticmethod(V.scores)
    is_over = staticmethod(V.is_over)
    preview = staticmethod(C.preview)
    random_action = staticmethod(C.random_action)


GAME = _Pillars()

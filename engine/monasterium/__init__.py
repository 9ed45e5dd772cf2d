"""Monasterium (dlp games 2020) as a game module: ``engine.monasterium.GAME``.

Rules: /work/shared/rules/monasterium.md. Documentation: docs/monasterium.md. Pure: no I/O,
no clock, no global state.
"""
from __future__ import annotations

from engine.monasterium import choices as C
from engine.monasterium import rules as R
from engine.monasterium import views as V
from engine.monasterium.info import INFO


class _Monasterium:
    """The GameModule of engine/api.py for Monasterium."""

    name = "monasterium"
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


GAME = _Monasterium()

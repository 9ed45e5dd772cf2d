"""Monasterium (dlp games 2020) as a game module: ``engine.monasterium.GAME``.

Rules: ../shared/rules/monasterium.md. Documentation: docs/monasterium.md. Pure: no I/O,
no clock, no global state.

Layers, bottom first; a module imports only modules listed before it (tests/engine/test_layers.py):
the printed game (catalog, options, texts) → the position and its helpers (state) and scoring →
pure rules (effects, the legal parameters in moves, corrections) → `apply` phase by phase (rules)
→ legal moves tried on a copy (choices) → what the phones and the app see (bindings, views, info).
"""
from __future__ import annotations

from engine.monasterium import choices as C
from engine.monasterium import rules as R
from engine.monasterium import state as S
from engine.monasterium import views as V
from engine.monasterium.info import INFO

LAYERS = (
    ("data", "catalog", "options", "texts", "missions", "shapes"),
    ("state", "scoring"),
    ("effects", "moves", "corrections"),
    ("rules",),
    ("choices",),
    ("bindings", "views", "table_steps", "info"),
)


class _Monasterium:
    """The GameModule of engine/api.py for Monasterium."""

    name = "monasterium"
    info = INFO
    setup = staticmethod(S.setup)
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

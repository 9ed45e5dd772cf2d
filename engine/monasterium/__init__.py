"""Monasterium (dlp games 2020) as a game module: ``engine.monasterium.GAME``.

Rules: ../shared/rules/monasterium.md. Documentation: docs/monasterium.md. Pure: no I/O,
no clock, no global state.

Layers, bottom first; a module imports only modules listed before it (tests/engine/test_layers.py):
the printed game (catalog, options, texts) → the position and its helpers (state) and scoring →
pure rules (effects, the legal parameters in moves, corrections) → `apply` phase by phase (rules)
→ legal moves tried on a copy (choices) → what the phones and the app see (bindings, views, info).
"""
from __future__ import annotations

from engine.monasterium import choices as _choices
from engine.monasterium import rules, state, views
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
    setup = staticmethod(state.setup)
    apply = staticmethod(rules.apply)
    prompts = staticmethod(views.prompts)
    choices = staticmethod(_choices.choices)
    public_view = staticmethod(views.public_view)
    seat_view = staticmethod(views.seat_view)
    private_view = staticmethod(views.private_view)
    scores = staticmethod(views.scores)
    is_over = staticmethod(views.is_over)
    preview = staticmethod(_choices.preview)
    random_action = staticmethod(_choices.random_action)


GAME = _Monasterium()

"""Monasterium (dlp games 2020) as a game module: ``engine.monasterium.GAME``.

Rules: ../shared/rules/monasterium.md. Documentation: docs/monasterium.md. Pure: no I/O,
no clock, no global state.

Layers, bottom first; a module imports only modules listed before it (tests/engine/test_layers.py):
the printed game (catalog, options, texts) → the position and its helpers (state) and scoring →
pure rules (effects, the legal parameters in moves, corrections) → `apply` phase by phase (rules)
→ legal moves tried on a copy (choices) → what the phones and the app see (bindings, views, info)
and older games taken to today's rules (migrations).
"""
from __future__ import annotations

from types import SimpleNamespace

from engine.monasterium import choices, rules, state, views
from engine.monasterium.info import INFO

LAYERS = (
    ("data", "catalog", "options", "texts", "missions", "shapes"),
    ("state", "scoring"),
    ("effects", "moves", "corrections"),
    ("rules",),
    ("choices",),
    ("bindings", "views", "table_steps", "migrations", "info"),
)


# The GameModule of engine/api.py: the game's functions in one namespace (as the toy plug-in's).
GAME = SimpleNamespace(
    name="monasterium", info=INFO, setup=state.setup, apply=rules.apply, prompts=views.prompts,
    choices=choices.choices, public_view=views.public_view, seat_view=views.seat_view,
    private_view=views.private_view, scores=views.scores, is_over=views.is_over,
    preview=choices.preview, random_action=choices.random_action)

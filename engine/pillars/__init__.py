"""The Pillars of the Earth (Kosmos 2006) as a game module: ``engine.pillars.GAME``.

Rules: ../shared/rules/pillars-of-the-earth.md. Documentation: docs/pillars.md,
docs/pillars-options.md. The module is pure: no I/O, no clock, no global state.

Layers, bottom first; a module imports only modules listed before it (tests/engine/test_layers.py):
the printed game (catalog, options, texts) → the position (state) and reading an action (inputs)
→ the conversion advisor, the round flow and who owes what (advisor, flow, prompts) → one module
per phase's decisions (draft, architects, resolution) and the host's corrections → `apply` (rules)
→ legal moves tried on a copy (choices) → what the phones and the app see (views, bindings, info).
"""
from __future__ import annotations

from types import SimpleNamespace

from engine.pillars import choices, flow, prompts, rules, views
from engine.pillars.info import INFO

LAYERS = (
    ("data", "catalog", "options", "texts", "shapes"),
    ("state", "inputs"),
    ("advisor", "flow", "prompts"),
    ("draft", "architects", "resolution", "corrections", "canonical"),
    ("rules",),
    ("choices",),
    ("views", "bindings", "table_steps", "migrations", "info"),
)


# The GameModule of engine/api.py: the game's functions in one namespace (as the toy plug-in's).
GAME = SimpleNamespace(
    name="pillars", info=INFO, setup=flow.setup, apply=rules.apply, prompts=prompts.prompts,
    choices=choices.choices, public_view=views.public_view, seat_view=views.seat_view,
    private_view=views.private_view, scores=views.scores, is_over=views.is_over,
    preview=choices.preview, random_action=choices.random_action)

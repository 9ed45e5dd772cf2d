"""World Without End (Kosmos 2009) as a game module: ``engine.wwe.GAME``.

Rules: ../shared/rules/world-without-end.md. Documentation: docs/engine.md,
docs/options.md. The module is pure: no I/O, no clock, no global state.

Layers, bottom first; a module imports only modules listed before it (tests/engine/test_layers.py):
the printed game (catalog, options, texts) → the position (state, the step queue) → rules as
pure changes of the position (projects, duties, card effects, cards) → the sequence of play and
`apply` (flow, corrections, actions) → legal moves found by trying actions (choices) → views.
"""
from __future__ import annotations

from types import SimpleNamespace

from engine.wwe import actions, choices, flow, views
from engine.wwe.info import INFO

LAYERS = (
    ("data", "catalog", "options", "reasons", "texts", "game_schema", "schemas", "shapes"),
    ("state", "steps"),
    ("projects", "duties", "effects", "cards"),
    ("flow", "corrections", "actions", "canonical"),
    ("choices",),
    ("views", "bindings", "table_steps", "info"),
)


# The GameModule of engine/api.py: the game's functions in one namespace (as the toy plug-in's).
GAME = SimpleNamespace(
    name="wwe", info=INFO, setup=flow.setup, apply=actions.apply, prompts=views.prompts,
    choices=choices.choices, choices_of=choices.choices_of, public_view=views.public_view,
    seat_view=views.seat_view, private_view=views.private_view, scores=views.scores,
    is_over=views.is_over, preview=views.preview, random_action=choices.random_action)

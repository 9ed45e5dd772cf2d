"""World Without End (Kosmos 2009) as a game module: ``engine.wwe.GAME``.

Rules: ../shared/rules/world-without-end.md. Documentation: docs/engine.md,
docs/options.md. The module is pure: no I/O, no clock, no global state.

Layers, bottom first; a module imports only modules listed before it (tests/engine/test_layers.py):
the printed game (catalog, options, texts) → the position (state, the step queue) → rules as
pure changes of the position (projects, duties, card effects, cards) → the sequence of play and
`apply` (flow, corrections, actions) → legal moves found by trying actions (choices) → views.
"""
from __future__ import annotations

from engine.wwe import actions, flow, views
from engine.wwe import choices as _choices
from engine.wwe.info import INFO

LAYERS = (
    ("data", "catalog", "options", "reasons", "texts", "game_schema", "schemas", "shapes"),
    ("state", "steps"),
    ("projects", "duties", "effects", "cards"),
    ("flow", "corrections", "actions", "canonical"),
    ("choices",),
    ("views", "bindings", "table_steps", "info"),
)


class _WorldWithoutEnd:
    """The GameModule of engine/api.py for World Without End."""

    name = "wwe"
    info = INFO
    setup = staticmethod(flow.setup)
    apply = staticmethod(actions.apply)
    prompts = staticmethod(views.prompts)
    choices = staticmethod(_choices.choices)
    choices_of = staticmethod(_choices.choices_of)
    public_view = staticmethod(views.public_view)
    seat_view = staticmethod(views.seat_view)
    private_view = staticmethod(views.private_view)
    scores = staticmethod(views.scores)
    is_over = staticmethod(views.is_over)
    preview = staticmethod(views.preview)
    random_action = staticmethod(_choices.random_action)


GAME = _WorldWithoutEnd()

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

from engine.pillars import choices as _choices
from engine.pillars import flow, rules, views
from engine.pillars import prompts as _prompts
from engine.pillars.info import INFO

LAYERS = (
    ("data", "catalog", "options", "texts", "shapes"),
    ("state", "inputs"),
    ("advisor", "flow", "prompts"),
    ("draft", "architects", "resolution", "corrections", "canonical"),
    ("rules",),
    ("choices",),
    ("views", "bindings", "table_steps", "info"),
)


class _Pillars:
    """The GameModule of engine/api.py for The Pillars of the Earth."""

    name = "pillars"
    info = INFO
    setup = staticmethod(flow.setup)
    apply = staticmethod(rules.apply)
    prompts = staticmethod(_prompts.prompts)
    choices = staticmethod(_choices.choices)
    public_view = staticmethod(views.public_view)
    seat_view = staticmethod(views.seat_view)
    private_view = staticmethod(views.private_view)
    scores = staticmethod(views.scores)
    is_over = staticmethod(views.is_over)
    preview = staticmethod(_choices.preview)
    random_action = staticmethod(_choices.random_action)


GAME = _Pillars()

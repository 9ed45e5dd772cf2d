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

from engine.pillars import choices as C
from engine.pillars import flow as F
from engine.pillars import prompts as P
from engine.pillars import rules as R
from engine.pillars import views as V
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
    setup = staticmethod(F.setup)
    apply = staticmethod(R.apply)
    prompts = staticmethod(P.prompts)
    choices = staticmethod(C.choices)
    public_view = staticmethod(V.public_view)
    seat_view = staticmethod(V.seat_view)
    private_view = staticmethod(V.private_view)
    scores = staticmethod(V.scores)
    is_over = staticmethod(V.is_over)
    preview = staticmethod(C.preview)
    random_action = staticmethod(C.random_action)


GAME = _Pillars()

"""World Without End (Kosmos 2009) as a game module: ``engine.wwe.GAME``.

Rules: /work/shared/rules/world-without-end.md. Documentation: docs/engine.md,
docs/options.md. The module is pure: no I/O, no clock, no global state.
"""
from __future__ import annotations

from engine.wwe import actions as A
from engine.wwe import choices as C
from engine.wwe import state as S
from engine.wwe import views as V
from engine.wwe.info import INFO


class _WorldWithoutEnd:
    """The GameModule of engine/api.py for World Without End."""

    name = "wwe"
    info = INFO
    setup = staticmethod(S.setup)
    apply = staticmethod(A.apply)
    prompts = staticmethod(V.prompts)
    choices = staticmethod(C.choices)
    public_view = staticmethod(V.public_view)
    seat_view = staticmethod(V.seat_view)
    private_view = staticmethod(V.private_view)
    scores = staticmethod(V.scores)
    is_over = staticmethod(V.is_over)
    preview = staticmethod(V.preview)
    random_action = staticmethod(C.random_action)


GAME = _WorldWithoutEnd()

"""Reading an action's fields, and the phase and turn a handler needs (refused otherwise)."""
from __future__ import annotations

from engine.api import Refused

MAX_INT = 10 ** 6


def int_field(action, key, lo=0, hi=MAX_INT) -> int:
    v = action.get(key)
    if type(v) is not int or not lo <= v <= hi:
        raise Refused("bad_field", field=key)
    return v


def str_field(action, key) -> str:
    v = action.get(key)
    if not isinstance(v, str):
        raise Refused("bad_field", field=key)
    return v


def need_phase(s, *phases) -> None:
    if s["pending"] is not None and "pending" not in phases:
        raise Refused("decision_pending", kind=s["pending"]["kind"], seat=s["pending"]["seat"])
    if s["phase"] not in phases:
        raise Refused("not_now", phase=s["phase"])


def need_active(s, by) -> None:
    if s["active"] != by:
        raise Refused("not_your_turn", seat=by, active=str(s["active"]))

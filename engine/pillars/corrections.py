"""Host corrections of the public board (``correct``), and the forms the app builds for them.

A seat's holdings are corrected with ``adjust`` (bounded deltas). ``correct`` sets a part of
the shared board to a new value: ``{"type": "correct", "by": "host", "part", "key"?,
"value", "reason"}``. Each emits ``{"type": "corrected", "part", "key", "before", "after",
"reason"}``. `corrections(state)` lists every correction possible now with the JSON Schema
of a new value (the engine checks values against the same schema).

| part | key | value |
|---|---|---|
| market | – | {"wood", "stone", "sand"}: 0 to the market's maximum; cubes move from/to the sites |
| court_metal | – | 0 or 1: the metal cube at the King's court (from/to beside the board) |
| start_player | – | a seat; only during round preparation |
"""
from __future__ import annotations

from jsonschema import Draft202012Validator

from engine.api import Refused
from engine.pillars import flow, state

PARTS = ("market", "court_metal", "start_player")
TITLES = {"market": "Market stock", "court_metal": "Metal at the King's court",
          "start_player": "Start player"}


def schema(s, part) -> dict:
    if part == "market":
        most = state.board(s)["market_stock"]
        return {"type": "object", "additionalProperties": False,
                "required": list(state.BUYABLE),
                "properties": {c: {"type": "integer", "minimum": 0, "maximum": most,
                                   "title": c} for c in state.BUYABLE}}
    if part == "court_metal":
        return {"type": "integer", "minimum": 0, "maximum": 1}
    return {"enum": list(s["seats"]),
            "oneOf": [{"const": x, "title": s["names"].get(x, x)} for x in s["seats"]]}


def available(s, part) -> bool:
    if s["over"]:
        return False
    if part == "start_player":
        return s["phase"] == "prep"
    return True


def current(s, part):
    if part == "market":
        return dict(s["market"])
    if part == "court_metal":
        return s["court_metal"]
    return s["start"]


def form(s, part, _key=None) -> dict | None:
    """What a correction of ``part`` is called and the schema of its value, whether or not
    it can be made now (GameInfo.correction_form: the log words old corrections with it)."""
    if part not in PARTS:
        return None
    return {"title": TITLES[part], "schema": schema(s, part)}


def corrections(s) -> list:
    out = []
    for part in PARTS:
        if available(s, part):
            out.append({"part": part, "key": None, "title": TITLES[part],
                        "current": current(s, part), "schema": schema(s, part),
                        "action": {"type": "correct", "by": "host", "part": part}})
    return out


def correct(s, a, by, ev) -> None:
    part = a.get("part")
    if part not in PARTS:
        raise Refused("bad_correction", part=str(part)[:40], field="part")
    if not available(s, part):
        raise Refused("not_now", phase=s["phase"])
    if "value" not in a:
        raise Refused("bad_correction", part=part, field="value")
    value = a["value"]
    if type(value) is bool or (isinstance(value, dict) and
                               any(type(v) is bool for v in value.values())):
        raise Refused("bad_correction", part=part, field="value")
    error = next(iter(Draft202012Validator(schema(s, part)).iter_errors(value)), None)
    if error is not None:
        path = ".".join(str(x) for x in error.absolute_path)
        raise Refused("bad_correction", part=part, field=f"value.{path}" if path else "value")
    reason = a.get("reason", "")
    if not isinstance(reason, str):
        raise Refused("bad_field", field="reason")
    before = current(s, part)
    if part == "market":
        for c in state.BUYABLE:
            d = value[c] - s["market"][c]
            if d > s["sites"][c]:
                raise Refused("bad_correction", part=part, field=f"value.{c}")
        for c in state.BUYABLE:
            d = value[c] - s["market"][c]
            s["sites"][c] -= d
            s["market"][c] = value[c]
    elif part == "court_metal":
        d = value - s["court_metal"]
        if d > s["sites"]["metal"]:
            raise Refused("bad_correction", part=part, field="value")
        s["sites"]["metal"] -= d
        s["court_metal"] = value
    else:
        s["start"] = value
        if s["round"] == 1:
            s["first_start"] = value
            flow.start_gold(s)
            s["round_start"] = flow.snapshot(s)
    ev.append({"type": "corrected", "part": part, "key": None, "before": before,
               "after": current(s, part), "reason": reason[:200]})

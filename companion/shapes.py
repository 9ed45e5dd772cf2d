"""Every action checked against the shape its game declares (``GameInfo.action_shapes``, JSON
Schema) before the game sees it, and every host message against the app's own shapes.

A wrong type, an unknown field, a number out of range or a type the game does not declare is
refused as ``bad_action`` naming the path of the first wrong field ("to", "dice[0]"), with
nothing changed: a game's rules only ever meet the kinds of values they expect (issue 21).
"""
from __future__ import annotations

import threading
from typing import Any

from jsonschema import Draft202012Validator, validators

from engine.api import Refused
from engine.shapes import ANY, ID, TEXT, fields, ints, one_of

# JSON Schema's "integer" takes 2.0 and its "number" takes true in some readings: here a whole
# number is an int and never a bool, as the rules test it (`type(v) is int`).
_TYPES = Draft202012Validator.TYPE_CHECKER.redefine_many({
    "integer": lambda _checker, value: type(value) is int,
    "number": lambda _checker, value: type(value) in (int, float),
})
Validator = validators.extend(Draft202012Validator, type_checker=_TYPES)

# The host's messages (docs/socket-protocol.md): each op's own fields. `adjust` and `correct`
# carry a game's action, checked against that game's shape once it is built.
HOST_SHAPES: dict[str, dict] = {
    "undo": fields({"op": ID}, {"count": ints(1, 1000)}),
    "pause": fields({"op": ID}),
    "resume": fields({"op": ID}),
    "end": fields({"op": ID}),
    "new_join_code": fields({"op": ID, "seat": ID}),
    "adjust": fields({"op": ID}, {"seat": ANY, "item": ANY, "delta": ANY, "reason": TEXT}),
    "correct": fields({"op": ID, "action": {"type": "object"}}),
    "correct_preview": fields({"op": ID, "action": {"type": "object"}}),
    "table_step": fields({"op": ID, "kind": ID}),  # a table step's fallback (table_steps.py)
}
HOST_OP = fields({"op": one_of(*HOST_SHAPES)}, {k: ANY for k in ("count", "seat", "item",
                                                                  "delta", "reason", "action",
                                                                  "kind")})

_cache: dict[int, Any] = {}
_lock = threading.Lock()


def _validator(schema: dict) -> Any:
    key = id(schema)
    with _lock:
        found = _cache.get(key)
        if found is None or found[0] is not schema:
            found = _cache[key] = (schema, Validator(schema))
        return found[1]


def path_of(error) -> str:
    """Where an error is, as a reader writes it: ``to``, ``dice[0]``, ``params.sites[2]``;
    a missing field by its name; an unexpected one by its name."""
    out = ""
    for part in error.absolute_path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    extra = None
    if error.validator == "required":
        extra = next((f for f in error.validator_value if f not in error.instance), None)
    elif error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = error.schema.get("properties", {})
        extra = next((f for f in error.instance if f not in allowed), None)
    if extra is not None:
        out = f"{out}.{extra}" if out else str(extra)
    return (out or "action")[:80]


def first_error(schema: dict, value: Any) -> str | None:
    """The path of the first field of ``value`` not of ``schema``'s shape, or None."""
    errors = list(_validator(schema).iter_errors(value))
    if not errors:
        return None
    return path_of(min(errors, key=lambda e: len(e.absolute_path)))  # the outermost first


def check_action(info: Any, action: dict) -> None:
    """Refused("bad_action", path=...) unless ``action`` has the shape its game declares for
    its type; a type without a declared shape is refused as an unknown one."""
    shape = (getattr(info, "action_shapes", None) or {}).get(action.get("type"))
    if shape is None:
        raise Refused("bad_action", path="type")
    path = first_error(shape, action)
    if path is not None:
        raise Refused("bad_action", path=path)


def check_host(message: Any) -> str:
    """The op of a host message of the app's shape, or Refused("bad_action", path=...)."""
    if not isinstance(message, dict):
        raise Refused("bad_request")
    path = first_error(HOST_OP, message)
    if path is None:
        path = first_error(HOST_SHAPES[message["op"]], message)
    if path is not None:
        raise Refused("bad_action", path=path)
    return message["op"]

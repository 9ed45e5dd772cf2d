"""Every action checked against the shape its game declares (``GameInfo.action_shapes``, JSON
Schema) before the game sees it, and every host message against the app's own shapes.

A wrong type, an unknown field, a number out of range or a type the game does not declare is
refused as ``bad_action`` naming the path of the first wrong field ("to", "dice[0]"), with
nothing changed: a game's rules only ever meet the kinds of values they expect (issue 21).

Every action passes here, so the common case is cheap: each shape is also compiled into a
plain Python predicate (`_compile`) that answers "fits" for the keywords engine/shapes.py
uses, strictly (it may say "does not fit" where jsonschema would accept, never the other
way). Only what it does not accept goes through jsonschema, which finds the wrong field.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jsonschema import Draft202012Validator, validators

from companion.server import locks
from engine.api import Refused
from engine.shapes import ANY, BOOL, ID, TEXT, fields, ints, one_of

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
    # a table step's fallback, once or (rest) until the step is done (table_steps.py)
    "table_step": fields({"op": ID, "kind": ID}, {"rest": BOOL}),
    # "Play this game at the table": the hardware serves it (``pin``: the host PIN of the
    # game that has it, when this browser is not its host too)
    "take_table": fields({"op": ID}, {"pin": TEXT}),
    "dice_source": fields({"op": ID, "source": ID}),  # camera, serial or phones (dice.py)
}
HOST_OP = fields({"op": one_of(*HOST_SHAPES)}, {k: ANY for k in ("count", "seat", "item",
                                                                  "delta", "reason", "action",
                                                                  "kind", "source", "rest",
                                                                  "pin")})

_cache: dict[int, Any] = {}
_lock = locks.lock("shapes")


def _checkers(schema: dict) -> tuple[Any, Callable[[Any], bool] | None]:
    """The jsonschema validator of ``schema`` and its compiled predicate (None: not
    compilable), made once per schema object."""
    key = id(schema)
    with _lock:
        found = _cache.get(key)
        if found is None or found[0] is not schema:
            found = _cache[key] = (schema, Validator(schema), _compile(schema))
        return found[1], found[2]


def _validator(schema: dict) -> Any:
    return _checkers(schema)[0]


Check = Callable[[Any], bool]
_PYTHON_TYPES: dict[str, tuple] = {"string": (str,), "integer": (int,), "number": (int, float),
                                   "boolean": (bool,), "null": (type(None),),
                                   "object": (dict,), "array": (list,)}
_SCALARS = (str, int, float, bool, type(None))
_NOTES = frozenset({"title", "description", "$comment"})


def _compile(schema: Any) -> Check | None:
    """A predicate that is True only for values ``schema`` accepts (JSON Schema 2020-12 with
    this module's integer and number), or None if ``schema`` uses a keyword not handled
    here. Each keyword constrains only the values of its own kind, as in JSON Schema."""
    if schema is True or schema == {}:
        return lambda value: True
    if schema is False:
        return lambda value: False
    if not isinstance(schema, dict):
        return None
    checks: list[Check] = []
    for keyword, arg in schema.items():
        check = _keyword(keyword, arg, schema)
        if check is None:
            return None
        checks.append(check)
    if len(checks) == 1:
        return checks[0]
    return lambda value: all(check(value) for check in checks)


def _keyword(keyword: str, arg: Any, schema: dict) -> Check | None:  # noqa: C901 (one table)
    if keyword in _NOTES:
        return lambda value: True
    if keyword == "type":
        names = [arg] if isinstance(arg, str) else arg
        if not isinstance(names, list) or not all(n in _PYTHON_TYPES for n in names):
            return None
        types = tuple({t for n in names for t in _PYTHON_TYPES[n]})
        return lambda value: type(value) in types
    if keyword in ("minLength", "maxLength", "minItems", "maxItems", "maxProperties"):
        if type(arg) is not int:
            return None
        kind = {"minLength": str, "maxLength": str, "minItems": list, "maxItems": list,
                "maxProperties": dict}[keyword]
        if keyword.startswith("min"):
            return lambda value: type(value) is not kind or len(value) >= arg
        return lambda value: type(value) is not kind or len(value) <= arg
    if keyword in ("minimum", "maximum"):
        if type(arg) not in (int, float):
            return None
        if keyword == "minimum":
            return lambda value: type(value) not in (int, float) or value >= arg
        return lambda value: type(value) not in (int, float) or value <= arg
    if keyword == "enum":
        if not isinstance(arg, list):
            return None
        allowed = [(type(e), e) for e in arg if type(e) in _SCALARS]
        return lambda value: any(type(value) is t and value == e for t, e in allowed)
    if keyword == "anyOf":
        subs = [_compile(sub) for sub in arg] if isinstance(arg, list) else [None]
        if any(sub is None for sub in subs):
            return None
        return lambda value: any(sub(value) for sub in subs)
    if keyword == "items":
        sub = _compile(arg)
        if sub is None or isinstance(arg, list):
            return None
        return lambda value: type(value) is not list or all(sub(x) for x in value)
    if keyword == "uniqueItems":
        if arg is not True:
            return (lambda value: True) if arg is False else None
        return lambda value: type(value) is not list or _unique(value)
    if keyword == "required":
        if not isinstance(arg, list):
            return None
        return lambda value: type(value) is not dict or all(k in value for k in arg)
    if keyword == "properties":
        if not isinstance(arg, dict):
            return None
        subs = {k: _compile(sub) for k, sub in arg.items()}
        if any(sub is None for sub in subs.values()):
            return None
        pairs = list(subs.items())
        return lambda value: type(value) is not dict or all(
            sub(value[k]) for k, sub in pairs if k in value)
    if keyword == "additionalProperties":
        if "patternProperties" in schema:
            return None
        known = frozenset(schema.get("properties") or ())
        sub = _compile(arg)
        if sub is None:
            return None
        return lambda value: type(value) is not dict or all(
            sub(v) for k, v in value.items() if k not in known)
    if keyword == "propertyNames":
        sub = _compile(arg)
        if sub is None:
            return None
        return lambda value: type(value) is not dict or all(sub(k) for k in value)
    return None


def _unique(items: list) -> bool:
    """No two equal items (only strings and whole numbers are judged here; anything else
    is left to jsonschema)."""
    if not all(type(x) is str or type(x) is int for x in items):
        return False
    return len({(type(x), x) for x in items}) == len(items)


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
    validator, fits = _checkers(schema)
    if fits is not None and fits(value):
        return None
    errors = list(validator.iter_errors(value))
    if not errors:
        return None
    return path_of(min(errors, key=lambda e: len(e.absolute_path)))  # the outermost first


def check_action(info: Any, action: dict) -> None:
    """Refused("bad_action", path=...) unless ``action`` has the shape its game declares for
    its type; a type without a declared shape is refused as an unknown one."""
    shape = (info.action_shapes or {}).get(action.get("type"))
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

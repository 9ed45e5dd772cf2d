"""Building blocks for the shapes of actions (JSON Schema), declared by each game in
``GameInfo.action_shapes`` (engine/api.py): what an action of each type may carry at all.

The app checks every action against its type's shape before the game sees it (a wrong type,
an unknown field, a number out of range: refused as ``bad_action`` with the field's path), so
the rules only ever meet the kinds of values they expect. The rules still check the meaning
(is this card in the hand?). Plain data, no I/O: docs/engine.md, "Action shapes".
"""
from __future__ import annotations

from typing import Any

JSON = Any

ID = {"type": "string", "minLength": 1, "maxLength": 64}  # a card, site, space or die id
TEXT = {"type": "string", "maxLength": 200}  # a reason typed by the host
BOOL = {"type": "boolean"}
ANY: dict[str, JSON] = {}  # any JSON value (the app's size limits still apply)
NONE = {"type": "null"}


def ints(lowest: int, highest: int) -> dict[str, JSON]:
    """A whole number from ``lowest`` to ``highest`` (true and false are not numbers)."""
    return {"type": "integer", "minimum": lowest, "maximum": highest}


def one_of(*values: JSON) -> dict[str, JSON]:
    """Exactly one of ``values``."""
    return {"enum": list(values)}


def either(*schemas: dict[str, JSON]) -> dict[str, JSON]:
    """A value of any of ``schemas`` (e.g. ``either(ID, NONE)``)."""
    return {"anyOf": list(schemas)}


def list_of(item: dict[str, JSON], most: int, least: int = 0,
            unique: bool = False) -> dict[str, JSON]:
    """A list of ``least`` to ``most`` values, each of shape ``item``."""
    out = {"type": "array", "items": item, "minItems": least, "maxItems": most}
    return dict(out, uniqueItems=True) if unique else out


def object_of(value: dict[str, JSON], keys: dict[str, JSON] | None = None,
              most: int = 50) -> dict[str, JSON]:
    """An object whose values have shape ``value`` (keys of shape ``keys``, ids by default)."""
    return {"type": "object", "additionalProperties": value, "propertyNames": keys or ID,
            "maxProperties": most}


def fields(required: dict[str, JSON] | None = None,
           optional: dict[str, JSON] | None = None) -> dict[str, JSON]:
    """An object with the ``required`` fields, maybe the ``optional`` ones, and no other."""
    required, optional = required or {}, optional or {}
    return {"type": "object", "required": list(required),
            "properties": {**required, **optional}, "additionalProperties": False}


def action(required: dict[str, JSON] | None = None,
           optional: dict[str, JSON] | None = None) -> dict[str, JSON]:
    """The shape of one action type: ``type`` and ``by`` (the app sets ``by`` from the proven
    identity), the ``required`` fields, maybe the ``optional`` ones, and nothing else."""
    return fields({"type": {"type": "string"}, **(required or {})},
                  {"by": {"type": "string", "maxLength": 16}, **(optional or {})})

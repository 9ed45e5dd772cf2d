"""Every number a game's catalog holds has a range (issue 45: "numbers finite and in range
wherever a number is read"): each ``integer`` or ``number`` of each catalog part's JSON Schema
declares its ``minimum`` and ``maximum``. An owner's file then cannot hand the rules a round
count of 10^20 (a loop that never ends) or a reward beyond what a view can show."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

NUMBER_TYPES = {"integer", "number"}
# where a JSON Schema holds the schemas of the values under it
_BY_NAME = ("properties", "patternProperties", "$defs", "definitions")
_ONE = ("items", "additionalProperties", "contains", "not", "propertyNames")
_MANY = ("oneOf", "anyOf", "allOf", "prefixItems")


def unbounded_numbers(schema: Any, path: str = "$") -> Iterator[str]:
    """The paths of the number schemas in ``schema`` that lack a minimum or a maximum."""
    if not isinstance(schema, dict):
        return
    kinds = schema.get("type")
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    if kinds & NUMBER_TYPES and not {"minimum", "maximum"} <= set(schema):
        yield path
    for key, value in schema.items():
        if key in _BY_NAME and isinstance(value, dict):
            for name, sub in value.items():
                yield from unbounded_numbers(sub, f"{path}.{name}")
        elif key in _ONE:
            yield from unbounded_numbers(value, f"{path}[]" if key == "items" else
                                         f"{path}.<{key}>")
        elif key in _MANY and isinstance(value, list):
            for i, sub in enumerate(value):
                yield from unbounded_numbers(sub, f"{path}.{key}[{i}]")

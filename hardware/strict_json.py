"""JSON as RFC 8259 has it, for the files an owner edits (config.json, catalog files): every
number finite. Python's json module reads ``NaN``, ``Infinity`` and ``1e309`` (an overflowing
float, read as infinity) by default and writes them back, which no other JSON reader takes and
no setting or card means; an integer of thousands of digits makes it raise a bare ValueError.
Here each is a `json.JSONDecodeError` with its line and column, like any syntax error."""
from __future__ import annotations

import json
import math

# the largest integer of an owner's file (a count, a face, a price): well beyond any use
MAX_DIGITS = 30


class _NotFinite(ValueError):
    def __init__(self, literal: str) -> None:
        super().__init__(literal)
        self.literal = literal


def _constant(name: str):
    raise _NotFinite(name)


def _float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _NotFinite(literal)
    return value


def loads(text: str, max_digits: int = MAX_DIGITS, **options):
    """``json.loads(text, **options)`` refusing a number that is not finite, or an integer of
    more than ``max_digits`` digits, as a `json.JSONDecodeError` at that number. (A request
    body passes Python's own limit, 4,300: its doors say what a big number is not.)"""
    def whole(literal: str) -> int:
        if len(literal.lstrip("-")) > max_digits:
            raise _NotFinite(literal)
        return int(literal)

    try:
        return json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=whole,
                          **options)
    except _NotFinite as bad:
        shown = bad.literal if len(bad.literal) <= 20 else bad.literal[:20] + "…"
        raise json.JSONDecodeError(f"{shown} is not a number JSON may hold here (finite, at "
                                   f"most {max_digits} digits)", text,
                                   max(text.find(bad.literal), 0)) from None


def dumps(data, **options) -> str:
    """``json.dumps(data, **options)``; ValueError for a number that is not finite."""
    return json.dumps(data, allow_nan=False, **options)

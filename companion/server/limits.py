"""Bounds at every door: what an action, a setup or a game record may carry at all, checked
before any game sees it (issue 10). A game checks the meaning; these checks keep absurd
shapes out: a number of 4,000 digits, a name of a megabyte, a list nested 3,000 deep.

Each check raises `Refused` with a translatable code and leaves nothing changed. Every
string (and key) also obeys the one rule for text (`companion/server/text.py`): a lone surrogate or
a control character is refused as ``bad_text`` naming its field.
"""
from __future__ import annotations

from typing import Any

from companion.server import text
from engine.api import Refused

_BAD_TEXT = text.BAD.search

MAX_DEPTH = 12  # nesting of lists and objects
MAX_STRING = 200  # characters in one string (a reason typed by the host included)
MAX_ITEMS = 200  # entries of one list or object
MAX_INT = 2**53  # the largest integer a browser keeps exactly (seeds are below 2**31)
MAX_NAME = 40  # a player's name
MAX_PLAYERS = 8


class _BadText(Exception):
    """A string breaking the text rule, deep inside: `check_json` names its field."""


def check_json(value: Any, what: str = "action") -> None:
    """Plain JSON within the bounds above, its text clean; Refused("too_big"/"bad_value"/
    "bad_text") otherwise."""
    try:
        _check(value, what, 0)
    except _BadText:
        raise Refused("bad_text", field=text.first_bad(value) or what) from None


def _check(value: Any, what: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise Refused("too_big", what=what)
    kind = type(value)
    if value is None or kind is bool:
        return
    if kind is str and len(value) <= MAX_STRING:
        if _BAD_TEXT(value) is not None:
            raise _BadText
        return
    if kind is int:
        if -MAX_INT <= value <= MAX_INT:
            return
        raise Refused("bad_value", what=what)
    if kind is float:
        if value == value and abs(value) <= MAX_INT:  # not NaN, not infinite
            return
        raise Refused("bad_value", what=what)
    if kind is list or kind is dict:
        if len(value) > MAX_ITEMS:
            raise Refused("too_big", what=what)
        items = value.items() if kind is dict else enumerate(value)
        for key, item in items:
            if kind is dict and (type(key) is not str or len(key) > MAX_STRING):
                raise Refused("bad_value", what=what)
            if kind is dict and _BAD_TEXT(key) is not None:
                raise _BadText
            _check(item, what, depth + 1)
        return
    raise Refused("too_big" if kind is str else "bad_value", what=what)


def check_action(action: Any) -> None:
    if not isinstance(action, dict) or type(action.get("type")) is not str:
        raise Refused("bad_request")
    check_json(action, "action")


def check_setup(setup: Any) -> None:
    """A new game's or an imported record's setup: plain, small, names short."""
    if not isinstance(setup, dict):
        raise Refused("bad_setup", detail="setup")
    check_json(setup, "setup")
    players = setup.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise Refused("bad_setup", detail="players")
    for player in players:
        if not isinstance(player, dict) or type(player.get("seat")) is not str:
            raise Refused("bad_setup", detail="seat")
        name = player.get("name", "")
        if type(name) is not str or len(name) > MAX_NAME:
            raise Refused("bad_setup", detail="name")
        colour = player.get("colour")
        if colour is not None and (type(colour) is not str or len(colour) > 32):
            raise Refused("bad_setup", detail="colour")
    seed = setup.get("seed", 0)
    if type(seed) not in (int, str):
        raise Refused("bad_setup", detail="seed")
    for key in ("demo", "first_game"):
        if key in setup and type(setup[key]) is not bool:
            raise Refused("bad_setup", detail=key)


def check_options(info, options: Any) -> None:
    """A setup's ``options``: absent, or an object of the game's declared option names
    (`GameInfo.options`) to plain values; refused before the game's setup sees them (a list
    reached a game's option code as an AttributeError, issue 67)."""
    if options is None:
        return
    if not isinstance(options, dict):
        raise Refused("bad_setup", detail="options")
    declared = {option.id for option in info.options}
    for name, value in options.items():
        if declared and name not in declared:
            raise Refused("bad_setup", detail=f"options.{str(name)[:40]}")
        if value is not None and type(value) not in (str, int, bool):
            raise Refused("bad_setup", detail=f"options.{str(name)[:40]}")

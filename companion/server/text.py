"""One rule for text at every door (issue 31): what a string from outside may hold.

Valid Unicode only: no lone surrogate (``"\\ud800"``: JSON's ``\\u`` escapes let a client
send one, and it cannot be encoded again, so a page or an export showing it would fail), no
control character but tab, line feed and carriage return (NUL and the other C0/C1 controls
have no place in a name, a reason or a card text and confuse logs, files and terminals).
Text is stored normalised (NFC): "é" typed as one character or as "e" + accent is one name.
Sizes are `companion/server/limits.py`'s.

Where it applies (docs/security.md, "input"): `limits.check_json` refuses bad text in every
action, setup and record (socket messages, host ops, imports, restore); the HTTP hook
(`init_app`) refuses it in every query string, form, uploaded file name and JSON body;
`json_codec.loads`, `common.json_body` and the record import normalise what they decode; the
catalog loader reports it as a problem of the file. A refusal is ``bad_text`` naming the
field, translated, and changes nothing.
"""
from __future__ import annotations

import json
import re
import sys
import unicodedata
from typing import Any

from engine.api import Refused
from hardware import strict_json

# lone surrogates, C0 controls but \t \n \r, DEL and the C1 controls
BAD = re.compile("[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
SURROGATE = re.compile("[\ud800-\udfff]")


def is_clean(text: str) -> bool:
    """True when ``text`` obeys the rule above (normalisation aside)."""
    return BAD.search(text) is None


def first_bad(value: Any, path: str = "") -> str | None:
    """The path (``players[0].name``, ``params.project``) of the first string or key of
    ``value`` that breaks the rule, or None."""
    if type(value) is str:
        return None if is_clean(value) else (path or "text")
    if type(value) is dict:
        for key, item in value.items():
            here = f"{path}.{key}" if path else str(key)
            if type(key) is str and not is_clean(key):
                return (path or "key")[:80]
            found = first_bad(item, here)
            if found is not None:
                return found[:80]
    elif type(value) is list:
        for i, item in enumerate(value):
            found = first_bad(item, f"{path}[{i}]")
            if found is not None:
                return found[:80]
    return None


def normalise(value: Any) -> Any:
    """``value`` with every clean string and key in NFC (bad ones are left as they are, for
    the check to refuse with its field); the same object when nothing changes."""
    kind = type(value)
    if kind is str:
        if value.isascii() or not is_clean(value) or unicodedata.is_normalized("NFC", value):
            return value
        return unicodedata.normalize("NFC", value)
    if kind is dict:
        return {normalise(k) if type(k) is str else k: normalise(v) for k, v in value.items()}
    if kind is list:
        return [normalise(v) for v in value]
    return value


def check(value: Any, field: str = "") -> Any:
    """``value`` normalised, or Refused("bad_text", field=...) naming the first bad one."""
    found = first_bad(value, field)
    if found is not None:
        raise Refused("bad_text", field=found)
    return normalise(value)


def sendable(value: Any) -> str:
    """Stored text as it can be sent (a page, an export, a hash): a lone surrogate stored
    before this rule becomes U+FFFD; anything that is not text becomes its text."""
    value = value if isinstance(value, str) else str(value)
    return SURROGATE.sub("\ufffd", value)


def loads(text: str | bytes) -> Any:
    """JSON from outside, normalised (its bad strings are kept for the check to refuse);
    strict about numbers (hardware/strict_json.py): ``NaN``, ``Infinity``, ``1e309`` raise
    ValueError as JSON that is not JSON does, so no door stores a number that is not one."""
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8")
    return normalise(strict_json.loads(text, max_digits=sys.get_int_max_str_digits() or 4300))


# --------------------------------------------------------------------------- HTTP door
def request_problem(request) -> str | None:
    """The first field of an HTTP request that breaks the rule: a query argument, a form
    field (name or value), an uploaded file's name, or a string of a JSON body."""
    for where in (request.args, request.form):
        for key, values in where.lists():
            if not is_clean(key):
                return "key"
            for value in values:
                if not is_clean(value):
                    return key[:80]
    for key, upload in request.files.items(multi=True):
        if upload.filename and not is_clean(upload.filename):
            return key[:80]
    if request.is_json:
        try:
            body = json.loads(request.get_data(cache=True))
            return first_bad(body, "")
        except (ValueError, RecursionError):
            # not JSON, or nested past what can be walked (Python 3.13's json parses deeper
            # than 3.11's): the route refuses it as it always did (limits: nesting depth)
            return None
    return None


def init_app(app, refuse) -> None:
    """Every HTTP request passes `request_problem` before its route; ``refuse(field)`` makes
    the translated 400 answer (JSON or a page, as the route would answer)."""
    from flask import request

    @app.before_request
    def text_door():
        field = request_problem(request)
        if field is not None:
            return refuse(field)
        return None

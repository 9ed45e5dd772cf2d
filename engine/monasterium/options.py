"""Monasterium's readings of its OCR-damaged rulebook (monasterium.md §14, M-A1…M-A22) that
change play, as named options with the recommended default. The others are catalog data
(which action sits where, the board) or single readings the engine implements as documented
in docs/monasterium.md."""
from __future__ import annotations

from engine.api import Refused

OPTIONS: dict[str, tuple] = {
    "extra_novice_forfeit_only_if_stuck": (
        True, (False, True), "M-A15, §6.7",
        "A completed row's extra novice is sent at once if it can be; it is forfeited only "
        "when it cannot. False: the player may also decline to send it."),
}


def resolve(given) -> dict:
    out = {k: v[0] for k, v in OPTIONS.items()}
    if given is None:
        return out
    if not isinstance(given, dict):
        raise Refused("bad_setup", reason="options must be an object")
    for k, v in given.items():
        if k not in OPTIONS:
            raise Refused("unknown_option", option=str(k)[:40])
        if v not in OPTIONS[k][1] or type(v) is not type(OPTIONS[k][0]):
            raise Refused("bad_option", option=k, value=str(v)[:20])
        out[k] = v
    return out

"""Real actions with wrong values in them: what the shape tests and bench/fuzz_doors.py send.

Every action starts as a legal one of a real game (a choice of a seat that owes a decision,
or the game's own random move); then one field is replaced by a value of a wrong type or
size (a list, an object, a huge number or string, null, nested junk, text that is not valid
Unicode or holds control characters) or a field is added.
"""
from __future__ import annotations

import random

from companion.game.service import Identity

JUNK = ([], {}, [1], [[]], {"a": 1}, {"x": [{"y": None}]}, None, True, False, 1.5, -1,
        0, 2**53, -(2**53), 10**15, "", "N", "x" * 199, "x" * 5000, [None, {}],
        [[[[["deep"]]]]], {"": ""}, [1, "a", None], "🂡" * 50,
        "\ud800", "A\ud800", "a\x00b", "\x1b[2J", {"\ud800": 1})  # not text (issue 31)


def legal_actions(module, state, rnd: random.Random) -> list[dict]:
    """The legal actions now: every possible choice of every seat owed a decision, and the
    game's own random move."""
    out = []
    prompts = [] if module.is_over(state) else module.prompts(state)
    for prompt in prompts:
        out += [dict(c.action) for c in module.choices(state, prompt.seat)
                if c.refused is None]
    move = module.random_action(state, rnd) if prompts else None
    if move is not None:
        out.append(dict(move))
    return out


def identity_for(live, by: str) -> Identity:
    if by in live.seats:
        return Identity("seat", live.id, by)
    return Identity("host" if by == "host" else "table", live.id)


def mutate(action: dict, rnd: random.Random, junk=None) -> dict:
    """``action`` with one of its fields (``type`` and ``by`` kept) replaced by ``junk``
    (a random value of ``JUNK`` when None), or a nested value replaced, or a field added."""
    junk = rnd.choice(JUNK) if junk is None else junk
    out = dict(action)
    fields = [k for k in out if k not in ("type", "by")]
    how = rnd.random()
    if not fields or how < 0.15:
        out[rnd.choice(["extra", "card", "seat", "to", "value", "params"])] = junk
        return out
    key = rnd.choice(fields)
    inner = out[key]
    if how < 0.35 and isinstance(inner, dict) and inner:
        out[key] = dict(inner, **{rnd.choice(list(inner)): junk})
    elif how < 0.35 and isinstance(inner, list) and inner:
        out[key] = [junk, *inner[1:]]
    else:
        out[key] = junk
    return out


def advance(service, live, rnd: random.Random) -> bool:
    """One legal move of the game (False when the game is over)."""
    module = live.kind.module
    if module.is_over(live.state) or not module.prompts(live.state):
        return False
    move = module.random_action(live.state, rnd)
    if move is None:
        return False
    service.act(identity_for(live, move["by"]), move)
    return True

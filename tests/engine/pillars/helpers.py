"""Helpers for the Pillars engine tests: the shipped catalog, new games, scripted play."""
from __future__ import annotations

import copy
import functools

from engine.pillars import GAME
from engine.pillars.catalog import load_shipped


@functools.lru_cache(maxsize=1)
def _catalog():
    return load_shipped()


def catalog():
    return copy.deepcopy(_catalog())


def new_game(n=4, seed=1, options=None, start=None, cat=None):
    setup = {"players": [{"seat": s, "name": f"P{s}"} for s in "NESW"[:n]], "seed": seed}
    if options:
        setup["options"] = options
    if start:
        setup["start_seat"] = start
    return GAME.setup(cat or catalog(), setup)


def act(s, *actions):
    """Apply actions in order; returns the state and all events."""
    events = []
    for a in actions:
        s, ev = GAME.apply(s, a)
        events += ev
    return s, events


def t(kind, /, **kw):
    return {"type": kind, "by": "table", **kw}


def by(seat, kind, /, **kw):
    return {"type": kind, "by": seat, **kw}


MATERIALS7 = ["wood_2", "wood_3", "wood_4", "stone_2", "stone_3", "stone_4", "sand_2"]


def layout(s, privileges=(), craftsmen=None, materials=MATERIALS7):
    """Reveal the round's cards (privileges as given; round craftsmen in catalog order)."""
    if craftsmen is None:
        craftsmen = s["cat"]["craftsmen_by_round"][str(s["round"])]
    acts = [t("reveal_privilege", card=c) for c in privileges]
    acts += [t("reveal_craftsman", card=c) for c in craftsmen]
    acts += [t("reveal_material", card=c) for c in materials]
    return act(s, *acts)


def strip(s):
    return {k: v for k, v in s.items() if k != "cat"}


def position(s, phase, **kw):
    """A copy of ``s`` edited into a given phase (for unit examples)."""
    s = copy.deepcopy(s)
    s["phase"] = phase
    s.update(kw)
    return s

"""Helpers to set up World Without End positions for tests."""
from __future__ import annotations

import json

from engine.api import Refused
from engine.wwe import GAME

COLOURS = ["blue", "red", "green", "yellow"]


def new_game(catalog, seats=("N", "E", "S", "W"), **setup):
    players = [{"seat": s, "name": s, "colour": c} for s, c in zip(seats, COLOURS, strict=False)]
    return GAME.setup(catalog, {"players": players, "seed": 7, **setup})


def act(state, **action):
    new, _events = GAME.apply(state, action)
    return new


def act_ev(state, **action):
    return GAME.apply(state, action)


def refused(state, **action) -> Refused:
    """Apply an illegal action: it must raise and leave the state exactly as it was."""
    before = json.dumps(state, sort_keys=True)
    try:
        GAME.apply(state, action)
    except Refused as r:
        assert json.dumps(state, sort_keys=True) == before
        return r
    raise AssertionError(f"not refused: {action}")


def res(state, seat):
    return state["players"][seat]["res"]


def vp(state, seat):
    return state["players"][seat]["vp"]


def head(state):
    return state["queue"][0] if state["queue"] else None

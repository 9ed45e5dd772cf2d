"""Shared fixtures of the Monasterium tests: the shipped catalog and positions built by
hand (the state is plain JSON, so a test may set up any position directly)."""
from __future__ import annotations

import json
from pathlib import Path

from engine.monasterium import GAME

DATA = Path(__file__).resolve().parents[3] / "engine" / "monasterium" / "data"
CAT = {p: json.loads((DATA / f"{p}.json").read_text()) for p in ("board", "actions", "missions")}


def new_game(n: int = 2, seed: int = 1, **options) -> dict:
    return GAME.setup(CAT, {"players": [{"seat": s} for s in "NESW"[:n]], "seed": seed,
                            "options": options or None})


def act_phase(s, seat: str, dice: dict[str, int]) -> dict:
    """An action phase with exactly ``dice`` ({id: space}) on the board, ``seat`` to move."""
    s["dice"] = {}
    for d, space in dice.items():
        owner = None if d.startswith("n") else d[0]
        s["dice"][d] = {"owner": owner, "holder": owner, "at": "space", "face": space}
    s["phase"], s["active"], s["turn"], s["pending"] = "act", seat, None, []
    return s


def apply(s, **action) -> tuple[dict, list]:
    return GAME.apply(s, action)


def res(s, seat) -> dict:
    return s["players"][seat]["res"]


def building(s, m: str, kind: str) -> str:
    """A free building of ``kind`` in monastery ``m``."""
    return next(b for b, who in s["mon"][m]["buildings"].items()
                if who is None and s["cat"]["buildings"][b]["type"] == kind)


def road_to(s, m: str) -> int:
    """A road space connected to monastery ``m``."""
    return next(int(k) for k, sp in s["cat"]["road"].items() if m in sp["monasteries"])


__all__ = ["CAT", "GAME", "new_game", "act_phase", "apply", "res", "building", "road_to"]

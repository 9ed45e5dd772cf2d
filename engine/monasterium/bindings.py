"""What the table's dice reader means to Monasterium (pure): the die roles (the neutral dice
and each colour's personal dice, which the owner maps to physical dice once per table on
the host's dice page) and what a settled roll of many dice means now."""
from __future__ import annotations

from engine.api import Act, DieRole, Warn
from engine.monasterium import state as _state

DICE = (DieRole("neutral", "Neutral die", count=10, colour_from="board.dice_colours.neutral"),
        *(DieRole(f"personal_{seat}", f"Personal die of player {seat}", count=3,
                  colour_from=f"board.dice_colours.{seat}")
          for seat in _state.SEAT_ORDER))


def _wanted(state) -> list:
    if state["over"]:
        return []
    if state["pending"] and state["pending"][0]["kind"] == "roll_extra":
        return [state["pending"][0]["die"]]
    if state["phase"] != "place" or state["pending"]:
        return []
    if state["place"]["reroll"] is not None:
        return list(state["place"]["reroll"])
    return [] if state["place"]["rolled"] else _state.hand(state, state["active"])


def _role(state, die: str) -> str:
    owner = state["dice"][die]["owner"]
    return "neutral" if owner is None else f"personal_{owner}"


def owed_dice(catalog, state) -> list[str]:
    """The roles of the dice the table owes a roll of now (the simulated camera's tray)."""
    return [] if state is None else [_role(state, die) for die in _wanted(state)]


def roll(state, dice) -> list:
    """The faces of the dice the table owes now, by role: the neutral ones in order, the
    personal ones by their colour; a roll that does not match says so."""
    want = _wanted(state)
    if not want:
        return []
    by_role: dict = {}
    for d in dice:
        by_role.setdefault(d.role, []).append(d.face)
    faces = {}
    for die in want:
        role = _role(state, die)
        if not by_role.get(role):
            return [Warn("roll_does_not_match", {"need": len(want), "got": len(dice)})]
        faces[die] = by_role[role].pop(0)
    return [Act({"type": "roll", "by": "table", "faces": faces})]


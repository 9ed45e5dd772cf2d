"""Migration steps that several games share (docs/record-format.md, "Rules versions").

A game's ``GameInfo.migrations`` names them from its own package (e.g.
engine/monasterium/migrations.py). Pure functions of a stored setup and its actions.
"""
from __future__ import annotations

from engine.api import Refused


def start_seat_as_played(setup: dict, actions: list[dict], order: tuple[str, ...]
                         ) -> tuple[dict, list[dict]]:
    """Rules 1 -> 2 of a game whose start player `table_from_setup` reads (commit 683e53d).

    Before it the start player was ``setup["start"]`` (by default the first seat in table
    order) and the new-game form's ``start_seat`` was ignored; since, ``start_seat`` starts.
    The setup gets the start player the game was played with. Games stored between that
    fix and rules versions carry no version either: until a seat has acted only the start
    player may act, so a first seat action by the form's start seat shows such a game,
    which keeps its start seat."""
    players = setup.get("players")
    seats = {p.get("seat") for p in players if isinstance(p, dict)} \
        if isinstance(players, list) else set()
    in_order = [seat for seat in order if seat in seats]
    if not in_order:
        return setup, actions  # the setup is refused by the rules, with their reason
    old = setup.get("start", in_order[0])
    if old not in in_order:
        raise Refused("not_migratable", reason=f"its start player {old!r} is not a seat")
    chosen = setup.get("start_seat", old)
    first = next((a.get("by") for a in actions
                  if isinstance(a, dict) and a.get("by") in in_order), None)
    start = chosen if chosen != old and first == chosen else old
    out = {k: v for k, v in setup.items() if k != "start"}
    out["start_seat"] = start
    return out, actions

"""Who starts and how it ends, as docs/engine.md promises the app.

- The start player chosen on the new-game form (``setup["start_seat"]``: any seat; the form's
  "Pick at random" reaches the game as one of them, drawn by the app) is the first seat the
  game asks for a decision; without ``start_seat``, the first seat taken (table order).
- ``scores`` has one row per seat with ``seat``, ``rank`` (1: a winner; ties share a rank,
  the next rank skips: 1, 1, 3) and ``vp`` (a number, the score the standings follow: a
  better rank never has fewer vp; a tie-break may order equal vp); a ``winner`` key, where a
  game gives one, is true exactly for rank 1 once the game is over.
- Once ``is_over``: no prompt and no allowed choice for anyone (the app then finishes the
  game and refuses every action itself).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.api import Refused, random_move


def first_asked(module: Any, state: Any, seats: list[str], rnd: Any, most: int = 200
                ) -> str | None:
    """The first seat (not the table) the game prompts, playing random moves until then."""
    for _ in range(most):
        for prompt in module.prompts(state):
            if prompt.seat in seats:
                return prompt.seat
        action = random_move(module, state, rnd)
        if action is None:
            return None
        state, _events = module.apply(state, action)
    return None


def check_start(module: Any, catalog: Any, setup: dict, rnd: Any,
                note: Callable[[str, str], None]) -> None:
    """Each seat as ``start_seat`` starts, and without it the first seat taken does."""
    seats = [p["seat"] for p in setup["players"]]
    order = [s.id for s in module.info.seats if s.id in seats]
    default = {k: v for k, v in setup.items() if k != "start_seat"}
    for start, given in [*((s, dict(setup, start_seat=s)) for s in seats), (order[0], default)]:
        where = f"{len(seats)} players, " + (f"start_seat {start!r}" if "start_seat" in given
                                             else "no start_seat")
        try:
            state = module.setup(catalog, given)
            asked = first_asked(module, state, seats, rnd)
        except Refused as refused:
            note(where, f"setup refused the new-game form's start player: {refused}")
            continue
        if asked != start:
            note(where, f"{asked!r} is asked first, not {start!r}: the start player chosen on "
                        f"the new-game form must start (setup['start_seat']; without it the "
                        f"first seat taken)")


def check_scores(where: str, rows: Any, seats: list[str], over: bool,
                 note: Callable[[str, str], None]) -> None:
    """The standings' rows as the app reads them (history, the play file, TC.winnerLine)."""
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        note(where, f"scores must be a list of rows, not {type(rows).__name__}")
        return
    if sorted(str(r.get("seat")) for r in rows) != sorted(seats):
        note(where, f"scores must have one row per seat {sorted(seats)}, has "
                    f"{[r.get('seat') for r in rows]}")
    for row in rows:
        rank, vp = row.get("rank"), row.get("vp")
        if type(rank) is not int or rank < 1:
            note(where, f"a scores row needs rank 1, 2, ... (1: a winner), has {rank!r}")
            return
        if type(vp) not in (int, float):
            note(where, f"a scores row needs vp, a number (the history's table and chart), "
                        f"has {vp!r}")
            return
    ranks = [r["rank"] for r in rows]
    if any(sum(x < rank for x in ranks) != rank - 1 for rank in ranks):
        note(where, f"ranks {sorted(ranks)} are not standings (ties share a rank and the "
                    f"next one skips: 1, 1, 3)")
    for better in rows:
        worse = next((r for r in rows if r["rank"] > better["rank"] and r["vp"] > better["vp"]),
                     None)
        if worse is not None:
            note(where, f"rank {better['rank']} has fewer vp ({better['vp']}) than rank "
                        f"{worse['rank']} ({worse['vp']}): the standings follow the score")
            return
    for row in rows:
        if "winner" in row and row["winner"] is not (over and row["rank"] == 1):
            note(where, f"winner {row['winner']!r} with rank {row['rank']} (over: {over}): "
                        f"a winner is rank 1 once the game is over")
            return


def check_over(where: str, module: Any, state: Any, seats: list[str],
               note: Callable[[str, str], None]) -> None:
    """A finished game owes nothing: no prompt and no allowed choice."""
    if module.prompts(state):
        note(where, f"the game is over but prompts remain: "
                    f"{[p.to_json() for p in module.prompts(state)][:2]}")
    for asker in [*seats, "table"]:
        allowed = [c.action for c in module.choices(state, asker) if c.refused is None]
        if allowed:
            note(where, f"the game is over but {asker} may still {allowed[0]}")
            return

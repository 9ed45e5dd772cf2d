"""Liar's dice lite: every seat holds three hidden dice; in turn each bids that the table
holds at least COUNT dice showing FACE, higher than the last bid, or calls the last bid.
A call shows every die: the bidder wins the round if the bid holds, else the caller does.
The loser of a round starts the next one, with every die rolled again; the first to the
points the table chose wins. The app rolls the dice (a seeded generator); the host may
correct a seat's points.
"""
from __future__ import annotations

import copy
import random

from engine.api import Choice, Prompt, Refused, table_from_setup

SEATS = ("A", "B", "C", "D")
DICE = 3  # per seat
REASONS = {
    "not_your_turn": "It is {seat}'s turn.",
    "bid_not_higher": "Bid more dice, or as many of a higher face, than {count} × {face}.",
    "too_many_dice": "The table holds only {total} dice.",
    "no_bid_yet": "There is no bid to call yet.",
    "not_a_seat": "{seat} does not play in this game.",
    "below_zero": "{seat} would have fewer than 0 points.",
    "host_only": "Only the host may do that.",
    "game_over": "The game is over.",
    "bad_setup": "Bad setup: {reason}",
    "unknown_action": "Unknown action: {type}",
}
EVENT_TEXTS = {
    "rolled": "You rolled {dice}.",
    "bid": "{seat} bids {count} × {face}.",
    "called": "{seat} calls: {total} dice show {face}, the bid was {count}.",
    "round_won": ["{seat} wins the round: {n} point.", "{seat} wins the round: {n} points."],
    "adjusted": "Correction for {seat}: {item} {delta}, now {after} ({reason}).",
    "game_over": "The game is over.",
}
PROMPT_TEXTS = {"bid": "{seat} bids or calls."}


def _roll(s: dict) -> list[dict]:
    """Every seat's dice rolled anew; each seat is told its own (a private event)."""
    events = []
    for seat in s["seats"]:
        rng = random.Random(f"{s['seed']}:{s['n']}")
        s["n"] += 1
        s["dice"][seat] = sorted(rng.randint(1, 6) for _ in range(DICE))
        events.append({"type": "rolled", "private": seat,
                       "dice": " ".join(map(str, s["dice"][seat]))})
    return events


def setup(catalog, setup: dict) -> dict:
    table = table_from_setup(setup, SEATS)  # the seats, the seed, the start player
    options = setup.get("options") or {}
    s = {"seed": table.seed, "n": 0, "seats": table.seats, "active": table.start,
         "dice": {}, "bid": None, "points": {seat: 0 for seat in table.seats},
         "round": 1, "last": None, "over": False,
         "to_win": options.get("points_to_win", 2)}
    _roll(s)
    return s


def apply(state: dict, action: dict):
    s = copy.deepcopy(state)
    kind, by = action.get("type"), action.get("by")
    if s["over"]:
        raise Refused("game_over")
    if kind == "adjust":
        return _adjust(s, action)
    if kind not in ("bid", "call"):
        raise Refused("unknown_action", type=str(kind))
    if by != s["active"]:
        raise Refused("not_your_turn", seat=s["active"])
    return _bid(s, action) if kind == "bid" else _call(s, by)


def _bid(s: dict, action: dict):
    count, face, last = action["count"], action["face"], s["bid"]
    total = DICE * len(s["seats"])
    if count > total:
        raise Refused("too_many_dice", total=total)
    if last is not None and (count, face) <= (last["count"], last["face"]):
        raise Refused("bid_not_higher", count=last["count"], face=last["face"])
    s["bid"] = {"seat": s["active"], "count": count, "face": face}
    seats = s["seats"]
    s["active"] = seats[(seats.index(s["active"]) + 1) % len(seats)]
    return s, [{"type": "bid", "seat": s["bid"]["seat"], "count": count, "face": face}]


def _call(s: dict, caller: str):
    bid = s["bid"]
    if bid is None:
        raise Refused("no_bid_yet")
    total = sum(d == bid["face"] for dice in s["dice"].values() for d in dice)
    winner = bid["seat"] if total >= bid["count"] else caller
    s["points"][winner] += 1
    s["last"] = {"dice": copy.deepcopy(s["dice"]), "total": total, **bid}
    events = [{"type": "called", "seat": caller, "total": total, "face": bid["face"],
               "count": bid["count"]},
              {"type": "round_won", "seat": winner, "n": s["points"][winner]}]
    if s["points"][winner] >= s["to_win"]:
        s["over"] = True
        return s, [*events, {"type": "game_over"}]
    s["active"] = caller if winner == bid["seat"] else bid["seat"]  # the loser starts
    s["bid"], s["round"] = None, s["round"] + 1
    return s, events + _roll(s)


def _adjust(s: dict, action: dict):
    """The host's "Correct a count" (docs/engine.md, Corrections): a seat's points."""
    seat, delta = action["seat"], action["delta"]
    if action.get("by") != "host":
        raise Refused("host_only")
    if seat not in s["points"]:
        raise Refused("not_a_seat", seat=seat)
    if s["points"][seat] + delta < 0:
        raise Refused("below_zero", seat=seat)
    s["points"][seat] += delta
    return s, [{"type": "adjusted", "seat": seat, "item": "points", "delta": delta,
                "after": s["points"][seat], "reason": action.get("reason", "")}]


def prompts(state: dict) -> list[Prompt]:
    return [] if state["over"] else [Prompt(state["active"], "bid")]


def choices(state: dict, seat: str) -> list[Choice]:
    """The seat's bids (up to two more dice than the last bid) and the call; for a seat
    whose turn it is not, the same refused."""
    if state["over"] or seat not in state["seats"]:
        return []
    last, total = state["bid"], DICE * len(state["seats"])
    lowest = (last["count"], last["face"]) if last else (1, 0)
    actions = [{"type": "bid", "by": seat, "count": c, "face": f}
               for c in range(lowest[0], min(total, lowest[0] + 2) + 1) for f in range(1, 7)
               if (c, f) > lowest]
    out = [Choice(a) for a in actions]
    out.append(Choice({"type": "call", "by": seat}, refused=None if last else Refused(
        "no_bid_yet").to_json()))
    if seat != state["active"]:
        turn = Refused("not_your_turn", seat=state["active"]).to_json()
        out = [Choice(c.action, refused=turn) for c in out]
    return out


def public_view(state: dict) -> dict:
    return {"seats": state["seats"], "active": state["active"], "bid": state["bid"],
            "points": state["points"], "round": state["round"], "to_win": state["to_win"],
            "dice_count": {seat: len(d) for seat, d in state["dice"].items()},
            "last": state["last"], "over": state["over"]}


def private_view(state: dict, seat: str) -> dict:
    return {"seat": seat, "dice": list(state["dice"].get(seat, []))}


def seat_view(state: dict, seat: str) -> dict:
    return {**public_view(state), **private_view(state, seat)}


def scores(state: dict) -> list[dict]:
    points = state["points"]
    return sorted(({"seat": seat, "vp": p, "rank": 1 + sum(o > p for o in points.values())}
                   for seat, p in points.items()), key=lambda row: row["rank"])


def is_over(state: dict) -> bool:
    return state["over"] is True


def preview(state: dict, action: dict) -> None:
    return None  # no answer is tentative: every bid is typed on a phone

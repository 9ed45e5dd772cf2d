"""A tiny test double of the GameModule contract with per-seat secrets.

Used by the generic server tests (routes, sockets, persistence) so they do not depend on the
World Without End rules; the privacy, restart and end-to-end tests run World Without End.
Each seat holds a secret hand of random card ids and a secret coin count; playing a card
makes it public and draws a new secret card (an event private to that seat).
"""
from __future__ import annotations

import copy
import random

from engine.api import Choice, Prompt, Refused

name = "toy"
SEATS = ["A", "B", "C", "D"]
HAND = 3
PLAYS_TO_END = 12
REASONS = {
    "not_your_turn": "It is not {seat}'s turn.",
    "not_in_hand": "{card} is not in your hand.",
    "bad_value": "A die shows 1 to 6, not {value}.",
    "unknown_action": "Unknown action: {type}",
    "bad_setup": "Bad setup: {reason}",
}
EVENT_TEXTS = {
    "played": "{seat} played {card}.",
    "drew": "You drew {card}.",
    "rolled": "The die shows {value}.",
    "adjusted": "Host: {seat} {item} {delta} ({reason}).",
    "game_over": "The game is over.",
}


def _draw(state: dict, seat: str) -> str:
    rng = random.Random(f"{state['seed']}:{state['n']}:{seat}")
    state["n"] += 1
    return f"secret-{seat}-{rng.randrange(10**9):09d}"


def setup(catalog, setup: dict) -> dict:
    players = setup.get("players") or []
    seats = [p["seat"] for p in players]
    if len(seats) < 2:
        raise Refused("bad_setup", reason="2 players or more")
    state = {"seed": setup.get("seed", 0), "n": 0, "seats": seats, "active": seats[0],
             "played": [], "pot": 0, "over": False, "hands": {}, "coins": {}}
    for seat in seats:
        state["hands"][seat] = [_draw(state, seat) for _ in range(HAND)]
        state["coins"][seat] = random.Random(f"{state['seed']}:coins:{seat}").randrange(100, 999)
    return state


def apply(state: dict, action: dict):
    s = copy.deepcopy(state)
    kind, by = action.get("type"), action.get("by")
    if s["over"]:
        raise Refused("game_over")
    if kind == "play":
        if by != s["active"]:
            raise Refused("not_your_turn", seat=s["active"])
        card = action.get("card")
        if card not in s["hands"][by]:
            raise Refused("not_in_hand", card=str(card))
        s["hands"][by].remove(card)
        s["played"].append(card)
        new = _draw(s, by)
        s["hands"][by].append(new)
        seats = s["seats"]
        s["active"] = seats[(seats.index(by) + 1) % len(seats)]
        events = [{"type": "played", "seat": by, "card": card},
                  {"type": "drew", "private": by, "card": new}]
        if len(s["played"]) >= PLAYS_TO_END:
            s["over"] = True
            events.append({"type": "game_over"})
        return s, events
    if kind == "roll":
        value = action.get("value")
        if value not in range(1, 7):
            raise Refused("bad_value", value=value)
        s["pot"] += value
        return s, [{"type": "rolled", "value": value}]
    if kind == "adjust" and by == "host":
        seat, delta = action.get("seat"), action.get("delta")
        if seat not in s["seats"] or not isinstance(delta, int):
            raise Refused("bad_request")
        s["coins"][seat] += delta
        return s, [{"type": "adjusted", "seat": seat, "item": "coins", "delta": delta,
                    "reason": action.get("reason") or "", "private": seat}]
    raise Refused("unknown_action", type=str(kind))


def prompts(state: dict):
    return [] if state["over"] else [Prompt(state["active"], "play")]


def choices(state: dict, seat: str):
    out = []
    for card in state["hands"].get(seat, []):  # "table" holds no hand
        action = {"type": "play", "by": seat, "card": card}
        refused = None if seat == state["active"] else Refused(
            "not_your_turn", seat=state["active"]).to_json()
        out.append(Choice(action, refused=refused))
    return out


def public_view(state: dict) -> dict:
    return {"seats": state["seats"], "active": state["active"], "played": state["played"],
            "pot": state["pot"], "over": state["over"],
            "hand_sizes": {s: len(h) for s, h in state["hands"].items()}}


def seat_view(state: dict, seat: str) -> dict:
    return dict(public_view(state), hand=list(state["hands"][seat]),
                coins=state["coins"][seat])


def scores(state: dict) -> list:
    return sorted(({"seat": s, "score": c} for s, c in state["coins"].items()),
                  key=lambda r: -r["score"])

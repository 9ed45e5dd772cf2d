"""The toy game's rules: a tiny but complete game with per-seat secrets.

Each seat holds a secret hand of random card ids and a secret coin count; playing a card
makes it public and draws a new secret card (an event private to that seat). The table
records die rolls (the pot grows by the face) and coin cards laid on the pile (the pot grows
by the coin's points from the catalog). The host may correct a seat's coins. The start player
chosen on the new-game form plays first (``setup["start_seat"]``, read with
`engine.api.table_from_setup`). The game ends after 12 plays; the most coins wins.
"""
from __future__ import annotations

import copy
import random

from engine.api import Choice, Prompt, Refused, table_from_setup

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
    "game_over": "The game is over.",
    "bad_request": "That request is not understood.",
    "unknown_card": "{card} is not a coin of this game.",
    "host_only": "Only the host may do that.",
}
EVENT_TEXTS = {
    "played": "{seat} played {card}.",
    "drew": "You drew {card}.",
    "rolled": "The die shows {value}.",
    "coin_laid": "{card} was laid on the pile: the pot grows by {points}.",
    "adjusted": "Correction for {seat}: {item} {delta}, now {after} ({reason}).",
    "game_over": "The game is over.",
}
# what an event was worded with before its fields grew (docs/engine.md, "Older events")
OLDER_EVENT_TEXTS = {"adjusted": ("Host: {seat} {item} {delta} ({reason}).",)}


def _draw(state: dict, seat: str) -> str:
    rng = random.Random(f"{state['seed']}:{state['n']}:{seat}")
    state["n"] += 1
    return f"secret-{seat}-{rng.randrange(10**9):09d}"


def catalog_state(catalog) -> dict:
    """What a state carries of the catalog: coin id -> points."""
    cards = catalog.get("cards") if isinstance(catalog, dict) else None
    return {"points": {c["id"]: c["points"] for c in cards or []}}


def setup(catalog, setup: dict) -> dict:
    table = table_from_setup(setup, tuple(SEATS))  # checks the seats, reads the start player
    seats = [p["seat"] for p in setup["players"]]  # turns go round in the order given
    state = {"seed": setup.get("seed", 0), "n": 0, "seats": seats, "active": table.start,
             "played": [], "pot": 0, "over": False, "hands": {}, "coins": {},
             "cat": catalog_state(catalog)}
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
    if kind == "coin":
        if by != "table":
            raise Refused("not_your_turn", seat="table")
        card = action.get("card")
        points = s.get("cat", {}).get("points", {}).get(card) if isinstance(card, str) else None
        if points is None:
            raise Refused("unknown_card", card=str(card)[:40])
        s["pot"] += points
        return s, [{"type": "coin_laid", "card": card, "points": points}]
    if kind == "adjust":
        if by != "host":
            raise Refused("host_only")
        seat, delta = action.get("seat"), action.get("delta")
        if seat not in s["seats"] or not isinstance(delta, int):
            raise Refused("bad_request")
        s["coins"][seat] += delta
        return s, [{"type": "adjusted", "seat": seat, "item": "coins", "delta": delta,
                    "after": s["coins"][seat], "reason": action.get("reason") or "",
                    "private": seat}]
    raise Refused("unknown_action", type=str(kind))


def prompts(state: dict):
    return [] if state["over"] else [Prompt(state["active"], "play")]


def choices(state: dict, seat: str):
    if state["over"]:
        return []
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
    """One row per seat, as docs/engine.md asks: seat, rank (ties share it), vp (the coins,
    which are this game's points), and the game's own word for them."""
    coins = state["coins"]
    return sorted(({"seat": s, "score": c, "vp": c,
                    "rank": 1 + sum(other > c for other in coins.values())}
                   for s, c in coins.items()), key=lambda r: -r["score"])


def is_over(state: dict) -> bool:
    return state["over"] is True


def preview(state: dict, action: dict):
    """What playing a card would do: it becomes public (no secret is previewed)."""
    if not isinstance(action, dict) or action.get("type") != "play" or state["over"]:
        return None
    if action.get("by") != state["active"] or action.get("card") not in state["hands"].get(
            action.get("by"), []):
        return None
    return {"action": {"type": "play", "by": state["active"]}, "seat": state["active"],
            "effect": {"played": len(state["played"]) + 1}}


RULES_VERSION = 2  # docs/record-format.md, "Rules versions"


def start_seat_read(setup: dict, actions: list) -> tuple[dict, list]:
    """1 -> 2: the form's start player starts; before, the first player given did."""
    players = setup.get("players") or [{}]
    return {**setup, "start_seat": players[0].get("seat")}, actions


MIGRATIONS = {1: start_seat_read}

"""Monasterium's position: the board's constants, setup, and the small helpers that read
or change a state (rules reference ../shared/rules/monasterium.md, §2-§12).

The state is plain JSON. Below every rule (effects, corrections, rules.py's `apply`), so
each of them reads the position without importing the others.
"""
from __future__ import annotations

import random

from engine.api import Refused, table_from_setup
from engine.monasterium import options as opts

SEAT_ORDER = ("N", "E", "S", "W")
COLOURS = {"N": "blue", "E": "red", "S": "green", "W": "yellow"}
COLUMNS = ("A", "B", "C", "D", "E")
ROWS = ("I", "II", "III", "IV")
RES = ("influence", "soup", "rosary", "tool", "book")


# ---- setup -----------------------------------------------------------------------------
def index(catalog: dict) -> dict:
    """What a state carries under state["cat"]: the catalog indexed by id."""
    board = catalog["board"]
    mons = {m["id"]: m for m in board["monasteries"]}
    buildings = {b["id"]: dict(b, monastery=m["id"]) for m in board["monasteries"]
                 for b in m["buildings"]}
    return {"board": {k: v for k, v in board.items() if k != "monasteries"},
            "monasteries": mons, "buildings": buildings,
            "road": {str(sp["space"]): sp for sp in board["road"]["spaces"]},
            "road_length": len(board["road"]["spaces"]),
            "actions": catalog["actions"],
            "missions": {m["id"]: m for m in catalog["missions"]}}


def setup_drawn(state: dict) -> dict:
    """The missions the game drew at setup, for the guide's step that lays them
    (``GameInfo.setup_drawn``): the table lays these cards, not a shuffle of its own."""
    return {"missions": list(state["missions"])}


def setup(catalog: dict, setup_: dict) -> dict:
    table = table_from_setup(setup_, SEAT_ORDER)
    seats, seed, first = table.seats, table.seed, table.start
    cat = catalog if "buildings" in catalog else index(catalog)
    b = cat["board"]
    n = len(seats)
    rng = random.Random(seed)
    by_type: dict = {}
    for m in cat["missions"].values():
        by_type.setdefault(m["type"], []).append(m["id"])
    missions = [mid for t in ("A", "B", "C") for mid in rng.sample(sorted(by_type[t]), 2)]
    mon = {}
    for mid, m in cat["monasteries"].items():
        blocked = set(m.get("blocked_3p", [])) if n == 3 else set()
        mon[mid] = {"buildings": {bb["id"]: ("#" if bb["id"] in blocked else None)
                                  for bb in m["buildings"]},
                    "chapel": [], "cloister": {c: None for c in m["cloister"]},
                    "glass": b["glass_per_player"] * n}
    s = {
        "game": "monasterium", "seed": seed, "rng_n": 1,
        "options": opts.resolve(setup_.get("options")),
        "seats": seats, "names": table.names,
        "cat": cat, "year": 1, "round": 1, "first": first, "phase": "place",
        "active": first, "over": False, "missions": missions,
        "mon": mon, "dice": {}, "pending": [], "turn": None,
        "place": {"rolled": False, "reroll": None}, "final": None,
        "players": {seat: {
            "prestige": 0, "res": {r: b["start_resources"].get(r, 0) for r in RES},
            "road": 1, "personal": 1, "reroll_used": False,
            "novices": {r: list(COLUMNS) for r in ROWS}, "extras": list(ROWS),
            "yellow": [], "chapel_sent": 0, "cloister_sent": 0, "sent": 0,
            "window": [[None] * 3 for _ in range(3)], "claimed": {}, "once": []}
            for seat in seats},
    }
    deal_dice(s)
    return s


def deal_dice(s) -> None:
    """Round preparation: the neutral dice by player count and every owned personal die go
    to their players' hands, faces unknown."""
    per = s["cat"]["board"]["neutral_per_player"][str(len(s["seats"]))]
    dice = {}
    k = 0
    for seat in s["seats"]:
        for _ in range(per):
            k += 1
            dice[f"n{k}"] = {"owner": None, "holder": seat, "at": "hand", "face": None}
        for i in range(1, s["players"][seat]["personal"] + 1):
            dice[f"{seat}{i}"] = {"owner": seat, "holder": seat, "at": "hand", "face": None}
    s["dice"] = dice


# ---- helpers -----------------------------------------------------------------------------
def board(s) -> dict:
    return s["cat"]["board"]


def order_from(s, seat: str) -> list:
    i = s["seats"].index(seat)
    return s["seats"][i:] + s["seats"][:i]


def next_seat(s, seat: str) -> str:
    return order_from(s, seat)[1 % len(s["seats"])]


def hand(s, seat: str) -> list:
    return sorted(d for d, x in s["dice"].items() if x["at"] == "hand" and x["holder"] == seat)


def on_space(s, space: int) -> list:
    return sorted(d for d, x in s["dice"].items() if x["at"] == "space" and x["face"] == space)


def takeable(s, seat: str, space: int) -> list:
    return [d for d in on_space(s, space) if s["dice"][d]["owner"] in (None, seat)]


def column_of(space: int) -> str | None:
    return COLUMNS[space - 1] if 1 <= space <= 5 else None


def seeded_rng(s) -> random.Random:
    r = random.Random(s["seed"] * 1_000_003 + s["rng_n"])
    s["rng_n"] += 1
    return r


def gain(s, seat, items: dict, ev: list, why: str) -> None:
    p = s["players"][seat]
    for k, v in items.items():
        if not v:
            continue
        if k == "prestige":
            p["prestige"] += v
        elif k in RES:
            v = _from_supply(s, k, v, ev)
            if not v:
                continue
            p["res"][k] += v
        ev.append({"type": "gain", "seat": seat, "item": k, "amount": v, "why": why})


def _from_supply(s, item: str, amount: int, ev: list) -> int:
    """M-A18: the box holds a number of each resource (board.resources). By default the
    supply is unlimited and the table is warned when the players' total passes the box's
    count (use a substitute); with ``"limited": true`` a gain gets only what is left."""
    supply = board(s).get("resources") or {}
    box = supply.get(item)
    if not isinstance(box, int):
        return amount
    held = sum(p["res"][item] for p in s["players"].values())
    if supply.get("limited"):
        amount = max(0, min(amount, box - held))
        if not amount:
            ev.append({"type": "supply_empty", "item": item, "supply": box})
        return amount
    if held <= box < held + amount:
        ev.append({"type": "supply_exceeded", "item": item, "held": held + amount,
                   "supply": box})
    return amount


def pay(s, seat, items: dict, ev: list, why: str) -> None:
    p = s["players"][seat]
    for k, v in items.items():
        if v and p["res"][k] < v:
            raise Refused("cannot_afford", item=k, need=v, have=p["res"][k])
    for k, v in items.items():
        if v:
            p["res"][k] -= v
            ev.append({"type": "paid", "seat": seat, "item": k, "amount": v, "why": why})


# ---- copies made before a change ---------------------------------------------------------
def roller(s) -> str | None:
    """Whose dice the next roll is (they may enter it on their phone without a reader)."""
    if s["pending"] and s["pending"][0]["kind"] == "roll_extra":
        return s["dice"][s["pending"][0]["die"]]["owner"]
    if s["phase"] == "place" and not s["pending"] and (
            not s["place"]["rolled"] or s["place"]["reroll"] is not None):
        return s["active"]
    return None


def clone_player(p: dict) -> dict:
    """A player's own copy (the shape of `setup`'s players; faster than a recursive copy)."""
    return {**p, "res": dict(p["res"]), "novices": {r: list(v) for r, v in p["novices"].items()},
            "extras": list(p["extras"]), "yellow": list(p["yellow"]),
            "window": [list(row) for row in p["window"]], "claimed": dict(p["claimed"]),
            "once": list(p["once"])}


def _clone(x):
    if type(x) is dict:
        return {k: _clone(v) for k, v in x.items()}
    if type(x) is list:
        return [_clone(v) for v in x]
    return x


def own_monastery(s, m: str) -> dict:
    """Monastery ``m`` of the new state, copied before it changes (the previous state keeps
    its own)."""
    s["mon"][m] = _clone(s["mon"][m])
    return s["mon"][m]


def set_die(s, die: str, **changes) -> None:
    """A die changes: a new entry (the previous state keeps the old one)."""
    s["dice"][die] = {**s["dice"][die], **changes}


# ---- the actions a column offers --------------------------------------------------------
def alt_open(s, seat, row: str, col: str) -> bool:
    """An alternative action is open once the novice of its space has left (§7.1)."""
    return col not in s["players"][seat]["novices"][row]


def effect_of(s, seat, col: str, act: str) -> dict | None:
    acts = s["cat"]["actions"]
    if act == "std":
        return acts["standard"][col]
    if act in ("I", "II", "III") and alt_open(s, seat, act, col):
        return acts[act][col]
    return None

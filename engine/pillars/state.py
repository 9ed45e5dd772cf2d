"""The Pillars of the Earth: the position and the small helpers that read or change it
(rules reference §2–§12).

The state is plain JSON. ``state["cat"]`` holds the indexed catalog (see catalog.index) and
is never changed. Below every rule, so each phase reads the position without the others.
"""
from __future__ import annotations

import marshal
import random

from engine.api import Refused

SEAT_ORDER = ("N", "E", "S", "W")
COLOURS = {"N": "blue", "E": "red", "S": "green", "W": "yellow"}
CUBES = ("wood", "stone", "sand", "metal")
BUYABLE = ("wood", "stone", "sand")

# Parts of the state never changed in place (replaced whole, or never changed): shared.
SHARED = frozenset(("cat", "options", "names", "seats", "round_start", "last_round", "game",
                    "ledger", "last_ledger",
                    "n", "seed", "rng_n", "round", "phase", "start", "active", "over",
                    "first_start", "court_metal", "castle", "black_free", "event", "bishop",
                    "tax", "limit", "limit_next", "market_turn", "cathedral"))
PLAYER_LISTS = ("craftsmen", "privileges", "used", "materials", "bought", "sold")
LISTS = frozenset(("kingsbridge", "shiring", "supply_craftsmen", "supply_materials",
                   "removed", "placed", "queue", "market_open", "market_spaces", "exempt"))


def copy_state(s: dict) -> dict:
    """A copy deep enough that the rules may change it in place (knows the state's shape;
    unknown keys are deep-copied, so a new key is safe before it is listed here)."""
    out = {}
    for key, value in s.items():
        if key in SHARED:
            out[key] = value
        elif key in LISTS:
            out[key] = list(value)
        elif key == "players":
            out[key] = {seat: {**p, "cubes": dict(p["cubes"]), "owed": dict(p["owed"]),
                               **{k: list(p[k]) for k in PLAYER_LISTS}}
                        for seat, p in value.items()}
        elif key in ("sites", "market", "spaces"):
            out[key] = dict(value)
        elif key == "seen":
            out[key] = {k: list(v) for k, v in value.items()}
        elif key == "arch":
            out[key] = {**value, **{k: dict(value[k]) for k in ("bag", "aside", "count")
                                    if k in value},
                        **({"wheel": list(value["wheel"])} if "wheel" in value else {})}
        elif key == "pending":
            out[key] = dict(value) if value is not None else None
        else:
            out[key] = marshal.loads(marshal.dumps(value))
    return out


def board(s) -> dict:
    return s["cat"]["board"]


def order_from(s, first: str) -> list:
    seats = s["seats"]
    i = seats.index(first)
    return seats[i:] + seats[:i]


def next_seat(s, seat: str) -> str:
    seats = s["seats"]
    return seats[(seats.index(seat) + 1) % len(seats)]


def gain_gold(s, seat: str, amount: int, ev: list, capped: bool | None = None) -> None:
    p = s["players"][seat]
    cap = board(s)["gold_cap"]
    if capped is None:
        capped = s["options"]["gold_cap_all_gains"]
    new = p["gold"] + amount
    if capped and new > cap:
        ev.append({"type": "gold_lost_cap", "seat": seat, "amount": new - cap})
        new = cap
    p["gold"] = new


def change_vp(s, seat: str, delta: int) -> None:
    p = s["players"][seat]
    p["vp"] += delta
    if s["options"]["vp_floor_zero"] and p["vp"] < 0:
        p["vp"] = 0


def pay_gold(s, seat: str, due: int, ev: list, why: str) -> None:
    """The payment shortfall rule (§11): pay what you can, 1 VP per 2 unpaid, rounded down."""
    p = s["players"][seat]
    paid = min(p["gold"], due)
    p["gold"] -= paid
    lost = (due - paid) // board(s)["shortfall_per_vp"]
    if lost:
        change_vp(s, seat, -lost)
    ev.append({"type": "paid", "seat": seat, "amount": paid, "due": due, "vp_lost": lost,
               "why": why})


def take_cubes(s, seat: str, cube: str, n: int, ev: list, source: str = "site") -> int:
    """Give ``n`` cubes of ``cube`` from a production site (metal: beside the board)."""
    if n <= 0:
        return 0
    have = s["sites"][cube]
    got = min(have, n)
    s["sites"][cube] -= got
    s["players"][seat]["cubes"][cube] += got
    short = n - got
    if short:
        if s["options"]["site_shortage"] == "owe":
            s["players"][seat]["owed"][cube] += short
            ev.append({"type": "cubes_owed", "seat": seat, "cube": cube, "amount": short})
        else:
            ev.append({"type": "cubes_lost", "seat": seat, "cube": cube, "amount": short})
    if got:
        ev.append({"type": "gain", "seat": seat, "item": cube, "amount": got, "source": source})
    return got


def return_cubes(s, seat: str, cube: str, n: int) -> None:
    s["players"][seat]["cubes"][cube] -= n
    s["sites"][cube] += n


def give_items(s, seat: str, items: dict, ev: list, source: str) -> None:
    for item, n in items.items():
        if item == "gold":
            gain_gold(s, seat, n, ev)
            ev.append({"type": "gain", "seat": seat, "item": "gold", "amount": n,
                       "source": source})
        elif item == "vp":
            change_vp(s, seat, n)
            ev.append({"type": "gain", "seat": seat, "item": "vp", "amount": n,
                       "source": source})
        else:
            take_cubes(s, seat, item, n, ev, source)


def worker_total(s, seat: str) -> int:
    p = s["players"][seat]
    return board(s)["worker_units"] + p["grey"] + p["black"]


def workers_free(s, seat: str) -> int:
    p = s["players"][seat]
    return worker_total(s, seat) - p["committed"]


def has_type(s, seat: str, ctype: str) -> bool:
    crafts = s["cat"]["craftsmen"]
    return any(crafts[c]["type"] == ctype for c in s["players"][seat]["craftsmen"])


def can_buy_wood(s, seat: str) -> bool:
    if has_type(s, seat, "carpenter"):
        return True
    return s["options"]["master_carpenter_counts"] and has_type(s, seat, "master_carpenter")


def spaces_of(s, loc: str) -> list:
    return [f"{loc}{i}" for i in range(1, s["cat"]["locations"][loc]["spaces"] + 1)]


def space_loc(s, space: str) -> str | None:
    for loc in s["cat"]["locations"]:
        if space.startswith(loc) and space[len(loc):].isdigit():
            n = int(space[len(loc):])
            if 1 <= n <= s["cat"]["locations"][loc]["spaces"]:
                return loc
    return None


def occupant(s, space: str):
    return s["spaces"].get(space)


def occupants(s, loc: str) -> list:
    return [(sp, s["spaces"][sp]) for sp in spaces_of(s, loc) if sp in s["spaces"]]


def space_refusal(s, seat: str, space) -> Refused | None:
    """Why ``seat`` may not put an architect on ``space`` now (None: it may)."""
    if not isinstance(space, str):
        return Refused("bad_field", field="space")
    loc = space_loc(s, space)
    if loc is None:
        return Refused("no_such_space", space=space)
    if space in s["spaces"]:
        return Refused("space_taken", space=space)
    if not s["options"]["spaces_any_order"]:
        first = next(sp for sp in spaces_of(s, loc) if sp not in s["spaces"])
        if first != space:
            return Refused("space_order", space=space, first=first)
    if not s["options"]["same_player_two_spaces"] and \
            any(who == seat for _, who in occupants(s, loc)):
        return Refused("one_per_location", location=loc)
    return None


def free_spaces(s, seat: str) -> list:
    out = []
    for loc in s["cat"]["locations"]:
        for sp in spaces_of(s, loc):
            if space_refusal(s, seat, sp) is None:
                out.append(sp)
    return out


def draw_cost(s) -> int:
    costs = board(s)["costs"]
    k = s["arch"]["marker"]
    if len(s["seats"]) == 2 and k >= 2 * board(s)["architects_per_player"]:
        return 0
    return costs[k] if k < len(costs) else 0


def rng(s) -> random.Random:
    return random.Random(s["seed"] * 1000003 + s["rng_n"])


def storage_count(s, seat: str) -> int:
    cubes = s["players"][seat]["cubes"]
    types = CUBES if s["options"]["metal_counts_storage"] else BUYABLE
    return sum(cubes[c] for c in types)

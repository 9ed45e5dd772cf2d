"""The Pillars of the Earth: setup, `apply` and the round flow (rules reference §2–§12).

The state is plain JSON. ``state["cat"]`` holds the indexed catalog (see catalog.index) and
is never changed. ``state["phase"]`` says which decision is owed; `advance` runs every
automatic step until the next decision. Chance decided at the table (cards revealed, the
bag draw, the tax die) enters as actions by "table"; the ``deal`` action lets the app decide
such a chance from the seeded generator stored in the state (never in a view).
"""
from __future__ import annotations

import marshal
import random

from engine.api import Refused, table_from_setup
from engine.pillars import options as opts
from engine.pillars.advisor import apply_allocation, check_allocation, outcome

SEAT_ORDER = ("N", "E", "S", "W")
COLOURS = {"N": "blue", "E": "red", "S": "green", "W": "yellow"}
CUBES = ("wood", "stone", "sand", "metal")
BUYABLE = ("wood", "stone", "sand")
MAX_INT = 10 ** 6


# ---- helpers -------------------------------------------------------------------------------

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


def pay(s, seat: str, due: int, why: str, ev: list) -> None:
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


# ---- setup -----------------------------------------------------------------------------------

def setup(catalog, setup_: dict) -> dict:
    from engine.pillars.catalog import index

    table = table_from_setup(setup_, SEAT_ORDER)
    seats, seed, start = table.seats, table.seed, table.start
    cat = catalog if "locations" in catalog and "craftsmen_by_round" in catalog \
        else index(catalog)
    b = cat["board"]
    s = {
        "game": "pillars", "n": 0, "seed": seed, "rng_n": 0,
        "options": opts.resolve(setup_.get("options")),
        "seats": seats, "names": table.names,
        "cat": cat, "round": 1, "phase": "prep", "start": start, "active": None,
        "over": False, "first_start": start,
        "players": {},
        "sites": {c: cat["cubes"][c] for c in CUBES},
        "market": {c: 0 for c in BUYABLE},
        "court_metal": 0, "castle": b["grey_workers"], "black_free": 1,
        "kingsbridge": [], "shiring": [], "supply_craftsmen": [], "supply_materials": [],
        "seen": {"events": [], "privileges": [], "craftsmen": []},
        "removed": [], "arch": {}, "spaces": {}, "placed": [], "event": None,
        "bishop": None, "tax": None, "limit": None, "limit_next": None,
        "queue": [], "pending": None, "market_open": [], "market_turn": None,
        "round_start": {}, "last_round": {}, "cathedral": 0,
        "ledger": {}, "last_ledger": {},
    }
    for seat in seats:
        s["players"][seat] = {
            "gold": 0, "vp": b["start_vp"],
            "cubes": {c: 0 for c in CUBES}, "owed": {c: 0 for c in CUBES},
            "craftsmen": [c for c in cat["start_craftsmen"][COLOURS[seat]]],
            "privileges": [], "used": [], "materials": [], "committed": 0, "mill": 0,
            "grey": 0, "grey_next": 0, "black": 0, "passed": False, "bought": [], "sold": [],
        }
    _start_gold(s)
    ev: list = []
    _prepare_round(s, ev)
    return s


def _start_gold(s) -> None:
    for i, seat in enumerate(order_from(s, s["start"])):
        s["players"][seat]["gold"] = board(s)["start_gold"] + i


def _snapshot(s) -> dict:
    return {seat: {"gold": p["gold"], "vp": p["vp"], **p["cubes"]}
            for seat, p in s["players"].items()}


def _prepare_round(s, ev: list) -> None:
    """§4: refill the market, metal to court, grey workers home, cost marker to 7."""
    b = board(s)
    for c in BUYABLE:
        need = max(0, b["market_stock"] - s["market"][c])
        got = min(need, s["sites"][c])
        s["sites"][c] -= got
        s["market"][c] += got
    if s["court_metal"] == 0 and s["sites"]["metal"] > 0:
        s["sites"]["metal"] -= 1
        s["court_metal"] = 1
    for p in s["players"].values():
        s["castle"] += p["grey"]
        p["grey"], p["grey_next"] = p["grey_next"], 0
        p.update(committed=0, mill=0, materials=[], passed=False, bought=[], sold=[])
    s["limit"], s["limit_next"] = s["limit_next"], None
    s["kingsbridge"], s["shiring"] = [], []
    s["supply_craftsmen"], s["supply_materials"] = [], []
    s["spaces"], s["placed"] = {}, []
    s["event"], s["bishop"], s["tax"] = None, None, None
    if s["round"] == b["rounds"]:
        s["kingsbridge"] = list(s["cat"]["final_privileges"])
    s["arch"] = {"bag": {seat: b["architects_per_player"] for seat in s["seats"]},
                 "drawn": None, "marker": 0, "wheel": [], "refused": False,
                 "aside": {seat: 0 for seat in s["seats"]},
                 "count": {seat: 0 for seat in s["seats"]}}
    s["phase"] = "prep"
    s["active"] = None
    s["round_start"] = _snapshot(s)
    ev.append({"type": "round_started", "round": s["round"], "start": s["start"]})


def prep_missing(s) -> dict:
    b = board(s)
    return {"privilege": b["privileges_per_round"] - len(s["kingsbridge"]),
            "shiring": b["shiring_craftsmen"] - len(s["shiring"]),
            "supply_craftsman": b["supply_craftsmen"] - len(s["supply_craftsmen"]),
            "material": b["supply_materials"] - len(s["supply_materials"])}


# ---- the flow ----------------------------------------------------------------------------------

def advance(s, ev: list) -> None:
    """Run automatic steps until a decision is owed (or the game is over)."""
    for _ in range(1000):
        if s["over"] or s["pending"] is not None:
            return
        ph = s["phase"]
        if ph == "prep":
            if any(v > 0 for v in prep_missing(s).values()):
                return
            s["phase"] = "draft"
            s["active"] = s["start"]
            ev.append({"type": "draft_started", "round": s["round"]})
            continue
        if ph == "draft":
            if _draft_over(s):
                _end_draft(s, ev)
                continue
            if s["players"][s["active"]]["passed"]:
                s["active"] = _next_drafter(s, s["active"])
            return
        if ph == "architects":
            a = s["arch"]
            if a["drawn"] is None and sum(a["bag"].values()) == 0:
                s["phase"] = "deferred"
                continue
            return
        if ph == "deferred":
            a = s["arch"]
            while a["wheel"] and not free_spaces(s, a["wheel"][0]):
                seat = a["wheel"].pop(0)
                ev.append({"type": "architect_unused", "seat": seat})
            if a["wheel"]:
                s["active"] = a["wheel"][0]
                return
            s["active"] = None
            s["phase"] = "event"
            continue
        if ph in ("event", "bishop", "tax", "exemption", "market", "build", "store"):
            return
        if ph == "steps3":
            _steps_3_to_8(s, ev)
            s["phase"] = "tax"
            continue
        if ph == "steps10":
            _step_10_to_11(s, ev)
            continue
        if ph == "steps_market":
            _open_market(s, ev)
            continue
        if ph == "end":
            _end_round(s, ev)
            continue
        return


def _draft_over(s) -> bool:
    empty = not s["supply_craftsmen"] and not s["supply_materials"]
    return empty or all(p["passed"] for p in s["players"].values())


def _next_drafter(s, seat: str) -> str:
    cur = seat
    for _ in range(len(s["seats"])):
        cur = next_seat(s, cur)
        if not s["players"][cur]["passed"]:
            return cur
    return seat


def _end_draft(s, ev: list) -> None:
    for cid in s["supply_craftsmen"]:
        s["removed"].append(cid)
        ev.append({"type": "craftsman_removed", "card": cid})
    s["supply_craftsmen"] = []
    s["supply_materials"] = []
    for seat in s["seats"]:
        p = s["players"][seat]
        p["mill"] = worker_total(s, seat) - p["committed"]
        ev.append({"type": "workers_to_mill", "seat": seat, "amount": p["mill"]})
    s["phase"] = "architects"
    s["active"] = None
    ev.append({"type": "architects_started"})


def _steps_3_to_8(s, ev: list) -> None:
    order = order_from(s, s["start"])
    # Step 3: mill
    for seat in order:
        p = s["players"][seat]
        if p["mill"]:
            gain_gold(s, seat, p["mill"], ev, capped=True)
            ev.append({"type": "mill_income", "seat": seat, "amount": p["mill"]})
        p["mill"] = 0
    # Step 4: Kingsbridge
    for i, card in enumerate(s["kingsbridge"]):
        who = occupant(s, f"kingsbridge{i + 1}")
        if who is None:
            s["removed"].append(card)
            ev.append({"type": "privilege_removed", "card": card})
            continue
        _gain_privilege(s, who, card, ev)
    s["kingsbridge"] = []
    # Step 5: Prior
    for i, vp in enumerate(s["cat"]["locations"]["prior"].get("vp", [])):
        who = occupant(s, f"prior{i + 1}")
        if who is not None:
            change_vp(s, who, vp)
            ev.append({"type": "prior_vp", "seat": who, "amount": vp})
    # Steps 6-8: production (owed cubes first, then cards, then patrons)
    for cube in ("wood", "stone", "sand"):
        for seat in order:
            p = s["players"][seat]
            owed = p["owed"][cube]
            if owed:
                p["owed"][cube] = 0
                take_cubes(s, seat, cube, owed, ev, "owed")
            amount = sum(s["cat"]["materials"][m]["yield"] for m in p["materials"]
                         if s["cat"]["materials"][m]["cube"] == cube)
            amount += sum(1 for pv in p["privileges"]
                          if s["cat"]["privileges"][pv]["kind"] == "patron"
                          and s["cat"]["privileges"][pv].get("cube") == cube)
            if amount:
                take_cubes(s, seat, cube, amount, ev, "production")
    for seat in order:
        p = s["players"][seat]
        if p["owed"]["metal"]:
            owed, p["owed"]["metal"] = p["owed"]["metal"], 0
            take_cubes(s, seat, "metal", owed, ev, "owed")
        p["materials"] = []
        p["committed"] = 0


def _gain_privilege(s, seat: str, card: str, ev: list) -> None:
    pv = s["cat"]["privileges"][card]
    p = s["players"][seat]
    ev.append({"type": "privilege_taken", "seat": seat, "card": card})
    kind = pv["kind"]
    if kind == "immediate":
        give_items(s, seat, pv.get("gain", {}), ev, "privilege")
        s["removed"].append(card)
        return
    p["privileges"].append(card)
    if kind == "worker" and s["black_free"]:
        s["black_free"] = 0
        p["black"] += 1


def _start_tax(s, face: int, ev: list) -> None:
    s["tax"] = face
    ev.append({"type": "tax_rolled", "face": face})
    court = occupants(s, "court")
    # metal to the metal space (or the first architect placed at the court)
    taker = None
    if s["options"]["court_metal"] == "metal_space":
        taker = occupant(s, f"court{s['cat']['locations']['court'].get('metal_space', 1)}")
    else:
        firsts = [sp for sp in s["placed"] if sp.startswith("court")]
        taker = s["spaces"][firsts[0]] if firsts else None
    if taker is not None and s["court_metal"]:
        s["court_metal"] = 0
        s["players"][taker]["cubes"]["metal"] += 1
        ev.append({"type": "gain", "seat": taker, "item": "metal", "amount": 1,
                   "source": "court"})
    exempt = {who for _, who in court}
    s["exempt"] = sorted(exempt)
    s["queue"] = [seat for seat in order_from(s, s["start"])
                  if seat not in exempt and _exemption_card(s, seat) is not None]
    s["phase"] = "exemption"
    _next_exemption(s, ev)


def _exemption_card(s, seat: str):
    for card in s["players"][seat]["privileges"]:
        if s["cat"]["privileges"][card]["kind"] == "tax_exemption":
            return card
    return None


def _next_exemption(s, ev: list) -> None:
    if s["queue"]:
        s["active"] = s["queue"][0]
        return
    s["active"] = None
    for seat in order_from(s, s["start"]):
        if seat in s["exempt"]:
            ev.append({"type": "tax_exempt", "seat": seat})
            continue
        pay(s, seat, s["tax"], "tax", ev)
    s.pop("exempt", None)
    s["phase"] = "steps10"


def _step_10_to_11(s, ev: list) -> None:
    # Step 10: Shiring (one space at a time, so a discard decision can interrupt)
    while s["shiring"]:
        idx = board(s)["shiring_craftsmen"] - len(s["shiring"]) + 1
        card = s["shiring"].pop(0)
        who = occupant(s, f"shiring{idx}")
        if who is None:
            s["removed"].append(card)
            ev.append({"type": "craftsman_removed", "card": card})
            continue
        hire(s, who, card, ev, "shiring")
        if s["pending"] is not None:
            return
    # Step 11: Shiring Castle
    who = occupant(s, "castle1")
    if who is not None:
        n = min(board(s)["grey_per_visit"], s["castle"])
        s["castle"] -= n
        s["players"][who]["grey_next"] += n
        ev.append({"type": "grey_workers", "seat": who, "amount": n})
    s["phase"] = "steps_market"


def hire(s, seat: str, card: str, ev: list, source: str) -> None:
    p = s["players"][seat]
    p["craftsmen"].append(card)
    ev.append({"type": "craftsman_hired", "seat": seat, "card": card, "source": source})
    if len(p["craftsmen"]) > board(s)["craftsman_limit"]:
        s["pending"] = {"kind": "discard_craftsman", "seat": seat}


def _open_market(s, ev: list) -> None:
    s["market_open"] = [who for _, who in occupants(s, "market")]
    s["market_spaces"] = [sp for sp, _ in occupants(s, "market")]
    s["market_turn"] = 0
    if s["market_open"]:
        s["phase"] = "market"
        s["active"] = s["market_open"][0]
        ev.append({"type": "market_opened"})
    else:
        _start_build(s, ev)


def _market_next(s, ev: list) -> None:
    if not s["market_open"]:
        s["market_turn"] = None
        s.pop("market_spaces", None)
        _start_build(s, ev)
        return
    s["market_turn"] = s["market_turn"] % len(s["market_open"])
    s["active"] = s["market_open"][s["market_turn"]]


def _start_build(s, ev: list) -> None:
    s["phase"] = "build"
    s["queue"] = order_from(s, s["start"])
    s["active"] = s["queue"][0]


def storage_count(s, seat: str) -> int:
    cubes = s["players"][seat]["cubes"]
    types = CUBES if s["options"]["metal_counts_storage"] else BUYABLE
    return sum(cubes[c] for c in types)


def _after_build(s, seat: str, ev: list) -> None:
    if storage_count(s, seat) > board(s)["storage_limit"]:
        s["phase"] = "store"
        return
    s["queue"].pop(0)
    if s["queue"]:
        s["phase"] = "build"
        s["active"] = s["queue"][0]
        return
    s["active"] = None
    s["cathedral"] += 1
    ev.append({"type": "cathedral_piece", "seat": s["start"], "piece": s["cathedral"]})
    s["phase"] = "end"


def _end_round(s, ev: list) -> None:
    b = board(s)
    now = _snapshot(s)
    s["last_round"] = {seat: {k: now[seat][k] - s["round_start"][seat][k]
                              for k in now[seat]} for seat in s["seats"]}
    ev.append({"type": "round_ended", "round": s["round"]})
    if s["round"] >= b["rounds"]:
        s["over"] = True
        s["phase"] = "over"
        s["active"] = None
        ev.append({"type": "game_over"})
        return
    who = occupant(s, "cathedral1")
    s["start"] = who if who is not None else next_seat(s, s["start"])
    ev.append({"type": "start_player", "seat": s["start"]})
    s["round"] += 1
    _prepare_round(s, ev)


# ---- apply -------------------------------------------------------------------------------------

def _int(action, key, lo=0, hi=MAX_INT) -> int:
    v = action.get(key)
    if type(v) is not int or not lo <= v <= hi:
        raise Refused("bad_field", field=key)
    return v


def _str(action, key) -> str:
    v = action.get(key)
    if not isinstance(v, str):
        raise Refused("bad_field", field=key)
    return v


TABLE_ACTIONS = frozenset(("reveal_privilege", "reveal_craftsman", "reveal_material",
                           "draw_architect", "reveal_event", "roll_tax", "deal"))
HOST_ACTIONS = frozenset(("adjust", "set_start_player", "correct"))
SEAT_ACTIONS = frozenset(("take_material", "take_craftsman", "pass", "place", "pass_architect",
                          "refuse_draw", "discard_craftsman", "bishop_choice", "use_exemption",
                          "buy", "sell", "leave_market", "build", "return_cubes",
                          "draw_architect"))


def apply(state: dict, action) -> tuple[dict, list]:
    if not isinstance(action, dict):
        raise Refused("malformed_action")
    kind, by = action.get("type"), action.get("by")
    if not isinstance(kind, str) or not isinstance(by, str):
        raise Refused("malformed_action")
    if kind not in TABLE_ACTIONS | HOST_ACTIONS | SEAT_ACTIONS:
        raise Refused("unknown_action", action=kind)
    if state["over"]:
        raise Refused("game_over")
    if by == "host":
        if kind not in HOST_ACTIONS:
            raise Refused("wrong_actor", action=kind, by=by)
    elif by == "table":
        if kind not in TABLE_ACTIONS:
            raise Refused("wrong_actor", action=kind, by=by)
    elif by in state["players"]:
        if kind not in SEAT_ACTIONS:
            raise Refused("wrong_actor", action=kind, by=by)
    else:
        raise Refused("unknown_seat", seat=by)
    s = copy_state(state)
    ev: list = []
    try:
        HANDLERS[kind](s, action, by, ev)
        advance(s, ev)
    except Refused:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise Refused("malformed_action") from exc
    _book(s, ev)
    s["n"] += 1
    return s, ev


BOOKED = frozenset(("round_started", "mill_income", "gain", "paid", "traded", "built",
                    "prior_vp", "lose", "cubes_returned", "gold_lost_cap", "adjusted"))


def _add(book, own, seat, key, amount) -> None:
    """Add to the ledger, copied on write: a row shared with the previous state is copied
    the first time this action changes it (``own`` holds the rows already copied)."""
    if amount:
        if seat not in own:
            book[seat] = dict(book.get(seat, {}))
            own.add(seat)
        row = book[seat]
        row[key] = row.get(key, 0) + amount


def _book(s, ev) -> None:
    """The round ledger for the table's round summary: per seat, "<item>+<source>" and
    "<item>-<reason>" -> amount, from this action's events (a new round starts a new one)."""
    if not any(e["type"] in BOOKED for e in ev):
        return
    book = dict(s.get("ledger", {}))
    own: set = set()
    for e in ev:
        kind, seat = e["type"], e.get("seat")
        if kind == "round_started":
            s["last_ledger"] = book
            book = {}
            own = set()
        elif kind == "mill_income":
            _add(book, own, seat, "gold+mill", e["amount"])
        elif kind == "gain":
            _add(book, own, seat, f"{e['item']}+{e['source']}", e["amount"])
        elif kind == "paid":
            _add(book, own, seat, f"gold-{e['why']}", e["amount"])
            _add(book, own, seat, f"vp-{e['why']}", e["vp_lost"])
        elif kind == "traded":
            sign = ("+", "-") if e["trade"] == "buy" else ("-", "+")
            _add(book, own, seat, f"{e['item']}{sign[0]}market", e["amount"])
            _add(book, own, seat, f"gold{sign[1]}market", e["gold"])
        elif kind == "built":
            _add(book, own, seat, "vp+build", e["vp"])
            _add(book, own, seat, "gold+build" if e["gold"] >= 0 else "gold-build", abs(e["gold"]))
            for item, n in e.get("used", {}).items():
                _add(book, own, seat, f"{item}-build", n)
        elif kind == "prior_vp":
            _add(book, own, seat, "vp+prior", e["amount"])
        elif kind in ("lose", "cubes_returned"):
            _add(book, own, seat, f"{e['item']}-{'event' if kind == 'lose' else 'storage'}",
                 e["amount"])
        elif kind == "gold_lost_cap":
            _add(book, own, seat, "gold-cap", e["amount"])
        elif kind == "adjusted":
            sign = "+" if e["delta"] > 0 else "-"
            _add(book, own, seat, f"{e['item']}{sign}host", abs(e["delta"]))
    s["ledger"] = book


def _need_phase(s, *phases) -> None:
    if s["pending"] is not None and "pending" not in phases:
        raise Refused("decision_pending", kind=s["pending"]["kind"], seat=s["pending"]["seat"])
    if s["phase"] not in phases:
        raise Refused("not_now", phase=s["phase"])


def _need_active(s, by) -> None:
    if s["active"] != by:
        raise Refused("not_your_turn", seat=by, active=str(s["active"]))


# prep -----------------------------------------------------------------------------------------

def _h_reveal_privilege(s, a, by, ev):
    _need_phase(s, "prep")
    card = _str(a, "card")
    pv = s["cat"]["privileges"].get(card)
    if pv is None:
        raise Refused("no_such_card", card=card)
    if pv.get("final"):
        raise Refused("final_privilege", card=card)
    if prep_missing(s)["privilege"] <= 0:
        raise Refused("already_revealed", what="privilege")
    if card in s["seen"]["privileges"]:
        raise Refused("card_already_used", card=card)
    limit = len(s["cat"]["deck_privileges"]) - board(s)["privileges_removed"]
    if len(s["seen"]["privileges"]) >= limit:
        raise Refused("deck_empty", what="privilege")
    s["seen"]["privileges"].append(card)
    s["kingsbridge"].append(card)
    ev.append({"type": "privilege_revealed", "card": card, "space": len(s["kingsbridge"])})


def _h_reveal_craftsman(s, a, by, ev):
    _need_phase(s, "prep")
    card = _str(a, "card")
    cr = s["cat"]["craftsmen"].get(card)
    if cr is None:
        raise Refused("no_such_card", card=card)
    if cr["start"] or cr["round"] != s["round"]:
        raise Refused("wrong_round_card", card=card, round=s["round"])
    if card in s["seen"]["craftsmen"]:
        raise Refused("card_already_used", card=card)
    to = a.get("to")
    missing = prep_missing(s)
    if to is None:
        to = "shiring" if missing["shiring"] > 0 else "supply"
    if to not in ("shiring", "supply"):
        raise Refused("bad_field", field="to")
    if missing["shiring" if to == "shiring" else "supply_craftsman"] <= 0:
        raise Refused("already_revealed", what=to)
    s["seen"]["craftsmen"].append(card)
    (s["shiring"] if to == "shiring" else s["supply_craftsmen"]).append(card)
    ev.append({"type": "craftsman_revealed", "card": card, "to": to})


def _h_reveal_material(s, a, by, ev):
    _need_phase(s, "prep")
    card = _str(a, "card")
    if card not in s["cat"]["materials"]:
        raise Refused("no_such_card", card=card)
    if card in s["supply_materials"]:
        raise Refused("card_already_used", card=card)
    if prep_missing(s)["material"] <= 0:
        raise Refused("already_revealed", what="material")
    s["supply_materials"].append(card)
    ev.append({"type": "material_revealed", "card": card})


def deal_options(s) -> list:
    """What the app may decide by chance now: [(action type, list of legal values)]."""
    if s["pending"] is not None:
        return []
    ph = s["phase"]
    if ph == "prep":
        m = prep_missing(s)
        if m["privilege"] > 0:
            limit = len(s["cat"]["deck_privileges"]) - board(s)["privileges_removed"]
            if len(s["seen"]["privileges"]) < limit:
                return [("reveal_privilege", [c for c in s["cat"]["deck_privileges"]
                                              if c not in s["seen"]["privileges"]])]
        if m["shiring"] > 0 or m["supply_craftsman"] > 0:
            return [("reveal_craftsman", [c for c in s["cat"]["craftsmen_by_round"]
                                          [str(s["round"])]
                                          if c not in s["seen"]["craftsmen"]])]
        if m["material"] > 0:
            return [("reveal_material", [c for c in s["cat"]["materials"]
                                         if c not in s["supply_materials"]])]
    if ph == "architects" and s["arch"]["drawn"] is None:
        bag = s["arch"]["bag"]
        return [("draw_architect", [seat for seat in s["seats"] for _ in range(bag[seat])])]
    if ph == "event" and s["event"] is None:
        return [("reveal_event", [c for c in s["cat"]["events"] if c not in s["seen"]["events"]])]
    if ph == "tax":
        return [("roll_tax", list(board(s)["tax_die"]["faces"]))]
    return []


def _h_deal(s, a, by, ev):
    found = [(t, vals) for t, vals in deal_options(s) if vals]
    if not found:
        raise Refused("nothing_to_deal")
    kind, values = found[0]
    pick = rng(s).choice(values)
    s["rng_n"] += 1
    field = {"draw_architect": "seat", "roll_tax": "face"}.get(kind, "card")
    HANDLERS[kind](s, {"type": kind, "by": "table", field: pick}, "table", ev)
    ev.append({"type": "dealt", "action": kind})


# draft ----------------------------------------------------------------------------------------

def _h_take_material(s, a, by, ev):
    _need_phase(s, "draft")
    _need_active(s, by)
    card = _str(a, "card")
    if card not in s["supply_materials"]:
        raise Refused("card_not_in_supply", card=card)
    need = s["cat"]["materials"][card]["workers"]
    have = workers_free(s, by)
    if need > have:
        raise Refused("not_enough_workers", need=need, have=have)
    s["supply_materials"].remove(card)
    p = s["players"][by]
    p["materials"].append(card)
    p["committed"] += need
    ev.append({"type": "material_taken", "seat": by, "card": card, "workers": need})
    s["active"] = _next_drafter(s, by)


def _h_take_craftsman(s, a, by, ev):
    _need_phase(s, "draft")
    _need_active(s, by)
    card = _str(a, "card")
    if card not in s["supply_craftsmen"]:
        raise Refused("card_not_in_supply", card=card)
    cost = s["cat"]["craftsmen"][card]["cost"]
    p = s["players"][by]
    if cost > p["gold"]:
        raise Refused("cannot_afford", item="gold", need=cost, have=p["gold"])
    s["supply_craftsmen"].remove(card)
    p["gold"] -= cost
    ev.append({"type": "paid", "seat": by, "amount": cost, "due": cost, "vp_lost": 0,
               "why": "craftsman"})
    hire(s, by, card, ev, "supply")
    s["active"] = _next_drafter(s, by)


def _h_pass(s, a, by, ev):
    _need_phase(s, "draft")
    _need_active(s, by)
    s["players"][by]["passed"] = True
    ev.append({"type": "passed", "seat": by})
    s["active"] = _next_drafter(s, by)


def _h_discard_craftsman(s, a, by, ev):
    pend = s["pending"]
    if pend is None or pend["kind"] != "discard_craftsman":
        raise Refused("not_now", phase=s["phase"])
    if pend["seat"] != by:
        raise Refused("not_your_turn", seat=by, active=pend["seat"])
    card = _str(a, "card")
    p = s["players"][by]
    if card not in p["craftsmen"]:
        raise Refused("card_not_held", card=card)
    p["craftsmen"].remove(card)
    s["removed"].append(card)
    s["pending"] = None
    ev.append({"type": "craftsman_discarded", "seat": by, "card": card})


# architects -------------------------------------------------------------------------------------

def _h_draw_architect(s, a, by, ev):
    _need_phase(s, "architects")
    if by != "table" and by != s["start"]:
        raise Refused("wrong_actor", action="draw_architect", by=by)
    arch = s["arch"]
    if arch["drawn"] is not None:
        raise Refused("architect_waiting", seat=arch["drawn"])
    seat = _str(a, "seat")
    if seat not in arch["bag"]:
        raise Refused("unknown_seat", seat=seat)
    if arch["bag"][seat] <= 0:
        raise Refused("not_in_bag", seat=seat)
    arch["bag"][seat] -= 1
    ev.append({"type": "architect_drawn", "seat": seat, "cost": draw_cost(s)})
    limit = s["limit"] if s["options"]["architect_limit_event"] == "next_round" else None
    if limit is not None and arch["count"][seat] >= limit:
        arch["aside"][seat] += 1
        ev.append({"type": "architect_aside", "seat": seat})
        return
    arch["count"][seat] += 1
    arch["drawn"] = seat
    s["active"] = seat


def _after_draw(s, ev):
    arch = s["arch"]
    arch["drawn"] = None
    arch["marker"] += 1
    s["active"] = None


def _h_place(s, a, by, ev):
    if s["phase"] == "deferred":
        _need_active(s, by)
        space = a.get("space")
        r = space_refusal(s, by, space)
        if r is not None:
            raise r
        _put(s, by, space, 0, ev)
        s["arch"]["wheel"].pop(0)
        return
    _need_phase(s, "architects")
    arch = s["arch"]
    if arch["drawn"] != by:
        raise Refused("not_your_turn", seat=by, active=str(arch["drawn"]))
    space = a.get("space")
    r = space_refusal(s, by, space)
    if r is not None:
        raise r
    cost = draw_cost(s)
    gold = s["players"][by]["gold"]
    if cost > gold and s["options"]["placement_needs_gold"]:
        raise Refused("cannot_afford", item="gold", need=cost, have=gold)
    _put(s, by, space, cost, ev)
    _after_draw(s, ev)


def _put(s, seat, space, cost, ev):
    if cost:
        pay(s, seat, cost, "architect", ev)
    s["spaces"][space] = seat
    s["placed"].append(space)
    ev.append({"type": "architect_placed", "seat": seat, "space": space, "cost": cost})


def _h_pass_architect(s, a, by, ev):
    _need_phase(s, "architects")
    arch = s["arch"]
    if arch["drawn"] != by:
        raise Refused("not_your_turn", seat=by, active=str(arch["drawn"]))
    cost = draw_cost(s)
    if cost == 0 and s["options"]["free_draws_must_place"] and free_spaces(s, by):
        raise Refused("must_place_free")
    arch["wheel"].append(by)
    ev.append({"type": "architect_passed", "seat": by, "cost": cost})
    _after_draw(s, ev)


def _h_refuse_draw(s, a, by, ev):
    _need_phase(s, "architects")
    arch = s["arch"]
    if by != s["start"]:
        raise Refused("not_start_player", seat=by)
    if arch["drawn"] is None:
        raise Refused("nothing_drawn")
    if arch["refused"]:
        raise Refused("refusal_used")
    if arch["drawn"] == by and not s["options"]["refusal_any_colour"]:
        raise Refused("refuse_own")
    seat = arch["drawn"]
    arch["bag"][seat] += 1
    arch["count"][seat] -= 1
    arch["drawn"] = None
    arch["refused"] = True
    s["active"] = None
    if s["options"]["refusal_moves_marker"]:
        arch["marker"] += 1
    ev.append({"type": "draw_refused", "seat": seat})


# phase III ---------------------------------------------------------------------------------------

def _h_reveal_event(s, a, by, ev):
    _need_phase(s, "event")
    if s["event"] is not None:
        raise Refused("already_revealed", what="event")
    card = _str(a, "card")
    e = s["cat"]["events"].get(card)
    if e is None:
        raise Refused("no_such_card", card=card)
    if card in s["seen"]["events"]:
        raise Refused("card_already_used", card=card)
    if len(s["seen"]["events"]) >= board(s)["events_used"]:
        raise Refused("deck_empty", what="event")
    s["seen"]["events"].append(card)
    s["event"] = card
    ev.append({"type": "event_revealed", "card": card, "positive": e["positive"]})
    bishop = occupant(s, "bishop1")
    if bishop is not None and (not e["positive"] or any(s["market"].values())):
        s["phase"] = "bishop"
        s["active"] = bishop
        return
    _resolve_event(s, None, ev)


def _h_bishop_choice(s, a, by, ev):
    _need_phase(s, "bishop")
    _need_active(s, by)
    choice = a.get("choice")
    e = s["cat"]["events"][s["event"]]
    if choice == "protect":
        if e["positive"]:
            raise Refused("protection_pointless")
        _resolve_event(s, by, ev)
        ev.append({"type": "bishop_protected", "seat": by})
        return
    if choice != "cube":
        raise Refused("bad_field", field="choice")
    cube = a.get("cube")
    if cube not in BUYABLE:
        raise Refused("bad_field", field="cube")
    if s["market"][cube] <= 0:
        raise Refused("market_empty", item=cube)
    _resolve_event(s, None, ev)
    s["market"][cube] -= 1
    s["players"][by]["cubes"][cube] += 1
    ev.append({"type": "gain", "seat": by, "item": cube, "amount": 1, "source": "bishop"})


def _resolve_event(s, protected, ev):
    e = s["cat"]["events"][s["event"]]
    eff = e["effect"]
    for seat in order_from(s, s["start"]):
        if not e["positive"] and seat == protected:
            continue
        p = s["players"][seat]
        if eff == "pay_gold":
            pay(s, seat, e["amount"], "event", ev)
        elif eff == "gain":
            give_items(s, seat, e["items"], ev, "event")
        elif eff == "lose":
            for item, n in e["items"].items():
                if item == "vp":
                    change_vp(s, seat, -n)
                    ev.append({"type": "lose", "seat": seat, "item": "vp", "amount": n})
                elif item == "gold":
                    lost = min(n, p["gold"])
                    p["gold"] -= lost
                    ev.append({"type": "lose", "seat": seat, "item": "gold", "amount": lost})
                else:
                    lost = min(n, p["cubes"][item])
                    if lost:
                        return_cubes(s, seat, item, lost)
                        ev.append({"type": "lose", "seat": seat, "item": item,
                                   "amount": lost})
    if eff == "architect_limit":
        s["limit_next"] = e["limit"]
        ev.append({"type": "architect_limit", "limit": e["limit"]})
    s["phase"] = "steps3"
    s["active"] = None


def _h_roll_tax(s, a, by, ev):
    _need_phase(s, "tax")
    face = a.get("face")
    faces = board(s)["tax_die"]["faces"]
    if type(face) is not int or face not in faces:
        raise Refused("bad_die_value", value=str(face), faces=", ".join(map(str, faces)))
    _start_tax(s, face, ev)


def _h_use_exemption(s, a, by, ev):
    _need_phase(s, "exemption")
    _need_active(s, by)
    use = a.get("use")
    if type(use) is not bool:
        raise Refused("bad_field", field="use")
    s["queue"].pop(0)
    if use:
        card = _exemption_card(s, by)
        s["players"][by]["privileges"].remove(card)
        s["players"][by]["used"].append(card)
        s["exempt"].append(by)
        ev.append({"type": "exemption_used", "seat": by, "card": card})
    _next_exemption(s, ev)


def _market_actor(s, by):
    _need_phase(s, "market")
    _need_active(s, by)


def market_refusal(s, seat, kind, cube, n) -> Refused | None:
    p = s["players"][seat]
    price = board(s)["prices"]
    if kind == "buy":
        if cube not in BUYABLE:
            return Refused("cannot_buy", item=str(cube))
        if cube == "wood" and not can_buy_wood(s, seat):
            return Refused("needs_craftsman", craftsman="carpenter", action="buy", item=cube)
        if cube in p["sold"] and not s["options"]["sell_then_buy"]:
            return Refused("bought_after_sold", item=cube)
        if n > s["market"][cube]:
            return Refused("market_short", item=cube, have=s["market"][cube])
        cost = n * price[cube]["buy"]
        if cost > p["gold"]:
            return Refused("cannot_afford", item="gold", need=cost, have=p["gold"])
        return None
    if cube not in CUBES:
        return Refused("bad_field", field="cube")
    if cube == "stone" and not has_type(s, seat, "stone_carver"):
        return Refused("needs_craftsman", craftsman="stone_carver", action="sell", item=cube)
    if cube in p["bought"]:
        return Refused("sell_after_buy", item=cube)
    if n > p["cubes"][cube]:
        return Refused("cannot_afford", item=cube, need=n, have=p["cubes"][cube])
    return None


def _trade(s, a, by, ev, kind):
    _market_actor(s, by)
    cube = a.get("cube")
    if not isinstance(cube, str):
        raise Refused("bad_field", field="cube")
    n = _int(a, "amount", 1, 100)
    r = market_refusal(s, by, kind, cube, n)
    if r is not None:
        raise r
    p = s["players"][by]
    price = board(s)["prices"][cube]
    if kind == "buy":
        s["market"][cube] -= n
        p["cubes"][cube] += n
        p["gold"] -= n * price["buy"]
        if cube not in p["bought"]:
            p["bought"].append(cube)
    else:
        return_cubes(s, by, cube, n)
        gain_gold(s, by, n * price["sell"], ev)
        if cube not in p["sold"]:
            p["sold"].append(cube)
    ev.append({"type": "traded", "seat": by, "trade": kind, "item": cube, "amount": n,
               "gold": n * price[kind]})
    s["market_turn"] += 1
    _market_next(s, ev)


def _h_buy(s, a, by, ev):
    _trade(s, a, by, ev, "buy")


def _h_sell(s, a, by, ev):
    _trade(s, a, by, ev, "sell")


def _h_leave_market(s, a, by, ev):
    _market_actor(s, by)
    i = s["market_turn"]
    s["market_open"].pop(i)
    ev.append({"type": "left_market", "seat": by})
    _market_next(s, ev)


def _h_build(s, a, by, ev):
    _need_phase(s, "build")
    _need_active(s, by)
    uses = a.get("uses")
    r = check_allocation(s, by, uses)
    if r is not None:
        raise r
    used = {k: n for k, n in outcome(s, by, uses)[2].items() if n}
    vp, gold = apply_allocation(s, by, uses, ev)
    ev.append({"type": "built", "seat": by, "vp": vp, "gold": gold, "used": used})
    _after_build(s, by, ev)


def _h_return_cubes(s, a, by, ev):
    _need_phase(s, "store")
    _need_active(s, by)
    cubes = a.get("cubes")
    if not isinstance(cubes, dict):
        raise Refused("bad_field", field="cubes")
    excess = storage_count(s, by) - board(s)["storage_limit"]
    p = s["players"][by]
    types = CUBES if s["options"]["metal_counts_storage"] else BUYABLE
    total = 0
    for c, n in cubes.items():
        if c not in types or type(n) is not int or n < 0 or n > p["cubes"][c]:
            raise Refused("bad_field", field="cubes")
        total += n
    if total != excess:
        raise Refused("return_exactly", need=excess, given=total)
    for c, n in cubes.items():
        if n:
            return_cubes(s, by, c, n)
            ev.append({"type": "cubes_returned", "seat": by, "item": c, "amount": n})
    s["phase"] = "build"
    _after_build(s, by, ev)


# host ------------------------------------------------------------------------------------------

ADJUST_ITEMS = ("gold", "vp") + CUBES
ADJUST_MAX = 10


def _h_adjust(s, a, by, ev):
    seat = a.get("seat")
    if seat not in s["players"]:
        raise Refused("unknown_seat", seat=str(seat))
    p = s["players"][seat]
    deltas = {}
    for item in ADJUST_ITEMS:
        if item in a:
            d = a[item]
            if type(d) is not int or abs(d) > ADJUST_MAX:
                raise Refused("adjust_out_of_range", item=item, max=ADJUST_MAX)
            deltas[item] = d
    if not any(deltas.values()):
        raise Refused("bad_field", field="delta")
    cap = board(s)["gold_cap"]
    if "gold" in deltas and not 0 <= p["gold"] + deltas["gold"] <= cap:
        raise Refused("adjust_out_of_range", item="gold", max=ADJUST_MAX)
    if "vp" in deltas and p["vp"] + deltas["vp"] < 0 and s["options"]["vp_floor_zero"]:
        raise Refused("adjust_out_of_range", item="vp", max=ADJUST_MAX)
    for c in CUBES:
        d = deltas.get(c, 0)
        if p["cubes"][c] + d < 0 or s["sites"][c] - d < 0:
            raise Refused("adjust_out_of_range", item=c, max=ADJUST_MAX)
    reason = a.get("reason", "")
    if not isinstance(reason, str):
        raise Refused("bad_field", field="reason")
    for item, d in deltas.items():
        if item == "gold":
            p["gold"] += d
        elif item == "vp":
            p["vp"] += d
        else:
            p["cubes"][item] += d
            s["sites"][item] -= d
        if d:
            ev.append({"type": "adjusted", "seat": seat, "item": item, "delta": d,
                       "reason": reason[:200]})


def _h_set_start_player(s, a, by, ev):
    seat = a.get("seat")
    if seat not in s["players"]:
        raise Refused("unknown_seat", seat=str(seat))
    if s["round"] != 1 or s["phase"] != "prep":
        raise Refused("start_player_fixed")
    s["start"] = seat
    s["first_start"] = seat
    _start_gold(s)
    s["round_start"] = _snapshot(s)
    ev.append({"type": "start_player", "seat": seat})


HANDLERS = {
    "reveal_privilege": _h_reveal_privilege, "reveal_craftsman": _h_reveal_craftsman,
    "reveal_material": _h_reveal_material, "deal": _h_deal,
    "take_material": _h_take_material, "take_craftsman": _h_take_craftsman, "pass": _h_pass,
    "discard_craftsman": _h_discard_craftsman, "draw_architect": _h_draw_architect,
    "place": _h_place, "pass_architect": _h_pass_architect, "refuse_draw": _h_refuse_draw,
    "reveal_event": _h_reveal_event, "bishop_choice": _h_bishop_choice,
    "roll_tax": _h_roll_tax, "use_exemption": _h_use_exemption, "buy": _h_buy,
    "sell": _h_sell, "leave_market": _h_leave_market, "build": _h_build,
    "return_cubes": _h_return_cubes, "adjust": _h_adjust,
    "set_start_player": _h_set_start_player,
    "correct": lambda s, a, by, ev: _corrections().correct(s, a, by, ev),
}


def _corrections():
    from engine.pillars import corrections

    return corrections

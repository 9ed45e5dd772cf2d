"""The Pillars of the Earth: setup and the round flow (§3–§12), the automatic steps.

``state["phase"]`` says which decision is owed; `advance` runs every automatic step until
the next decision. The decisions themselves are the phase modules' handlers (draft.py,
architects.py, resolution.py), which call down into this flow.
"""
from __future__ import annotations

from engine.api import table_from_setup
from engine.pillars import options as opts
from engine.pillars.catalog import index
from engine.pillars.state import (
    BUYABLE,
    COLOURS,
    CUBES,
    SEAT_ORDER,
    board,
    change_vp,
    free_spaces,
    gain_gold,
    give_items,
    next_seat,
    occupant,
    occupants,
    order_from,
    pay_gold,
    storage_count,
    take_cubes,
    worker_total,
)


def setup(catalog, setup_: dict) -> dict:
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
    start_gold(s)
    ev: list = []
    _prepare_round(s, ev)
    return s


def start_gold(s) -> None:
    for i, seat in enumerate(order_from(s, s["start"])):
        s["players"][seat]["gold"] = board(s)["start_gold"] + i


def snapshot(s) -> dict:
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
    s["round_start"] = snapshot(s)
    ev.append({"type": "round_started", "round": s["round"], "start": s["start"]})


def prep_missing(s) -> dict:
    b = board(s)
    return {"privilege": b["privileges_per_round"] - len(s["kingsbridge"]),
            "shiring": b["shiring_craftsmen"] - len(s["shiring"]),
            "supply_craftsman": b["supply_craftsmen"] - len(s["supply_craftsmen"]),
            "material": b["supply_materials"] - len(s["supply_materials"])}


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
                s["active"] = next_drafter(s, s["active"])
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


def next_drafter(s, seat: str) -> str:
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


def start_tax(s, face: int, ev: list) -> None:
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
                  if seat not in exempt and exemption_card(s, seat) is not None]
    s["phase"] = "exemption"
    next_exemption(s, ev)


def exemption_card(s, seat: str):
    for card in s["players"][seat]["privileges"]:
        if s["cat"]["privileges"][card]["kind"] == "tax_exemption":
            return card
    return None


def next_exemption(s, ev: list) -> None:
    if s["queue"]:
        s["active"] = s["queue"][0]
        return
    s["active"] = None
    for seat in order_from(s, s["start"]):
        if seat in s["exempt"]:
            ev.append({"type": "tax_exempt", "seat": seat})
            continue
        pay_gold(s, seat, s["tax"], ev, "tax")
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


def market_next(s, ev: list) -> None:
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


def after_build(s, seat: str, ev: list) -> None:
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
    now = snapshot(s)
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

"""The public view (table display), the seat view (phone) and the scores.

Pillars has no secret holdings (rules reference §16): the seat view is the public view plus
the seat's own summary and decision menu. Hidden parts of the game (deck contents not yet
revealed, the bag's order, the seed) appear in no view.
"""
from __future__ import annotations

from engine.pillars import state
from engine.pillars.advisor import best_allocation, usable
from engine.pillars.prompts import prompts
from engine.viewparts import Parts

# The parts of the views made before, by catalog and position data (engine/viewparts.py)
_PARTS = Parts()


def _player(s, seat) -> dict:
    """A seat's public row (the same object while what it shows is the same)."""
    p = s["players"][seat]
    inputs = ("player", seat, p, s["phase"] == "draft", s["names"].get(seat, seat),
              s["round_start"].get(seat, {}),
              s["last_round"].get(seat, {}), s.get("ledger", {}).get(seat, {}),
              s.get("last_ledger", {}).get(seat, {}))
    return _PARTS.get(s["cat"], inputs, lambda: _make_player(s, seat))


def _make_player(s, seat) -> dict:
    p = s["players"][seat]
    return {
        "seat": seat, "name": s["names"].get(seat, seat), "colour": state.COLOURS[seat],
        "gold": p["gold"], "vp": p["vp"], "cubes": dict(p["cubes"]), "owed": dict(p["owed"]),
        "craftsmen": list(p["craftsmen"]), "privileges": list(p["privileges"]),
        "used_privileges": list(p["used"]), "materials": list(p["materials"]),
        "workers": _workers(s, seat),
        "passed": p["passed"], "bought": list(p["bought"]), "sold": list(p["sold"]),
        "this_round": {k: v - s["round_start"].get(seat, {}).get(k, 0)
                       for k, v in {"gold": p["gold"], "vp": p["vp"], **p["cubes"]}.items()},
        "last_round": dict(s["last_round"].get(seat, {})),
        "ledger": dict(s.get("ledger", {}).get(seat, {})),
        "last_ledger": dict(s.get("last_ledger", {}).get(seat, {})),
    }


def _workers(s, seat) -> dict:
    """The seat's workers as the table has them: ``free`` (still in hand), ``placed`` (on
    material cards this round) and ``mill``. A seat that passed in phase I has sent its free
    workers to the mill already ("my other workers go to the mill"), though the rules move
    them only when the phase ends (flow._end_draft sets ``p["mill"]``)."""
    p = s["players"][seat]
    total = state.worker_total(s, seat)
    placed = p["committed"]
    mill = p["mill"]
    if s["phase"] == "draft" and p["passed"]:
        mill = total - placed
    return {"total": total, "free": max(0, total - placed - mill), "placed": placed,
            "mill": mill, "grey": p["grey"], "grey_next": p["grey_next"],
            "black": p["black"]}


_CARD_FIELDS = {
    "craftsmen": ("type", "cost", "input", "output", "capacity", "needs", "requires", "colour"),
    "materials": ("cube", "yield", "workers"),
    "privileges": ("cube", "gain"),
    "events": ("positive",),
}


def _cards(s) -> dict:
    """What the pages need to say what each card in view does (its names come with the page:
    every catalog id's names are in the page context). Only cards already face up.

    In the order they came face up, as far as the position tells (`_face_up_order`): a card
    turned up comes last, so a phone's patch only adds it (sorted by id, it landed among the
    others and every card after it was sent again)."""
    cat = s["cat"]
    shown = {"craftsmen": set(s["shiring"]) | set(s["supply_craftsmen"]),
             "materials": set(s["supply_materials"]),
             "privileges": set(s["kingsbridge"]),
             "events": {s["event"]} if s["event"] else set()}
    for p in s["players"].values():
        shown["craftsmen"] |= set(p["craftsmen"])
        shown["privileges"] |= set(p["privileges"])
        shown["materials"] |= set(p["materials"])
    order = _face_up_order(s)
    found = sorted((order(part, cid), cid, part) for part, ids in shown.items() for cid in ids
                   if cid in cat[part])
    out = {}
    for _key, cid, part in found:
        entry = cat[part][cid]
        out[cid] = {"part": part, "demo": bool(entry.get("demo")),
                    **{k: entry[k] for k in _CARD_FIELDS[part] if k in entry}}
    return out


def _face_up_order(s):
    """A sort key for the cards in view: (round turned up, privileges < craftsmen <
    materials < the event as in a round's preparation and phases, order turned up). The
    position keeps the order privileges and craftsmen were revealed in (``seen``); the
    final privileges come with the last round, start craftsmen before round 1; materials and
    the event are in view only in the round they were turned up (in catalog order)."""
    cat = s["cat"]
    per_round = max(1, int(state.board(s).get("privileges_per_round", 2) or 2))
    revealed = {part: {cid: i for i, cid in enumerate(s["seen"][part])}
                for part in ("privileges", "craftsmen")}
    finals = {cid: i for i, cid in enumerate(cat.get("final_privileges", []))}
    materials = {cid: i for i, cid in enumerate(cat["materials"])}
    rounds = state.board(s)["rounds"]

    def key(part: str, cid: str) -> tuple:
        if part == "privileges":
            i = revealed["privileges"].get(cid)
            if i is not None:
                return (i // per_round + 1, 0, i)
            return (rounds, 0, finals.get(cid, len(finals)))
        if part == "craftsmen":
            i = revealed["craftsmen"].get(cid)
            if i is not None:
                return (int(cat["craftsmen"][cid].get("round") or 0), 1, i)
            return (0, 1, -1)  # dealt at the start (then by id)
        if part == "materials":
            return (s["round"], 2, materials.get(cid, -1))
        return (s["round"], 3, 0)

    return key


def _locations(s) -> list:
    """The board's locations in the order they act in phase III, with who stands where."""
    out = []
    for loc in sorted(s["cat"]["locations"].values(), key=lambda x: x["step"]):
        out.append({"id": loc["id"], "step": loc["step"], "demo": bool(loc.get("demo")),
                    "vp": list(loc.get("vp", [])),
                    "spaces": [{"id": sp, "seat": s["spaces"].get(sp)}
                               for sp in state.spaces_of(s, loc["id"])]})
    return out


def public_view(s) -> dict:
    """Everything public. Read-only: a part made from the same position data as before is
    the object made before (engine/viewparts.py), so the server sees at once what did not
    change."""
    a = s["arch"]
    b = state.board(s)
    cat = s["cat"]
    players = s["players"]
    return {
        "game": "pillars", "round": s["round"], "rounds": state.board(s)["rounds"],
        "phase": s["phase"], "start": s["start"], "active": s["active"], "over": s["over"],
        "seats": list(s["seats"]),
        "players": _PARTS.same({seat: _player(s, seat) for seat in s["seats"]}),
        "prompts": [p.to_json() for p in prompts(s)],
        "pending": s["pending"], "market": dict(s["market"]), "sites": dict(s["sites"]),
        "court_metal": s["court_metal"], "castle": s["castle"], "black_free": s["black_free"],
        "kingsbridge": list(s["kingsbridge"]), "shiring": list(s["shiring"]),
        "supply": {"craftsmen": list(s["supply_craftsmen"]),
                   "materials": list(s["supply_materials"])},
        "spaces": dict(s["spaces"]), "event": s["event"], "events_seen": list(s["seen"]["events"]),
        "tax": s["tax"], "limit": s["limit"], "limit_next": s["limit_next"],
        "cathedral": s["cathedral"], "removed": list(s["removed"]),
        "architects": {"bag": dict(a.get("bag", {})), "drawn": a.get("drawn"),
                       "cost": state.draw_cost(s) if a else 0, "marker": a.get("marker", 0),
                       "wheel": list(a.get("wheel", [])), "refused": a.get("refused", False),
                       "aside": dict(a.get("aside", {}))},
        "market_order": list(s["market_open"]) if s["phase"] == "market" else [],
        "scores": _PARTS.get(cat, ("scores", s["seats"], s["over"], [
            (seat, p["vp"], p["gold"]) for seat, p in players.items()]), lambda: scores(s)),
        "cards": _PARTS.get(cat, ("cards", s["shiring"], s["supply_craftsmen"],
                                  s["supply_materials"], s["kingsbridge"], s["event"],
                                  s["round"], s["seen"]["privileges"], s["seen"]["craftsmen"],
                                  [(p["craftsmen"], p["privileges"], p["materials"])
                                   for p in players.values()]), lambda: _cards(s)),
        "locations": _PARTS.get(cat, ("locations", s["spaces"]), lambda: _locations(s)),
        "prices": b["prices"], "tax_die": list(b["tax_die"]["faces"]),
        "storage_limit": b["storage_limit"], "craftsman_limit": b["craftsman_limit"],
        "gold_cap": b["gold_cap"],
    }


def forecast(s, seat) -> dict:
    """What the rest of this round will bring ``seat`` by what is already decided."""
    p = s["players"][seat]
    cat = s["cat"]
    cubes = {c: 0 for c in ("wood", "stone", "sand")}
    before_production = s["phase"] in ("prep", "draft", "architects", "deferred", "event",
                                       "bishop")
    if before_production:
        for m in p["materials"]:
            cubes[cat["materials"][m]["cube"]] += cat["materials"][m]["yield"]
        for pv in p["privileges"]:
            if cat["privileges"][pv]["kind"] == "patron":
                cubes[cat["privileges"][pv]["cube"]] += 1
    mill = p["mill"] if s["phase"] != "draft" else state.workers_free(s, seat)
    prior = 0
    if before_production:
        for i, vp in enumerate(cat["locations"]["prior"].get("vp", [])):
            if s["spaces"].get(f"prior{i + 1}") == seat:
                prior += vp
    return {"cubes": {k: v for k, v in cubes.items() if v},
            "mill_gold": mill if before_production else 0, "prior_vp": prior,
            "tax_exempt": any(who == seat for _, who in state.occupants(s, "court"))}


def private_view(s, seat) -> dict:
    """What the seat view adds to the public view: the seat's own advisor and forecast.
    (Its choices go beside the view, in the server's message.)"""
    if seat not in s["players"]:
        return {}
    return {"me": seat, "mine": _player(s, seat), "advisor": best_allocation(s, seat),
            # what each of my craftsmen could convert now, at most (the allocation editor)
            "workshop": [{"id": cid, "max": cap} for cid, _c, cap in usable(s, seat)],
            "forecast": forecast(s, seat)}


def seat_view(s, seat) -> dict:
    return {**public_view(s), **private_view(s, seat)}


def scores(s) -> list:
    rows = [{"seat": seat, "vp": p["vp"], "gold": p["gold"]}
            for seat, p in s["players"].items()]
    rows.sort(key=lambda r: (-r["vp"], -r["gold"], s["seats"].index(r["seat"])))
    rank = 0
    prev = None
    for i, r in enumerate(rows):
        key = (r["vp"], r["gold"])
        if key != prev:
            rank = i + 1
            prev = key
        r["rank"] = rank
        r["winner"] = s["over"] and rank == 1
        r["final"] = s["over"]
    return rows


def is_over(s) -> bool:
    return bool(s["over"])

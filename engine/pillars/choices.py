"""Each seat's options now, with cost and effect previews and refused ones with reasons;
`preview` of a tentative answer; `random_action` for property tests and the bench.
"""
from __future__ import annotations

from itertools import product

from engine.api import Choice, Refused
from engine.pillars import resolution, rules, state
from engine.pillars.advisor import (
    best_allocation,
    check_allocation,
    most_vp,
    outcome,
    usable,
    useful,
)
from engine.pillars.prompts import prompts


def _ok(action, cost=None, effect=None):
    return Choice(action, cost or {}, effect or {})


def _no(action, refused: Refused, cost=None):
    return Choice(action, cost or {}, {}, refused.to_json())


def _table(s) -> list:
    out = []
    for kind, values in rules.deal_options(s):
        field = {"draw_architect": "seat", "roll_tax": "face"}.get(kind, "card")
        # a craftsman goes to Shiring or to the supply: the table says where it lies
        missing = rules.prep_missing(s)
        ways = ([{"to": to} for to, key in (("shiring", "shiring"), ("supply", "supply_craftsman"))
                 if missing[key] > 0] if kind == "reveal_craftsman" else [{}])
        for v in dict.fromkeys(values):
            for way in ways:
                out.append(_ok({"type": kind, "by": "table", field: v, **way}))
        if values:
            out.append(_ok({"type": "deal", "by": "table"}, effect={"decides": kind}))
    return out


def _draft(s, seat) -> list:
    p = s["players"][seat]
    out = []
    free = state.workers_free(s, seat)
    for card in s["supply_materials"]:
        m = s["cat"]["materials"][card]
        a = {"type": "take_material", "by": seat, "card": card}
        cost = {"workers": m["workers"]}
        if m["workers"] > free:
            out.append(_no(a, Refused("not_enough_workers", need=m["workers"], have=free), cost))
        else:
            out.append(_ok(a, cost, {m["cube"]: m["yield"],
                                     "mill": free - m["workers"]}))
    for card in s["supply_craftsmen"]:
        c = s["cat"]["craftsmen"][card]
        a = {"type": "take_craftsman", "by": seat, "card": card}
        if c["cost"] > p["gold"]:
            out.append(_no(a, Refused("cannot_afford", item="gold", need=c["cost"],
                                      have=p["gold"]), {"gold": c["cost"]}))
        else:
            eff = {"craftsman": card}
            if len(p["craftsmen"]) >= state.board(s)["craftsman_limit"]:
                eff["discard"] = True
            out.append(_ok(a, {"gold": c["cost"]}, eff))
    out.append(_ok({"type": "pass", "by": seat}, {}, {"mill": free}))
    return out


def _spaces(s, seat, cost) -> list:
    """Every free space with its cost, or why not (`state.space_refusal`'s reasons, in its
    order, read once per location: the location ids, an enum of catalog.LOCATION, are no
    prefix of one another, so each space of `spaces_of` lies at its location)."""
    out = []
    gold = s["players"][seat]["gold"]
    taken = s["spaces"]
    opts = s["options"]
    in_order = not opts["spaces_any_order"]
    one_each = not opts["same_player_two_spaces"]
    short = cost > gold and opts["placement_needs_gold"]
    for loc in s["cat"]["locations"]:
        spaces = state.spaces_of(s, loc)
        first = next((sp for sp in spaces if sp not in taken), None)
        if first is None:
            continue  # every space taken: nothing to offer here
        mine = one_each and any(taken.get(sp) == seat for sp in spaces)
        for sp in spaces:
            if sp in taken:
                continue
            a = {"type": "place", "by": seat, "space": sp}
            if in_order and sp != first:
                r = Refused("space_order", space=sp, first=first)
            elif mine:
                r = Refused("one_per_location", location=loc)
            elif short:
                r = Refused("cannot_afford", item="gold", need=cost, have=gold)
            else:
                out.append(_ok(a, {"gold": cost} if cost else {}, {"location": loc}))
                continue
            out.append(_no(a, r, {"gold": cost} if cost else {}))
    return out


def _architects(s, seat) -> list:
    a = s["arch"]
    out = []
    if a["drawn"] == seat:
        cost = state.draw_cost(s)
        out += _spaces(s, seat, cost)
        pa = {"type": "pass_architect", "by": seat}
        if cost == 0 and s["options"]["free_draws_must_place"] and state.free_spaces(s, seat):
            out.append(_no(pa, Refused("must_place_free")))
        else:
            out.append(_ok(pa, {}, {"wheel": cost}))
    if seat == s["start"] and a["drawn"] is not None and not a["refused"] and (
            s["options"]["refusal_any_colour"] or a["drawn"] != seat):
        out.append(_ok({"type": "refuse_draw", "by": seat}, {}, {"back_to_bag": a["drawn"]}))
    if seat == s["start"] and a["drawn"] is None:
        for who in s["seats"]:
            if a["bag"][who] > 0:
                out.append(_ok({"type": "draw_architect", "by": seat, "seat": who}))
    return out


def build_vp_after(s, seat, cube, n, gold, memo: dict | None = None) -> int:
    """The advisor's best step-13 VP if ``seat`` had ``n`` more ``cube`` and ``gold`` more
    gold now (a market trade feeding the conversion). ``memo``: a dict kept for one state
    and seat; holdings equal up to what the craftsmen can use (`advisor.useful`) have the
    same best VP, so it is searched once for them (buying one more stone than the
    craftsmen can take changes nothing), and the craftsmen are read once (`most_vp`)."""
    p = s["players"][seat]
    have = {**p["cubes"], "gold": p["gold"] + gold}
    have[cube] += n
    if memo is None:
        return most_vp(s, seat)(have)
    found = memo.get(None)
    if found is None:
        bound = useful(s, seat)  # (a holding no craftsman uses is left out of the key)
        found = memo[None] = ([(k, bound[k]) for k in sorted(have) if bound[k] > 0],
                              most_vp(s, seat))
    bound, vp_of = found
    key = tuple(v if v < most else most for v, most in ((have[k], most) for k, most in bound))
    vp = memo.get(key)
    if vp is None:
        vp = memo[key] = vp_of(have)
    return vp


def _market(s, seat) -> list:
    p = s["players"][seat]
    out = []
    price = state.board(s)["prices"]
    memo: dict = {}  # the best VP by holdings, as far as they matter (build_vp_after)
    base = build_vp_after(s, seat, "wood", 0, 0, memo)  # no trade: the holdings now
    cap, capped = state.board(s)["gold_cap"], s["options"]["gold_cap_all_gains"]
    for kind in ("buy", "sell"):
        for cube in (state.BUYABLE if kind == "buy" else state.CUBES):
            most = s["market"][cube] if kind == "buy" else p["cubes"][cube]
            if kind == "buy":
                most = min(most, p["gold"] // price[cube]["buy"])
            r = resolution.market_refusal(s, seat, kind, cube, 1)
            a1 = {"type": kind, "by": seat, "cube": cube, "amount": 1}
            if r is not None:
                out.append(_no(a1, r))
                continue
            for n in range(1, most + 1):
                a = {"type": kind, "by": seat, "cube": cube, "amount": n}
                g = n * price[cube][kind]
                if kind == "sell" and capped:  # a sale's gold above the cap is lost
                    g = min(g, max(0, cap - p["gold"]))
                sign = 1 if kind == "buy" else -1
                vp = build_vp_after(s, seat, cube, sign * n, -sign * g, memo)
                out.append(_ok(a, {"gold": g} if kind == "buy" else {cube: n},
                               {cube: n, "build_vp": vp} if kind == "buy"
                               else {"gold": g, "build_vp": vp}))
    out.append(_ok({"type": "leave_market", "by": seat}, {}, {"build_vp": base}))
    return out


def _build(s, seat) -> list:
    best = best_allocation(s, seat)
    out = [_ok({"type": "build", "by": seat, "uses": best["uses"]}, best["used"],
               {"vp": best["vp"], "gold": best["gold"], "best": True})]
    if best["uses"]:
        out.append(_ok({"type": "build", "by": seat, "uses": {}}, {},
                       {"vp": 0, "gold": outcome(s, seat, {})[1]}))  # (the cap applied)
    for cid, _c, _cap in usable(s, seat):
        uses = {cid: 1}
        if uses != best["uses"]:
            vp, gold, used = outcome(s, seat, uses)
            out.append(_ok({"type": "build", "by": seat, "uses": uses}, used,
                           {"vp": vp, "gold": gold}))
    return out


def _store(s, seat) -> list:
    p = s["players"][seat]
    excess = state.storage_count(s, seat) - state.board(s)["storage_limit"]
    types = state.CUBES if s["options"]["metal_counts_storage"] else state.BUYABLE
    ranges = [range(0, min(p["cubes"][c], excess) + 1) for c in types]
    out = []
    for combo in product(*ranges):
        if sum(combo) == excess:
            cubes = {c: n for c, n in zip(types, combo, strict=True) if n}
            out.append(_ok({"type": "return_cubes", "by": seat, "cubes": cubes}, cubes))
            if len(out) >= 60:
                break
    return out


def choices(s, seat) -> list:
    if s["over"]:
        return []
    if seat == "table":
        return _table(s)
    if seat not in s["players"]:
        return []
    pend = s["pending"]
    if pend is not None:
        if pend["seat"] != seat:
            return []
        return [_ok({"type": "discard_craftsman", "by": seat, "card": c}, {}, {"removed": c})
                for c in s["players"][seat]["craftsmen"]]
    ph = s["phase"]
    if ph == "draft" and s["active"] == seat:
        return _draft(s, seat)
    if ph == "architects":
        return _architects(s, seat)
    if ph == "deferred" and s["active"] == seat:
        return _spaces(s, seat, 0)
    if ph == "bishop" and s["active"] == seat:
        out = []
        if not s["cat"]["events"][s["event"]]["positive"]:
            out.append(_ok({"type": "bishop_choice", "by": seat, "choice": "protect"}))
        for cube in state.BUYABLE:
            a = {"type": "bishop_choice", "by": seat, "choice": "cube", "cube": cube}
            if s["market"][cube] > 0:
                out.append(_ok(a, {}, {cube: 1}))
            else:
                out.append(_no(a, Refused("market_empty", item=cube)))
        return out
    if ph == "exemption" and s["active"] == seat:
        return [_ok({"type": "use_exemption", "by": seat, "use": True}, {}, {"gold": 0}),
                _ok({"type": "use_exemption", "by": seat, "use": False}, {},
                    {"gold": -min(s["tax"], s["players"][seat]["gold"])})]
    if ph == "market" and s["active"] == seat:
        return _market(s, seat)
    if ph == "build" and s["active"] == seat:
        return _build(s, seat)
    if ph == "store" and s["active"] == seat:
        return _store(s, seat)
    return []


def preview(s, action):
    """What a tentative answer would do (public parts only), or None if not legal now."""
    try:
        new, ev = rules.apply(s, action)
    except Refused:
        return None
    if action.get("type") == "build":
        vp, gold, used = outcome(s, action["by"], action["uses"])
        best = best_allocation(s, action["by"])
        return {"events": ev, "vp": vp, "gold": gold, "used": used,
                "best_vp": best["vp"], "best_gold": best["gold"]}
    return {"events": [e for e in ev if e.get("type") != "dealt"]}


def _random_build(s, seat, rnd) -> dict:
    if rnd.random() < 0.5:
        return best_allocation(s, seat)["uses"]
    uses = {}
    have = {**s["players"][seat]["cubes"], "gold": s["players"][seat]["gold"]}
    for cid, c, cap in usable(s, seat):
        m = cap
        for k, v in c["input"].items():
            if v:
                m = min(m, have[k] // v)
        n = rnd.randint(0, max(0, m))
        if n:
            uses[cid] = n
            for k, v in c["input"].items():
                have[k] -= v * n
    assert check_allocation(s, seat, uses) is None
    return uses


def random_action(s, rnd) -> dict:
    """A random legal action for whoever owes a decision (table included)."""
    ps = prompts(s)
    p = ps[0]
    if len(ps) > 1 and rnd.random() < 0.1:
        p = ps[1]
    seat = p.seat
    if p.kind == "build":
        return {"type": "build", "by": seat, "uses": _random_build(s, seat, rnd)}
    opts = [c.action for c in choices(s, seat) if c.refused is None]
    if seat == "table":
        opts = [a for a in opts if a["type"] != "deal"] or opts
    if p.kind == "market" and rnd.random() < 0.35:
        return {"type": "leave_market", "by": seat}
    if p.kind == "draft" and rnd.random() < 0.1:
        return {"type": "pass", "by": seat}
    if p.kind == "place_architect":
        opts = [a for a in opts if a["type"] != "refuse_draw"]
    if p.kind == "refuse_draw":
        return {"type": "refuse_draw", "by": seat}
    return rnd.choice(opts)

"""Step 13, the cathedral: checking and carrying out a conversion, and the exact advisor.

An allocation is ``{craftsman card id: uses}``. Each use of a craftsman takes its ``input``
(cubes, or gold for the Goldsmith) and gives its ``output`` (VP or gold), at most
``capacity`` times a round. ``requires`` (the Toolmaker's metal) must be held before building
and is not consumed. ``needs`` (the Mason's Mortar mixer) must be among the player's
craftsmen. The advisor finds the allocation with the most VP, then the most gold, by an exact
search over every feasible allocation (at most 5 craftsmen with small capacities).
"""
from __future__ import annotations

from collections.abc import Callable

from engine.api import Refused
from engine.pillars.state import change_vp, return_cubes

HOLD = ("wood", "stone", "sand", "metal", "gold")


def _holdings(s, seat) -> dict:
    p = s["players"][seat]
    return {**p["cubes"], "gold": p["gold"]}


def usable(s, seat) -> list:
    """The player's craftsmen that can convert now: (card id, entry, max uses)."""
    return _usable(s, seat, _holdings(s, seat))


def _usable(s, seat, have: dict) -> list:
    """`usable` with holdings ``have`` (a market trade's holdings, for `best_with`)."""
    crafts = s["cat"]["craftsmen"]
    held = s["players"][seat]["craftsmen"]
    types = None
    out = []
    get = have.get
    for cid in held:
        c = crafts[cid]
        cap = c["capacity"]
        for k, v in c["input"].items():
            if v > 0:
                n = get(k, 0) // v
                if n < cap:
                    cap = n
                    if n <= 0:
                        break
        if cap <= 0:  # (checked first: the cheapest reason, and the most common)
            continue
        needs = c.get("needs")
        if needs:
            if types is None:
                types = {crafts[h]["type"] for h in held}
            if needs not in types:
                continue
        requires = c.get("requires")
        if requires and any(get(k, 0) < v for k, v in requires.items()):
            continue
        out.append((cid, c, cap))
    return out


def check_allocation(s, seat, uses) -> Refused | None:
    if not isinstance(uses, dict):
        return Refused("bad_field", field="uses")
    p = s["players"][seat]
    crafts = s["cat"]["craftsmen"]
    types = {crafts[c]["type"] for c in p["craftsmen"]}
    have = _holdings(s, seat)
    need = dict.fromkeys(HOLD, 0)
    for cid, n in uses.items():
        if cid not in p["craftsmen"]:
            return Refused("card_not_held", card=str(cid)[:60])
        c = crafts[cid]
        if type(n) is not int or n < 0:
            return Refused("bad_field", field="uses")
        if n > c["capacity"]:
            return Refused("over_capacity", card=cid, capacity=c["capacity"])
        if n == 0:
            continue
        if c.get("needs") and c["needs"] not in types:
            return Refused("needs_craftsman", craftsman=c["needs"], action="build", item=cid)
        for k, v in c.get("requires", {}).items():
            if have.get(k, 0) < v:
                return Refused("requires_item", card=cid, item=k)
        for k, v in c["input"].items():
            need[k] += v * n
    for k, v in need.items():
        if v > have.get(k, 0):
            return Refused("cannot_afford", item=k, need=v, have=have.get(k, 0))
    return None


def outcome(s, seat, uses) -> tuple[int, int, dict]:
    """(VP gained, gold after, cubes used) of a legal allocation, without changing anything."""
    crafts = s["cat"]["craftsmen"]
    p = s["players"][seat]
    vp, gold_in, gold_out = 0, 0, 0
    used = {}
    for cid, n in uses.items():
        if not n:
            continue
        c = crafts[cid]
        vp += c["output"].get("vp", 0) * n
        gold_out += c["output"].get("gold", 0) * n
        for k, v in c["input"].items():
            if k == "gold":
                gold_in += v * n
            else:
                used[k] = used.get(k, 0) + v * n
    gold = p["gold"] - gold_in + gold_out
    cap = s["cat"]["board"]["gold_cap"]
    if s["options"]["gold_cap_all_gains"]:
        gold = min(gold, cap)
    return vp, gold, used


def apply_allocation(s, seat, uses, ev) -> tuple[int, int]:

    p = s["players"][seat]
    vp, gold, used = outcome(s, seat, uses)
    uncapped = p["gold"] + sum(s["cat"]["craftsmen"][c]["output"].get("gold", 0) * n
                               for c, n in uses.items()) - sum(
        s["cat"]["craftsmen"][c]["input"].get("gold", 0) * n for c, n in uses.items())
    if uncapped > gold:
        ev.append({"type": "gold_lost_cap", "seat": seat, "amount": uncapped - gold})
    for k, n in used.items():
        return_cubes(s, seat, k, n)
    gained = gold - p["gold"]
    p["gold"] = gold
    change_vp(s, seat, vp)
    return vp, gained


def useful(s, seat) -> dict:
    """The most of each holding that can matter to the seat's conversions: every craftsman's
    input at full capacity, or what one requires held. With more of a holding than this,
    every allocation stays exactly as feasible (so `best_allocation` gives the same VP)."""
    crafts = s["cat"]["craftsmen"]
    most = dict.fromkeys(HOLD, 0)
    for cid in s["players"][seat]["craftsmen"]:
        c = crafts[cid]
        for k, v in c["input"].items():
            most[k] = most.get(k, 0) + v * c["capacity"]
        for k, v in c.get("requires", {}).items():
            most[k] = max(most.get(k, 0), v)
    return most


def best_allocation(s, seat) -> dict:
    """The allocation with the most VP (then the most gold after): exact search."""
    vp, gold, uses = best_with(s, seat, _holdings(s, seat))
    used: dict = {}  # (as `outcome` counts them)
    crafts = s["cat"]["craftsmen"]
    for cid, n in uses.items():
        for k, v in crafts[cid]["input"].items():
            if k != "gold":
                used[k] = used.get(k, 0) + v * n
    return {"uses": uses, "vp": vp, "gold": gold, "used": used}


def best_with(s, seat, have: dict) -> tuple[int, int, dict]:
    """(VP, gold after, uses) of the best allocation if the seat held ``have`` (cubes and
    gold): every feasible allocation in order (each craftsman in the order held, most uses
    first), the first with the most (VP, gold) kept. Sums are carried down the search
    rather than recomputed per allocation, and a branch that cannot reach the best VP found
    so far is cut (it holds no better allocation, so the one kept is the same)."""
    items = _usable(s, seat, have)
    gold0 = have["gold"]
    cap = s["cat"]["board"]["gold_cap"] if s["options"]["gold_cap_all_gains"] else None
    if not items:
        return 0, gold0 if cap is None or gold0 <= cap else cap, {}
    if len(items) == 1:  # (the most common case with any: one craftsman can convert)
        cid, c, most = items[0]
        out, inp = c["output"], c["input"]
        dvp, dgold = out.get("vp", 0), out.get("gold", 0) - inp.get("gold", 0)
        n = _last_uses(most, dvp, dgold, gold0, cap)
        gold = gold0 + dgold * n
        return dvp * n, gold if cap is None or gold <= cap else cap, {cid: n} if n else {}
    plan = []
    for _cid, c, most in items:
        out, inp = c["output"], c["input"]
        plan.append((most, tuple((k, v) for k, v in inp.items() if v > 0), out.get("vp", 0),
                     out.get("gold", 0) - inp.get("gold", 0)))
    last = len(plan) - 1
    reach = [0] * (last + 2)  # the most VP the craftsmen from i on can add
    for i in range(last, -1, -1):
        reach[i] = reach[i + 1] + plan[i][0] * plan[i][2]
    left = dict(have)
    ns = [0] * (last + 1)
    best = [-1, -1, ns]

    def rec(i, vp, gold):
        if vp + reach[i] < best[0]:
            return
        most, inp, dvp, dgold = plan[i]
        for k, v in inp:
            n = left[k] // v
            if n < most:
                most = n
        if i == last:
            n = _last_uses(most, dvp, dgold, gold, cap)
            vp += dvp * n
            gold += dgold * n
            if cap is not None and gold > cap:
                gold = cap
            if vp > best[0] or (vp == best[0] and gold > best[1]):
                ns[i] = n
                best[0], best[1], best[2] = vp, gold, list(ns)
                ns[i] = 0
            return
        for n in range(most, -1, -1):
            for k, v in inp:
                left[k] -= v * n
            ns[i] = n
            rec(i + 1, vp + dvp * n, gold + dgold * n)
            for k, v in inp:
                left[k] += v * n
        ns[i] = 0

    rec(0, 0, gold0)
    return best[0], best[1], {cid: n for (cid, _c, _m), n in zip(items, best[2], strict=True)
                              if n}


def _last_uses(most: int, dvp: int, dgold: int, gold: int, cap: int | None) -> int:
    """The uses of the last craftsman searched: the first of most, most-1 ... 0 with the
    most (VP, gold after the cap), without trying each. More uses, unless they bring no VP
    and cost gold: then none, or as many as the cap would have taken anyway."""
    if dvp > 0 or dgold >= 0:
        return most
    if cap is None or gold <= cap:
        return 0
    return min(most, (gold - cap) // -dgold)


def most_vp(s, seat) -> Callable[[dict], int]:
    """A function of holdings (cubes and gold) giving the best step-13 VP the seat's
    craftsmen make of them: ``best_with(s, seat, have)[0]``, for the market's previews of
    many trades. It reads the craftsmen once, leaves out those whose uses bring no VP (not
    using them keeps every other use feasible and the VP the same) and searches VP alone,
    cutting every branch that cannot beat the best found (the last craftsman: as many uses
    as the cubes left allow)."""
    crafts = s["cat"]["craftsmen"]
    held = s["players"][seat]["craftsmen"]
    types = {crafts[h]["type"] for h in held}
    plan = []
    for cid in held:
        c = crafts[cid]
        dvp = c["output"].get("vp", 0)
        if dvp <= 0 or (c.get("needs") and c["needs"] not in types):
            continue
        plan.append((c["capacity"], tuple((k, v) for k, v in c["input"].items() if v > 0),
                     dvp, tuple(c.get("requires", {}).items())))

    def vp_of(have: dict) -> int:
        items = []
        for most, inp, dvp, req in plan:
            for k, v in inp:
                n = have.get(k, 0) // v
                if n < most:
                    most = n
            if most > 0 and all(have.get(k, 0) >= v for k, v in req):
                items.append((most, inp, dvp))
        if not items:
            return 0
        last = len(items) - 1
        reach = [0] * (last + 2)
        for i in range(last, -1, -1):
            reach[i] = reach[i + 1] + items[i][0] * items[i][2]
        left = dict(have)
        best = [0]

        def rec(i, vp):
            if vp + reach[i] <= best[0]:
                return
            most, inp, dvp = items[i]
            for k, v in inp:
                n = left.get(k, 0) // v
                if n < most:
                    most = n
            if i == last:  # every use of the last one adds VP: as many as the rest allow
                if vp + dvp * most > best[0]:
                    best[0] = vp + dvp * most
                return
            for n in range(most, -1, -1):
                if n:
                    for k, v in inp:
                        left[k] -= v * n
                rec(i + 1, vp + dvp * n)
                if n:
                    for k, v in inp:
                        left[k] += v * n

        rec(0, 0)
        return best[0]

    return vp_of

"""Step 13, the cathedral: checking and carrying out a conversion, and the exact advisor.

An allocation is ``{craftsman card id: uses}``. Each use of a craftsman takes its ``input``
(cubes, or gold for the Goldsmith) and gives its ``output`` (VP or gold), at most
``capacity`` times a round. ``requires`` (the Toolmaker's metal) must be held before building
and is not consumed. ``needs`` (the Mason's Mortar mixer) must be among the player's
craftsmen. The advisor finds the allocation with the most VP, then the most gold, by an exact
search over every feasible allocation (at most 5 craftsmen with small capacities).
"""
from __future__ import annotations

from engine.api import Refused
from engine.pillars.state import change_vp, return_cubes

HOLD = ("wood", "stone", "sand", "metal", "gold")


def _holdings(s, seat) -> dict:
    p = s["players"][seat]
    return {**p["cubes"], "gold": p["gold"]}


def usable(s, seat) -> list:
    """The player's craftsmen that can convert now: (card id, entry, max uses)."""
    p = s["players"][seat]
    crafts = s["cat"]["craftsmen"]
    types = {crafts[c]["type"] for c in p["craftsmen"]}
    have = _holdings(s, seat)
    out = []
    for cid in p["craftsmen"]:
        c = crafts[cid]
        if c.get("needs") and c["needs"] not in types:
            continue
        if any(have.get(k, 0) < v for k, v in c.get("requires", {}).items()):
            continue
        cap = c["capacity"]
        for k, v in c["input"].items():
            if v > 0:
                cap = min(cap, have.get(k, 0) // v)
        if cap > 0:
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
    items = usable(s, seat)
    have = _holdings(s, seat)
    best = [(-1, -1), {}]
    cur: dict = {}

    def rec(i):
        if i == len(items):
            vp, gold, _ = outcome(s, seat, cur)
            if (vp, gold) > best[0]:
                best[0], best[1] = (vp, gold), {k: v for k, v in cur.items() if v}
            return
        cid, c, cap = items[i]
        m = cap
        for k, v in c["input"].items():
            if v > 0:
                m = min(m, have[k] // v)
        for n in range(m, -1, -1):
            for k, v in c["input"].items():
                have[k] -= v * n
            cur[cid] = n
            rec(i + 1)
            for k, v in c["input"].items():
                have[k] += v * n
        cur.pop(cid, None)

    rec(0)
    vp, gold, used = outcome(s, seat, best[1])
    return {"uses": best[1], "vp": vp, "gold": gold, "used": used}

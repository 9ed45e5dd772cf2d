"""A brute-force reference for the step-13 conversion advisor, written from the rules and
sharing no code with `engine.pillars.advisor`: every way to spend a holding on the seat's
craftsmen (every craftsman 0 to ``capacity`` uses, in the order held, most uses first), kept
when the inputs fit the holding, what a craftsman ``requires`` is held and what it ``needs``
is among the seat's craftsmen; scored as VP gained and gold after (the gold cap applied when
the option caps every gain)."""
from __future__ import annotations

import itertools

HOLDINGS = ("wood", "stone", "sand", "metal", "gold")


def legal(crafts: dict, held: list, have: dict, uses: dict) -> bool:
    """Whether ``uses`` ({card id: uses}) can be built with ``have`` (cubes and gold)."""
    types = {crafts[c]["type"] for c in held}
    spent = dict.fromkeys(HOLDINGS, 0)
    for cid, n in uses.items():
        c = crafts[cid]
        if cid not in held or n < 0 or n > c["capacity"]:
            return False
        if not n:
            continue
        if c.get("needs") and c["needs"] not in types:
            return False
        if any(have.get(k, 0) < v for k, v in (c.get("requires") or {}).items()):
            return False
        for k, v in c["input"].items():
            spent[k] += v * n
    return all(spent[k] <= have.get(k, 0) for k in HOLDINGS)


def score(crafts: dict, have: dict, uses: dict, cap: int | None) -> tuple[int, int]:
    """(VP gained, gold after) of a legal allocation; ``cap``: the gold cap, or None."""
    vp = sum(crafts[c]["output"].get("vp", 0) * n for c, n in uses.items())
    gold = have["gold"] + sum((crafts[c]["output"].get("gold", 0)
                               - crafts[c]["input"].get("gold", 0)) * n
                              for c, n in uses.items())
    return vp, gold if cap is None else min(gold, cap)


def allocations(crafts: dict, held: list):
    """Every allocation within the capacities, in the advisor's order: craftsmen in the
    order held, most uses first. Uses of 0 are left out of each."""
    ranges = [range(crafts[c]["capacity"], -1, -1) for c in held]
    for combo in itertools.product(*ranges):
        yield {c: n for c, n in zip(held, combo, strict=True) if n}


def brute_best(s: dict, seat: str, have: dict | None = None) -> dict:
    """The best (VP, gold after) over every legal allocation, every allocation reaching it
    (``ties``, in order) and the first of them (``first``). ``have``: holdings other than
    the seat's own (a market trade's)."""
    p = s["players"][seat]
    crafts = s["cat"]["craftsmen"]
    held = list(p["craftsmen"])
    have = have if have is not None else {**p["cubes"], "gold": p["gold"]}
    cap = s["cat"]["board"]["gold_cap"] if s["options"]["gold_cap_all_gains"] else None
    best, ties = None, []
    for uses in allocations(crafts, held):
        if not legal(crafts, held, have, uses):
            continue
        got = score(crafts, have, uses, cap)
        if best is None or got > best:
            best, ties = got, [uses]
        elif got == best:
            ties.append(uses)
    return {"vp": best[0], "gold": best[1], "ties": ties, "first": ties[0]}

"""The 12 action cards (§4) and the favor track (§3.5).

Each card function checks its params, raises `Refused` when it cannot be carried out, and
otherwise changes the (already copied) state. The card-specific params are documented in
docs/engine.md. `carry_out` turns a refusal into R4.1.2's "the card simply does nothing"
when no way of carrying the card out exists at all.
"""
from __future__ import annotations

import itertools

from engine.api import Refused
from engine.wwe import effects, projects
from engine.wwe import state as st
from engine.wwe.steps import push_front

# ---------------------------------------------------------------- favor track


def space_kind(space: str) -> str:
    """'outlaws_2' -> 'outlaws': a board may hold a space twice."""
    base, _, tail = space.rpartition("_")
    return base if base and tail.isdigit() else space


def favor_cycle(s: dict) -> list[str]:
    return list(s["cat"]["game"]["favor_track"]["cycle"])


def favor_landing(s: dict, steps: int) -> int:
    """Index where the marker stops after ``steps`` moves, skipping covered spaces."""
    cycle = favor_cycle(s)
    i = s["favor"]["index"]
    covered = s["covers"]["favor"]
    skip_outlaws = s["options"]["favor_wrap"] == "bishop_to_queen"
    for _ in range(steps):
        for _guard in range(len(cycle)):
            i = (i + 1) % len(cycle)
            space = cycle[i]
            if space in covered or (skip_outlaws and space_kind(space) == "outlaws"):
                continue
            break
    return i


def favor_refusal(s: dict, seat: str, steps: int) -> Refused | None:
    """R3.3.3: landing on Outlaws needs 1 gold."""
    if steps == 0:
        return None
    space = favor_cycle(s)[favor_landing(s, steps)]
    if space_kind(space) == "outlaws" and s["players"][seat]["res"]["gold"] < 1:
        return Refused("outlaws_no_gold", space=space)
    return None


def favor_preview(s: dict, seat: str, space: str) -> dict:
    """What landing on ``space`` would give ``seat`` (read-only)."""
    p = s["players"][seat]
    res = p["res"]
    k = space_kind(space)
    if k == "queen":
        return {"vp": 2 if res["loyalty"] >= 1 else 0}
    if k == "prioress":
        return {"vp": 2 if res["mk"] >= 1 else 0}
    if k == "guild":
        return {"vp": len(p["houses"])}
    if k == "king":
        return {"vp": res["loyalty"]}
    if k == "bishop":
        return {"vp": res["piety"]}
    item = {"prior": "piety", "merchants": "wool", "earl": "grain"}.get(k)
    if item:
        have = s["supply"].get(item)
        return {item: 1 if have is None or have >= 1 else 0}
    if k == "outlaws":
        return {"gold": -1}
    return {}


def grant_favor(s: dict, seat: str, index: int, ev: list) -> None:
    """Move the marker to ``index`` and give ``seat`` that space's favor (R3.5.3, R3.5.6)."""
    space = favor_cycle(s)[index]
    s["favor"]["index"] = index
    gain = favor_preview(s, seat, space)
    ev.append({"type": "favor", "seat": seat, "space": space, "gain": gain})
    for item, n in gain.items():
        if item == "vp":
            st.add_vp(s, seat, n, ev, "favor")
        elif n > 0:
            st.give(s, seat, item, n)
        elif n < 0:
            st.pay(s, seat, item, -n)


# ---------------------------------------------------------------- the cards


def _int(params: dict, key: str, default: int = 0) -> int:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Refused("bad_params", field=key)
    return value


def _gain_from_supply(s, seat, item, n, ev, reason="card"):
    have = s["supply"].get(item)
    if have is not None and have < n:
        raise Refused("out_of_supply", item=item)
    st.give(s, seat, item, n)
    ev.append({"type": "gain", "seat": seat, "item": item, "amount": n, "reason": reason})


def card_grain(s, seat, params, ev):
    _gain_from_supply(s, seat, "grain", 1, ev)


def card_piety(s, seat, params, ev):
    _gain_from_supply(s, seat, "piety", 1, ev)


def card_building_material(s, seat, params, ev):
    item = params.get("item")
    if item not in st.MATERIALS:
        raise Refused("bad_params", field="item")
    _gain_from_supply(s, seat, item, 1, ev)


def project_refusal(s, pid) -> Refused | None:
    if not isinstance(pid, str):
        return Refused("bad_params", field="project")
    if pid not in s["cat"]["projects"]:
        return Refused("unknown_project", project=pid)
    if pid not in s["projects"]:
        return Refused("project_not_on_board", project=pid)
    if s["projects"][pid]["complete"]:
        return Refused("project_complete", project=pid)
    if pid in s["covers"]["project"]:
        return Refused("project_covered", project=pid)
    return None


def card_building_project(s, seat, params, ev):
    pid = params.get("project")
    refusal = project_refusal(s, pid)
    if refusal:
        raise refusal
    amounts = {m: _int(params, m) for m in st.MATERIALS}
    total = sum(amounts.values())
    if not 1 <= total <= 2:
        raise Refused("materials_one_or_two", count=total)
    res = s["players"][seat]["res"]
    empty = st.project_open(s, pid)
    for m, n in amounts.items():
        if res[m] < n:
            raise Refused("cannot_afford", item=m, need=n, have=res[m])
        if empty[m] < n:
            raise Refused("no_space_on_project", project=pid, item=m, free=empty[m])
    for m, n in amounts.items():
        if n:
            res[m] -= n  # the material goes onto the project, not back to the supply
            s["projects"][pid][m] += n
            ev.append({"type": "built", "seat": seat, "project": pid, "item": m, "amount": n})
    st.add_vp(s, seat, 3 * total, ev, "building")
    projects.check_complete(s, pid, ev)


def card_sell_wool_cloth(s, seat, params, ev):
    wool = _int(params, "wool")
    cloth = _int(params, "cloth")
    if cloth > int(s["cat"]["game"]["market"].get("cloth_max", 1)):
        raise Refused("cloth_max", max=int(s["cat"]["game"]["market"].get("cloth_max", 1)))
    if wool + cloth == 0:
        raise Refused("nothing_to_sell")
    if wool > 1 and not s["options"]["sell_any_wool"]:
        raise Refused("wool_max", max=1)
    res = s["players"][seat]["res"]
    for item, n in (("wool", wool), ("cloth", cloth)):
        if n and item in s["covers"]["market"]:
            raise Refused("market_closed", item=item)
        if res[item] < n:
            raise Refused("cannot_afford", item=item, need=n, have=res[item])
    gold = wool * effects.price(s, "wool") + cloth * effects.price(s, "cloth")
    have = s["supply"].get("gold")
    if have is not None and have < gold:
        raise Refused("out_of_supply", item="gold")
    st.pay(s, seat, "wool", wool)
    st.pay(s, seat, "cloth", cloth)
    st.give(s, seat, "gold", gold)
    ev.append({"type": "sold", "seat": seat, "wool": wool, "cloth": cloth, "gold": gold})


def card_build_house(s, seat, params, ev):
    site = params.get("site")
    if not isinstance(site, str):
        raise Refused("bad_params", field="site")
    projects.place_house(s, seat, site, False, ev)


def card_rent(s, seat, params, ev):
    sites = params.get("sites")
    if not isinstance(sites, list) or not all(isinstance(x, str) for x in sites):
        raise Refused("bad_params", field="sites")
    if not 1 <= len(sites) <= 2 or len(set(sites)) != len(sites):
        raise Refused("rent_one_or_two")
    for site in sites:
        if s["sites"].get(site) != seat:
            raise Refused("not_your_house", site=site)
    for site in sites:
        rent = s["cat"]["sites"][site]["rent"]
        item, n = rent["item"], int(rent.get("amount", 1))
        if item == "vp":
            st.add_vp(s, seat, n, ev, "rent")
            continue
        got = st.give(s, seat, item, n)  # an empty Field/Cathedral gives nothing (§6.8)
        ev.append({"type": "gain", "seat": seat, "item": item, "amount": got, "reason": "rent"})


def card_donation(s, seat, params, ev):
    pid = params.get("project")
    refusal = project_refusal(s, pid)
    if refusal:
        raise refusal
    player = s["players"][seat]
    if pid in player["seals"]:
        raise Refused("already_donated", project=pid)
    if len(player["seals"]) >= int(s["cat"]["game"].get("seals_per_player", 2)):
        raise Refused("no_seal_left")
    if player["res"]["gold"] < 1:
        raise Refused("cannot_afford", item="gold", need=1, have=player["res"]["gold"])
    st.pay(s, seat, "gold", 1)
    player["seals"].append(pid)
    s["projects"][pid]["seals"].append(seat)
    ev.append({"type": "donated", "seat": seat, "project": pid})


def card_weaver(s, seat, params, ev):
    n = _int(params, "wool", 1)
    if n not in (1, 2):
        raise Refused("bad_params", field="wool")
    res = s["players"][seat]["res"]
    if res["wool"] < n:
        raise Refused("cannot_afford", item="wool", need=n, have=res["wool"])
    have = s["supply"].get("cloth")
    if have is not None and have < n:
        raise Refused("out_of_supply", item="cloth")
    st.pay(s, seat, "wool", n)
    st.give(s, seat, "cloth", n)
    ev.append({"type": "woven", "seat": seat, "amount": n})


def card_medicine(s, seat, params, ev):
    mode = params.get("mode", "help")
    if mode == "help":
        have = s["supply"].get("gold")
        if have is not None and have < 1:
            raise Refused("out_of_supply", item="gold")
        st.give(s, seat, "gold", 1)
        ev.append({"type": "gain", "seat": seat, "item": "gold", "amount": 1,
                   "reason": "medicine"})
        st.add_vp(s, seat, 1, ev, "medicine")
        return
    if mode != "cure":
        raise Refused("bad_params", field="mode")
    if s["chapter"] < 3:
        raise Refused("no_cure_before_chapter_3")
    steps = projects.cure(s, seat, params.get("locations"), ev)
    push_front(s, steps)


def card_favor(s, seat, params, ev):
    refusal = favor_refusal(s, seat, 1)
    if refusal and s["options"]["favor_card_outlaws_needs_gold"]:
        raise refusal
    grant_favor(s, seat, favor_landing(s, 1), ev)


CARDS = {
    "grain": card_grain,
    "piety": card_piety,
    "building_material": card_building_material,
    "building_project": card_building_project,
    "sell_wool_cloth": card_sell_wool_cloth,
    "build_house": card_build_house,
    "rent": card_rent,
    "donation": card_donation,
    "weaver": card_weaver,
    "medicine": card_medicine,
    "favor": card_favor,
}


def resolve_privilege(s: dict, seat: str) -> str:
    """A-9: Privilege repeats the player's own latest face-up card of this chapter."""
    player = s["players"][seat]
    if not player["played"]:
        raise Refused("privilege_nothing")
    last = player["played"][-1]
    if not player["performed"][-1] and not s["options"]["privilege_repeats_unperformed"]:
        raise Refused("privilege_unperformed", card=last)
    if last == "privilege":  # only reachable with duplicate cards; repeat what it repeated
        raise Refused("privilege_nothing")
    return last


def perform(s: dict, seat: str, card: str, params: dict, ev: list) -> None:
    """Carry out ``card`` for ``seat`` with event card modifiers applied."""
    target = resolve_privilege(s, seat) if card == "privilege" else card
    for mod in effects.card_mods(s, target):
        if mod.get("disabled"):
            raise Refused("card_disabled", card=target)
    if target not in CARDS:
        raise Refused("unknown_card", card=target)
    for mod in effects.card_mods(s, target):
        for item, n in (mod.get("cost") or {}).items():
            have = s["players"][seat]["res"].get(item, 0)
            if have < int(n):
                raise Refused("cannot_afford", item=item, need=int(n), have=have)
            st.pay(s, seat, item, int(n))
    CARDS[target](s, seat, params, ev)
    for mod in effects.card_mods(s, target):
        st.gain_items(s, seat, mod.get("bonus") or {}, ev, "event")


# Refusals that say the input itself is wrong: they stay refusals even when the card could
# not be carried out anyway (R4.1.2 covers cards that cannot be carried out, not bad input).
INPUT_CODES = frozenset(("bad_params", "malformed_action", "unknown_card", "unknown_project",
                         "unknown_site", "unknown_seat"))


def card_param_options(s: dict, seat: str, card: str) -> list[dict]:
    """Reasonable parameter sets to offer for ``card`` (the trial marks illegal ones)."""
    p = s["players"][seat]
    res = p["res"]
    if card == "privilege":
        if not p["played"]:
            return [{}]
        return card_param_options(s, seat, p["played"][-1])
    if card == "building_material":
        return [{"item": "stone"}, {"item": "wood"}]
    if card == "building_project":
        combos = [(1, 0), (0, 1), (2, 0), (1, 1), (0, 2)]
        return [{"project": pid, "stone": a, "wood": b}
                for pid in s["projects"] for a, b in combos] or [{"project": None}]
    if card == "sell_wool_cloth":
        return [{"wool": w, "cloth": c} for c in (0, 1) for w in range(res["wool"] + 1)
                if w + c > 0] or [{"wool": 1, "cloth": 0}]
    if card == "build_house":
        return [{"site": site} for site in s["sites"]]
    if card == "rent":
        houses = p["houses"]
        return ([{"sites": [h]} for h in houses]
                + [{"sites": list(c)} for c in itertools.combinations(houses, 2)]) or [
                    {"sites": []}]
    if card == "donation":
        return [{"project": pid} for pid in s["projects"]] or [{"project": None}]
    if card == "weaver":
        return [{"wool": 1}, {"wool": 2}]
    if card == "medicine":
        sick = sorted((loc for loc, t in s["plague"].items() if t["state"] == "sick"), key=int)
        out = [{"mode": "help"}]
        for n in range(1, min(3, len(sick)) + 1):
            out += [{"mode": "cure", "locations": [int(x) for x in c]}
                    for c in itertools.combinations(sick, n)]
        return out
    return [{}]


def can_carry_out(s: dict, seat: str, card: str) -> bool:
    """True when some way of carrying ``card`` out for ``seat`` exists now (read-only)."""
    for params in card_param_options(s, seat, card):
        try:
            perform(st.fast_copy(s), seat, card, params, [])
        except Refused:
            continue
        return True
    return False


def carry_out(s: dict, seat: str, card: str, params: dict, ev: list) -> Refused | None:
    """R4.1.2: perform ``card``; a card whose action cannot be carried out in any way is
    still played and simply does nothing. Returns None when it was carried out, or the
    refusal that says why it had no effect (``s`` unchanged then). A request that asks for
    something impossible while another way exists stays refused (Building Material with
    an empty Quarry and wood left: take wood), so the player can choose again."""
    trial = st.fast_copy(s)
    events: list = []
    try:
        perform(trial, seat, card, params, events)
    except Refused as r:
        if r.code in INPUT_CODES or can_carry_out(s, seat, card):
            raise
        return r
    s.clear()
    s.update(trial)
    ev.extend(events)
    return None

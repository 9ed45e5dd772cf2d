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
    cycle = s["cat"]["game"]["favor_track"]["cycle"]  # read only: no copy
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
            st.return_to_supply(s, seat, item, -n)


# ---------------------------------------------------------------- the cards


def _int(params: dict, key: str, default: int = 0) -> int:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Refused("bad_params", field=key)
    return value


# Each card has a read-only check (``CHECKS``) that returns the refusal its params meet now,
# or None; the card raises that refusal first and, once it passed, only changes the state
# (no refusal after a change). So `perform_refusal` knows without trying the card on a copy.


def _supply_refusal(s, item, n) -> Refused | None:
    have = s["supply"].get(item)
    return Refused("out_of_supply", item=item) if have is not None and have < n else None


def _gain_from_supply(s, seat, item, n, ev, reason="card"):
    refusal = _supply_refusal(s, item, n)
    if refusal:
        raise refusal
    st.give(s, seat, item, n)
    ev.append({"type": "gain", "seat": seat, "item": item, "amount": n, "reason": reason})


def card_grain(s, seat, params, ev):
    _gain_from_supply(s, seat, "grain", 1, ev)


def card_piety(s, seat, params, ev):
    _gain_from_supply(s, seat, "piety", 1, ev)


def material_refusal(s, seat, params) -> Refused | None:
    item = params.get("item")
    if item not in st.MATERIALS:
        return Refused("bad_params", field="item")
    return _supply_refusal(s, item, 1)


def card_building_material(s, seat, params, ev):
    _raise(material_refusal(s, seat, params))
    _gain_from_supply(s, seat, params["item"], 1, ev)


def _raise(refusal: Refused | None) -> None:
    if refusal:
        raise refusal


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


def building_refusal(s, seat, params) -> Refused | None:
    """Why Building Project cannot be carried out with ``params`` now, or None (read-only:
    the card checks with it, and the choices use it without trying the card on a copy)."""
    pid = params.get("project")
    refusal = project_refusal(s, pid)
    if refusal:
        return refusal
    try:
        amounts = {m: _int(params, m) for m in st.MATERIALS}
    except Refused as r:
        return r
    total = sum(amounts.values())
    if not 1 <= total <= 2:
        return Refused("materials_one_or_two", count=total)
    res = s["players"][seat]["res"]
    empty = st.project_open(s, pid)
    for m, n in amounts.items():
        if res[m] < n:
            return Refused("cannot_afford", item=m, need=n, have=res[m])
        if empty[m] < n:
            return Refused("no_space_on_project", project=pid, item=m, free=empty[m])
    return None


def card_building_project(s, seat, params, ev):
    refusal = building_refusal(s, seat, params)
    if refusal:
        raise refusal
    pid = params["project"]
    amounts = {m: _int(params, m) for m in st.MATERIALS}
    total = sum(amounts.values())
    res = s["players"][seat]["res"]
    for m, n in amounts.items():
        if n:
            res[m] -= n  # the material goes onto the project, not back to the supply
            s["projects"][pid][m] += n
            ev.append({"type": "built", "seat": seat, "project": pid, "item": m, "amount": n})
    st.add_vp(s, seat, 3 * total, ev, "building")
    projects.check_complete(s, pid, ev)


def sell_refusal(s, seat, params) -> Refused | None:
    try:
        wool = _int(params, "wool")
        cloth = _int(params, "cloth")
    except Refused as r:
        return r
    if cloth > int(s["cat"]["game"]["market"]["cloth_max"]):
        return Refused("cloth_max", max=int(s["cat"]["game"]["market"]["cloth_max"]))
    if wool + cloth == 0:
        return Refused("nothing_to_sell")
    if wool > 1 and not s["options"]["sell_any_wool"]:
        return Refused("wool_max", max=1)
    res = s["players"][seat]["res"]
    # the seat's own lack first: it is why nothing can be sold, whatever the market shows
    if not res["wool"] and not res["cloth"]:
        return Refused("no_wool_or_cloth")
    if not res["wool"] and not wool and "cloth" in s["covers"]["market"]:
        return Refused("no_wool_cloth_covered")
    for item, n in (("wool", wool), ("cloth", cloth)):
        if n and item in s["covers"]["market"]:
            return Refused("market_closed", item=item)
        if res[item] < n:
            return Refused("cannot_afford", item=item, need=n, have=res[item])
    gold = wool * effects.price(s, "wool") + cloth * effects.price(s, "cloth")
    return _supply_refusal(s, "gold", gold)


def card_sell_wool_cloth(s, seat, params, ev):
    _raise(sell_refusal(s, seat, params))
    wool, cloth = _int(params, "wool"), _int(params, "cloth")
    gold = wool * effects.price(s, "wool") + cloth * effects.price(s, "cloth")
    st.return_to_supply(s, seat, "wool", wool)
    st.return_to_supply(s, seat, "cloth", cloth)
    st.give(s, seat, "gold", gold)
    ev.append({"type": "sold", "seat": seat, "wool": wool, "cloth": cloth, "gold": gold})


def house_card_refusal(s, seat, params) -> Refused | None:
    site = params.get("site")
    if not isinstance(site, str):
        return Refused("bad_params", field="site")
    return projects.house_refusal(s, seat, site, False)


def card_build_house(s, seat, params, ev):
    _raise(house_card_refusal(s, seat, params))
    projects.place_house(s, seat, params["site"], False, ev)


def rent_refusal(s, seat, params) -> Refused | None:
    sites = params.get("sites")
    if not isinstance(sites, list) or not all(isinstance(x, str) for x in sites):
        return Refused("bad_params", field="sites")
    if not sites and not s["players"][seat]["houses"]:  # nothing to choose from
        return Refused("no_house_for_rent")
    if not 1 <= len(sites) <= 2 or len(set(sites)) != len(sites):
        return Refused("rent_one_or_two")
    for site in sites:
        if s["sites"].get(site) != seat:
            return Refused("not_your_house", site=site)
    return None


def card_rent(s, seat, params, ev):
    _raise(rent_refusal(s, seat, params))
    for site in params["sites"]:
        rent = s["cat"]["sites"][site]["rent"]
        item, n = rent["item"], int(rent.get("amount", 1))
        if item == "vp":
            st.add_vp(s, seat, n, ev, "rent")
            continue
        got = st.give(s, seat, item, n)  # an empty Field/Cathedral gives nothing (§6.8)
        ev.append({"type": "gain", "seat": seat, "item": item, "amount": got, "reason": "rent"})


def donation_refusal(s, seat, params) -> Refused | None:
    pid = params.get("project")
    refusal = project_refusal(s, pid)
    if refusal:
        return refusal
    player = s["players"][seat]
    if pid in player["seals"]:
        return Refused("already_donated", project=pid)
    if len(player["seals"]) >= int(s["cat"]["game"].get("seals_per_player", 2)):
        return Refused("no_seal_left")
    if player["res"]["gold"] < 1:
        return Refused("cannot_afford", item="gold", need=1, have=player["res"]["gold"])
    return None


def card_donation(s, seat, params, ev):
    _raise(donation_refusal(s, seat, params))
    pid = params["project"]
    player = s["players"][seat]
    st.return_to_supply(s, seat, "gold", 1)
    player["seals"].append(pid)
    s["projects"][pid]["seals"].append(seat)
    ev.append({"type": "donated", "seat": seat, "project": pid})


def weaver_refusal(s, seat, params) -> Refused | None:
    try:
        n = _int(params, "wool", 1)
    except Refused as r:
        return r
    if n not in (1, 2):
        return Refused("bad_params", field="wool")
    res = s["players"][seat]["res"]
    if res["wool"] < n:
        return Refused("cannot_afford", item="wool", need=n, have=res["wool"])
    return _supply_refusal(s, "cloth", n)


def card_weaver(s, seat, params, ev):
    _raise(weaver_refusal(s, seat, params))
    n = _int(params, "wool", 1)
    st.return_to_supply(s, seat, "wool", n)
    st.give(s, seat, "cloth", n)
    ev.append({"type": "woven", "seat": seat, "amount": n})


def medicine_refusal(s, seat, params) -> Refused | None:
    """Why Medicine cannot be carried out with ``params`` now, or None (read-only)."""
    mode = params.get("mode", "help")
    if mode == "help":
        have = s["supply"].get("gold")
        return Refused("out_of_supply", item="gold") if have is not None and have < 1 else None
    if mode != "cure":
        return Refused("bad_params", field="mode")
    if s["chapter"] < 3:
        return Refused("no_cure_before_chapter_3")
    return projects.cure_refusal(s, seat, params.get("locations"))


def card_medicine(s, seat, params, ev):
    refusal = medicine_refusal(s, seat, params)
    if refusal:
        raise refusal
    if params.get("mode", "help") == "help":
        st.give(s, seat, "gold", 1)
        ev.append({"type": "gain", "seat": seat, "item": "gold", "amount": 1,
                   "reason": "medicine"})
        st.add_vp(s, seat, 1, ev, "medicine")
        return
    steps = projects.cure(s, seat, params.get("locations"), ev)
    push_front(s, steps)


def favor_card_refusal(s, seat, params) -> Refused | None:
    refusal = favor_refusal(s, seat, 1)
    return refusal if refusal and s["options"]["favor_card_outlaws_needs_gold"] else None


def card_favor(s, seat, params, ev):
    _raise(favor_card_refusal(s, seat, params))
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

CHECKS = {
    "grain": lambda s, seat, params: _supply_refusal(s, "grain", 1),
    "piety": lambda s, seat, params: _supply_refusal(s, "piety", 1),
    "building_material": material_refusal,
    "building_project": building_refusal,
    "sell_wool_cloth": sell_refusal,
    "build_house": house_card_refusal,
    "rent": rent_refusal,
    "donation": donation_refusal,
    "weaver": weaver_refusal,
    "medicine": medicine_refusal,
    "favor": favor_card_refusal,
}
UNKNOWN = object()  # `perform_refusal`: only trying the card on a copy tells


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


def perform(s: dict, seat: str, card: str, params: dict, ev: list, memo: dict | None = None
            ) -> None:
    """Carry out ``card`` for ``seat`` with event card modifiers applied (``memo`` as for
    `perform_refusal`, of this same state before the card: its modifiers looked up once)."""
    target = resolve_privilege(s, seat) if card == "privilege" else card
    mods = memo.get(target) if memo is not None else None
    if mods is None:
        mods = effects.card_mods(s, target)  # no card changes the events in force
    for mod in mods:
        if mod.get("disabled"):
            raise Refused("card_disabled", card=target)
    if target not in CARDS:
        raise Refused("unknown_card", card=target)
    for mod in mods:
        for item, n in (mod.get("cost") or {}).items():
            have = s["players"][seat]["res"].get(item, 0)
            if have < int(n):
                raise Refused("cannot_afford", item=item, need=int(n), have=have)
            st.return_to_supply(s, seat, item, int(n))
    CARDS[target](s, seat, params, ev)
    for mod in mods:
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
        most = int(s["cat"]["game"]["market"]["cloth_max"])  # (R4.3: 1 in the printed game)
        return [{"wool": w, "cloth": c} for c in range(most + 1) for w in range(res["wool"] + 1)
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


def perform_refusal(s: dict, seat: str, card: str, params: dict, memo: dict | None = None
                    ) -> Refused | object | None:
    """The refusal `perform` would raise, or None when it would carry the card out; read-only.

    An event card's extra cost is paid before the card's own check: it is paid here on a
    copy of only what paying touches (the seat's resources and the supply). `UNKNOWN` when
    a cost names an item a player does not hold (only trying the card on a copy tells).
    ``memo``: a dict kept by the caller for one state, so each card's modifiers are looked
    up once in it (the choices ask about many variants of the same cards)."""
    try:
        target = resolve_privilege(s, seat) if card == "privilege" else card
    except Refused as r:
        return r
    mods = memo.get(target) if memo is not None else None
    if mods is None:
        mods = effects.card_mods(s, target)
        if memo is not None:
            memo[target] = mods
    check = CHECKS.get(target)
    if not mods:  # the usual case: no event card changes it
        return check(s, seat, params) if check else Refused("unknown_card", card=target)
    for mod in mods:
        if mod.get("disabled"):
            return Refused("card_disabled", card=target)
    if check is None:
        return Refused("unknown_card", card=target)
    costs = [(item, n) for mod in mods for item, n in (mod.get("cost") or {}).items()]
    if costs:
        player = s["players"][seat]
        s = dict(s, players=dict(s["players"]), supply=dict(s["supply"]))
        s["players"][seat] = dict(player, res=dict(player["res"]))
        res = s["players"][seat]["res"]
        for item, n in costs:
            if item not in res or isinstance(n, bool) or not isinstance(n, int):
                return UNKNOWN
            if res[item] < n:
                return Refused("cannot_afford", item=item, need=n, have=res[item])
            st.return_to_supply(s, seat, item, n)
    return check(s, seat, params)


def perform_refusals(s: dict, seat: str, card: str, options: list[dict], memo: dict
                     ) -> list:
    """`perform_refusal` of each of ``options`` (params of one card, in one state; ``memo``
    as there): the card Privilege repeats and its modifiers are looked up once."""
    try:
        target = resolve_privilege(s, seat) if card == "privilege" else card
    except Refused as r:
        return [r] * len(options)
    mods = memo.get(target)
    if mods is None:
        mods = memo[target] = effects.card_mods(s, target)
    check = CHECKS.get(target)
    if not mods and check is not None:  # the usual case: no event card changes it
        return [check(s, seat, params) for params in options]
    return [perform_refusal(s, seat, card, params, memo) for params in options]


def can_carry_out(s: dict, seat: str, card: str, memo: dict | None = None,
                  refusals: list | None = None) -> bool:
    """True when some way of carrying ``card`` out for ``seat`` exists now (read-only;
    ``memo`` as for `perform_refusal`, of this same state; ``refusals``: its answers for
    each of `card_param_options`, when the caller has them already)."""
    if refusals is not None and UNKNOWN not in refusals:
        return None in refusals  # nothing to try: the answers say it
    for i, params in enumerate(card_param_options(s, seat, card)):
        refusal = (refusals[i] if refusals is not None
                   else perform_refusal(s, seat, card, params, memo))
        if refusal is UNKNOWN:
            try:
                perform(st.fast_copy(s), seat, card, params, [])
            except Refused:
                continue
            return True
        if refusal is None:
            return True
    return False


def carry_out(s: dict, seat: str, card: str, params: dict, ev: list) -> Refused | None:
    """R4.1.2: perform ``card``; a card whose action cannot be carried out in any way is
    still played and simply does nothing. Returns None when it was carried out, or the
    refusal that says why it had no effect (``s`` unchanged then). A request that asks for
    something impossible while another way exists stays refused (Building Material with
    an empty Quarry and wood left: take wood), so the player can choose again."""
    memo: dict = {}
    refusal = perform_refusal(s, seat, card, params, memo)
    if refusal is None:  # it passes its check: carried out, no copy needed
        perform(s, seat, card, params, ev, memo)
        return None
    if refusal is not UNKNOWN:
        if refusal.code in INPUT_CODES or can_carry_out(s, seat, card):
            raise refusal
        return refusal
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

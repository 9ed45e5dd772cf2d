"""Projects, donations, the Tower spire, houses and plague (§6, §7)."""
from __future__ import annotations

from engine.api import Refused
from engine.wwe import state as st
from engine.wwe.steps import await_step, push_front


def is_complete_materials(s: dict, pid: str) -> bool:
    return all(v == 0 for v in st.project_open(s, pid).values())


def check_complete(s: dict, pid: str, ev: list) -> None:
    """§6.4 / A-23: however a project fills up, the same consequences follow."""
    proj = s["projects"][pid]
    if proj["complete"] or not is_complete_materials(s, pid):
        return
    spec = s["cat"]["projects"][pid]
    if spec.get("spire"):
        spire(s, pid, ev)
    proj["complete"] = True
    ev.append({"type": "project_completed", "project": pid})
    reward_donors(s, pid, ev)


def spire(s: dict, pid: str, ev: list) -> None:
    """R6.6.2: the metal goes to the most loyal player (3 VP); a tie: 1 VP each (A-22)."""
    proj = s["projects"][pid]
    st.take(s, "metal", 1)
    loyalty = {seat: s["players"][seat]["res"]["loyalty"] for seat in s["seats"]}
    top = max(loyalty.values())
    leaders = [seat for seat in st.clockwise_from(s, s["active"]) if loyalty[seat] == top]
    proj["spire"] = leaders[0] if len(leaders) == 1 else "tie"
    ev.append({"type": "spire_placed", "project": pid, "leaders": leaders, "loyalty": top})
    if top == 0 and not s["options"]["spire_tie_at_zero"]:
        return
    if len(leaders) == 1:
        st.add_vp(s, leaders[0], 3, ev, "spire")
    else:
        for seat in leaders:
            st.add_vp(s, seat, 1, ev, "spire")


def reward_donors(s: dict, pid: str, ev: list) -> None:
    """R6.5.2-R6.5.6: every donor gets the printed reward and takes the seal back."""
    proj = s["projects"][pid]
    reward = s["cat"]["projects"][pid].get("donor_reward") or {}
    donors = [seat for seat in st.clockwise_from(s, s["active"]) if seat in proj["seals"]]
    items = reward.get("items") or {}
    extra_ok = True
    if s["options"]["donor_extra_all_or_nothing"]:
        for item, n in items.items():
            have = s["supply"].get(item)
            if have is not None and have < int(n) * len(donors):
                extra_ok = False
    cures = []
    for seat in donors:
        if reward.get("vp"):
            st.add_vp(s, seat, int(reward["vp"]), ev, "donation")
        if extra_ok:
            for item, n in items.items():
                have = s["supply"].get(item)
                if have is not None and have < int(n):
                    continue
                st.give(s, seat, item, int(n))
                ev.append({"type": "gain", "seat": seat, "item": item, "amount": int(n),
                           "reason": "donation"})
        s["players"][seat]["seals"].remove(pid)
        ev.append({"type": "seal_returned", "seat": seat, "project": pid})
        if reward.get("cure") and curable(s, seat):
            cures.append(await_step("cure", seat, source=pid))
    proj["seals"] = []
    if items and not extra_ok:
        ev.append({"type": "donor_extra_withheld", "project": pid})
    push_front(s, cures)


def curable(s: dict, seat: str) -> bool:
    mk = s["players"][seat]["res"]["mk"]
    return any(t["state"] == "sick" and t["value"] <= mk for t in s["plague"].values())


def chapter_progress(s: dict, ev: list) -> None:
    """E1: one material from the supply on each unfinished uncovered project, stone first."""
    for pid in list(s["projects"]):
        proj = s["projects"][pid]
        if proj["complete"]:
            continue
        if pid in s["covers"]["project"] and s["options"]["covered_projects_no_progress"]:
            continue
        empty = st.project_open(s, pid)
        material = "stone" if empty["stone"] > 0 else ("wood" if empty["wood"] > 0 else None)
        if material is None:
            continue
        if st.take(s, material, 1) == 0:
            ev.append({"type": "progress_skipped", "project": pid, "item": material})
            continue  # §11.5: an empty Quarry/Forest skips that project's progress
        proj[material] += 1
        ev.append({"type": "progress", "project": pid, "item": material})
        check_complete(s, pid, ev)


def complete_tower(s: dict, ev: list) -> None:
    """'Merthin fulfilled his dream': fill the Tower, substitutes where the supply is empty."""
    for pid, spec in s["cat"]["projects"].items():
        if not spec.get("spire"):
            continue
        if pid not in s["projects"]:
            s["projects"][pid] = st.new_project()
        proj = s["projects"][pid]
        for material, n in st.project_open(s, pid).items():
            got = st.take(s, material, n)
            proj[material] += n
            proj["substitutes"] += n - got
        ev.append({"type": "tower_completed_by_event", "project": pid})
        check_complete(s, pid, ev)


def place_plague_tokens(s: dict, ev: list) -> None:
    """E8 / R7.1: 11 face-down tokens. Values are entered at flip time, or shuffled here."""
    locations = sorted(s["cat"]["plague"], key=int)
    values: list = [None] * len(locations)
    if s["options"]["plague_values"] == "app" and s["cat"]["plague_tokens"]:
        values = list(s["cat"]["plague_tokens"])
        st.rng(s).shuffle(values)
    s["plague"] = {loc: {"state": "hidden", "value": values[i] if i < len(values) else None}
                   for i, loc in enumerate(locations)}
    ev.append({"type": "plague_placed"})


def cure_refusal(s: dict, seat: str, locations, limit: int | None = None) -> Refused | None:
    """Why curing ``locations`` is not possible for ``seat`` now, or None (read-only)."""
    if not isinstance(locations, list) or not locations:
        return Refused("bad_params", field="locations")
    if limit is not None and len(locations) > limit:
        return Refused("too_many_cures", limit=limit)
    if not all(isinstance(x, (int, str)) and not isinstance(x, bool) for x in locations):
        return Refused("bad_params", field="locations")
    locs = [str(x) for x in locations]
    if len(set(locs)) != len(locs):
        return Refused("bad_params", field="locations")
    total = 0
    for loc in locs:
        tok = s["plague"].get(loc)
        if not tok or tok["state"] != "sick":
            return Refused("not_sick", location=loc)
        total += tok["value"]
    mk = s["players"][seat]["res"]["mk"]
    if total > mk:
        return Refused("not_enough_mk", need=total, have=mk)
    return None


def cure(s: dict, seat: str, locations: list, ev: list, limit: int | None = None) -> list:
    """R7.5-R7.7: cure sick residents whose values sum to at most the player's MK.

    Returns the await steps the rewards need (house 9: a free house)."""
    refusal = cure_refusal(s, seat, locations, limit)
    if refusal:
        raise refusal
    locs = [str(x) for x in locations]
    steps = []
    for loc in locs:
        s["plague"][loc]["state"] = "removed"
        ev.append({"type": "cured", "seat": seat, "location": int(loc),
                   "value": s["plague"][loc]["value"]})
        st.add_vp(s, seat, int(s["cat"]["game"].get("cure_vp", 2)), ev, "cure")
        reward = s["cat"]["plague"].get(loc, {}).get("reward") or {}
        if reward.get("vp"):
            st.add_vp(s, seat, int(reward["vp"]), ev, "cure")
        for item, n in (reward.get("items") or {}).items():
            got = st.give(s, seat, item, int(n))
            ev.append({"type": "gain", "seat": seat, "item": item, "amount": got,
                       "reason": "cure"})
        if reward.get("free_house") and can_place_any_house(s, seat):
            steps.append(await_step("place_free_house", seat, location=int(loc)))
    return steps


def house_refusal(s: dict, seat: str, site: str, free: bool) -> Refused | None:
    """Why ``seat`` cannot build on ``site`` (None when it can)."""
    if not isinstance(site, str):
        return Refused("bad_params", field="site")
    spec = s["cat"]["sites"].get(site)
    if spec is None:
        return Refused("unknown_site", site=site)
    if s["sites"].get(site) is not None:
        return Refused("site_taken", site=site)
    player = s["players"][seat]
    if len(player["houses"]) >= int(s["cat"]["game"].get("houses_per_player", 4)):
        return Refused("no_house_left")
    rent = spec.get("rent")
    same_rent_applies = not free or s["options"]["free_house_same_rent"]
    for own in player["houses"]:
        if same_rent_applies and s["cat"]["sites"][own].get("rent") == rent:
            return Refused("same_rent", site=site, other=own)
    if not free:
        material = spec.get("material")
        if player["res"].get(material, 0) < 1:
            return Refused("cannot_afford", item=material, need=1,
                           have=player["res"].get(material, 0))
        if player["res"]["gold"] < 1:
            return Refused("cannot_afford", item="gold", need=1, have=player["res"]["gold"])
    return None


def can_place_any_house(s: dict, seat: str) -> bool:
    return any(house_refusal(s, seat, site, True) is None for site in s["sites"])


def place_house(s: dict, seat: str, site: str, free: bool, ev: list) -> None:
    refusal = house_refusal(s, seat, site, free)
    if refusal:
        raise refusal
    if not free:
        st.return_to_supply(s, seat, s["cat"]["sites"][site]["material"], 1)
        st.return_to_supply(s, seat, "gold", 1)
    s["sites"][site] = seat
    s["players"][seat]["houses"].append(site)
    ev.append({"type": "house_built", "seat": seat, "site": site, "free": free})


def return_house(s: dict, site: str, ev: list) -> None:
    if not isinstance(site, str):
        raise Refused("bad_params", field="sites")
    seat = s["sites"].get(site)
    if seat is None:
        raise Refused("no_house_there", site=site)
    s["sites"][site] = None
    s["players"][seat]["houses"].remove(site)
    ev.append({"type": "house_returned", "seat": seat, "site": site})

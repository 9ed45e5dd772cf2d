"""Duties at the chapter end (§5.3-§5.8): one tax roll, VP per missing unit, punishments,
loyalty protection chosen by each player, chapter IV doubling."""
from __future__ import annotations

from engine.api import Refused
from engine.wwe import state as st
from engine.wwe.steps import await_step, push_front

DUTY_ITEMS = ("piety", "grain", "gold")
VP_PER_MISSING = {"piety": 3, "grain": 2, "gold": 1}
PUNISHMENT = {"piety": "penance", "grain": "begging", "gold": "royal_court"}


def settle(s: dict, tax: int, ev: list) -> None:
    """E4: every player pays the duties; punishments and protections are queued."""
    need = {"piety": 2, "grain": 2, "gold": tax}
    last = s["chapter"] == 4
    owing = []
    s["duties"] = {}
    for seat in st.clockwise_from(s, s["active"]):
        res = s["players"][seat]["res"]
        short = {}
        paid = {}
        for item in DUTY_ITEMS:
            if s["options"]["partial_duty_payment"] or res[item] >= need[item]:
                paid[item] = st.return_to_supply(s, seat, item, need[item])
            else:
                paid[item] = 0
            short[item] = need[item] - paid[item]
        failed = [item for item in DUTY_ITEMS if short[item] > 0]
        loss = sum(short[i] * VP_PER_MISSING[i] for i in DUTY_ITEMS)
        s["duties"][seat] = {"paid": paid, "short": short, "failed": failed}
        # the log says what was handed in and what was missing (not "paid the duties" when
        # some was missing), and how the VP loss adds up (per missing unit, §5.4)
        ev.append({"type": "duties_paid", "seat": seat, "paid": paid, "short": short,
                   "handed": _some(paid), "missing": _some(short),
                   "vp_per": dict(VP_PER_MISSING)})
        loyalty = res["loyalty"]
        if not last:
            st.add_vp(s, seat, -loss, ev, "duties")
            punish = [PUNISHMENT[i] for i in failed]
            s["players"][seat]["punish"] = punish
            if punish:
                ev.append({"type": "punished", "seat": seat, "punishments": punish})
            if punish and loyalty > 0:
                owing.append(seat)
        else:
            if failed and loyalty > 0 and s["options"]["chapter4_loyalty_per_type"]:
                owing.append(seat)  # doubled losses wait for the loyalty choice
            else:
                st.add_vp(s, seat, -2 * loss, ev, "duties")
    steps = []
    if owing:
        steps.append(await_step("choose_protection", owing[0], seats=owing))
    steps.append({"do": "after_duties"})
    push_front(s, steps)


def _some(items: dict) -> dict | str:
    """The items of ``items`` there are some of, or "nothing" (a term the log words)."""
    return {k: n for k, n in items.items() if n} or "nothing"


def protection_options(s: dict, seat: str) -> list[str]:
    """What ``seat`` may cancel: punishments (ch. I-III) or doubled duty types (ch. IV)."""
    if s["chapter"] == 4:
        return list(s["duties"][seat]["failed"])
    return list(s["players"][seat]["punish"])


def protect(s: dict, seat: str, cancel, ev: list) -> None:
    """R5.6 / R5.8.2 (A-18): 1 loyalty per cancelled punishment or undoubled duty type."""
    if not isinstance(cancel, list) or len(set(map(str, cancel))) != len(cancel):
        raise Refused("bad_params", field="cancel")
    allowed = protection_options(s, seat)
    for c in cancel:
        if c not in allowed:
            raise Refused("cannot_cancel", item=c)
    res = s["players"][seat]["res"]
    if len(cancel) > res["loyalty"]:
        raise Refused("cannot_afford", item="loyalty", need=len(cancel), have=res["loyalty"])
    st.return_to_supply(s, seat, "loyalty", len(cancel))
    if s["chapter"] == 4:
        short = s["duties"][seat]["short"]
        loss = sum(short[i] * VP_PER_MISSING[i] * (1 if i in cancel else 2) for i in DUTY_ITEMS)
        st.add_vp(s, seat, -loss, ev, "duties")
    else:
        player = s["players"][seat]
        player["punish"] = [p for p in player["punish"] if p not in cancel]
    if cancel:  # choosing to cancel nothing is a decision, not news for the log
        ev.append({"type": "protected", "seat": seat, "cancel": list(cancel)})

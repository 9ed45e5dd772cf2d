"""Phase III (§8–§11): the event, the tax and its exemptions, the market, building, and
returning cubes; the spaces resolve in order."""
from __future__ import annotations

from engine.api import Refused
from engine.pillars.advisor import apply_allocation, check_allocation, outcome
from engine.pillars.flow import after_build, exemption_card, market_next, next_exemption, start_tax
from engine.pillars.inputs import int_field, need_active, need_phase, str_field
from engine.pillars.state import (
    BUYABLE,
    CUBES,
    board,
    can_buy_wood,
    change_vp,
    gain_gold,
    give_items,
    has_type,
    occupant,
    order_from,
    pay_gold,
    return_cubes,
    storage_count,
)


def _h_reveal_event(s, a, by, ev):
    need_phase(s, "event")
    if s["event"] is not None:
        raise Refused("already_revealed", what="event")
    card = str_field(a, "card")
    e = s["cat"]["events"].get(card)
    if e is None:
        raise Refused("no_such_card", card=card)
    if card in s["seen"]["events"]:
        raise Refused("card_already_used", card=card)
    if len(s["seen"]["events"]) >= board(s)["events_used"]:
        raise Refused("deck_empty", what="event")
    s["seen"]["events"].append(card)
    s["event"] = card
    ev.append({"type": "event_revealed", "card": card, "positive": e["positive"]})
    bishop = occupant(s, "bishop1")
    if bishop is not None and (not e["positive"] or any(s["market"].values())):
        s["phase"] = "bishop"
        s["active"] = bishop
        return
    _resolve_event(s, None, ev)


def _h_bishop_choice(s, a, by, ev):
    need_phase(s, "bishop")
    need_active(s, by)
    choice = a.get("choice")
    e = s["cat"]["events"][s["event"]]
    if choice == "protect":
        if e["positive"]:
            raise Refused("protection_pointless")
        _resolve_event(s, by, ev)
        ev.append({"type": "bishop_protected", "seat": by})
        return
    if choice != "cube":
        raise Refused("bad_field", field="choice")
    cube = a.get("cube")
    if cube not in BUYABLE:
        raise Refused("bad_field", field="cube")
    if s["market"][cube] <= 0:
        raise Refused("market_empty", item=cube)
    _resolve_event(s, None, ev)
    s["market"][cube] -= 1
    s["players"][by]["cubes"][cube] += 1
    ev.append({"type": "gain", "seat": by, "item": cube, "amount": 1, "source": "bishop"})


def _resolve_event(s, protected, ev):
    e = s["cat"]["events"][s["event"]]
    eff = e["effect"]
    for seat in order_from(s, s["start"]):
        if not e["positive"] and seat == protected:
            continue
        p = s["players"][seat]
        if eff == "pay_gold":
            pay_gold(s, seat, e["amount"], ev, "event")
        elif eff == "gain":
            give_items(s, seat, e["items"], ev, "event")
        elif eff == "lose":
            for item, n in e["items"].items():
                if item == "vp":
                    change_vp(s, seat, -n)
                    ev.append({"type": "lose", "seat": seat, "item": "vp", "amount": n})
                elif item == "gold":
                    lost = min(n, p["gold"])
                    p["gold"] -= lost
                    ev.append({"type": "lose", "seat": seat, "item": "gold", "amount": lost})
                else:
                    lost = min(n, p["cubes"][item])
                    if lost:
                        return_cubes(s, seat, item, lost)
                        ev.append({"type": "lose", "seat": seat, "item": item,
                                   "amount": lost})
    if eff == "architect_limit":
        s["limit_next"] = e["limit"]
        ev.append({"type": "architect_limit", "limit": e["limit"]})
    s["phase"] = "steps3"
    s["active"] = None


def _h_roll_tax(s, a, by, ev):
    need_phase(s, "tax")
    face = a.get("face")
    faces = board(s)["tax_die"]["faces"]
    if type(face) is not int or face not in faces:
        raise Refused("bad_die_value", value=str(face), faces=", ".join(map(str, faces)))
    start_tax(s, face, ev)


def _h_use_exemption(s, a, by, ev):
    need_phase(s, "exemption")
    need_active(s, by)
    use = a.get("use")
    if type(use) is not bool:
        raise Refused("bad_field", field="use")
    s["queue"].pop(0)
    if use:
        card = exemption_card(s, by)
        s["players"][by]["privileges"].remove(card)
        s["players"][by]["used"].append(card)
        s["exempt"].append(by)
        ev.append({"type": "exemption_used", "seat": by, "card": card})
    next_exemption(s, ev)


def _market_actor(s, by):
    need_phase(s, "market")
    need_active(s, by)


def market_refusal(s, seat, kind, cube, n) -> Refused | None:
    p = s["players"][seat]
    price = board(s)["prices"]
    if kind == "buy":
        if cube not in BUYABLE:
            return Refused("cannot_buy", item=str(cube))
        if cube == "wood" and not can_buy_wood(s, seat):
            return Refused("needs_craftsman", craftsman="carpenter", action="buy", item=cube)
        if cube in p["sold"] and not s["options"]["sell_then_buy"]:
            return Refused("bought_after_sold", item=cube)
        if n > s["market"][cube]:
            return Refused("market_short", item=cube, have=s["market"][cube])
        cost = n * price[cube]["buy"]
        if cost > p["gold"]:
            return Refused("cannot_afford", item="gold", need=cost, have=p["gold"])
        return None
    if cube not in CUBES:
        return Refused("bad_field", field="cube")
    if cube == "stone" and not has_type(s, seat, "stone_carver"):
        return Refused("needs_craftsman", craftsman="stone_carver", action="sell", item=cube)
    if cube in p["bought"]:
        return Refused("sell_after_buy", item=cube)
    if n > p["cubes"][cube]:
        return Refused("cannot_afford", item=cube, need=n, have=p["cubes"][cube])
    return None


def _trade(s, a, by, ev, kind):
    _market_actor(s, by)
    cube = a.get("cube")
    if not isinstance(cube, str):
        raise Refused("bad_field", field="cube")
    n = int_field(a, "amount", 1, 100)
    r = market_refusal(s, by, kind, cube, n)
    if r is not None:
        raise r
    p = s["players"][by]
    price = board(s)["prices"][cube]
    if kind == "buy":
        s["market"][cube] -= n
        p["cubes"][cube] += n
        p["gold"] -= n * price["buy"]
        if cube not in p["bought"]:
            p["bought"].append(cube)
    else:
        return_cubes(s, by, cube, n)
        gain_gold(s, by, n * price["sell"], ev)
        if cube not in p["sold"]:
            p["sold"].append(cube)
    ev.append({"type": "traded", "seat": by, "trade": kind, "item": cube, "amount": n,
               "gold": n * price[kind]})
    s["market_turn"] += 1
    market_next(s, ev)


def _h_buy(s, a, by, ev):
    _trade(s, a, by, ev, "buy")


def _h_sell(s, a, by, ev):
    _trade(s, a, by, ev, "sell")


def _h_leave_market(s, a, by, ev):
    _market_actor(s, by)
    i = s["market_turn"]
    s["market_open"].pop(i)
    ev.append({"type": "left_market", "seat": by})
    market_next(s, ev)


def _h_build(s, a, by, ev):
    need_phase(s, "build")
    need_active(s, by)
    uses = a.get("uses")
    r = check_allocation(s, by, uses)
    if r is not None:
        raise r
    used = {k: n for k, n in outcome(s, by, uses)[2].items() if n}
    vp, gold = apply_allocation(s, by, uses, ev)
    ev.append({"type": "built", "seat": by, "vp": vp, "gold": gold, "used": used})
    after_build(s, by, ev)


def _h_return_cubes(s, a, by, ev):
    need_phase(s, "store")
    need_active(s, by)
    cubes = a.get("cubes")
    if not isinstance(cubes, dict):
        raise Refused("bad_field", field="cubes")
    excess = storage_count(s, by) - board(s)["storage_limit"]
    p = s["players"][by]
    types = CUBES if s["options"]["metal_counts_storage"] else BUYABLE
    total = 0
    for c, n in cubes.items():
        if c not in types or type(n) is not int or n < 0 or n > p["cubes"][c]:
            raise Refused("bad_field", field="cubes")
        total += n
    if total != excess:
        raise Refused("return_exactly", need=excess, given=total)
    for c, n in cubes.items():
        if n:
            return_cubes(s, by, c, n)
            ev.append({"type": "cubes_returned", "seat": by, "item": c, "amount": n})
    s["phase"] = "build"
    after_build(s, by, ev)


HANDLERS = {
    "reveal_event": _h_reveal_event,
    "bishop_choice": _h_bishop_choice,
    "roll_tax": _h_roll_tax,
    "use_exemption": _h_use_exemption,
    "buy": _h_buy,
    "sell": _h_sell,
    "leave_market": _h_leave_market,
    "build": _h_build,
    "return_cubes": _h_return_cubes,
}

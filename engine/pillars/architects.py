"""Phase II (§7): master builders drawn from the bag, placed on spaces or passed."""
from __future__ import annotations

from engine.api import Refused
from engine.pillars.inputs import need_active, need_phase, str_field
from engine.pillars.state import draw_cost, free_spaces, pay_gold, space_refusal


def _h_draw_architect(s, a, by, ev):
    need_phase(s, "architects")
    if by != "table" and by != s["start"]:
        raise Refused("wrong_actor", action="draw_architect", by=by)
    arch = s["arch"]
    if arch["drawn"] is not None:
        raise Refused("architect_waiting", seat=arch["drawn"])
    seat = str_field(a, "seat")
    if seat not in arch["bag"]:
        raise Refused("unknown_seat", seat=seat)
    if arch["bag"][seat] <= 0:
        raise Refused("not_in_bag", seat=seat)
    arch["bag"][seat] -= 1
    ev.append({"type": "architect_drawn", "seat": seat, "cost": draw_cost(s)})
    limit = s["limit"] if s["options"]["architect_limit_event"] == "next_round" else None
    if limit is not None and arch["count"][seat] >= limit:
        arch["aside"][seat] += 1
        ev.append({"type": "architect_aside", "seat": seat})
        return
    arch["count"][seat] += 1
    arch["drawn"] = seat
    s["active"] = seat


def _after_draw(s, ev):
    arch = s["arch"]
    arch["drawn"] = None
    arch["marker"] += 1
    s["active"] = None


def _h_place(s, a, by, ev):
    if s["phase"] == "deferred":
        need_active(s, by)
        space = a.get("space")
        r = space_refusal(s, by, space)
        if r is not None:
            raise r
        _put(s, by, space, 0, ev)
        s["arch"]["wheel"].pop(0)
        return
    need_phase(s, "architects")
    arch = s["arch"]
    if arch["drawn"] != by:
        raise Refused("not_your_turn", seat=by, active=str(arch["drawn"]))
    space = a.get("space")
    r = space_refusal(s, by, space)
    if r is not None:
        raise r
    cost = draw_cost(s)
    gold = s["players"][by]["gold"]
    if cost > gold and s["options"]["placement_needs_gold"]:
        raise Refused("cannot_afford", item="gold", need=cost, have=gold)
    _put(s, by, space, cost, ev)
    _after_draw(s, ev)


def _put(s, seat, space, cost, ev):
    if cost:
        pay_gold(s, seat, cost, ev, "architect")
    s["spaces"][space] = seat
    s["placed"].append(space)
    ev.append({"type": "architect_placed", "seat": seat, "space": space, "cost": cost})


def _h_pass_architect(s, a, by, ev):
    need_phase(s, "architects")
    arch = s["arch"]
    if arch["drawn"] != by:
        raise Refused("not_your_turn", seat=by, active=str(arch["drawn"]))
    cost = draw_cost(s)
    if cost == 0 and s["options"]["free_draws_must_place"] and free_spaces(s, by):
        raise Refused("must_place_free")
    arch["wheel"].append(by)
    ev.append({"type": "architect_passed", "seat": by, "cost": cost})
    _after_draw(s, ev)


def _h_refuse_draw(s, a, by, ev):
    need_phase(s, "architects")
    arch = s["arch"]
    if by != s["start"]:
        raise Refused("not_start_player", seat=by)
    if arch["drawn"] is None:
        raise Refused("nothing_drawn")
    if arch["refused"]:
        raise Refused("refusal_used")
    if arch["drawn"] == by and not s["options"]["refusal_any_colour"]:
        raise Refused("refuse_own")
    seat = arch["drawn"]
    arch["bag"][seat] += 1
    arch["count"][seat] -= 1
    arch["drawn"] = None
    arch["refused"] = True
    s["active"] = None
    if s["options"]["refusal_moves_marker"]:
        arch["marker"] += 1
    ev.append({"type": "draw_refused", "seat": seat})


HANDLERS = {
    "draw_architect": _h_draw_architect,
    "place": _h_place,
    "pass_architect": _h_pass_architect,
    "refuse_draw": _h_refuse_draw,
}

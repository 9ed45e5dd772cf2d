"""The Pillars of the Earth: `apply` (rules reference §2–§12) and the host's own actions.

The state is plain JSON; `apply` checks who may send an action, copies the state, runs the
action's handler (draft.py, architects.py, resolution.py, or the host's below), then
`advance` (flow.py) runs every automatic step until the next decision. Chance decided at
the table (cards revealed, the bag draw, the tax die) enters as actions by "table"; the
``deal`` action lets the app decide such a chance from the seeded generator stored in the
state (never in a view).
"""
from __future__ import annotations

from engine.api import Refused
from engine.pillars import architects, corrections, draft, resolution
from engine.pillars.flow import advance, prep_missing, snapshot, start_gold
from engine.pillars.state import CUBES, board, copy_state, rng

TABLE_ACTIONS = frozenset(("reveal_privilege", "reveal_craftsman", "reveal_material",
                           "draw_architect", "reveal_event", "roll_tax", "deal"))
HOST_ACTIONS = frozenset(("adjust", "set_start_player", "correct"))
SEAT_ACTIONS = frozenset(("take_material", "take_craftsman", "pass", "place", "pass_architect",
                          "refuse_draw", "discard_craftsman", "bishop_choice", "use_exemption",
                          "buy", "sell", "leave_market", "build", "return_cubes",
                          "draw_architect"))


def apply(state: dict, action) -> tuple[dict, list]:
    if not isinstance(action, dict):
        raise Refused("malformed_action")
    kind, by = action.get("type"), action.get("by")
    if not isinstance(kind, str) or not isinstance(by, str):
        raise Refused("malformed_action")
    if kind not in TABLE_ACTIONS | HOST_ACTIONS | SEAT_ACTIONS:
        raise Refused("unknown_action", action=kind)
    if state["over"]:
        raise Refused("game_over")
    if by == "host":
        if kind not in HOST_ACTIONS:
            raise Refused("wrong_actor", action=kind, by=by)
    elif by == "table":
        if kind not in TABLE_ACTIONS:
            raise Refused("wrong_actor", action=kind, by=by)
    elif by in state["players"]:
        if kind not in SEAT_ACTIONS:
            raise Refused("wrong_actor", action=kind, by=by)
    else:
        raise Refused("unknown_seat", seat=by)
    s = copy_state(state)
    ev: list = []
    try:
        HANDLERS[kind](s, action, by, ev)
        advance(s, ev)
    except Refused:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise Refused("malformed_action") from exc
    _book(s, ev)
    s["n"] += 1
    return s, ev


BOOKED = frozenset(("round_started", "mill_income", "gain", "paid", "traded", "built",
                    "prior_vp", "lose", "cubes_returned", "gold_lost_cap", "adjusted"))


def _add(book, own, seat, key, amount) -> None:
    """Add to the ledger, copied on write: a row shared with the previous state is copied
    the first time this action changes it (``own`` holds the rows already copied)."""
    if amount:
        if seat not in own:
            book[seat] = dict(book.get(seat, {}))
            own.add(seat)
        row = book[seat]
        row[key] = row.get(key, 0) + amount


def _book(s, ev) -> None:
    """The round ledger for the table's round summary: per seat, "<item>+<source>" and
    "<item>-<reason>" -> amount, from this action's events (a new round starts a new one)."""
    if not any(e["type"] in BOOKED for e in ev):
        return
    book = dict(s.get("ledger", {}))
    own: set = set()
    for e in ev:
        kind, seat = e["type"], e.get("seat")
        if kind == "round_started":
            s["last_ledger"] = book
            book = {}
            own = set()
        elif kind == "mill_income":
            _add(book, own, seat, "gold+mill", e["amount"])
        elif kind == "gain":
            _add(book, own, seat, f"{e['item']}+{e['source']}", e["amount"])
        elif kind == "paid":
            _add(book, own, seat, f"gold-{e['why']}", e["amount"])
            _add(book, own, seat, f"vp-{e['why']}", e["vp_lost"])
        elif kind == "traded":
            sign = ("+", "-") if e["trade"] == "buy" else ("-", "+")
            _add(book, own, seat, f"{e['item']}{sign[0]}market", e["amount"])
            _add(book, own, seat, f"gold{sign[1]}market", e["gold"])
        elif kind == "built":
            _add(book, own, seat, "vp+build", e["vp"])
            _add(book, own, seat, "gold+build" if e["gold"] >= 0 else "gold-build", abs(e["gold"]))
            for item, n in e.get("used", {}).items():
                _add(book, own, seat, f"{item}-build", n)
        elif kind == "prior_vp":
            _add(book, own, seat, "vp+prior", e["amount"])
        elif kind in ("lose", "cubes_returned"):
            _add(book, own, seat, f"{e['item']}-{'event' if kind == 'lose' else 'storage'}",
                 e["amount"])
        elif kind == "gold_lost_cap":
            _add(book, own, seat, "gold-cap", e["amount"])
        elif kind == "adjusted":
            sign = "+" if e["delta"] > 0 else "-"
            _add(book, own, seat, f"{e['item']}{sign}host", abs(e["delta"]))
    s["ledger"] = book


def deal_options(s) -> list:
    """What the app may decide by chance now: [(action type, list of legal values)]."""
    if s["pending"] is not None:
        return []
    ph = s["phase"]
    if ph == "prep":
        m = prep_missing(s)
        if m["privilege"] > 0:
            limit = len(s["cat"]["deck_privileges"]) - board(s)["privileges_removed"]
            if len(s["seen"]["privileges"]) < limit:
                return [("reveal_privilege", [c for c in s["cat"]["deck_privileges"]
                                              if c not in s["seen"]["privileges"]])]
        if m["shiring"] > 0 or m["supply_craftsman"] > 0:
            return [("reveal_craftsman", [c for c in s["cat"]["craftsmen_by_round"]
                                          [str(s["round"])]
                                          if c not in s["seen"]["craftsmen"]])]
        if m["material"] > 0:
            return [("reveal_material", [c for c in s["cat"]["materials"]
                                         if c not in s["supply_materials"]])]
    if ph == "architects" and s["arch"]["drawn"] is None:
        bag = s["arch"]["bag"]
        return [("draw_architect", [seat for seat in s["seats"] for _ in range(bag[seat])])]
    if ph == "event" and s["event"] is None:
        return [("reveal_event", [c for c in s["cat"]["events"] if c not in s["seen"]["events"]])]
    if ph == "tax":
        return [("roll_tax", list(board(s)["tax_die"]["faces"]))]
    return []


def _h_deal(s, a, by, ev):
    found = [(t, vals) for t, vals in deal_options(s) if vals]
    if not found:
        raise Refused("nothing_to_deal")
    kind, values = found[0]
    pick = rng(s).choice(values)
    s["rng_n"] += 1
    field = {"draw_architect": "seat", "roll_tax": "face"}.get(kind, "card")
    HANDLERS[kind](s, {"type": kind, "by": "table", field: pick}, "table", ev)
    ev.append({"type": "dealt", "action": kind})


ADJUST_ITEMS = ("gold", "vp") + CUBES
ADJUST_MAX = 10


def _h_adjust(s, a, by, ev):
    seat = a.get("seat")
    if seat not in s["players"]:
        raise Refused("unknown_seat", seat=str(seat))
    p = s["players"][seat]
    deltas = {}
    for item in ADJUST_ITEMS:
        if item in a:
            d = a[item]
            if type(d) is not int or abs(d) > ADJUST_MAX:
                raise Refused("adjust_out_of_range", item=item, max=ADJUST_MAX)
            deltas[item] = d
    if "item" in a:  # the shared host page's form: one item and its change
        item, d = a.get("item"), a.get("delta")
        if item not in ADJUST_ITEMS or type(d) is not int or abs(d) > ADJUST_MAX:
            raise Refused("adjust_out_of_range", item=str(item)[:12], max=ADJUST_MAX)
        deltas[item] = deltas.get(item, 0) + d
    if not any(deltas.values()):
        raise Refused("bad_field", field="delta")
    cap = board(s)["gold_cap"]
    if "gold" in deltas and not 0 <= p["gold"] + deltas["gold"] <= cap:
        raise Refused("adjust_out_of_range", item="gold", max=ADJUST_MAX)
    if "vp" in deltas and p["vp"] + deltas["vp"] < 0 and s["options"]["vp_floor_zero"]:
        raise Refused("adjust_out_of_range", item="vp", max=ADJUST_MAX)
    for c in CUBES:
        d = deltas.get(c, 0)
        if p["cubes"][c] + d < 0 or s["sites"][c] - d < 0:
            raise Refused("adjust_out_of_range", item=c, max=ADJUST_MAX)
    reason = a.get("reason", "")
    if not isinstance(reason, str):
        raise Refused("bad_field", field="reason")
    for item, d in deltas.items():
        if item == "gold":
            p["gold"] += d
        elif item == "vp":
            p["vp"] += d
        else:
            p["cubes"][item] += d
            s["sites"][item] -= d
        if d:
            after = p[item] if item in ("gold", "vp") else p["cubes"][item]
            ev.append({"type": "adjusted", "seat": seat, "item": item, "delta": d,
                       "after": after, "reason": reason[:200]})


def _h_set_start_player(s, a, by, ev):
    seat = a.get("seat")
    if seat not in s["players"]:
        raise Refused("unknown_seat", seat=str(seat))
    if s["round"] != 1 or s["phase"] != "prep":
        raise Refused("start_player_fixed")
    s["start"] = seat
    s["first_start"] = seat
    start_gold(s)
    s["round_start"] = snapshot(s)
    ev.append({"type": "start_player", "seat": seat})


# Every action's handler: the phases', the app's deal, and the host's.
HANDLERS = {**draft.HANDLERS, **architects.HANDLERS, **resolution.HANDLERS,
            "deal": _h_deal, "adjust": _h_adjust, "set_start_player": _h_set_start_player,
            "correct": corrections.correct}

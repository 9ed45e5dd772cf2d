"""Phase I (§5–§6): the table reveals privileges, craftsmen and materials, then the
players take materials and craftsmen in turn (the draft)."""
from __future__ import annotations

from engine.api import Refused
from engine.pillars.flow import hire, next_drafter, prep_missing
from engine.pillars.inputs import need_active, need_phase, str_field
from engine.pillars.state import board, workers_free


def _h_reveal_privilege(s, a, by, ev):
    need_phase(s, "prep")
    card = str_field(a, "card")
    pv = s["cat"]["privileges"].get(card)
    if pv is None:
        raise Refused("no_such_card", card=card)
    if pv.get("final"):
        raise Refused("final_privilege", card=card)
    if prep_missing(s)["privilege"] <= 0:
        raise Refused("already_revealed", what="privilege")
    if card in s["seen"]["privileges"]:
        raise Refused("card_already_used", card=card)
    limit = len(s["cat"]["deck_privileges"]) - board(s)["privileges_removed"]
    if len(s["seen"]["privileges"]) >= limit:
        raise Refused("deck_empty", what="privilege")
    s["seen"]["privileges"].append(card)
    s["kingsbridge"].append(card)
    ev.append({"type": "privilege_revealed", "card": card, "space": len(s["kingsbridge"])})


def _h_reveal_craftsman(s, a, by, ev):
    need_phase(s, "prep")
    card = str_field(a, "card")
    cr = s["cat"]["craftsmen"].get(card)
    if cr is None:
        raise Refused("no_such_card", card=card)
    if cr["start"] or cr["round"] != s["round"]:
        raise Refused("wrong_round_card", card=card, round=s["round"])
    if card in s["seen"]["craftsmen"]:
        raise Refused("card_already_used", card=card)
    to = a.get("to")
    missing = prep_missing(s)
    if to is None:
        to = "shiring" if missing["shiring"] > 0 else "supply"
    if to not in ("shiring", "supply"):
        raise Refused("bad_field", field="to")
    if missing["shiring" if to == "shiring" else "supply_craftsman"] <= 0:
        raise Refused("already_revealed", what=to)
    s["seen"]["craftsmen"].append(card)
    (s["shiring"] if to == "shiring" else s["supply_craftsmen"]).append(card)
    ev.append({"type": "craftsman_revealed", "card": card, "to": to})


def _h_reveal_material(s, a, by, ev):
    need_phase(s, "prep")
    card = str_field(a, "card")
    if card not in s["cat"]["materials"]:
        raise Refused("no_such_card", card=card)
    if card in s["supply_materials"]:
        raise Refused("card_already_used", card=card)
    if prep_missing(s)["material"] <= 0:
        raise Refused("already_revealed", what="material")
    s["supply_materials"].append(card)
    ev.append({"type": "material_revealed", "card": card})


def _drafted_card(s, a, by, supply: str) -> str:
    """The card the active seat takes from ``s[supply]`` in the draft (refused otherwise)."""
    need_phase(s, "draft")
    need_active(s, by)
    card = str_field(a, "card")
    if card not in s[supply]:
        raise Refused("card_not_in_supply", card=card)
    return card


def _h_take_material(s, a, by, ev):
    card = _drafted_card(s, a, by, "supply_materials")
    need = s["cat"]["materials"][card]["workers"]
    have = workers_free(s, by)
    if need > have:
        raise Refused("not_enough_workers", need=need, have=have)
    s["supply_materials"].remove(card)
    p = s["players"][by]
    p["materials"].append(card)
    p["committed"] += need
    ev.append({"type": "material_taken", "seat": by, "card": card, "workers": need})
    s["active"] = next_drafter(s, by)


def _h_take_craftsman(s, a, by, ev):
    card = _drafted_card(s, a, by, "supply_craftsmen")
    cost = s["cat"]["craftsmen"][card]["cost"]
    p = s["players"][by]
    if cost > p["gold"]:
        raise Refused("cannot_afford", item="gold", need=cost, have=p["gold"])
    s["supply_craftsmen"].remove(card)
    p["gold"] -= cost
    ev.append({"type": "paid", "seat": by, "amount": cost, "due": cost, "vp_lost": 0,
               "why": "craftsman"})
    hire(s, by, card, ev, "supply")
    s["active"] = next_drafter(s, by)


def _h_pass(s, a, by, ev):
    need_phase(s, "draft")
    need_active(s, by)
    s["players"][by]["passed"] = True
    ev.append({"type": "passed", "seat": by})
    s["active"] = next_drafter(s, by)


def _h_discard_craftsman(s, a, by, ev):
    pend = s["pending"]
    if pend is None or pend["kind"] != "discard_craftsman":
        raise Refused("not_now", phase=s["phase"])
    if pend["seat"] != by:
        raise Refused("not_your_turn", seat=by, active=pend["seat"])
    card = str_field(a, "card")
    p = s["players"][by]
    if card not in p["craftsmen"]:
        raise Refused("card_not_held", card=card)
    p["craftsmen"].remove(card)
    s["removed"].append(card)
    s["pending"] = None
    ev.append({"type": "craftsman_discarded", "seat": by, "card": card})


HANDLERS = {
    "reveal_privilege": _h_reveal_privilege,
    "reveal_craftsman": _h_reveal_craftsman,
    "reveal_material": _h_reveal_material,
    "take_material": _h_take_material,
    "take_craftsman": _h_take_craftsman,
    "pass": _h_pass,
    "discard_craftsman": _h_discard_craftsman,
}

"""Prompts, the public view (table display), the seat view (phone), the scores. Monasterium
has no secret holdings (rules reference §16): the seat view is the public view plus which
seat it is (its menu, the choices, goes beside the view in the server's message)."""
from __future__ import annotations

from engine.api import Prompt
from engine.monasterium import state
from engine.monasterium.choices import whose_turn
from engine.viewparts import Parts

# The parts of the views made before, by catalog and position data (engine/viewparts.py)
_PARTS = Parts()


def prompts(s) -> list:
    seat = whose_turn(s)
    if seat is None:
        return []
    if s["pending"]:
        p = s["pending"][0]
        return [Prompt(p["seat"], p["kind"], {k: v for k, v in p.items() if k != "kind"})]
    if seat == "table":
        return [Prompt("table", "roll", {"player": s["active"],
                                         "dice": len(s["place"]["reroll"] or
                                                     state.hand(s, s["active"]))})]
    if s["phase"] == "place":
        return [Prompt(seat, "place", {"seat": seat})]
    if s["turn"] is None:
        return [Prompt(seat, "take", {"seat": seat})]
    return [Prompt(seat, "use", {"seat": seat, "column": s["turn"]["col"],
                                 "dice": len(s["turn"]["dice"])})]


def to_roll(s) -> list:
    from engine.monasterium.bindings import _wanted

    return _wanted(s)


def _player(s, seat) -> dict:
    """A seat's public row (the same object while what it shows is the same)."""
    p = s["players"][seat]
    return _PARTS.get(s["cat"], ("player", seat, p, s["names"].get(seat, seat)),
                      lambda: _make_player(s, seat))


def _make_player(s, seat) -> dict:
    p = s["players"][seat]
    return {"seat": seat, "name": s["names"].get(seat, seat), "colour": state.COLOURS[seat],
            "prestige": p["prestige"], "res": dict(p["res"]), "road": p["road"],
            "personal": p["personal"], "reroll_used": p["reroll_used"],
            "novices": {r: list(v) for r, v in p["novices"].items()},
            "extras": list(p["extras"]), "yellow": list(p["yellow"]),
            "chapel_sent": p["chapel_sent"], "cloister_sent": p["cloister_sent"],
            "sent": p["sent"], "window": [list(r) for r in p["window"]],
            "missions": dict(p["claimed"])}


def public_view(s) -> dict:
    """Everything public. Read-only: a part made from the same position data as before is
    the object made before (engine/viewparts.py), so the server sees at once what did not
    change."""
    cat, parts = s["cat"], _PARTS
    return {
        "game": "monasterium", "year": s["year"], "round": s["round"],
        "rounds": len(s["seats"]), "years": state.board(s)["years"], "first": s["first"],
        "phase": s["phase"], "active": s["active"], "over": s["over"],
        "seats": list(s["seats"]),
        "players": parts.same({seat: _player(s, seat) for seat in s["seats"]}),
        "prompts": [p.to_json() for p in prompts(s)],
        "dice": {d: {k: x.get(k) for k in ("owner", "holder", "at", "face", "col")}
                 for d, x in s["dice"].items()},  # changes at almost every action
        "monasteries": parts.get(cat, ("monasteries", s["mon"]), lambda: {
            m: {"buildings": dict(x["buildings"]), "chapel": list(x["chapel"]),
                "cloister": dict(x["cloister"]), "glass": x["glass"]}
            for m, x in s["mon"].items()}),
        "missions": list(s["missions"]), "turn": s["turn"], "final": s["final"],
        # the dice the next roll is of (entered by hand without a reader) and whose they are
        "to_roll": to_roll(s), "roller": state.roller(s),
        "road": parts.get(cat, "road", lambda: {
            k: {"monasteries": v["monasteries"], "bonus": v.get("bonus")}
            for k, v in cat["road"].items()}),
        "mission_cards": parts.get(cat, ("mission_cards", s["missions"]), lambda: {
            m: {k: cat["missions"][m].get(k)
                for k in ("type", "monastery", "area", "count", "condition", "points")}
            for m in s["missions"]}),
        "scores": parts.get(cat, ("scores", s["seats"], s["over"], [
            (seat, p["prestige"]) for seat, p in s["players"].items()]), lambda: scores(s)),
    }


def private_view(s, seat) -> dict:
    """What the seat view adds to the public view: which seat it is (its choices go beside
    the view, in the server's message)."""
    if seat not in s["players"]:
        return {}
    return {"me": seat, "mine": _player(s, seat)}


def seat_view(s, seat) -> dict:
    return {**public_view(s), **private_view(s, seat)}


def scores(s) -> list:
    rows = [{"seat": seat, "vp": p["prestige"]} for seat, p in s["players"].items()]
    rows.sort(key=lambda r: (-r["vp"], s["seats"].index(r["seat"])))
    prev, rank = None, 0
    for i, r in enumerate(rows):
        if r["vp"] != prev:
            rank, prev = i + 1, r["vp"]
        r["rank"] = rank
        r["winner"] = s["over"] and rank == 1  # a tie is a shared win (§12)
        r["final"] = s["over"]
    return rows


def is_over(s) -> bool:
    return bool(s["over"])

"""What each recipient may see (public view, seat view), who owes a decision, the scores.

Private: each seat's resources (all but VP), hand and face-down discards; hidden plague
values; the generator seed. Everything a view shows from the catalog carries its names and
an explicit ``demo`` flag.
"""
from __future__ import annotations

import marshal

from engine.api import Prompt
from engine.viewparts import Parts
from engine.wwe import effects
from engine.wwe import state as st
from engine.wwe.steps import head, in_force

# The parts of the views made before, by catalog and position data (engine/viewparts.py)
_PARTS = Parts()

# Catalog parts shown publicly, by the state key that names them.


def _thing(entry: dict | None, id_: str, **extra) -> dict:
    entry = entry or {}
    return {"id": id_, "names": entry.get("names", {}), "demo": bool(entry.get("demo")),
            **extra}


def _names(entry) -> dict:
    """favor_spaces hold {id: names} or {id: {"names": ...}}."""
    entry = entry or {}
    return entry.get("names", entry) if isinstance(entry, dict) else {}


def event_card(s: dict, card: str | None) -> dict | None:
    if card is None:
        return None
    return _PARTS.get(s["cat"], ("event", card), lambda: _event_card(s, card))


def _event_card(s: dict, card: str) -> dict:
    spec = s["cat"]["events"][card]
    return _thing(spec, card, chapter=spec.get("chapter"), permanent=bool(spec.get("permanent")),
                  text=spec.get("text", {}), corners=spec.get("corners"),
                  arrow=spec.get("arrow"), plague=spec.get("plague"),
                  effects=spec.get("effects", []))


def prompts(s: dict) -> list[Prompt]:
    h = head(s)
    if s["over"] or h is None:
        return []
    params = {k: v for k, v in h.items() if k not in ("do", "kind", "seat", "seats")}
    if h["kind"] == "choose_protection":
        return [Prompt(seat, h["kind"], dict(params)) for seat in h["seats"]]
    return [Prompt(h["seat"], h["kind"], params)]


def _seat(s: dict, seat: str) -> dict:
    cat = s["cat"]
    game = cat["game"]
    p = s["players"][seat]
    return {
        "name": p["name"], "colour": p["colour"], "vp": p["vp"],
        "houses": list(p["houses"]), "seals": list(p["seals"]),
        "houses_left": int(game.get("houses_per_player", 4)) - len(p["houses"]),
        "seals_left": int(game.get("seals_per_player", 2)) - len(p["seals"]),
        # each card with the round of the chapter it was played in (one a round, R3.6.1):
        # the TV shows this round's, a phone the chapter's
        "played": [_thing(cat["actions"].get(c), c, card=c, performed=d, round=i + 1)
                   for i, (c, d) in enumerate(zip(p["played"], p["performed"], strict=True))],
        "hand_count": len(p["hand"]), "discard_count": len(p["discards"]),
        "punishments": list(p["punish"]),
        "round_flags": sorted(k for k, v in s["round_flags"].get(seat, {}).items() if v),
    }


def _seat_inputs(s: dict, seat: str) -> tuple:
    """What `_seat` reads of the position."""
    p = s["players"][seat]
    return ("seat", p["name"], p["colour"], p["vp"], p["houses"], p["seals"], p["played"],
            p["performed"], len(p["hand"]), len(p["discards"]), p["punish"],
            s["round_flags"].get(seat, {}))


def lost_actions(s: dict) -> dict:
    """{seat: what takes its action this round} for every seat that loses it, so the table
    says so beside the seat: the Royal Court (§5.5) or the event card (this round's, or a
    permanent one in force: its `lose_action` sets no round flag)."""
    out = {}
    for seat in s["seats"]:
        why = effects.lost_why(s, seat)
        if why is not None:
            out[seat] = {"cause": effects.lost_cause(why), "card": why.params.get("card")}
    return out


def _projects(s: dict) -> dict:
    cat = s["cat"]
    projects = {}
    for pid, proj in s["projects"].items():
        spec = cat["projects"][pid]
        projects[pid] = _thing(spec, pid, stone=proj["stone"], wood=proj["wood"],
                               stone_spaces=int(spec.get("stone", 0)),
                               wood_spaces=int(spec.get("wood", 0)),
                               spire=proj["spire"], has_spire=bool(spec.get("spire")),
                               seals=list(proj["seals"]), complete=proj["complete"],
                               covered=pid in s["covers"]["project"],
                               donor_reward=spec.get("donor_reward"))
    return projects


def _plague(s: dict) -> dict:
    cat = s["cat"]
    return {loc: {"state": t["state"], "value": t["value"] if t["state"] != "hidden" else None,
                  "names": cat["plague"].get(loc, {}).get("names", {}),
                  "demo": bool(cat["plague"].get(loc, {}).get("demo")),
                  "reward": cat["plague"].get(loc, {}).get("reward")}
            for loc, t in s["plague"].items()}


def _favor(s: dict) -> dict:
    game = s["cat"]["game"]
    cycle = list(game["favor_track"]["cycle"])
    return {"cycle": [{"id": c, "names": _names(game.get("favor_spaces", {}).get(c)),
                       "demo": False} for c in cycle],
            "index": s["favor"]["index"], "space": cycle[s["favor"]["index"]],
            "covered": list(s["covers"]["favor"]),
            "demo": bool(game["favor_track"].get("demo"))}


def _sites(s: dict) -> dict:
    cat = s["cat"]
    return {sid: _thing(cat["sites"][sid], sid, owner=owner,
                        material=cat["sites"][sid].get("material"),
                        rent=cat["sites"][sid].get("rent"))
            for sid, owner in s["sites"].items()}


def public_view(s: dict) -> dict:
    """Everything public. Read-only, like the catalog its texts, names and effects are
    shared with: a part made from the same position data as before is the object made
    before (engine/viewparts.py), so the server sees at once what did not change."""
    cat = s["cat"]
    game = cat["game"]
    parts = _PARTS
    seats = parts.same({seat: parts.get(cat, _seat_inputs(s, seat),
                                        lambda seat=seat: _seat(s, seat))
                        for seat in s["seats"]})
    h = head(s)
    view = {
        "game": "wwe",
        "chapter": s["chapter"],
        "round": s["round"],
        "phase": h["kind"] if h else ("over" if s["over"] else None),
        "active": s["active"],
        "turn": h["seat"] if h else None,
        "order": list(s["seats"]),
        "seats": seats,
        "supply": dict(s["supply"]),
        "supply_demo": parts.get(cat, ("supply_demo", list(s["supply"])), lambda: {
            item: bool((game.get("supplies", {}).get(item) or {}).get("demo"))
            for item in s["supply"]}),
        "tax_die": parts.get(cat, "tax_die", lambda: {
            "faces": list(game.get("tax_die", {}).get("faces", [])),
            "demo": bool(game.get("tax_die", {}).get("demo"))}),
        "favor": parts.get(cat, ("favor", s["favor"]["index"], s["covers"]["favor"]),
                           lambda: _favor(s)),
        "council": parts.get(cat, "council", lambda: {
            "side_values": list(game["council"]["side_values"]),
            "demo": bool(game["council"].get("demo"))}),
        "event": event_card(s, s["event"]),
        "rotation": s["rotation"],
        "council_cards": parts.same([event_card(s, c) for c in s["council"]]),
        "permanent": parts.same([event_card(s, c) for c in s["slots"]]),
        "in_force": list(in_force(s)),
        "lost_actions": {} if s["over"] else lost_actions(s),
        "market": {"prices": {i: effects.price(s, i) for i in ("wool", "cloth")},
                   "covered": list(s["covers"]["market"]),
                   "cloth_max": int(game["market"]["cloth_max"])},
        "covers": {k: list(v) for k, v in s["covers"].items()},
        "cover_tiles": int(game.get("cover_tiles", 5)),
        "projects": parts.get(cat, ("projects", s["projects"], s["covers"]["project"]),
                              lambda: _projects(s)),
        "sites": parts.get(cat, ("sites", s["sites"]), lambda: _sites(s)),
        "plague": parts.get(cat, ("plague", s["plague"]), lambda: _plague(s)),
        "tax": s["tax"],
        "duties": (marshal.loads(marshal.dumps(s["duties"]))
                   if h and h["kind"] == "choose_protection" else {}),
        "revealed": {k: list(v) for k, v in s["revealed"].items()},
        "options": parts.get(cat, ("options", s["options"]), lambda: dict(s["options"])),
        "prompts": [p.to_json() for p in prompts(s)],
        "over": s["over"],
        "final": ({k: v / 2 for k, v in s["final"].items()} if s["final"] else None),
        # every player's VP when the game began: where the VP chart's lines start
        "vp_start": int(game.get("start", {}).get("vp", 8)),
        "vp_history": parts.get(cat, ("vp_history", s.get("vp_history", [])),
                                lambda: marshal.loads(marshal.dumps(s.get("vp_history", [])))),
        "version": s["n"],
    }
    return view


def private_view(s: dict, seat: str) -> dict:
    """What the seat view adds to the public view: the seat's own holdings."""
    if seat not in s["players"]:
        return {}
    p = s["players"][seat]
    return {"seat": seat, "private": _PARTS.get(
        s["cat"], ("private", p["res"], p["hand"], p["discards"], p["aside"]), lambda: {
            "resources": dict(p["res"]), "hand": list(p["hand"]),
            "discards": list(p["discards"]), "aside": list(p["aside"]),
            "hand_cards": [_thing(s["cat"]["actions"].get(c), c) for c in p["hand"]]})}


def seat_view(s: dict, seat: str) -> dict:
    return {**public_view(s), **private_view(s, seat)}


def secrets(s: dict) -> dict:
    """What not everyone may see (GameInfo.secrets): each seat's holdings, hand, face-down
    discards and set-aside cards until the game is over (the final standings show them);
    nobody the generator's seed, nor a plague token's value the app dealt face down."""
    out: dict = {None: [("rng", "seed")] + [
        ("plague", loc, "value") for loc, token in s["plague"].items()
        if token["state"] == "hidden" and token["value"] is not None]}
    if not s["over"]:
        for seat in s["players"]:
            out[seat] = [("players", seat, part) for part in ("res", "hand", "discards", "aside")]
    return out


def scores(s: dict) -> list[dict]:
    """Standings: VP (final: with stone, wood and ½ gold), then piety > loyalty > MK."""
    rows = []
    for seat in s["seats"]:
        p = s["players"][seat]
        res = p["res"]
        half = s["final"][seat] if s["final"] else 2 * p["vp"]
        rows.append({"seat": seat, "name": p["name"], "vp": half / 2,
                     "tiebreak": [res["piety"], res["loyalty"], res["mk"]],
                     "final": bool(s["final"])})

    def key(r):
        return (r["vp"], *r["tiebreak"]) if s["final"] else (r["vp"],)

    rows.sort(key=key, reverse=True)
    for i, r in enumerate(rows):
        if i and key(r) == key(rows[i - 1]) and (s["options"]["shared_victory"] or
                                                 not s["final"]):
            r["rank"] = rows[i - 1]["rank"]
        else:
            r["rank"] = i + 1
    if not s["final"]:
        for r in rows:
            r.pop("tiebreak")  # resources are private until the game is over
    return rows


def is_over(s) -> bool:
    return s.get("over") is True


def preview(s, action):
    """Turning the event card: the public part of what the orientation gives (never
    the active seat's own gains, which can reveal hidden counts: King = loyalty)."""
    from engine.wwe import choices as _choices  # choices builds on these views

    if not isinstance(action, dict) or action.get("type") != "orient_event":
        return None
    for prompt in prompts(s):
        if prompt.kind != "orient_event":
            continue
        for choice in _choices.choices(s, prompt.seat):
            if choice.action.get("type") == "orient_event" and \
                    choice.action.get("rotation") == action.get("rotation"):
                return {"action": {"type": "orient_event", "by": prompt.seat,
                                   "rotation": action.get("rotation")},
                        "rotation": action.get("rotation"), "seat": prompt.seat,
                        "effect": choice.effect["public"]}
    return None


__all__ = ["prompts", "public_view", "private_view", "seat_view", "scores", "st", "is_over",
           "preview"]

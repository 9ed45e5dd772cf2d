"""Setup of a World Without End game and the small helpers every rule uses.

The state is plain JSON. It carries ``cat``, an id-indexed copy of the catalog parts the
rules need (built once in setup, never changed afterwards), so `apply` needs no catalog
argument. Everything else in the state is the game position.
"""
from __future__ import annotations

import marshal
import random

from engine.api import Refused
from engine.wwe import options as opts

ITEMS = ("stone", "wood", "grain", "piety", "metal", "wool", "cloth", "loyalty", "mk", "gold")
MATERIALS = ("stone", "wood")
CARD_IDS = ("grain", "piety", "building_material", "building_project", "sell_wool_cloth",
            "privilege", "build_house", "rent", "donation", "weaver", "medicine", "favor")


PLAYER_LISTS = ("hand", "played", "performed", "discards", "houses", "seals", "punish", "aside")
# Parts of the state that are never changed in place after they are made: shared by copies.
SHARED = frozenset(("game", "cat", "options", "seats", "chapter", "round", "active", "event",
                    "rotation", "tax", "over", "final", "n", "duties", "vp_history"))


PLAGUE_VALUES = (1, 2, 3, 4, 5)  # a plague token's values (IT:280, PL:321); a catalog's own
# token set (catalog "plague.tokens") is read instead where it has one


def fast_copy(state: dict) -> dict:
    """A copy of the game position deep enough that rules may change it in place.

    Knows the state's shape (see setup) so it copies only the containers rules mutate and
    shares the immutable parts (the catalog above all). Unknown keys are deep-copied, so a
    new key is safe before it is listed here. Much faster than copy.deepcopy."""
    out = dict(state)  # the shared parts (and every key's place) as they are
    for key, how in _COPIES:
        if key in out:
            out[key] = how(out[key])
    for key in state.keys() - _KNOWN:
        out[key] = marshal.loads(marshal.dumps(state[key]))
    return out


def _copy_players(players: dict) -> dict:
    out = {}
    for seat, p in players.items():
        q = dict(p)
        q["res"] = dict(p["res"])
        for k in PLAYER_LISTS:
            q[k] = list(p[k])
        out[seat] = q
    return out


def _lists_in(value: dict) -> dict:
    return {k: list(x) for k, x in value.items()}


def _dicts_in(value: dict) -> dict:
    return {k: dict(x) for k, x in value.items()}


# The containers rules change in place, each with how `fast_copy` copies it.
_COPIES = (("players", _copy_players),
           *((key, dict) for key in ("supply", "favor", "prices", "price_mods", "sites", "rng")),
           ("covers", _lists_in), ("revealed", _lists_in),
           *((key, _dicts_in) for key in ("plague", "targets", "round_flags")),
           ("projects", lambda v: {k: {**x, "seals": list(x["seals"])} for k, x in v.items()}),
           *((key, list) for key in ("council", "slots", "round_mods", "round_trades")),
           ("queue", lambda v: [{**step, "seats": list(step["seats"])} if "seats" in step
                                else dict(step) for step in v]))
_KNOWN = SHARED | {key for key, _how in _COPIES}


# What an event card's reveal or orientation never changes (up to the next decision): the
# players' action-card piles, the generator, the printed prices and the filed events (the
# reveal fills `revealed`, the round's end files it). `event_copy` shares them.
EVENT_UNTOUCHED = frozenset(("rng", "prices", "council", "slots"))
CARD_PILES = ("hand", "played", "performed", "discards", "punish", "aside")


def event_copy(state: dict) -> dict:
    """`fast_copy` for trying an event card's reveal or orientation (engine/wwe/choices.py):
    the same copy but for what those never change (`EVENT_UNTOUCHED`, each player's
    `CARD_PILES`), shared with ``state``. tests/engine/test_choices_performed.py checks that
    the choices leave every state they are asked about unchanged."""
    out = dict(state)
    for key, how in _COPIES:
        if key in out and key not in EVENT_UNTOUCHED:
            out[key] = how(out[key]) if key != "players" else _copy_holdings(out[key])
    for key in state.keys() - _KNOWN:
        out[key] = marshal.loads(marshal.dumps(state[key]))
    return out


def _copy_holdings(players: dict) -> dict:
    """Each player's resources, VP, houses and seals copied; the card piles shared."""
    return {seat: dict(p, res=dict(p["res"]), houses=list(p["houses"]),
                       seals=list(p["seals"])) for seat, p in players.items()}


def _entries(part) -> list:
    """Catalog files may hold a list of entries, {"<key>": [...]}, or {id: entry}."""
    if isinstance(part, list):
        return part
    if isinstance(part, dict):
        for value in part.values():
            if isinstance(value, list) and value and isinstance(value[0], dict):
                return value
        return [dict(v, id=k) if "id" not in v else v
                for k, v in part.items() if isinstance(v, dict)]
    return []


def index_catalog(catalog: dict) -> dict:
    """The id-indexed catalog the rules read (plain JSON; plague ids become strings)."""
    game = catalog["game"]
    plague = catalog.get("plague", {})
    locations = plague.get("locations") if isinstance(plague, dict) else None
    if locations is None:
        locations = _entries(plague)
    game = dict(game)
    if isinstance(plague, dict) and "cure_vp" in plague:
        game["cure_vp"] = plague["cure_vp"]
    return {
        "game": game,
        "actions": {e["id"]: e for e in _entries(catalog.get("action_cards", []))},
        "events": {e["id"]: e for e in _entries(catalog.get("event_cards", []))},
        "projects": {e["id"]: e for e in _entries(catalog.get("projects", []))},
        "sites": {e["id"]: e for e in _entries(catalog.get("building_sites", []))},
        "plague": {str(e["id"]): e for e in locations},
        "plague_tokens": list(plague.get("tokens", [])) if isinstance(plague, dict) else [],
        "plague_tokens_demo": bool(plague.get("tokens_demo", True))
        if isinstance(plague, dict) else True,
    }


def new_game(catalog: dict, setup: dict) -> dict:
    """A new game: players at their seats, starting resources, board as in §2 (S1-S17);
    flow.setup starts its first chapter."""
    if not isinstance(setup, dict):
        raise Refused("bad_setup", reason="setup must be an object")
    cat = index_catalog(catalog)
    game = cat["game"]
    all_seats = list(game["seats"])
    players = setup.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise Refused("bad_setup", reason="2 to 4 players")
    seats: list[str] = []
    info = {}
    for p in players:
        seat = p.get("seat") if isinstance(p, dict) else None
        if seat not in all_seats or seat in seats:
            raise Refused("bad_setup", reason=f"bad or repeated seat {seat!r}")
        colour = p.get("colour")
        colours = game.get("colours") or {}
        if colour is not None and (colour not in colours if colours else not
                                   isinstance(colour, str)):
            raise Refused("bad_setup", reason=f"unknown colour {colour!r}")
        if colour is not None and colour in [i["colour"] for i in info.values()]:
            raise Refused("bad_setup", reason=f"colour {colour!r} taken twice")
        seats.append(seat)
        info[seat] = {"name": str(p.get("name") or seat)[:40], "colour": colour}
    order = [s for s in all_seats if s in seats]  # clockwise
    options = opts.resolve(setup.get("options"))
    if "first_game" in setup:
        options["first_game"] = bool(setup["first_game"])
    seed = setup.get("seed", 0)
    if not isinstance(seed, (int, str)):
        raise Refused("bad_setup", reason="seed must be a number or text")
    start_seat = setup.get("start_seat", order[0])
    if start_seat not in order:
        raise Refused("bad_setup", reason="start seat is not taken")

    supply = {}
    for item in ITEMS:
        spec = game.get("supplies", {}).get(item)
        supply[item] = spec.get("size") if isinstance(spec, dict) else None
    start = game.get("start", {"vp": 8, "wool": 1, "gold": 2})
    state = {
        "game": "wwe",
        "cat": cat,
        "options": options,
        "rng": {"seed": seed, "n": 0},
        "seats": order,
        "players": {},
        "supply": supply,
        "chapter": 1,
        "round": 1,
        "active": start_seat,
        "favor": {"index": int(game["favor_track"].get("start", 0))},
        "covers": {"favor": [], "market": ["cloth"], "project": []},
        "prices": {"wool": game["market"].get("wool", 2), "cloth": game["market"].get("cloth", 4)},
        "projects": {},
        "sites": {sid: None for sid in cat["sites"]},
        "plague": {},
        "event": None,
        "council": [],
        "slots": [],
        "revealed": {"1": [], "2": [], "3": [], "4": []},
        "targets": {},
        "price_mods": {},
        "round_mods": [],
        "round_trades": [],
        "round_flags": {},
        "rotation": None,
        "duties": {},
        "tax": None,
        "queue": [],
        "over": False,
        "final": None,
        "n": 0,
        "vp_history": [],
    }
    for seat in order:
        res = {item: 0 for item in ITEMS}
        player = {**info[seat], "vp": 0, "res": res, "hand": [], "played": [],
                  "performed": [], "discards": [], "houses": [], "seals": [],
                  "punish": [], "aside": []}
        state["players"][seat] = player
        player["vp"] = int(start.get("vp", 8))
        for item, n in start.items():
            if item != "vp":
                give(state, seat, item, int(n))
    for pid, proj in cat["projects"].items():
        if proj.get("at_start"):
            state["projects"][pid] = new_project()
    for seat in order:
        deal_hand(state, seat)
    return state


def new_project() -> dict:
    return {"stone": 0, "wood": 0, "substitutes": 0, "spire": None, "seals": [],
            "complete": False}


def deal_hand(state: dict, seat: str) -> None:
    """All 12 cards back into hand (R4.2.1); first game chapter I: only the starred six."""
    player = state["players"][seat]
    cards = list(state["cat"]["actions"]) or list(CARD_IDS)
    if state["options"]["first_game"] and state["chapter"] == 1:
        starred = [c for c in cards if state["cat"]["actions"].get(c, {}).get("starred")]
        player["aside"] = [c for c in cards if c not in starred]
        cards = starred
    else:
        player["aside"] = []
    player["hand"] = cards
    player["played"] = []
    player["performed"] = []
    player["discards"] = []


def twelve_card_mode(state: dict) -> bool:
    return not (state["options"]["first_game"] and state["chapter"] == 1)


def rng(state: dict) -> random.Random:
    """The seeded generator for app-made randomness; each use advances the counter."""
    state["rng"]["n"] += 1
    return random.Random(f"{state['rng']['seed']}:{state['rng']['n']}")


def available(state: dict, item: str) -> int | None:
    """How many of ``item`` the supply holds (None = unlimited)."""
    return state["supply"].get(item)


def take(state: dict, item: str, n: int) -> int:
    """Take up to ``n`` from the supply; returns how many were taken."""
    have = state["supply"].get(item)
    if have is None:
        return n
    got = max(0, min(have, n))
    state["supply"][item] = have - got
    return got


def give(state: dict, seat: str, item: str, n: int) -> int:
    """Give a player up to ``n`` of ``item`` from the supply; returns how many were given."""
    got = take(state, item, n)
    state["players"][seat]["res"][item] += got
    return got


def gain_items(state: dict, seat: str, items: dict, events: list, reason: str) -> None:
    """An event's or modifier's gift: VP on the track, items from the supply while it lasts
    (no 1-VP substitute: that is only for event-card income, R3.4.4)."""
    for item, n in items.items():
        if item == "vp":
            add_vp(state, seat, int(n), events, reason)
        else:
            got = give(state, seat, item, int(n))
            if got:  # an empty supply gives nothing, and the log says nothing
                events.append({"type": "gain", "seat": seat, "item": item, "amount": got,
                               "reason": reason})


def return_to_supply(state: dict, seat: str, item: str, n: int) -> int:
    """A player returns up to ``n`` of ``item`` to the supply (IT:314); returns the amount."""
    res = state["players"][seat]["res"]
    paid = max(0, min(res[item], n))
    res[item] -= paid
    if state["supply"].get(item) is not None:
        state["supply"][item] += paid
    return paid


def add_vp(state: dict, seat: str, delta: int, events: list, reason: str) -> int:
    """Change VP, never below 0 (R8.5); returns the actual change."""
    player = state["players"][seat]
    before = player["vp"]
    player["vp"] = max(0, before + delta)
    change = player["vp"] - before
    if change:  # nothing changed (no VP left to lose): nothing to log
        events.append({"type": "vp", "seat": seat, "delta": change, "reason": reason})
    return change


def clockwise_from(state: dict, seat: str) -> list[str]:
    order = state["seats"]
    i = order.index(seat)
    return order[i:] + order[:i]


def next_seat(state: dict, seat: str) -> str:
    order = state["seats"]
    return order[(order.index(seat) + 1) % len(order)]


def seat_of_rotation(state: dict, position: int, rotation: int) -> str:
    """Which table side card position ``position`` faces under ``rotation`` (Appendix 3)."""
    sides = state["cat"]["game"]["seats"]
    return sides[(position + rotation) % 4]


def favor_value(state: dict, card: dict, rotation: int) -> int:
    values = state["cat"]["game"]["council"]["side_values"]
    return int(values[(int(card.get("arrow", 0)) + rotation) % 4])


def project_capacity(state: dict, pid: str) -> dict:
    spec = state["cat"]["projects"][pid]
    return {"stone": int(spec.get("stone", 0)), "wood": int(spec.get("wood", 0))}


def project_open(state: dict, pid: str) -> dict:
    """Empty stone/wood spaces of a project on the board."""
    spec = state["cat"]["projects"][pid]  # project_capacity's, inline (asked very often)
    proj = state["projects"][pid]
    return {m: int(spec.get(m, 0)) - proj[m] for m in MATERIALS}

"""The catalog of The Pillars of the Earth: JSON Schemas, the game's fact checks, the index.

Parts (one file each in engine/pillars/data/): craftsmen, materials, privileges, events
(lists of entries by ``id``) and board (one object). What the rulebook states is shipped as
fact; everything it does not give (rules reference §15) is demo data marked ``"demo": true``
per entry, replaceable by the owner. `demo_entries` lists what is still demo.
"""
from __future__ import annotations

import json
from functools import partial
from importlib import resources

from engine.api import CatalogPart, catalog_problem, choice_schema

LANGS = ("en", "it", "pl", "es", "de")
ID = {"type": "string", "pattern": "^[a-z][a-z0-9_]*$", "title": "Id"}
NAMES = {"type": "object", "required": ["en"], "additionalProperties": {"type": "string"},
         "propertyNames": {"enum": list(LANGS)}, "title": "Name"}
COUNT = {"type": "integer", "minimum": 0, "maximum": 100}
# A property's "title" labels its field on the owner's deck page (translated in the game's
# domain); a "oneOf" of consts with titles is a choice list there.
_ITEM_TITLES = {"wood": "Wood", "stone": "Stone", "sand": "Sand", "metal": "Metal",
                "gold": "Gold", "vp": "VP"}
ITEMS = {"type": "object", "additionalProperties": COUNT,
         "propertyNames": {"enum": list(_ITEM_TITLES)},
         "properties": {k: {**COUNT, "title": v} for k, v in _ITEM_TITLES.items()}}


def _titled(schema: dict, title: str) -> dict:
    return {**schema, "title": title}


CUBE = choice_schema({k: _ITEM_TITLES[k] for k in ("wood", "stone", "sand")}, "Cube")
S2020 = "https://json-schema.org/draft/2020-12/schema"


def _list(title, props, required):
    return {"$schema": S2020, "title": title, "type": "array",
            "items": {"type": "object", "required": required, "additionalProperties": False,
                      "properties": {**props, "demo": {"type": "boolean"}}}}


CRAFTSMEN = _list("Pillars: craftsman cards", {
    "id": ID, "type": _titled(ID, "Craftsman (id of the kind)"), "names": NAMES,
    "start": {"type": "boolean", "title": "Dealt at the start"},
    "colour": choice_schema({"blue": "Blue", "red": "Red", "green": "Green", "yellow": "Yellow"},
                    "Colour"),
    "round": {"type": "integer", "minimum": 0, "maximum": 6, "title": "Round (0: the start)"},
    "cost": _titled(COUNT, "Cost in gold"),
    "input": _titled(ITEMS, "Takes (each use)"), "output": _titled(ITEMS, "Gives (each use)"),
    "requires": _titled(ITEMS, "Needs in stock"),
    "capacity": {"type": "integer", "minimum": 1, "maximum": 10, "title": "Uses a round"},
    "needs": _titled(ID, "Works only with (kind)"),
}, ["id", "type", "names", "start", "round", "cost", "input", "output", "capacity"])
MATERIALS = _list("Pillars: building material cards", {
    "id": ID, "cube": CUBE,
    "yield": {"type": "integer", "minimum": 1, "maximum": 10, "title": "Cubes"},
    "workers": {"type": "integer", "minimum": 1, "maximum": 20, "title": "Workers needed"},
    "names": NAMES,
}, ["id", "cube", "yield", "workers", "names"])
PRIVILEGES = _list("Pillars: privilege cards", {
    "id": ID, "names": NAMES, "final": {"type": "boolean", "title": "Round 6 privilege"},
    "kind": choice_schema({"immediate": "At once", "patron": "Every round (patron)",
                   "tax_exemption": "Tax exemption", "worker": "Extra workers"}, "Kind"),
    "gain": _titled(ITEMS, "Gives"), "cube": CUBE,
}, ["id", "names", "kind"])
EVENTS = _list("Pillars: event cards", {
    "id": ID, "names": NAMES, "positive": {"type": "boolean", "title": "Good news"},
    "effect": choice_schema({"pay_gold": "Everybody pays gold", "gain": "Everybody gains",
                     "lose": "Everybody loses", "architect_limit": "Architects limited"},
                    "Effect"),
    "amount": _titled(COUNT, "Gold"), "items": _titled(ITEMS, "Items"),
    "limit": {"type": "integer", "minimum": 0, "maximum": 3, "title": "Architects a player"},
}, ["id", "names", "positive", "effect"])
LOCATION = {"type": "object", "required": ["id", "step", "spaces", "names"],
            "additionalProperties": False,
            "properties": {"id": {"enum": ["bishop", "kingsbridge", "prior", "court", "shiring",
                                           "castle", "market", "cathedral"]},
                           "step": {"type": "integer", "minimum": 1, "maximum": 14},
                           "spaces": {"type": "integer", "minimum": 1, "maximum": 6},
                           "names": NAMES, "demo": {"type": "boolean"},
                           "vp": {"type": "array", "items": COUNT},
                           "metal_space": {"type": "integer", "minimum": 1, "maximum": 6}}}
POS = {"type": "integer", "minimum": 1, "maximum": 100}
_PRICE = {"type": "object", "additionalProperties": False, "required": ["sell"],
          "properties": {"buy": {**POS, "title": "Buy for"}, "sell": {**POS, "title": "Sell for"}}}
BOARD = {"$schema": S2020, "title": "Pillars: board and game facts", "type": "object",
         "additionalProperties": False,
         "required": ["locations", "cubes", "prices", "tax_die", "start_gold", "start_vp",
                      "worker_units", "gold_cap", "market_stock", "craftsman_limit",
                      "storage_limit", "architects_per_player", "grey_workers",
                      "grey_per_visit", "rounds", "costs", "privileges_per_round",
                      "events_used", "privileges_removed", "supply_materials",
                      "shiring_craftsmen", "supply_craftsmen", "shortfall_per_vp"],
         "properties": {
             "locations": {"type": "array", "items": LOCATION, "minItems": 8, "maxItems": 8},
             "cubes": {"type": "object", "required": ["wood", "stone", "sand", "metal"],
                       "additionalProperties": False,
                       "properties": {"wood": POS, "stone": POS, "sand": POS, "metal": POS,
                                      "demo": {"type": "boolean"}}},
             "prices": {"type": "object", "required": ["wood", "stone", "sand", "metal"],
                        "properties": {c: {**_PRICE, "title": t} for c, t in (
                            ("wood", "Wood"), ("stone", "Stone"), ("sand", "Sand"),
                            ("metal", "Metal"))},
                        "additionalProperties": _PRICE},
             "tax_die": {"type": "object", "required": ["faces"],
                         "properties": {"faces": {"type": "array", "items": COUNT,
                                                  "minItems": 6, "maxItems": 6}}},
             "costs": {"type": "array", "items": COUNT, "minItems": 1, "maxItems": 12},
             **{k: COUNT for k in ("start_gold", "start_vp", "worker_units", "gold_cap",
                                   "market_stock", "craftsman_limit", "storage_limit",
                                   "architects_per_player", "grey_workers", "grey_per_visit",
                                   "rounds", "privileges_per_round", "events_used",
                                   "privileges_removed", "supply_materials",
                                   "shiring_craftsmen", "supply_craftsmen",
                                   "shortfall_per_vp")}}}

PARTS = (
    CatalogPart("craftsmen", CRAFTSMEN, title="Craftsman cards", stickers="craftsman"),
    CatalogPart("materials", MATERIALS, title="Building material cards", stickers="material"),
    CatalogPart("privileges", PRIVILEGES, title="Privilege cards", stickers="privilege"),
    CatalogPart("events", EVENTS, title="Event cards", stickers="event"),
    CatalogPart("board", BOARD, merge="deep", title="Board and game facts"),
)
SCHEMAS = {p.id: p.schema for p in PARTS}


def load_shipped() -> dict:
    """The shipped catalog: part id -> the parsed JSON of engine/pillars/data/<id>.json."""
    base = resources.files("engine.pillars.data")
    return {p.id: json.loads((base / f"{p.id}.json").read_text(encoding="utf-8"))
            for p in PARTS}


def schema_problems(catalog: dict) -> list:
    """Every JSON Schema violation as a problem {file, entry, field, code, params}."""
    import jsonschema

    out = []
    for part in PARTS:
        data = catalog.get(part.id)
        validator = jsonschema.Draft202012Validator(part.schema)
        for err in validator.iter_errors(data):
            path = list(err.absolute_path)
            entry = ""
            if path and isinstance(path[0], int) and isinstance(data, list):
                item = data[path[0]]
                entry = item.get("id", str(path[0])) if isinstance(item, dict) else str(path[0])
                path = path[1:]
            out.append({"file": f"{part.id}.json", "entry": entry,
                        "field": ".".join(map(str, path)), "code": "schema",
                        "params": {"message": err.message[:200]}})
    return out


problem = partial(catalog_problem, None)  # the app's texts.catalog words them


def check_catalog(catalog: dict) -> list:
    """The game's own fact checks (the app runs the schemas first): counts, ids, facts the
    rulebook states. Never raises on a catalog the schemas reject."""
    try:
        return _check(catalog)
    except (TypeError, AttributeError, KeyError, ValueError) as exc:
        return [problem("(catalog)", "", "", "schema", message=f"{type(exc).__name__}: {exc}")]


def _check(catalog: dict) -> list:
    out = []
    parts = {}
    for pid in ("craftsmen", "materials", "privileges", "events"):
        data = catalog.get(pid)
        if not isinstance(data, list):
            out.append(problem(f"{pid}.json", "", "", "not_a_list"))
            parts[pid] = []
            continue
        seen = set()
        for e in data:
            if not isinstance(e, dict):
                continue
            if e.get("id") in seen:
                out.append(problem(f"{pid}.json", str(e.get("id")), "id", "duplicate_id"))
            seen.add(e.get("id"))
        parts[pid] = [e for e in data if isinstance(e, dict)]
    crafts, mats, privs, evs = (parts[k] for k in ("craftsmen", "materials", "privileges",
                                                   "events"))
    b = catalog.get("board") if isinstance(catalog.get("board"), dict) else {}
    rounds = b.get("rounds", 6)
    for colour in ("blue", "red", "green", "yellow"):
        types = sorted(str(c.get("type")) for c in crafts if c.get("start") and
                       c.get("colour") == colour)
        if types != ["carpenter", "mortar_mixer", "stone_carver"]:
            out.append(problem("craftsmen.json", colour, "colour", "starting_craftsmen",
                          colour=colour))
    # a round count the schema refuses (10^20) is named by the schema, not counted out here
    counted = rounds if type(rounds) is int and 0 <= rounds <= COUNT["maximum"] else 0
    for r in range(1, counted + 1):
        n = sum(1 for c in crafts if not c.get("start") and c.get("round") == r)
        if n != 4:
            out.append(problem("craftsmen.json", f"round {r}", "round", "round_count", round=r,
                          count=n, need=4))
    types = {c.get("type") for c in crafts}
    for c in crafts:
        if c.get("needs") and c["needs"] not in types:
            out.append(problem("craftsmen.json", c.get("id", ""), "needs", "unknown_type",
                          type=c["needs"]))
        if c.get("type") == "carpenter" and (c.get("input") != {"wood": 2} or
                                             c.get("output") != {"vp": 1} or
                                             c.get("capacity") != 4):
            out.append(problem("craftsmen.json", c.get("id", ""), "input", "stated_fact",
                          fact="Carpenter: 2 wood -> 1 VP, capacity 4"))
    if len(mats) != 9:
        out.append(problem("materials.json", "", "", "count", count=len(mats), need=9))
    for cube in ("wood", "stone", "sand"):
        ys = sorted(m.get("yield") for m in mats if m.get("cube") == cube
                    and type(m.get("yield")) is int)
        if ys != [2, 3, 4]:
            out.append(problem("materials.json", cube, "yield", "yields", cube=cube))
    finals = [p for p in privs if p.get("final")]
    if len(privs) != 16 or len(finals) != 2:
        out.append(problem("privileges.json", "", "final", "count", count=len(privs), need=16))
    for p in privs:
        if p.get("kind") == "immediate" and not p.get("gain"):
            out.append(problem("privileges.json", p.get("id", ""), "gain", "missing_field"))
        if p.get("kind") == "patron" and not p.get("cube"):
            out.append(problem("privileges.json", p.get("id", ""), "cube", "missing_field"))
    if len(evs) != 10:
        out.append(problem("events.json", "", "", "count", count=len(evs), need=10))
    need = {"pay_gold": "amount", "gain": "items", "lose": "items", "architect_limit": "limit"}
    for e in evs:
        f = need.get(e.get("effect"))
        if f and f not in e:
            out.append(problem("events.json", e.get("id", ""), f, "missing_field"))
    if b:
        per_round = b.get("privileges_per_round", 2)
        deck = len(privs) - len(finals) - b.get("privileges_removed", 4)
        if deck != per_round * (rounds - 1):
            out.append(problem("board.json", "", "privileges_removed", "deck_size", deck=deck))
        if sorted(b.get("tax_die", {}).get("faces", [])) != [2, 3, 3, 4, 4, 5]:
            out.append(problem("board.json", "", "tax_die.faces", "stated_fact",
                          fact="the tax die shows 2, 3, 3, 4, 4, 5"))
        total = sum(m.get("workers", 0) for m in mats)
        if total > 2 * b.get("worker_units", 12) + 4 * b.get("worker_units", 12):
            out.append(problem("materials.json", "", "workers", "too_many_workers"))
    return out


def demo_entries(catalog: dict) -> list:
    """What is still demo data: [{"file", "entry", "fields"}] (fields None: the whole entry)."""
    out = []
    for pid in ("craftsmen", "materials", "privileges", "events"):
        for e in catalog.get(pid) or []:
            if isinstance(e, dict) and e.get("demo"):
                out.append({"file": f"{pid}.json", "entry": e.get("id", ""), "fields": None})
    b = catalog.get("board") or {}
    for loc in b.get("locations", []):
        if isinstance(loc, dict) and loc.get("demo"):
            out.append({"file": "board.json", "entry": f"locations.{loc.get('id')}",
                        "fields": ["spaces"]})
    if isinstance(b.get("cubes"), dict) and b["cubes"].get("demo"):
        out.append({"file": "board.json", "entry": "cubes", "fields": None})
    return out


def index(catalog: dict) -> dict:
    """What a state carries under state["cat"]: the catalog indexed by id (plain JSON)."""
    crafts = {c["id"]: c for c in catalog["craftsmen"]}
    b = catalog["board"]
    by_round: dict = {}
    start: dict = {}
    for c in catalog["craftsmen"]:
        if c["start"]:
            start.setdefault(c["colour"], []).append(c["id"])
        else:
            by_round.setdefault(str(c["round"]), []).append(c["id"])
    privs = {p["id"]: p for p in catalog["privileges"]}
    return {
        "craftsmen": crafts, "start_craftsmen": start, "craftsmen_by_round": by_round,
        "materials": {m["id"]: m for m in catalog["materials"]},
        "privileges": privs,
        "deck_privileges": [p["id"] for p in catalog["privileges"] if not p.get("final")],
        "final_privileges": [p["id"] for p in catalog["privileges"] if p.get("final")],
        "events": {e["id"]: e for e in catalog["events"]},
        "locations": {loc["id"]: loc for loc in b["locations"]},
        "cubes": {k: v for k, v in b["cubes"].items() if k != "demo"},
        "board": {k: v for k, v in b.items() if k not in ("locations", "cubes")},
    }

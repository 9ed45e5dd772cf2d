"""Monasterium's catalog: JSON Schemas, the game's checks, what is still demo.

Parts (engine/monasterium/data/): board (monasteries with their buildings, cloister spaces
and adjacency, the road with its connections and bonus spaces, the window's points, counts),
actions (the player board: the standard action of each column and the alternatives of rows
I-III) and missions (15). The rulebook reached us through OCR without its icons, so nearly
all of it is demo data (rules reference §15) until the owner enters their box.
"""
from __future__ import annotations

from engine.api import CatalogPart

S2020 = "https://json-schema.org/draft/2020-12/schema"
NAMES = {"type": "object", "required": ["en"], "additionalProperties": {"type": "string"}}
RES = ["influence", "soup", "rosary", "tool", "book"]
COUNT = {"type": "integer", "minimum": 0, "maximum": 100}
EFFECT = {"type": "object", "required": ["kind"], "properties": {
    "kind": {"enum": ["send", "gain", "messenger", "swap", "two_of_kind", "prestige", "glass"]},
    "items": {}, "steps": {"type": "integer", "minimum": 1, "maximum": 6},
    "pairs": {"type": "array"}, "amount": {"type": "integer", "minimum": 1, "maximum": 10},
    "discount": {"type": "integer", "minimum": 0, "maximum": 3}}}
COLUMN_EFFECTS = {"type": "object", "required": ["A", "B", "C", "D", "E"],
                  "additionalProperties": False,
                  "properties": {c: EFFECT for c in "ABCDE"}}
BOARD = {"$schema": S2020, "title": "Monasterium: board", "type": "object",
         "required": ["monasteries", "road", "window", "neutral_per_player", "glass_per_player",
                      "start_resources"],
         "properties": {
             "monasteries": {"type": "array", "minItems": 5, "maxItems": 5, "items": {
                 "type": "object", "required": ["id", "buildings", "cloister"],
                 "properties": {"id": {"enum": list("ABCDE")}, "names": NAMES,
                                "buildings": {"type": "array", "items": {
                                    "type": "object", "required": ["id", "type", "cloister"],
                                    "properties": {"type": {"enum": ["lay", "workshop",
                                                                     "hall"]}}}},
                                "cloister": {"type": "array", "items": {"type": "string"}},
                                "blocked_3p": {"type": "array"}, "demo": {"type": "boolean"}}}},
             "road": {"type": "object", "required": ["spaces"]},
             "window": {"type": "object", "required": ["rows", "columns"]},
             "neutral_per_player": {"type": "object"}, "glass_per_player": COUNT,
             "start_resources": {"type": "object"},
             "resources": {"type": "object", "title": "Resource pieces in the box",
                           "properties": {**{r: COUNT for r in RES},
                                          "limited": {"type": "boolean"},
                                          "demo": {"type": "boolean"}}}}}
ACTIONS = {"$schema": S2020, "title": "Monasterium: player board actions", "type": "object",
           "required": ["standard", "I", "II", "III"],
           "properties": {"standard": COLUMN_EFFECTS, "I": COLUMN_EFFECTS, "II": COLUMN_EFFECTS,
                          "III": COLUMN_EFFECTS, "columns": {"type": "array"},
                          "demo": {"type": "boolean"}}}
def _pick(titles: dict, title: str) -> dict:
    """A choice list on the deck page: the titles shown, the values kept."""
    return {"title": title, "oneOf": [{"const": k, "title": v} for k, v in titles.items()]}


MISSIONS = {"$schema": S2020, "title": "Monasterium: missions", "type": "array",
            "items": {"type": "object", "required": ["id", "type", "points"],
                      "properties": {
                          "id": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$",
                                 "title": "Id"},
                          "names": {**NAMES, "title": "Name"},
                          "type": _pick({"A": "A: buildings, paid by the year",
                                         "B": "B: novices, paid by the year",
                                         "C": "C: a goal, any time"}, "Type"),
                          "monastery": _pick({m: f"Monastery {m}" for m in "ABCDE"},
                                             "Monastery"),
                          "area": _pick({"building": "Buildings", "chapel": "The chapel",
                                         "cloister": "The cloister", "any": "Anywhere"},
                                        "Where"),
                          "count": {"type": "integer", "minimum": 1, "maximum": 10,
                                    "title": "Novices"},
                          "condition": _pick({"sent_12": "At least 12 novices sent",
                                              "halls_3": "3 novices in common halls",
                                              "cloisters_6": "6 novices in cloisters",
                                              "window_5": "Stained glass of all 5 monasteries",
                                              "dice_3": "3 personal dice"}, "Goal (type C)"),
                          "points": {"title": "Prestige (A and B: by year, e.g. [6, 4, 2])"},
                          "demo": {"type": "boolean"}}}}
PARTS = (
    CatalogPart("board", BOARD, merge="deep", title="Board and game facts"),
    CatalogPart("actions", ACTIONS, merge="deep", title="Player board actions"),
    CatalogPart("missions", MISSIONS, title="Mission cards"),
)
REASONS = {"mission_count": "{type} missions: {found}, at least 2 needed",
           "unknown_space": "{space} is not a space of this monastery"}


def _p(file, entry, field, code, **params) -> dict:
    return {"file": file, "entry": entry, "field": field, "code": code, "params": params,
            "reason": f"{code}: {REASONS[code].format(**params)}"}


def check_catalog(catalog: dict) -> list:
    """Facts the schemas cannot say: 2 missions of each type to draw, cloister adjacency
    naming the monastery's own cloister spaces."""
    out = []
    try:
        missions = catalog.get("missions") or []
        for t in ("A", "B", "C"):
            n = sum(1 for m in missions if isinstance(m, dict) and m.get("type") == t)
            if n < 2:
                out.append(_p("missions.json", None, "type", "mission_count", type=t, found=n))
        for m in (catalog.get("board") or {}).get("monasteries", []):
            spaces = set(m.get("cloister", []))
            for b in m.get("buildings", []):
                for c in b.get("cloister", []):
                    if c not in spaces:
                        out.append(_p("board.json", m.get("id"), "cloister", "unknown_space",
                                      space=str(c)))
    except (TypeError, AttributeError):
        return out
    return out


def demo_entries(catalog: dict) -> list:
    out = []
    b = catalog.get("board") or {}
    for m in b.get("monasteries", []):
        if isinstance(m, dict) and m.get("demo"):
            out.append({"file": "board.json", "entry": f"monasteries.{m.get('id')}",
                        "fields": None})
    for key in ("road", "window"):
        if isinstance(b.get(key), dict) and b[key].get("demo"):
            out.append({"file": "board.json", "entry": key, "fields": None})
    if isinstance(catalog.get("actions"), dict) and catalog["actions"].get("demo"):
        out.append({"file": "actions.json", "entry": "actions", "fields": None})
    for m in catalog.get("missions") or []:
        if isinstance(m, dict) and m.get("demo"):
            out.append({"file": "missions.json", "entry": m.get("id"), "fields": None})
    return out

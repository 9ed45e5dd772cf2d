"""Monasterium's catalog: JSON Schemas, the game's checks, what is still demo.

Parts (engine/monasterium/data/): board (monasteries with their buildings, cloister spaces
and adjacency, the road with its connections and bonus spaces, the window's points, counts),
actions (the player board: the standard action of each column and the alternatives of rows
I-III) and missions (15). The rulebook reached us through OCR without its icons, so nearly
all of it is demo data (rules reference §15) until the owner enters their box.
"""
from __future__ import annotations

from functools import partial

from engine.api import DIE_COLOURS, CatalogPart, catalog_problem, choice_schema

S2020 = "https://json-schema.org/draft/2020-12/schema"
NAMES = {"type": "object", "required": ["en"], "additionalProperties": {"type": "string"}}
RES = ["influence", "soup", "rosary", "tool", "book"]
COUNT = {"type": "integer", "minimum": 0, "maximum": 100}
_RES_TITLES = {"influence": "Influence", "soup": "Soup", "rosary": "Rosary", "tool": "Tool",
               "book": "Book"}
EFFECT = {"type": "object", "required": ["kind"], "properties": {
    "kind": choice_schema({"send": "Send a novice", "gain": "Gain resources",
                           "messenger": "Move the messenger", "swap": "Swap resources",
                           "two_of_kind": "Two of one kind", "prestige": "Gain prestige",
                           "glass": "A stained-glass tile"}, "What it does"),
    "items": {"title": "Resources", "oneOf": [
        {"type": "object", "title": "These counts", "properties": {
            r: {**COUNT, "minimum": 1, "title": t} for r, t in _RES_TITLES.items()}},
        {"type": "array", "title": "Any of these", "items": choice_schema(_RES_TITLES)}]},
    "steps": {"type": "integer", "minimum": 1, "maximum": 6, "title": "Messenger steps"},
    "pairs": {"type": "array", "title": "Swaps", "items": {
        "type": "array", "minItems": 2, "maxItems": 2, "title": "Give, then get",
        "items": choice_schema(_RES_TITLES)}},
    "amount": {"type": "integer", "minimum": 1, "maximum": 10, "title": "How many"},
    "discount": {"type": "integer", "minimum": 0, "maximum": 3, "title": "Discount"}}}
COLUMN_EFFECTS = {"type": "object", "required": ["A", "B", "C", "D", "E"],
                  "additionalProperties": False,
                  "properties": {c: EFFECT for c in "ABCDE"}}
_MONASTERY = choice_schema({m: f"Monastery {m}" for m in "ABCDE"})
_BAG = {"type": "object", "properties": {r: {**COUNT, "title": t} for r, t in _RES_TITLES.items()}}
_BONUS = {"type": "object", "properties": {**_BAG["properties"], "messenger": {
    **COUNT, "title": "Messenger steps"}}}
_PLACES = {"type": "array", "items": {"type": "string"}}
_COUNTS = {"type": "array", "items": COUNT}
_KINDS = {"lay": "lay building", "workshop": "workshop", "hall": "common hall"}
BOARD = {"$schema": S2020, "title": "Monasterium: board", "type": "object",
         "required": ["monasteries", "road", "window", "neutral_per_player", "glass_per_player",
                      "start_resources"],
         "properties": {
             "monasteries": {"type": "array", "minItems": 5, "maxItems": 5, "title": "Monasteries",
                             "items": {
                 "type": "object", "required": ["id", "buildings", "cloister"],
                 "properties": {"id": {**_MONASTERY, "title": "Monastery"},
                                "names": {**NAMES, "title": "Name"},
                                "buildings": {"type": "array", "title": "Buildings", "items": {
                                    "type": "object", "required": ["id", "type", "cloister"],
                                    "properties": {
                                        "id": {"type": "string", "title": "Id"},
                                        "type": choice_schema(_KINDS, "Kind"),
                                        "cloister": {**_PLACES,
                                                     "title": "Cloister spaces it touches"}}}},
                                "cloister": {**_PLACES, "title": "Cloister spaces"},
                                "blocked_3p": {**_PLACES, "title": "Blocked with 3 players"},
                                "demo": {"type": "boolean"}}}},
             "road": {"type": "object", "required": ["spaces"], "title": "Road", "properties": {
                 "spaces": {"type": "array", "title": "Road spaces", "items": {
                     "type": "object", "required": ["space", "monasteries"], "properties": {
                         "space": {"type": "integer", "minimum": 1, "maximum": 40,
                                   "title": "Space"},
                         "monasteries": {"type": "array", "items": _MONASTERY,
                                         "title": "Gives access to"},
                         "bonus": choice_schema({
                             "R1": "R1: an extra action", "R2": "R2: Influence or Rosary",
                             "R3": "R3: Soup or a swap", "R4": "R4: a stained-glass tile",
                             "R5": "R5: a new die or 5 prestige"}, "Bonus")}}},
                 "demo": {"type": "boolean"}}},
             "window": {"type": "object", "required": ["rows", "columns"],
                        "title": "Cathedral window", "properties": {
                 "rows": {"type": "array", "items": COUNT,
                          "title": "Prestige for a full row (top to bottom)"},
                 "columns": {"type": "array", "items": COUNT,
                             "title": "Prestige for a full column (left to right)"},
                 "row_bonus": {"type": "array", "items": _BONUS, "title": "Row bonuses"},
                 "column_bonus": {"type": "array", "items": _BONUS, "title": "Column bonuses"},
                 "demo": {"type": "boolean"}}},
             "neutral_per_player": {"type": "object", "title": "Neutral dice per player",
                                    "properties": {n: {**COUNT, "title": f"{n} players"}
                                                   for n in ("2", "3", "4")}},
             "glass_per_player": {**COUNT, "title": "Stained glass per player and monastery"},
             "start_resources": {**_BAG, "title": "Start resources"},
             "building_cost": {"type": "object", "title": "A building's cost (its resource)",
                               "properties": {"I": {**COUNT, "title": "Row I novice"},
                                              "II": {**COUNT, "title": "Row II novice"}}},
             "building_resource": {"type": "object", "title": "Resource a building costs",
                                   "properties": {k: choice_schema(_RES_TITLES, t)
                                                  for k, t in _KINDS.items()}},
             "building_reward": {"type": "object", "title": "What a building gives",
                                 "properties": {k: {"type": "object", "title": t, "properties": {
                                     "prestige": {**COUNT, "title": "Prestige"},
                                     **_BAG["properties"],
                                     "glass": {**COUNT, "title": "Stained-glass tile"}}}
                                     for k, t in _KINDS.items()}},
             "chapel_cost": {**_COUNTS, "title": "Chapel novice: Influence, 1st, 2nd, ..."},
             "cloister_cost": {**_COUNTS, "title": "Cloister novice: Rosary, 1st, 2nd, ..."},
             "chapel_points": {**_COUNTS,
                               "title": "Prestige for chapels in 0, 1, 2, ... monasteries"},
             "majority_points": {**COUNT, "title": "Prestige for a majority"},
             "extra_die_prestige": {**COUNT, "title": "R5: prestige instead of the die"},
             "years": {**COUNT, "title": "Years"},
             "personal_dice_max": {**COUNT, "title": "Personal dice at most"},
             "dice_colours": {"type": "object", "title": "Colours of the dice (for the camera)",
                              "properties": {k: {"enum": list(DIE_COLOURS), "title": t}
                                             for k, t in (("neutral", "Neutral dice"),
                                                          ("N", "Blue player"), ("E", "Red player"),
                                                          ("S", "Green player"),
                                                          ("W", "Yellow player"))}},
             "resources": {"type": "object", "title": "Resource pieces in the box",
                           "properties": {**{r: {**COUNT, "title": t}
                                             for r, t in _RES_TITLES.items()},
                                          "limited": {"type": "boolean",
                                                      "title": "Play with these limits"},
                                          "demo": {"type": "boolean"}}}}}
ACTIONS = {"$schema": S2020, "title": "Monasterium: player board actions", "type": "object",
           "required": ["standard", "I", "II", "III"],
           "properties": {"standard": COLUMN_EFFECTS, "I": COLUMN_EFFECTS, "II": COLUMN_EFFECTS,
                          "III": COLUMN_EFFECTS, "columns": {
                              "type": "array", "title": "Columns",
                              "items": choice_schema({c: f"Column {c}" for c in "ABCDE"})},
                          "demo": {"type": "boolean"}}}
MISSIONS = {"$schema": S2020, "title": "Monasterium: missions", "type": "array",
            "items": {"type": "object", "required": ["id", "type", "points"],
                      "properties": {
                          "id": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$",
                                 "title": "Id"},
                          "names": {**NAMES, "title": "Name"},
                          "type": choice_schema({"A": "A: buildings, paid by the year",
                                         "B": "B: novices, paid by the year",
                                         "C": "C: a goal, any time"}, "Type"),
                          "monastery": choice_schema({m: f"Monastery {m}" for m in "ABCDE"},
                                             "Monastery"),
                          "area": choice_schema({"building": "Buildings", "chapel": "The chapel",
                                         "cloister": "The cloister", "any": "Anywhere"},
                                        "Where"),
                          "count": {"type": "integer", "minimum": 1, "maximum": 10,
                                    "title": "Novices"},
                          "condition": choice_schema({"sent_12": "At least 12 novices sent",
                                              "halls_3": "3 novices in common halls",
                                              "cloisters_6": "6 novices in cloisters",
                                              "window_5": "Stained glass of all 5 monasteries",
                                              "dice_3": "3 personal dice"}, "Goal (type C)"),
                          "points": {"title": "Prestige", "oneOf": [
                              {"type": "array", "items": COUNT,
                               "minItems": 3, "maxItems": 3,
                               "title": "By year (A and B): years 1, 2, 3"},
                              {**COUNT, "title": "Once (C)"}]},
                          "demo": {"type": "boolean"}}}}
PARTS = (
    CatalogPart("board", BOARD, merge="deep", title="Board and game facts"),
    CatalogPart("actions", ACTIONS, merge="deep", title="Player board actions"),
    CatalogPart("missions", MISSIONS, title="Mission cards"),
)
REASONS = {"mission_count": "{type} missions: {found}, at least 2 needed",
           "unknown_space": "{space} is not a space of this monastery"}


problem = partial(catalog_problem, REASONS)  # (file, entry, field, code, **params)


def check_catalog(catalog: dict) -> list:
    """Facts the schemas cannot say: 2 missions of each type to draw, cloister adjacency
    naming the monastery's own cloister spaces."""
    out = []
    try:
        missions = catalog.get("missions") or []
        for t in ("A", "B", "C"):
            n = sum(1 for m in missions if isinstance(m, dict) and m.get("type") == t)
            if n < 2:
                out.append(problem("missions.json", None, "type", "mission_count", type=t, found=n))
        for m in (catalog.get("board") or {}).get("monasteries", []):
            spaces = set(m.get("cloister", []))
            for b in m.get("buildings", []):
                for c in b.get("cloister", []):
                    if c not in spaces:
                        out.append(problem("board.json", m.get("id"), "cloister", "unknown_space",
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

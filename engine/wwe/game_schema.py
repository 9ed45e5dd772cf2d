"""The JSON Schema of World Without End's game sections (game.json): every section with its
shape and a title, so the owner's deck page shows a control for each (never a JSON box).

The facts (which seats, how many of each supply) are checked by engine/wwe/catalog.py; this
only describes the shape, in the order of the form."""
from __future__ import annotations

from engine.api import choice_schema

_LANGS = {"type": "object", "additionalProperties": {"type": "string", "maxLength": 200}}
_INT = {"type": "integer", "minimum": 0, "maximum": 1000}  # a count of a box
_DEMO = {"type": "boolean"}
_SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}
_COLOURS = {"blue": "Blue", "red": "Red", "green": "Green", "yellow": "Yellow"}
_ITEMS = {"stone": "Stone", "wood": "Wood", "grain": "Grain", "piety": "Piety",
          "metal": "Metal", "wool": "Wool", "cloth": "Cloth", "loyalty": "Loyalty",
          "mk": "Medical knowledge", "gold": "Gold", "vp": "VP"}
_FAVOR = {"outlaws": "Outlaws", "queen": "Queen", "prior": "Prior", "guild": "Guild",
          "prioress": "Prioress", "merchants": "Merchants", "king": "King",
          "earl": "Earl of Shiring", "bishop": "Bishop"}


def _names_of(titles: dict) -> dict:
    """One name per language for each of ``titles``' keys (a seat's, a colour's ...)."""
    return {"type": "object", "properties": {k: {**_LANGS, "title": t}
                                             for k, t in titles.items()}}


def _counts(titles: dict) -> dict:
    return {"type": "object", "properties": {k: {**_INT, "title": t}
                                             for k, t in titles.items()}}


_SUPPLY = {"type": "object", "properties": {
    "size": {"title": "Pieces in the box", "oneOf": [
        {**_INT, "title": "Limited to"},
        {"const": None, "title": "No limit"}]},
    "demo": _DEMO}}

GAME_SECTIONS = {
    "type": "object", "required": ["seats", "supplies", "tax_die", "favor_track"],
    "properties": {
        "id": {"type": "string", "title": "Game id"},
        "names": {**_LANGS, "title": "Name"},
        "seats": {"type": "array", "title": "Seats", "items": choice_schema(_SEATS)},
        "seat_names": {**_names_of(_SEATS), "title": "Seat names"},
        "colours": {**_names_of(_COLOURS), "title": "Colour names"},
        "players": {**_counts({"min": "Fewest players", "max": "Most players"}),
                    "title": "Players"},
        "start": {**_counts({"vp": "VP", "wool": "Wool", "gold": "Gold"}),
                  "title": "Each player starts with"},
        "houses_per_player": {**_INT, "title": "Houses per player"},
        "seals_per_player": {**_INT, "title": "Donation seals per player"},
        "supplies": {"type": "object", "title": "Supplies on the board",
                     "properties": {k: {**_SUPPLY, "title": t} for k, t in _ITEMS.items()
                                    if k != "vp"}},
        "cover_tiles": {**_INT, "title": "Cover tiles"},
        "chapters": {**_INT, "title": "Chapters"},
        "rounds": {**_INT, "title": "Rounds per chapter"},
        "pile_size": {**_INT, "title": "Event cards per chapter in the box"},
        "tax_die": {"type": "object", "title": "Tax die", "properties": {
            "faces": {"type": "array", "items": _INT, "title": "Faces"}, "demo": _DEMO}},
        "favor_track": {"type": "object", "title": "Favor track", "properties": {
            "cycle": {"type": "array", "items": {"type": "string"},
                      "title": "Spaces in order (their ids)"},
            "start": {**_INT, "title": "Start space (0 = the first)"}, "demo": _DEMO}},
        "favor_spaces": {**_names_of(_FAVOR), "title": "Favor space names"},
        "forms": {"type": "object", "title": "Names in a sentence", "properties": {
            "of": {**_names_of(_FAVOR), "title": "Favor spaces after 'the favor' (of the Queen)"}}},
        "council": {"type": "object", "title": "Town council", "properties": {
            "side_values": {"type": "array", "items": _INT, "title": "Favor steps by side"},
            "demo": _DEMO}},
        "resources": {**_names_of(_ITEMS), "title": "Resource names"},
        "market": {**_counts({"wool": "Wool price", "cloth": "Cloth price",
                              "cloth_max": "Cloth sold at most"}), "title": "Wool market"},
        "market_spaces": {**_names_of({"wool": "Wool space", "cloth": "Cloth space"}),
                          "title": "Market space names"},
    }}

"""The JSON Schemas of World Without End's catalog files (their shape; the facts are
checked by engine/wwe/catalog.py) and how an owner's files merge into them."""
from __future__ import annotations

from engine.api import CatalogPart
from engine.wwe.catalog import CORNER_ITEMS

_NAMES = {"type": "object", "title": "Name",
          "additionalProperties": {"type": "string", "maxLength": 200}}
_ID = {"type": ["string", "integer"], "title": "Id"}
_COMMON = {"id": _ID, "names": _NAMES, "demo": {"type": "boolean"},
           "demo_fields": {"type": "array", "items": {"type": "string"}},
           "note": {"type": "string", "title": "Note"}}
# A property's "title" is the label of its field on the owner's deck page (translated in the
# game's domain); a "oneOf" of consts with titles makes a choice list. The bounds only repeat
# what engine/wwe/catalog.py checks (whose messages the page shows first).
_CORNER_TITLES = {"stone": "Stone", "wood": "Wood", "grain": "Grain", "piety": "Piety",
                  "wool": "Wool", "loyalty": "Loyalty", "mk": "Medical knowledge",
                  "gold1": "1 gold", "gold2": "2 gold", "vp": "1 VP"}
_CORNER = {"oneOf": [{"const": c, "title": _CORNER_TITLES[c]} for c in CORNER_ITEMS]}
_FIELDS = {
    "action_cards": {"starred": {"type": "boolean", "title": "Starred (first game)"}},
    "event_cards": {
        "chapter": {"type": "integer", "minimum": 1, "maximum": 4, "title": "Chapter"},
        "starred": {"type": "boolean", "title": "Starred (first game)"},
        "permanent": {"type": "boolean", "title": "Permanent"},
        "text": {"type": "object", "title": "Card text",
                 "additionalProperties": {"type": "string"}},
        "corners": {"type": "array", "minItems": 4, "maxItems": 4, "items": _CORNER,
                    "title": "Corners (income of positions 0-3, clockwise)"},
        "arrow": {"type": "integer", "minimum": 0, "maximum": 3,
                  "title": "Red arrow (card position 0-3)"},
        "plague": {"type": ["integer", "null"], "minimum": 1, "maximum": 11,
                   "title": "Plague house (chapters III and IV)"},
        "effects": {"type": "array", "title": "Effects (see the catalog guide)"},
    },
    "projects": {
        "stone": {"type": "integer", "minimum": 0, "title": "Stone spaces"},
        "wood": {"type": "integer", "minimum": 0, "title": "Wood spaces"},
        "spire": {"type": "boolean", "title": "Spire"},
        "at_start": {"type": "boolean", "title": "On the board at the start"},
        "enters_after_chapter": {"type": ["integer", "null"], "minimum": 1, "maximum": 4,
                                 "title": "Enters after chapter"},
        "donor_reward": {"type": "object", "title": "Donors' reward"},
    },
    "building_sites": {
        "material": {"type": "string", "title": "Material",
                     "oneOf": [{"const": "stone", "title": "Stone"},
                               {"const": "wood", "title": "Wood"}]},
        "rent": {"type": "object", "title": "Rent"},
    },
    "plague": {"reward": {"type": "object", "title": "Reward for a cure"}},
}


def _list(part: str) -> dict:
    """A list part's schema; its fields in the order of the form: id, names, the part's
    own, the note."""
    common = dict(_COMMON)
    first = {"id": common.pop("id"), "names": common.pop("names")}
    note = {"note": common.pop("note")}
    return {"type": "array", "items": {"type": "object", "required": ["id"], "properties": {
        **first, **_FIELDS.get(part, {}), **note, **common}}}



def _schema(title: str, body: dict) -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **body}


PARTS = (
    CatalogPart("game", _schema("World Without End: game sections", {
        "type": "object", "required": ["seats", "supplies", "tax_die", "favor_track"],
        "properties": {"names": _NAMES, "seats": {"type": "array"},
                       "supplies": {"type": "object"}, "tax_die": {"type": "object"},
                       "favor_track": {"type": "object"}}}),
                merge="deep", title="Game sections"),
    CatalogPart("action_cards",
                _schema("World Without End: action cards", _list("action_cards")),
                title="Action cards", stickers="action"),
    CatalogPart("event_cards",
                _schema("World Without End: event cards", _list("event_cards")),
                title="Event cards", stickers="event"),
    CatalogPart("projects", _schema("World Without End: projects", _list("projects")),
                title="Projects"),
    CatalogPart("building_sites",
                _schema("World Without End: building sites", _list("building_sites")),
                title="Building sites"),
    CatalogPart("plague", _schema("World Without End: plague locations and tokens", {
        "type": "object", "properties": {"locations": _list("plague"),
                                          "tokens": {"type": "array"}}}),
                merge="deep", nested="locations", title="Plague locations"),
)

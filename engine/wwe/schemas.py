"""The JSON Schemas of World Without End's catalog files (their shape; the facts are
checked by engine/wwe/catalog.py) and how an owner's files merge into them."""
from __future__ import annotations

from engine.api import CatalogPart, choice_schema
from engine.wwe.catalog import (
    CORNER_ITEMS,
    COVER_TARGETS,
    GAIN_ITEMS,
    ITEMS,
    MARKET_SPACES,
    MAX_TRADE_TIMES,
    RETURN_SCOPES,
    WHO,
)
from engine.wwe.game_schema import GAME_SECTIONS

_NAMES = {"type": "object", "title": "Name",
          "additionalProperties": {"type": "string", "maxLength": 200}}
_ID = {"type": ["string", "integer"], "minimum": 0, "maximum": 999_999, "title": "Id"}
_COMMON = {"id": _ID, "names": _NAMES, "demo": {"type": "boolean"},
           "demo_fields": {"type": "array", "items": {"type": "string"}},
           "note": {"type": "string", "title": "Note"}}
# A property's "title" is the label of its field on the owner's deck page (translated in the
# game's domain); a "oneOf" of consts with titles makes a choice list. The bounds only repeat
# what engine/wwe/catalog.py checks (whose messages the page shows first).
_CORNER_TITLES = {"stone": "Stone", "wood": "Wood", "grain": "Grain", "piety": "Piety",
                  "wool": "Wool", "loyalty": "Loyalty", "mk": "Medical knowledge",
                  "gold1": "1 gold", "gold2": "2 gold", "vp": "1 VP"}
_CORNER = choice_schema({c: _CORNER_TITLES[c] for c in CORNER_ITEMS})
_ITEM_TITLES = {**_CORNER_TITLES, "metal": "Metal", "cloth": "Cloth", "gold": "Gold",
                "vp": "VP"}


def _pick(values, titles: dict, title: str) -> dict:
    """A choice of ``values``, each shown by its title in ``titles`` (else itself)."""
    return choice_schema({v: titles.get(v, v) for v in values}, title)


def _bag(items, title: str) -> dict:
    """A bag of items {item: count}: one number per item on the form."""
    return {"type": "object", "title": title, "properties": {
        i: {"type": "integer", "minimum": 1, "maximum": 100, "title": _ITEM_TITLES[i]}
        for i in items}}


_WHO = _pick(WHO, {"all": "Every player", "active": "The active player",
                   "others": "The other players", "chosen": "A chosen player"}, "Who")
_MARKET = _pick(MARKET_SPACES, _ITEM_TITLES, "Market space")
_INT = {"type": "integer"}
_TEXT = {"type": "object", "title": "Text (what the players do)",
         "additionalProperties": {"type": "string"}}
# Every kind of event effect (engine/wwe/catalog.py EFFECT_FIELDS checks them; the catalog
# guide explains them): on the deck page a list of effects, each a kind and its fields.
_EFFECT_KINDS = (
    ("gain", "Players gain", {"who": _WHO, "items": _bag(GAIN_ITEMS, "Items")}),
    ("lose", "Players lose", {"who": _WHO, "items": _bag(GAIN_ITEMS, "Items")}),
    ("trade", "A trade offer", {"give": _bag(GAIN_ITEMS, "Give"), "get": _bag(GAIN_ITEMS, "Get"),
                                "times": {**_INT, "minimum": 1, "maximum": MAX_TRADE_TIMES,
                                          "title": "How often"}, "who": _WHO}),
    ("introduce_project", "A project enters", {"project": {"type": "string",
                                                           "title": "Project id"}}),
    ("cover", "Cover spaces", {
        "target": _pick(COVER_TARGETS, {"favor": "Favor spaces", "market": "Market spaces",
                                        "project": "Projects"}, "What"),
        "ids": {"title": "Which", "oneOf": [
            {"type": "array", "items": {"type": "string"}, "title": "These (their ids)"},
            {"const": "all_other_projects", "title": "All other projects"}]}}),
    ("open_market", "A market space opens", {"space": _MARKET}),
    ("price", "A market price", {"item": _MARKET, "price": {**_INT, "minimum": 0,
                                                            "maximum": 10, "title": "Price"}}),
    ("card_modifier", "An action card changes", {
        "card": {"type": "string", "title": "Action card id"},
        "bonus": _bag(GAIN_ITEMS, "Bonus"), "cost": _bag(GAIN_ITEMS, "Extra cost"),
        "disabled": {"type": "boolean", "title": "Cannot be played"}}),
    ("lose_action", "Players lose an action", {
        "who": _WHO, "royal_court_exempt_if_first": {
            "type": "boolean", "title": "Not the first player at the royal court"}}),
    ("random_discard", "A random card discarded", {"who": _WHO}),
    ("complete_tower", "The tower is completed", {}),
    ("return_houses", "Houses go back", {"scope": _pick(RETURN_SCOPES, {
        "all": "All houses", "one_per_player": "One per player",
        "chosen": "Chosen houses"}, "Which houses")}),
    ("manual", "Done by the players (described)", {"text": _TEXT}),
    ("income_modifier", "Income changes", {
        "who": _WHO, "item": _pick((*CORNER_ITEMS, "any"), {**_ITEM_TITLES, "any": "Any"},
                                   "Income of"),
        "replacement": _pick((*CORNER_ITEMS, "none"), {**_ITEM_TITLES, "none": "Nothing"},
                             "Instead"),
        "bonus": _bag(GAIN_ITEMS, "Bonus")}),
    ("event_modifier", "Another event changes", {
        "effect": _pick(("gain", "lose"), {"gain": "Players gain", "lose": "Players lose"},
                        "Effect"),
        "who": _WHO, "disabled": {"type": "boolean", "title": "Does not happen"}}),
)
_EFFECTS = {"type": "array", "title": "Effects", "items": {
    "type": "object", "required": ["type"],
    "oneOf": [{"title": title, "properties": {"type": {"const": kind}, **fields}}
              for kind, title, fields in _EFFECT_KINDS]}}
_REWARD = {"vp": {**_INT, "minimum": 0, "maximum": 20, "title": "VP"},
           "items": _bag(ITEMS, "Items"),
           "free_house": {"type": "boolean", "title": "A free house"},
           "cure": {"type": "boolean", "title": "A cure"}}
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
        "effects": _EFFECTS,
    },
    "projects": {
        "stone": {"type": "integer", "minimum": 0, "maximum": 100, "title": "Stone spaces"},
        "wood": {"type": "integer", "minimum": 0, "maximum": 100, "title": "Wood spaces"},
        "spire": {"type": "boolean", "title": "Spire"},
        "at_start": {"type": "boolean", "title": "On the board at the start"},
        "enters_after_chapter": {"type": ["integer", "null"], "minimum": 1, "maximum": 4,
                                 "title": "Enters after chapter"},
        "donor_reward": {"type": "object", "title": "Donors' reward", "properties": _REWARD},
    },
    "building_sites": {
        "material": {"type": "string",
                     **choice_schema({"stone": "Stone", "wood": "Wood"}, "Material")},
        "rent": {"type": "object", "title": "Rent", "properties": {
            "item": _pick([i for i in GAIN_ITEMS if i != "metal"], _ITEM_TITLES, "Item"),
            "amount": {**_INT, "minimum": 1, "maximum": 10, "title": "Amount"}}},
    },
    "plague": {"reward": {"type": "object", "title": "Reward for a cure",
                          "properties": _REWARD}},
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
    CatalogPart("game", _schema("World Without End: game sections", GAME_SECTIONS),
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

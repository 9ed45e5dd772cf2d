"""The JSON Schemas of World Without End's catalog files (their shape; the facts are
checked by engine/wwe/catalog.py) and how an owner's files merge into them."""
from __future__ import annotations

from engine.api import CatalogPart

_NAMES = {"type": "object", "additionalProperties": {"type": "string", "maxLength": 200}}
_ID = {"type": ["string", "integer"]}
_ENTRY = {"type": "object", "required": ["id"],
          "properties": {"id": _ID, "names": _NAMES, "demo": {"type": "boolean"},
                         "demo_fields": {"type": "array", "items": {"type": "string"}},
                         "note": {"type": "string"}}}
_LIST = {"type": "array", "items": _ENTRY}


def _schema(title: str, body: dict) -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **body}


PARTS = (
    CatalogPart("game", _schema("World Without End: game sections", {
        "type": "object", "required": ["seats", "supplies", "tax_die", "favor_track"],
        "properties": {"names": _NAMES, "seats": {"type": "array"},
                       "supplies": {"type": "object"}, "tax_die": {"type": "object"},
                       "favor_track": {"type": "object"}}}),
                merge="deep", title="Game sections"),
    CatalogPart("action_cards", _schema("World Without End: action cards", _LIST),
                title="Action cards", stickers="action"),
    CatalogPart("event_cards", _schema("World Without End: event cards", _LIST),
                title="Event cards", stickers="event"),
    CatalogPart("projects", _schema("World Without End: projects", _LIST), title="Projects"),
    CatalogPart("building_sites", _schema("World Without End: building sites", _LIST),
                title="Building sites"),
    CatalogPart("plague", _schema("World Without End: plague locations and tokens", {
        "type": "object", "properties": {"locations": _LIST, "tokens": {"type": "array"}}}),
                merge="deep", nested="locations", title="Plague locations"),
)

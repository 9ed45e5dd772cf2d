"""Sticker tags: the payload format (format.py) and printable sheets (sheet.py)."""
from hardware.tags.format import (
    BOARD_MARKER,
    BOARD_MARKERS,
    CORNER_MARKERS,
    MARKER,
    Tag,
    TagError,
    card_payload,
    code_table,
    parse,
    resolve,
    short_code,
)

__all__ = ["BOARD_MARKER", "BOARD_MARKERS", "CORNER_MARKERS", "MARKER", "Tag", "TagError",
           "card_payload", "code_table", "parse", "resolve", "short_code"]

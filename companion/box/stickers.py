"""The stickers of a catalog: one per card of every kind the game declares (docs/tags.md).

Printed by `companion tags` and by the host's deck page (its sticker sheets)."""
from __future__ import annotations

from companion.server import i18n
from engine.api import sticker_namespace
from hardware.tags.format import card_payload, code_table
from hardware.tags.sheet import Sticker


def stickers_for_catalog(info, catalog: dict, lang: str = "en") -> list[Sticker]:
    """One sticker per card of every kind the game declares, in catalog order; demo entries
    marked demo."""
    namespace = sticker_namespace(info)
    stickers = []
    for kind in info.stickers:
        entries = catalog.get(kind.part)
        entries = entries if isinstance(entries, list) else []
        code_table(entry["id"] for entry in entries)  # raises on a short-code collision
        for entry in entries:
            names = entry.get("names") or {}
            label = i18n.in_lang(names, lang, entry["id"])
            stickers.append(Sticker(card_payload(namespace, kind.letter, entry["id"]), label,
                                    bool(entry.get("demo"))))
    return stickers

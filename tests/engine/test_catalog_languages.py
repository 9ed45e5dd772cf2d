"""Every text a shipped catalog shows to people (card names, card texts, the table's
instructions ...) exists in all five languages: an Italian, Polish, Spanish or German
player must never read the English text in its place."""
from __future__ import annotations

import json
import re

import pytest

from companion.box import catalog

GAMES = ("wwe", "pillars", "monasterium")
LANGS = ("en", "it", "pl", "es", "de")
# An English-only alias of an entry (the English edition names the Prior's project
# two ways, docs/catalog.md); it is matched, never shown, so it needs no translation.
ALIASES = {"alt_names"}
# Texts that are rightly the same as the English one in some language: proper names
# and words spelt alike ("Hospital" in Spanish and German, "Gold" in German ...).
SAME_AS_ENGLISH = {
    "Ralph Fitzgerald…", "In Kingsbridge…", "Kingsbridge", "Shiring", "Monasterium",
    "Hospital", "Prior", "Metal", "Gold", "West", "Favor",
}
MISSION = re.compile(r"Mission [A-Z]\d+")


def language_maps(node, path=""):
    """(path, map) for every {"en": ..., ...} text map anywhere in ``node``."""
    if isinstance(node, dict):
        if "en" in node and all(isinstance(v, str) for v in node.values()):
            yield path, node
            return
        for key, value in node.items():
            if key not in ALIASES:
                yield from language_maps(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            name = value.get("id", i) if isinstance(value, dict) else i
            yield from language_maps(value, f"{path}[{name}]")


def shipped_maps():
    for game in GAMES:
        for file in sorted(catalog.shipped_dir(game).glob("*.json")):
            data = json.loads(file.read_text(encoding="utf-8"))
            for path, texts in language_maps(data):
                yield f"{game}/{file.name}{path}", texts


MAPS = list(shipped_maps())


def test_the_catalogs_hold_language_maps():
    # the event cards alone hold 44 names and 44 texts
    assert sum(1 for where, _ in MAPS if where.startswith("wwe/event_cards.json")) >= 88


@pytest.mark.parametrize("where,texts", MAPS, ids=[w for w, _ in MAPS])
def test_every_language_is_there_and_translated(where, texts):
    assert sorted(texts) == sorted(LANGS), where
    assert all(texts[lang].strip() for lang in LANGS), where
    english = texts["en"]
    for lang in LANGS[1:]:
        if texts[lang] == english:
            assert english in SAME_AS_ENGLISH or MISSION.fullmatch(english), (where, lang)


def test_event_card_texts_keep_the_numbers_of_the_english_text():
    """The text is for people; its numbers must say what the engine does."""
    for where, texts in MAPS:
        if where.startswith("wwe/event_cards.json") and ".text" in where:
            numbers = sorted(re.findall(r"\d+", texts["en"]))
            for lang in LANGS[1:]:
                assert sorted(re.findall(r"\d+", texts[lang])) == numbers, (where, lang)

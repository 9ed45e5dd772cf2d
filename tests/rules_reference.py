"""Where the rules references and rulebook seeds are: ``../shared`` beside the checkout, as
developers and CI have it (never an absolute path of one machine). A test that needs them and
does not find them is skipped with the reason, shown in pytest's summary (``-ra``)."""
from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
RULES = SHARED / "rules"
SEEDS = SHARED / "seeds"


def needed(path: Path) -> Path:
    """``path``, or a visible skip saying it is missing."""
    if not path.exists():
        pytest.skip(f"the rules reference {path} is missing (../shared beside the checkout)")
    return path


# What a player reading each language sees of a rule's reference (docs/rules-cited.md): the
# rulebook in that language's words, the edition's page and section, the step of it; the
# section's subject where the language has no edition of its own. Written out here, not
# taken from the app, so a test compares the app's words with these.
BOOK = {"en": ("Rulebook", "p.", "step"), "it": ("Regolamento", "p.", "punto"),
        "pl": ("Instrukcja", "s.", "krok"), "es": ("Reglas", "pág.", "paso"),
        "de": ("Spielregel", "S.", "Schritt")}
APP_RULE = {"en": "The app's own rule, not the rulebook's",
            "it": "Regola dell'app, non del regolamento", "pl": "Zasada aplikacji, nie instrukcji",
            "es": "Regla de la app, no del reglamento", "de": "Regel der App, nicht der Spielregel"}


def shown_ref(game: str, rule: dict, lang: str) -> str:
    """The reference of ``rule`` (of ``game``'s rules.json) a player reading ``lang`` sees."""
    from web import i18n_tool

    if rule["ref"]["*"] == "App":
        return APP_RULE[lang]
    book, page_word, step_word = BOOK[lang]
    place = rule["ref"].get(lang)
    if place is None:
        topic = rule["topic"]
        if lang != "en":
            topic = i18n_tool.read(lang, i18n_tool.domain(game)).get(topic).string
        place = {"section": topic}
    out = book + (f", {page_word} {place['page']}" if place.get("page") else "")
    out += f", «{place['section']}»"
    return out + (f", {step_word} {place['step']}" if place.get("step") else "")

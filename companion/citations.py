"""The rule behind a refusal, a log line or the step owed now, as a recipient reads it:
``{"id", "ref", "text"}`` with the reference of the edition the recipient's language comes
from and the rule's text in that language (the game declares both: engine/citations.py,
docs/rules-cited.md). Knows no game: it reads ``Texts.rules`` and ``Texts.cites``."""
from __future__ import annotations

from typing import Any

from companion import i18n
from engine import citations


def shown(kind: Any, lang: str, found: tuple[str, dict] | None) -> dict | None:
    if not found:
        return None
    rid, rule = found
    return {"id": rid, "ref": citations.ref(rule, lang),
            "text": i18n.text(lang, rule["text"], game=kind.name)}


def for_reason(kind: Any, lang: str, code: str) -> dict | None:
    return shown(kind, lang, citations.rule_of(kind.info.texts, "reasons", code))


def for_event(kind: Any, lang: str, event: dict) -> dict | None:
    return shown(kind, lang, citations.event_rule(kind.info.texts, event))


def for_prompt(kind: Any, lang: str, prompt_kind: str) -> dict | None:
    return shown(kind, lang, citations.rule_of(kind.info.texts, "prompts", prompt_kind))

"""The rule behind a refusal, a log line or the step owed now (the game declares its rules:
engine/citations.py, docs/rules-cited.md). Knows no game: it reads ``Texts.rules`` and
``Texts.cites``.

A rule's reference and text do not change within a game, so views carry only the rule's id
(``rule: "income"``) and each socket gets every rule of its game once, in its language, in a
``rules`` message (`book`): a log line, a prompt or a refused choice then costs a few bytes
on the wire instead of a paragraph per action. A refusal answered to its sender alone (an
ack) still carries the whole rule, ``{"id", "ref", "text"}``.
"""
from __future__ import annotations

from typing import Any

from companion.server import i18n
from engine import citations


def shown(kind: Any, lang: str, found: tuple[str, dict] | None) -> dict | None:
    """``{"id", "ref", "text"}``: the reference of the edition ``lang`` comes from and the
    rule's text in ``lang``."""
    if not found:
        return None
    rid, rule = found
    return {"id": rid, "ref": citations.ref(rule, lang),
            "text": i18n.text(lang, rule["text"], game=kind.name)}


def book(kind: Any, lang: str) -> dict:
    """The ``rules`` message: every rule of the game in ``lang``,
    ``{"lang", "rules": {id: {"ref", "text"}}}`` (public: the rulebook's own words)."""
    rules = getattr(kind.info.texts, "rules", None) or {}
    out = {}
    for rid, rule in rules.items():
        whole = shown(kind, lang, (rid, rule))
        out[rid] = {"ref": whole["ref"], "text": whole["text"]}
    return {"lang": lang, "rules": out}


def for_reason(kind: Any, lang: str, code: str) -> dict | None:
    """The whole rule behind a refusal, for an ack or a ``refused`` message."""
    return shown(kind, lang, citations.rule_of(kind.info.texts, "reasons", code))


def id_for_reason(kind: Any, code: str) -> str | None:
    found = citations.rule_of(kind.info.texts, "reasons", code)
    return found[0] if found else None


def id_for_event(kind: Any, event: dict) -> str | None:
    found = citations.event_rule(kind.info.texts, event)
    return found[0] if found else None


def id_for_prompt(kind: Any, prompt_kind: str) -> str | None:
    found = citations.rule_of(kind.info.texts, "prompts", prompt_kind)
    return found[0] if found else None

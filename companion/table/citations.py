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

# One form of a reference in every language (gettext msgids of the shared domain): the
# rulebook, the page where the edition's text gives one, the section, the step of it.
TEXTS: dict[str, str] = {
    "section": "Rulebook, «{section}»",
    "page": "Rulebook, p. {page}, «{section}»",
    "step": "{ref}, step {n}",
    "app": "The app's own rule, not the rulebook's",
}


def reference(kind: Any, rule: dict, lang: str) -> str:
    """The rule's place in the rulebook a player of ``lang`` reads, in ``lang``: "Rulebook,
    p. 6, «La Peste»" (the edition's own page and section title) or, for a language without
    an edition here, "Spielregel, «Die Pflichten»" (the section's subject in that language)."""
    if citations.is_app(rule):
        return i18n.text(lang, TEXTS["app"])
    place = citations.ref(rule, lang) or {}
    section = place.get("section") or i18n.text(lang, rule.get("topic") or "", game=kind.name)
    out = i18n.text(lang, TEXTS["page" if place.get("page") else "section"],
                    {"section": section, "page": place.get("page", "")})
    if place.get("step"):
        out = i18n.text(lang, TEXTS["step"], {"ref": out, "n": place["step"]})
    return out


def shown(kind: Any, lang: str, found: tuple[str, dict] | None) -> dict | None:
    """``{"id", "ref", "text"}``: the reference in the rulebook ``lang`` reads and the
    rule's text in ``lang``."""
    if not found:
        return None
    rid, rule = found
    return {"id": rid, "ref": reference(kind, rule, lang),
            "text": i18n.text(lang, rule["text"], game=kind.name)}


def book(kind: Any, lang: str) -> dict:
    """The ``rules`` message: every rule of the game in ``lang``,
    ``{"lang", "rules": {id: {"ref", "text"}}}`` (public: the rulebook's own words)."""
    rules = kind.info.texts.rules or {}
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

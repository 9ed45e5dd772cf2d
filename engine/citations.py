"""Every rule cited: the rulebook reference and a short statement of the rule behind each
refusal code, log event and step of a game (docs/rules-cited.md).

A game keeps them in one data file its owner can edit, ``rules.json`` in its catalog package
(e.g. engine/wwe/data/rules.json), and declares them with ``Texts(..., **declared(package))``.
The references come from the rulebooks in shared/seeds (the edition each language comes
from) and the game's rules reference in shared/rules; nothing here guesses one.

    {"rules":   {rule id: {"ref": {"*": "R4.1.2", "it": {"page": "4", "section": "...",
                                                       "step": 5}},
                           "topic": "...", "text": "..."}},
     "reasons": {refusal code: rule id}, "events": {event type: rule id},
     "prompts": {prompt kind: rule id}}

Many codes share one rule: the same rule says the same thing, and there are fewer texts to
translate. ``text`` and ``topic`` are English msgids in the game's gettext domain. A
language's ``ref`` names a place in that language's edition (its page where the seed gives
one, the section's title as printed, the step of that section); ``"*"`` is the section of
the game's rules reference (for the owner, never shown to players: they do not have it);
``topic`` names the section's subject for the languages without an edition of their own.
``"*": "App"`` marks a rule of the app, not the game (no topic).
"""
from __future__ import annotations

import json
from importlib import resources
from typing import Any

FILE = "rules.json"
SECTIONS = ("reasons", "events", "prompts")


def declared(package: str) -> dict[str, Any]:
    """``{"rules", "cites"}`` for ``Texts`` from ``package``'s rules.json (read once, when the
    game module is imported, like any other constant of the game)."""
    data = json.loads(resources.files(package).joinpath(FILE).read_text(encoding="utf-8"))
    problems = check(data)
    if problems:
        raise ValueError(f"{package}/{FILE}: " + "; ".join(problems))
    return {"rules": data["rules"], "cites": {s: data.get(s, {}) for s in SECTIONS}}


def check(data: Any) -> list[str]:
    """What is wrong with a rules.json document (an empty list when nothing is)."""
    if not isinstance(data, dict) or not isinstance(data.get("rules"), dict):
        return ["the file must hold an object with a \"rules\" object"]
    out = []
    for rid, rule in data["rules"].items():
        if not isinstance(rule, dict):
            out.append(f"rule {rid}: must be an object")
            continue
        out += ref_problems(rid, rule)
        if not isinstance(rule.get("text"), str) or not rule["text"]:
            out.append(f"rule {rid}: \"text\" is missing")
    for section in SECTIONS:
        table = data.get(section, {})
        if not isinstance(table, dict):
            out.append(f"\"{section}\" must be an object")
            continue
        for key, rid in table.items():
            if rid not in data["rules"]:
                out.append(f"{section}.{key}: no rule {rid!r}")
    return out


def ref_problems(rid: str, rule: dict) -> list[str]:
    """What is wrong with a rule's ``ref`` and ``topic`` (also a setup guide's ``rulebook``)."""
    ref = rule.get("ref")
    if not isinstance(ref, dict) or not isinstance(ref.get("*"), str) or not ref["*"]:
        return [f"rule {rid}: \"ref\" needs a \"*\" reference"]
    out = []
    for lang, place in ref.items():
        if lang != "*" and not edition_place(place):
            out.append(f"rule {rid}: the {lang} reference needs a \"section\" (and maybe a "
                       f"\"page\" and a \"step\")")
    if not is_app(rule) and (not isinstance(rule.get("topic"), str) or not rule["topic"]):
        out.append(f"rule {rid}: \"topic\" is missing")
    return out


def edition_place(place: Any) -> bool:
    """A place in one edition: ``{"section": title, "page"?: "6", "step"?: 1}``."""
    return (isinstance(place, dict) and isinstance(place.get("section"), str)
            and bool(place["section"]) and set(place) <= {"section", "page", "step"}
            and isinstance(place.get("page", ""), str)
            and type(place.get("step", 0)) is int)


def is_app(rule: dict) -> bool:
    """A rule of the app (a host correction, a malformed request), not of the game."""
    return (rule.get("ref") or {}).get("*") == "App"


def ref(rule: dict, lang: str) -> dict | None:
    """The place in the edition ``lang`` comes from (``{"section", "page"?, "step"?}``), or
    None when that language has no edition of its own (then the ``topic`` names it)."""
    place = (rule.get("ref") or {}).get(lang)
    return place if lang != "*" and isinstance(place, dict) else None


def rule_of(texts: Any, section: str, key: str) -> tuple[str, dict] | None:
    """(rule id, rule) cited for ``key`` of ``section`` ("reasons", "events", "prompts")."""
    rid = (getattr(texts, "cites", None) or {}).get(section, {}).get(key)
    rule = (getattr(texts, "rules", None) or {}).get(rid) if rid else None
    return (rid, rule) if rule else None


def event_rule(texts: Any, event: dict) -> tuple[str, dict] | None:
    """The rule cited for a log event: ``"type:param=value"`` first (a VP change's
    ``reason``, a gain's ``source``: one event type, several rules), then ``"type"``."""
    kind = event.get("type")
    for param, value in event.items():
        if param != "type" and isinstance(value, str):
            found = rule_of(texts, "events", f"{kind}:{param}={value}")
            if found:
                return found
    return rule_of(texts, "events", kind) if isinstance(kind, str) else None

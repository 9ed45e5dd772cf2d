"""Every rule cited: the rulebook reference and a short statement of the rule behind each
refusal code, log event and step of a game (docs/rules-cited.md).

A game keeps them in one data file its owner can edit, ``rules.json`` in its catalog package
(e.g. engine/wwe/data/rules.json), and declares them with ``Texts(..., **declared(package))``.
The references come from the rulebooks in shared/seeds (the edition each language comes
from) and the game's rules reference in shared/rules; nothing here guesses one.

    {"rules":   {rule id: {"ref": {"*": "R4.1.2", "it": "Regolamento, p. 4"}, "text": "..."}},
     "reasons": {refusal code: rule id}, "events": {event type: rule id},
     "prompts": {prompt kind: rule id}}

Many codes share one rule: the same rule says the same thing, and there are fewer texts to
translate. ``text`` is an English msgid in the game's gettext domain; ``ref`` is not
translated: it names a page or section of one edition ("*": the game's rules reference).
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
        ref = rule.get("ref") if isinstance(rule, dict) else None
        if not isinstance(ref, dict) or not isinstance(ref.get("*"), str) or not ref["*"]:
            out.append(f"rule {rid}: \"ref\" needs a \"*\" reference")
        elif not all(isinstance(v, str) and v for v in ref.values()):
            out.append(f"rule {rid}: every reference is a text")
        if not isinstance(rule, dict) or not isinstance(rule.get("text"), str) or not rule["text"]:
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


def ref(rule: dict, lang: str) -> str:
    """The reference in the edition ``lang`` comes from, else the game's reference."""
    refs = rule.get("ref") or {}
    return refs.get(lang) or refs.get("*") or ""


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

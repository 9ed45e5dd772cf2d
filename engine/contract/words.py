"""Every refusal, event and prompt has its words: an English template in the game's ``Texts``
(or the app's, for a refusal the app words), its translation in every language the game
declares (``GameInfo.languages``), and every field its template names (an event's, a
refusal's params, a prompt's params). A missing one reaches a phone as a raw code, as
English in a German game, or as a literal ``{after}``.

A game that cites its rules (``Texts.rules``, docs/rules-cited.md) cites one for each of them,
its statement translated too.

The codes are found three ways: every ``Refused("code"`` in the game's own source files,
every refusal met while playing and probing, and every code ``choices`` marks an option
refused or without effect with.
"""
from __future__ import annotations

import importlib.util
import re
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine import citations
from engine.api import LANGUAGES, template_fields

REFUSED = re.compile(r"""Refused\(\s*["']([A-Za-z0-9_]+)["']""")
LOOKED_UP = ("setup", "apply", "prompts", "choices", "public_view", "seat_view")


def game_package(module: Any) -> str:
    """The package holding the game's rules: the one most of its functions come from."""
    found = Counter()
    for name in LOOKED_UP:
        home = getattr(getattr(module, name, None), "__module__", None)
        if home:
            found[home.rpartition(".")[0] or home] += 1
    return found.most_common(1)[0][0] if found else ""


def raised_codes(module: Any) -> dict[str, str]:
    """{code: "file:line"} of every ``Refused("code"`` in the game package's source files."""
    package = game_package(module)
    try:
        spec = importlib.util.find_spec(package) if package else None
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return {}
    if spec.submodule_search_locations:
        files = sorted(f for base in spec.submodule_search_locations
                       for f in Path(base).rglob("*.py"))
    else:
        files = [Path(spec.origin)] if spec.origin else []
    out: dict[str, str] = {}
    for file in files:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for match in REFUSED.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            out.setdefault(match.group(1), f"{file.name}:{line}")
    return out


class Words:
    """The texts of one game, checked once per code, event type and prompt kind."""

    def __init__(self, info: Any, app_reasons: Any, translated: Mapping | None,
                 note: Callable[[str, str], None]) -> None:
        self.info, self.note = info, note
        self.app = dict(app_reasons) if isinstance(app_reasons, Mapping) else {
            code: None for code in app_reasons}
        self.translated = translated
        self.langs = [lang for lang in getattr(info, "languages", LANGUAGES) if lang != "en"]
        self.done: set = set()

    def languages(self) -> None:
        """The declared languages are the app's, English included."""
        declared = tuple(getattr(self.info, "languages", LANGUAGES))
        if "en" not in declared or not set(declared) <= set(LANGUAGES):
            self.note("info", f"GameInfo.languages {declared!r} must hold 'en' (the texts are "
                              f"English) and only languages the app speaks {LANGUAGES!r}")
        if self.translated is None:
            return
        for lang in self.langs:
            if not self.translated.get(lang):
                self.note("info", f"GameInfo.languages declares {lang!r}, but the game has no "
                                  f"translations into it (python -m web.i18n_tool update "
                                  f"{self.info.id})")

    def _once(self, key: Any) -> bool:
        if key in self.done:
            return False
        self.done.add(key)
        return True

    def _in_languages(self, where: str, what: str, msgid: Any, domain: str = "the game's"
                      ) -> None:
        if self.translated is None:
            return
        key = tuple(msgid[:2]) if isinstance(msgid, list | tuple) else msgid
        for lang in self.langs:
            if key not in self.translated.get(lang, ()):
                self.note(where, f"{what} has no {lang} text: {key!r} is not translated "
                                 f"in {domain} messages ({lang})")

    def refusal(self, where: str, code: Any, params: Any = None, how: str = "") -> None:
        """A refusal code (with the params it came with, if known) has words everywhere."""
        if not isinstance(code, str):
            self.note(where, f"a refusal code must be text, not {code!r}{how}")
            return
        template = self.info.texts.reasons.get(code)
        domain = "the game's"
        if template is None and code in self.app:
            template, domain = self.app[code], "the app's"
            if template is None:
                return  # the app words it; its template was not given to the kit
        if template is None:
            if self._once(("reason", code)):
                self.note(where, f"refusal {code!r}{how} has no text in Texts.reasons (a phone "
                                 f"would show the bare code)")
            return
        if isinstance(params, dict):
            missing = template_fields(template) - params.keys()
            if missing and self._once(("reason fields", code, tuple(sorted(missing)))):
                self.note(where, f"refusal {code!r}{how} lacks {sorted(missing)}, which its "
                                 f"text names (a phone would show {{{sorted(missing)[0]}}})")
        if self._once(("reason langs", code)):
            self._in_languages(where, f"refusal {code!r}", template, domain)
            if domain == "the game's":
                self._cited(where, f"refusal {code!r}",
                            citations.rule_of(self.info.texts, "reasons", code))

    def event(self, where: str, event: Any) -> None:
        if not isinstance(event, dict):
            self.note(where, f"an event must be an object, not {event!r}")
            return
        kind = event.get("type")
        template = self.info.texts.events.get(kind)
        if template is None:
            if self._once(("event", kind)):
                self.note(where, f"event {kind!r} has no text in Texts.events")
            return
        missing = template_fields(template) - event.keys()
        if missing and self._once(("event fields", kind, tuple(sorted(missing)))):
            # the log would show "{field}" (an old record: Texts.older_events)
            self.note(where, f"event {kind!r} lacks {sorted(missing)}, which its text names "
                             f"(the log would show {{{sorted(missing)[0]}}})")
        if self._once(("event langs", kind)):
            self._in_languages(where, f"event {kind!r}", template)
            self._cited(where, f"event {kind!r}", citations.event_rule(self.info.texts, event))
        if kind == "corrected":  # the app words a host's correction with these
            lacking = {"part", "before", "after", "reason"} - event.keys()
            if lacking and self._once(("corrected", tuple(sorted(lacking)))):
                self.note(where, f"event 'corrected' lacks {sorted(lacking)} (docs/engine.md, "
                                 f"Corrections: the app words before and after from them)")

    def prompt(self, where: str, prompt: Any) -> None:
        template = self.info.texts.prompts.get(prompt.kind)
        if template is None:
            if self._once(("prompt", prompt.kind)):
                self.note(where, f"prompt {prompt.kind!r} has no text in Texts.prompts")
            return
        missing = template_fields(template) - set(prompt.params) - {"seat"}
        if missing and self._once(("prompt fields", prompt.kind)):
            self.note(where, f"prompt {prompt.kind!r} lacks {sorted(missing)}, which its text "
                             f"names")
        if self._once(("prompt langs", prompt.kind)):
            self._in_languages(where, f"prompt {prompt.kind!r}", template)
            self._cited(where, f"prompt {prompt.kind!r}",
                        citations.rule_of(self.info.texts, "prompts", prompt.kind))

    def _cited(self, where: str, what: str, found: Any) -> None:
        """A game that cites its rules (docs/rules-cited.md) cites one for each refusal, event
        and prompt, its statement translated (the phones' "Why?")."""
        if not getattr(self.info.texts, "rules", None):
            return
        if found is None:
            self.note(where, f"{what} cites no rule (Texts.cites, docs/rules-cited.md)")
            return
        rid, rule = found
        if rule.get("text"):
            self._in_languages(where, f"rule {rid!r} cited by {what}", rule["text"])

    def choices(self, where: str, choices: list) -> None:
        """The codes ``choices`` gives: a refused option's and an option without effect's."""
        for choice in choices:
            for what, found in (("refused", choice.refused),
                                ("no_effect", (choice.effect or {}).get("no_effect"))):
                if found is None:
                    continue
                if not isinstance(found, dict):
                    self.note(where, f"a choice's {what} must be {{code, params}}: {found!r}")
                    continue
                self.refusal(where, found.get("code"), found.get("params", {}),
                             f" (a choice's {what})")

    def source(self, module: Any) -> None:
        """Every ``Refused("code"`` in the game's source has its words."""
        for code, place in sorted(raised_codes(module).items()):
            self.refusal(f"source {place}", code, None, " (raised in the rules)")

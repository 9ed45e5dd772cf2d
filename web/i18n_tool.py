"""Extract, merge, compile and check the UI translations (docs/translations.md).

    python -m web.i18n_tool update   # re-extract messages.pot, merge it into every .po
    python -m web.i18n_tool check    # list missing/empty translations and placeholder mismatches

Why not plain `pybabel`: besides the gettext calls in the templates and the companion code,
the msgids include every English template of the engine's refusal reasons
(`engine.wwe.reasons.REASONS`) and log texts (`engine.wwe.texts.EVENT_TEXTS`), which are dict
values, not gettext calls. The server passes them to gettext at run time, so they must be in
the catalog too, and so must the strings of `web/ui_strings.json` (the UI strings the server
hands to the page scripts). This tool adds them to the extracted template. The server
compiles the .po files to .mo at start-up (companion/i18n.py), so no .mo is kept here.
"""
from __future__ import annotations

import importlib
import io
import json
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "web" / "translations"
POT = TRANSLATIONS / "messages.pot"
LANGUAGES = ("it", "pl", "es", "de")
# The Plural-Forms headers come from Babel's CLDR data for each locale; the check below
# asserts them (Polish: 3 forms).
NPLURALS = {"it": 2, "es": 2, "de": 2, "pl": 3}
KEYWORDS = {
    "_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "_l": None,
    "lazy_ngettext": (1, 2), "N_": None, "pgettext": ((1, "c"), 2),
}
# (folder, method map) pairs scanned for gettext calls.
SOURCES = [
    ("web/templates", [("**.html", "jinja2")]),
    ("companion", [("**.py", "python")]),
]
# Dicts whose values are msgids the server translates at run time:
# (module, attribute, comment prefix, index into a tuple value or None).
ENGINE_TEXTS = [
    ("engine.wwe.reasons", "REASONS", "refusal", None),
    ("engine.wwe.texts", "EVENT_TEXTS", "log event", None),
    ("engine.wwe.texts", "PROMPT_TEXTS", "prompt", None),
    ("engine.wwe.texts", "TERMS", "term in a log text", None),
    ("engine.wwe.options", "OPTIONS", "rule option", 3),  # the new-game form's labels
    ("companion.reasons", "SERVER_REASONS", "server refusal", None),
    ("companion.wiring.camera", "MESSAGES", "camera warning", None),
    ("companion.hardware_texts", "MESSAGES", "host hardware page", None),
]

_DATE = re.compile(rb'"POT-Creation-Date: [^"]*"\n')
_BRACE = re.compile(r"(?<!\{)\{(\w*)[^{}]*\}(?!\})")
_PERCENT = re.compile(r"%\((\w+)\)[sdif]")


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message: `{name}` and `%(name)s` styles."""
    return {f"{{{m}}}" for m in _BRACE.findall(text)} | {
        f"%({m})" for m in _PERCENT.findall(text)
    }


UI_STRINGS = ROOT / "web" / "ui_strings.json"


def msgid_of(value) -> str | tuple[str, str]:
    """A msgid as Babel wants it: a string, or (singular, plural) for a [s, p] list."""
    return tuple(value) if isinstance(value, list | tuple) else value


def ui_strings() -> list[tuple[str | tuple[str, str], str, str]]:
    """(msgid, comment, source) for every entry of web/ui_strings.json."""
    if not UI_STRINGS.exists():
        return []
    table = json.loads(UI_STRINGS.read_text(encoding="utf-8"))
    return [(msgid_of(v), f"ui: {k}", "web/ui_strings.json") for k, v in table.items()]


def engine_texts() -> list[tuple[str | tuple[str, str], str, str]]:
    """(msgid, comment, source) for every engine template that exists right now."""
    out = []
    for module_name, attr, what, index in ENGINE_TEXTS:
        try:
            table = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError):
            continue
        for key, value in sorted(table.items()):
            template = value[index] if index is not None else value
            out.append((msgid_of(template), f"{what}: {key}", f"{module_name}.{attr}"))
    return out


def extract() -> Catalog:
    """The template catalog (what messages.pot holds)."""
    catalog = Catalog(project="Table Companion", version="1", charset="utf-8",
                      msgid_bugs_address="", copyright_holder="Table Companion")
    for folder, method_map in SOURCES:
        base = ROOT / folder
        if not base.is_dir():
            continue
        options = {"**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "false"}}
        for filename, lineno, message, comments, context in extract_from_dir(
                base, method_map, options, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
                strip_comment_tags=True):
            catalog.add(message, None, [(f"{folder}/{filename}", lineno)],
                        auto_comments=comments, context=context)
    for msgid, comment, source in ui_strings() + engine_texts():
        existing = catalog.get(msgid)
        if existing is not None:
            existing.auto_comments.append(comment)
            existing.locations.append((source, 0))
        else:
            catalog.add(msgid, None, [(source, 0)], auto_comments=[comment])
    for message in catalog:
        if message.id:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            if any("{" in i for i in ids):
                message.flags.add("python-brace-format")
    return catalog


def po_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def read(lang: str) -> Catalog:
    path = po_path(lang)
    if not path.exists():
        return Catalog(locale=lang, charset="utf-8", project="Table Companion")
    with path.open("rb") as fh:
        return read_po(fh, locale=lang)


def _save(path: Path, catalog: Catalog) -> None:
    """Write a .po/.pot, but leave the file alone when only its creation date would change."""
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, ignore_obsolete=True,
             sort_output=False)
    new = out.getvalue()
    if path.exists() and _DATE.sub(b"", path.read_bytes()) == _DATE.sub(b"", new):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(new)


def write(lang: str, catalog: Catalog) -> None:
    _save(po_path(lang), catalog)


def update() -> None:
    """Re-extract the template and merge it into every language."""
    template = extract()
    _save(POT, template)
    for lang in LANGUAGES:
        catalog = read(lang)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.fuzzy = False
        catalog.project, catalog.version = "Table Companion", "1"
        catalog.last_translator = "Table Companion web <translations@table-companion.invalid>"
        catalog.language_team = f"{lang} <translations@table-companion.invalid>"
        write(lang, catalog)


def problems(lang: str, template: Catalog | None = None) -> list[str]:
    """Every msgid of the template that `lang` lacks, leaves empty, marks fuzzy, or whose
    placeholders differ from the English ones."""
    template = template or extract()
    catalog = read(lang)
    out = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        label = message.id if isinstance(message.id, str) else message.id[0]
        if found is None:
            out.append(f"{lang}: missing {label!r}")
            continue
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        if not all(strings) or (isinstance(message.id, tuple) and
                                len(strings) != catalog.num_plurals):
            out.append(f"{lang}: empty {label!r}")
            continue
        if found.fuzzy:
            out.append(f"{lang}: fuzzy {label!r}")
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        expected = set().union(*(placeholders(i) for i in ids))
        for s in strings:
            got = placeholders(s)
            # A singular form may omit the count ("one round"), never add a name.
            if got - expected or (expected - got and not isinstance(message.id, tuple)):
                out.append(f"{lang}: placeholders {sorted(got)} != {sorted(expected)} "
                           f"in {label!r}")
    return out


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "update":
        update()
        command = "check"
    if command == "check":
        template = extract()
        found = [p for lang in LANGUAGES for p in problems(lang, template)]
        print("\n".join(found) or "all translations complete")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

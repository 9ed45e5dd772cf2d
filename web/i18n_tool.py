"""Extract, merge, compile and check the UI translations, one gettext domain at a time
(docs/translations.md).

    python -m web.i18n_tool update [DOMAIN...]  # re-extract each .pot, merge it into every .po
    python -m web.i18n_tool check [DOMAIN...]   # missing/empty translations, placeholder mismatches
    python -m web.i18n_tool domains             # the domains and where their files are

Domains: ``shared`` (web/translations: the shared templates, the companion's gettext calls,
the server's reasons, the camera and hardware texts, web/ui_strings.json) and one per game,
named by the game id (``<the game's web folder>/translations``: the game's template partials,
its ui_strings.json, and everything it declares in ``GAME.info`` as English msgids: texts
(reasons, events, prompts, terms, ui, rules), options (text, labels), seat names, the start rule,
camera zones, die roles, catalog part titles). Games are found through the entry-point
group ``table_companion.games``, as the server finds them; without DOMAIN arguments the tool
works on the shared domain and on every game whose web folder is inside this repository (a
game shipped as its own package runs the tool with its id). Why not plain `pybabel`: most
msgids are dict values and declarations the server passes to gettext at run time, not
gettext calls. The server compiles the .po files to .mo at start-up and on a game's first use
(companion/server/i18n.py), so no .mo is kept here.

A msgid new to a domain takes the translation another domain already has for it (so moving
a text between domains, or a new game reusing a shared word, loses no translation).
A game's domain is kept in the languages the game declares (``GameInfo.languages``: a game
in English and German has only ``de/``); the shared domain in all of them.
"""
from __future__ import annotations

import importlib
import importlib.util
import io
import json
import re
import sys
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "web" / "translations"
POT = TRANSLATIONS / "messages.pot"
UI_STRINGS = ROOT / "web" / "ui_strings.json"
LANGUAGES = ("it", "pl", "es", "de")
GROUP = "table_companion.games"
# The Plural-Forms headers come from Babel's CLDR data for each locale; the check below
# asserts them (Polish: 3 forms).
NPLURALS = {"it": 2, "es": 2, "de": 2, "pl": 3}
KEYWORDS = {
    "_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "_l": None,
    "lazy_ngettext": (1, 2), "N_": None, "pgettext": ((1, "c"), 2),
}
JINJA = [("**.html", "jinja2")]
# The shared domain's dicts whose values are msgids the server translates at run time:
# (module, attribute, comment prefix).
SHARED_TEXTS = [
    ("companion.game.reasons", "SERVER_REASONS", "server refusal"),
    ("companion.wiring.camera_plan", "MESSAGES", "camera warning"),
    ("companion.game.hardware_texts", "MESSAGES", "host hardware page"),
    ("companion.table.table_steps", "TEXTS", "table step"),
    ("companion.table.correction_words", "TEXTS", "a host correction in words"),
    ("companion.table.citations", "TEXTS", "a rule's reference"),
    ("companion.box.catalog", "REASONS", "catalog problem"),
    ("companion.blueprints.deck", "TEXTS", "deck page"),
    ("companion.blueprints.deck", "SCHEMA_TEXTS", "deck page, a schema rule"),
    ("companion.table.history", "TEXTS", "finished games"),
    ("companion.game.views", "APP_EVENTS", "a log line of the app's"),
]
Entry = tuple  # (msgid or (singular, plural), comment, source)


@dataclass
class Domain:
    """One gettext domain: where its catalogs live and where its msgids come from."""

    name: str
    translations: Path
    sources: list[tuple[Path, list]] = field(default_factory=list)  # (folder, method map)
    ui_strings: Path | None = None
    texts: list = field(default_factory=list)  # callables returning [Entry]
    # the languages its .po files are kept in: a game's `GameInfo.languages` but English
    languages: tuple[str, ...] = LANGUAGES
    # the folder the .pot's source comments are relative to: this repository, or for a game
    # shipped as its own package the folder holding that package (no machine's paths)
    root: Path = ROOT

    @property
    def pot(self) -> Path:
        return self.translations / "messages.pot"

    def po_path(self, lang: str) -> Path:
        return self.translations / lang / "LC_MESSAGES" / "messages.po"


def msgid_of(value) -> str | tuple[str, str]:
    """A msgid as Babel wants it: a string, or (singular, plural) for a [s, p] list (or a
    [s, p, name] list, whose name says which param counts: companion/server/i18n.text)."""
    return tuple(value[:2]) if isinstance(value, list | tuple) else value


def ui_strings_of(path: Path | None, root: Path = ROOT) -> list[Entry]:
    """(msgid, comment, source) for every entry of a ui_strings.json."""
    if path is None or not path.exists():
        return []
    table = json.loads(path.read_text(encoding="utf-8"))
    source = _shown(path, root)
    return [(msgid_of(v), f"ui: {k}", source) for k, v in table.items()]


def ui_strings() -> list[Entry]:
    """The shared web/ui_strings.json (see `ui_strings_of`)."""
    return ui_strings_of(UI_STRINGS)


def shared_texts() -> list[Entry]:
    out = []
    for module_name, attr, what in SHARED_TEXTS:
        try:
            table = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError):
            continue
        for key, value in sorted(table.items()):
            out.append((msgid_of(value), f"{what}: {key}", f"{module_name}.{attr}"))
    return out


def game_texts(info) -> list[Entry]:
    """Every English msgid a game declares in its GameInfo (engine/api.py)."""
    source = f"{info.id}: GAME.info"
    out: list[Entry] = []

    def put(value, comment: str) -> None:
        if value:
            out.append((msgid_of(value), comment, source))

    texts = info.texts
    for what, table in (("refusal", texts.reasons), ("log event", texts.events),
                        ("prompt", texts.prompts), ("term in a log text", texts.terms),
                        ("ui", texts.ui),
                        ("catalog problem", getattr(texts, "catalog", None))):
        for key, value in sorted((table or {}).items()):
            put(value, f"{what}: {key}")
    for key, older in sorted((getattr(texts, "older_events", None) or {}).items()):
        for value in older:
            put(value, f"log event stored before its fields grew: {key}")
    for rid, rule in sorted((getattr(texts, "rules", None) or {}).items()):
        put(rule.get("text"), f"rule cited: {rid} ({rule.get('ref', {}).get('*')})")
        put(rule.get("topic"), f"rulebook section of rule {rid}, for a language without its "
                               f"own edition ({rule.get('ref', {}).get('*')})")
    for option in info.options:
        put(option.text, f"rule option: {option.id}")
        for choice, label in sorted((option.labels or {}).items()):
            if label != choice:  # a bare value shown as itself is no text
                put(label, f"rule option {option.id}: {choice}")
    for seat in info.seats:
        put(seat.name, f"seat: {seat.id}")
    put(info.start_rule, "start rule")
    for zone in getattr(info.bindings, "zones", ()) or ():
        put(zone.name, f"camera zone: {zone.id}")
    for role in getattr(info.bindings, "dice", ()) or ():
        put(role.name, f"die role: {role.id}")
    for part in info.parts or ():
        put(part.title, f"catalog part: {part.id}")
        for where, title in schema_titles(part.schema):
            put(title, f"catalog field: {part.id}{where}")
    if getattr(info, "table_guide", ""):  # the guided setup (companion/table/table_guide.py)
        from companion.table.table_guide import msgids

        for text, where in msgids(info.table_guide):
            put(text, where)
    return out


def schema_titles(schema, where: str = "") -> list[tuple[str, str]]:
    """Every ``title`` inside a part's JSON Schema but its own (field labels and choices of
    the owner's deck page), with where it is."""
    out = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "title" and where and isinstance(value, str):
                out.append((where, value))
            elif isinstance(value, dict | list):
                out += schema_titles(value, f"{where}.{key}")
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            out += schema_titles(value, f"{where}[{i}]")
    return out


def _shown(path: Path, root: Path = ROOT) -> str:
    """``path`` relative to ``root`` (a .pot names no machine's folders); a path outside it
    by its name only."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def installed_games() -> dict:
    """game id -> GameInfo of every game the entry points name (one that fails to load is
    reported on stderr and left out)."""
    out = {}
    for entry in entry_points(group=GROUP):
        try:
            info = entry.load().info
        except Exception as exc:  # another checkout's plug-in, a broken one: not ours
            print(f"skipping game {entry.name!r}: {exc}", file=sys.stderr)
            continue
        out.setdefault(info.id, info)
    return out


def web_folder(package: str) -> Path | None:
    from companion.server.i18n import package_folder  # (one way to find a web folder)

    return package_folder(package)


def shared_domain() -> Domain:
    return Domain("shared", TRANSLATIONS,
                  [(ROOT / "web" / "templates", JINJA),
                   (ROOT / "companion", [("**.py", "python")])],
                  UI_STRINGS, [shared_texts])


IN_TREE = "web.games."


def game_domain(info, create: bool = False) -> Domain | None:
    """The game's domain; None while its web folder does not exist. ``create``: make an
    in-tree game's folder (``web/games/<id>/`` with its ``__init__.py``) first."""
    folder = web_folder(info.web)
    if folder is None and create and info.web.startswith(IN_TREE):
        folder = ROOT / "web" / "games" / info.web[len(IN_TREE):]
        (folder / "translations").mkdir(parents=True, exist_ok=True)
        init = folder / "__init__.py"
        if not init.exists():
            init.write_text(f'"""The web folder of the game {info.id!r} (docs/engine.md)."""\n')
    if folder is None:
        return None
    declared = getattr(info, "languages", None) or ("en", *LANGUAGES)
    root = ROOT if ROOT in folder.parents else _package_home(folder, info.web)
    return Domain(info.id, folder / "translations", [(folder / "templates", JINJA)],
                  folder / "ui_strings.json", [lambda: game_texts(info)],
                  tuple(lang for lang in declared if lang != "en"), root)


def _package_home(folder: Path, package: str) -> Path:
    """The folder holding the top package of ``package`` (its web folder ``folder``): a game
    shipped as its own package is named from there ("tc_liarsdice/web/templates/...")."""
    home = folder
    for _ in package.split("."):
        home = home.parent
    return home


def missing_folders() -> list[str]:
    """Installed games whose declared web folder does not exist yet (their texts are in no
    domain: `update <id>` makes an in-tree game's folder)."""
    return sorted(f"{game_id}: no web folder {info.web!r}"
                  for game_id, info in installed_games().items()
                  if web_folder(info.web) is None)


def domains(names: list[str] | None = None, create: bool = False) -> list[Domain]:
    """The shared domain and the games' (``names``: only these; else the in-repo games)."""
    out = [shared_domain()] if not names or "shared" in names else []
    for game_id, info in sorted(installed_games().items()):
        wanted = bool(names and game_id in names)
        domain = game_domain(info, create=create and wanted)
        if domain is None:
            continue
        inside = ROOT in domain.translations.parents
        if wanted or (not names and inside):
            out.append(domain)
    return out


def domain(name: str) -> Domain:
    found = [d for d in domains([name]) if d.name == name]
    if not found:
        raise KeyError(name)
    return found[0]


_DATE = re.compile(rb'"POT-Creation-Date: [^"]*"\n')
_BRACE = re.compile(r"(?<!\{)\{(\w*)[^{}]*\}(?!\})")
_PERCENT = re.compile(r"%\((\w+)\)[sdif]")


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message: `{name}` and `%(name)s` styles."""
    return {f"{{{m}}}" for m in _BRACE.findall(text)} | {
        f"%({m})" for m in _PERCENT.findall(text)
    }


def extract(dom: Domain | None = None) -> Catalog:
    """The template catalog of a domain (what its messages.pot holds); shared by default."""
    dom = dom or shared_domain()
    catalog = Catalog(project="Table Companion", version="1", charset="utf-8",
                      msgid_bugs_address="", copyright_holder="Table Companion")
    for base, method_map in dom.sources:
        if not base.is_dir():
            continue
        options = {"**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "false"}}
        for filename, lineno, message, comments, context in extract_from_dir(
                base, method_map, options, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
                strip_comment_tags=True):
            catalog.add(message, None, [(f"{_shown(base, dom.root)}/{filename}", lineno)],
                        auto_comments=comments, context=context)
    entries = ui_strings_of(dom.ui_strings, dom.root)
    for texts in dom.texts:
        entries += texts()
    for msgid, comment, source in entries:
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


def po_path(lang: str, dom: Domain | None = None) -> Path:
    return (dom or shared_domain()).po_path(lang)


def read(lang: str, dom: Domain | None = None) -> Catalog:
    path = po_path(lang, dom)
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


def write(lang: str, catalog: Catalog, dom: Domain | None = None) -> None:
    _save(po_path(lang, dom), catalog)


def is_translated(message) -> bool:
    """Every form of the entry filled, and not fuzzy (`companion contract` counts these)."""
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return bool(message.id) and all(strings) and not message.fuzzy


def update(names: list[str] | None = None) -> None:
    """Re-extract each domain's template and merge it into every language; a msgid a
    domain lacks a translation of takes the one another domain has (read before writing)."""
    chosen = domains(names, create=True)
    everywhere = {d.name: d for d in domains(None) + chosen}.values()
    for lang in LANGUAGES:
        pool = [read(lang, d) for d in everywhere]
        for dom in chosen:
            if lang not in dom.languages:
                continue
            template = extract(dom)
            _save(dom.pot, template)
            catalog = read(lang, dom)
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
            for message in catalog:
                if not message.id or is_translated(message):
                    continue
                for other in pool:
                    found = other.get(message.id, message.context)
                    if found is not None and is_translated(found) and \
                            isinstance(found.string, tuple) == isinstance(message.id, tuple):
                        message.string = found.string
                        message.flags.discard("fuzzy")
                        break
            catalog.fuzzy = False
            catalog.project, catalog.version = "Table Companion", "1"
            catalog.last_translator = "Table Companion web <translations@table-companion.invalid>"
            catalog.language_team = f"{lang} <translations@table-companion.invalid>"
            write(lang, catalog, dom)


def problems(lang: str, template: Catalog | None = None, dom: Domain | None = None) -> list[str]:
    """Every msgid of the template that `lang` lacks, leaves empty, marks fuzzy, or whose
    placeholders differ from the English ones (in domain ``dom``, shared by default)."""
    template = template or extract(dom)
    catalog = read(lang, dom)
    where = f"{dom.name} " if dom else ""
    out = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        label = message.id if isinstance(message.id, str) else message.id[0]
        if found is None:
            out.append(f"{where}{lang}: missing {label!r}")
            continue
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        if not all(strings) or (isinstance(message.id, tuple) and
                                len(strings) != catalog.num_plurals):
            out.append(f"{where}{lang}: empty {label!r}")
            continue
        if found.fuzzy:
            out.append(f"{where}{lang}: fuzzy {label!r}")
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        expected = set().union(*(placeholders(i) for i in ids))
        for s in strings:
            got = placeholders(s)
            # A singular form may omit the count ("one round"), never add a name.
            if got - expected or (expected - got and not isinstance(message.id, tuple)):
                out.append(f"{where}{lang}: placeholders {sorted(got)} != {sorted(expected)} "
                           f"in {label!r}")
    return out


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    names = argv[2:] or None
    if command == "domains":
        for dom in domains(names):
            print(f"{dom.name}: {_shown(dom.translations, dom.root)}")
        return 0
    if command == "update":
        update(names)
        command = "check"
    if command == "check":
        found = []
        for dom in domains(names):
            template = extract(dom)
            found += [p for lang in dom.languages for p in problems(lang, template, dom)]
        print("\n".join(found) or "all translations complete")
        for line in missing_folders() if not names else ():
            print(f"note: {line}", file=sys.stderr)
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

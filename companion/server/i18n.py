"""Languages: Flask-Babel set-up, .po → .mo compilation, per-recipient translation.

msgids are English texts. There is one *shared* gettext domain (``web/translations``: the
shared templates, the companion's own texts, the server's reasons, the hardware texts) and
one domain per game (``<the game's web folder>/translations``: its engine texts from
``GAME.info.texts``, its option texts, its UI strings and its template msgids; docs/
translations.md). A text of a game is looked up in the game's domain first, then in the
shared one. Socket messages are translated per recipient, since each phone may have its own
language.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import io
import json
import logging
import os
import re
import string
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from babel import Locale
from babel.messages import mofile, pofile
from babel.plural import PluralRule
from babel.support import NullTranslations, Translations
from flask import Flask, current_app, request
from flask_babel import Babel, force_locale, get_translations

from companion.server import locks

LANGUAGES = {"en": "English", "it": "Italiano", "pl": "Polski", "es": "Español",
             "de": "Deutsch"}
DEFAULT_LANG = "en"
WEB_DIR = Path(__file__).resolve().parents[2] / "web"
log = logging.getLogger(__name__)


def offered(allowed=None) -> list[str]:
    """The app's language codes a page offers: those of ``allowed`` (a game's
    ``GameInfo.languages``: its texts are translated into those only), else all."""
    return [c for c in LANGUAGES if allowed is None or c in allowed or c == DEFAULT_LANG]


def normalize_lang(lang: object, allowed=None) -> str:
    """``lang`` if the app (and, given ``allowed``, the game) speaks it, else English."""
    lang = str(lang or "").lower()[:2]
    return lang if lang in offered(allowed) else DEFAULT_LANG


def compile_translations(source: Path, target: Path) -> list[str]:
    """Compile every ``<lang>/LC_MESSAGES/messages.po`` under ``source`` into ``target``.

    Only when the .mo is missing or older than the .po, so a start costs nothing usually.
    Returns the languages compiled. A broken .po is logged and skipped (English still works).
    """
    compiled = []
    for po_path in sorted(Path(source).glob("*/LC_MESSAGES/*.po")):
        rel = po_path.relative_to(source)
        mo_path = (Path(target) / rel).with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        try:
            body = compiled_mo(po_path.read_bytes())
            mo_path.parent.mkdir(parents=True, exist_ok=True)
            # one temp file per writer: two threads or workers may compile at once
            tmp = mo_path.with_suffix(f".mo.{os.getpid()}.{threading.get_ident()}.tmp")
            tmp.write_bytes(body)
            tmp.replace(mo_path)
            compiled.append(rel.parts[0])
        except Exception as exc:  # keep serving: a bad translation must not stop a game
            log.error("cannot compile %s: %s", po_path, exc)
    return compiled


# The .mo compiled from each .po text, kept for the process's life: an app compiles every
# language into a data directory where none is yet (0.2-0.3 s per domain on a PC, the .po
# parse), and a process that makes many apps (the tests; a server made again in one process)
# would parse the same .po each time. Keyed by a digest of the .po's bytes, never its name or
# time: an edited .po is compiled anew. A Pi compiles into its data directory once anyway.
_MO: dict[bytes, bytes] = {}
_MO_MOST = 64  # the shared domain and three games' in five languages, and room to spare


def compiled_mo(po: bytes) -> bytes:
    """The .mo file's bytes of a .po file's ``po`` bytes (raises what babel raises)."""
    key = hashlib.sha256(po).digest()
    body = _MO.get(key)  # one dict get or set at a time; the same bytes whoever makes them
    if body is None:
        out = io.BytesIO()
        mofile.write_mo(out, pofile.read_po(io.BytesIO(po)))
        body = out.getvalue()
        if len(_MO) >= _MO_MOST:
            _MO.clear()
        _MO[key] = body
    return body


def page_lang(allowed=None) -> str:
    """?lang= → lang cookie → Accept-Language → English; of a game's page, only a language
    of the game's (``allowed``: its ``GameInfo.languages``)."""
    codes = offered(allowed)
    for candidate in (request.args.get("lang"), request.cookies.get("lang")):
        if candidate and candidate[:2].lower() in codes:
            return candidate[:2].lower()
    return request.accept_languages.best_match(codes) or DEFAULT_LANG


class Games(Protocol):
    """The games of an app, as the languages need them (companion/game/games.py
    `Installed`): their ids, and each game's module, whose ``info.web`` names its folder."""

    def known(self) -> list[str]: ...

    def module_of(self, name: str) -> Any: ...


@dataclass
class _Languages:
    """What this module keeps per app (Flask's extension state, read only here): the
    app's games and the caches of their folders, translations and UI strings, read and
    written under ``lock`` (a leaf; a value is made outside it, the first one made kept)."""

    games: Games
    web_packages: dict = field(default_factory=dict)
    translations: dict = field(default_factory=dict)
    ui_strings: dict = field(default_factory=dict)
    lock: Any = field(default_factory=lambda: locks.lock("i18n caches"))

    def cached(self, cache: dict, key: Any, make: Any) -> Any:
        """``cache[key]``, made by ``make()`` the first time (outside the lock: it may
        compile a catalog or look up the games)."""
        with self.lock:
            if key in cache:
                return cache[key]
        value = make()
        with self.lock:
            return cache.setdefault(key, value)


_KEY = "companion.i18n"


def _languages() -> _Languages:
    return current_app.extensions[_KEY]


def compiled_folder(data_dir: Path, game: str | None = None) -> Path:
    """Where a data folder keeps compiled catalogs: the shared domain's, or ``game``'s own
    (one place for the layout: the server compiles into it, the tests prepare it)."""
    folder = Path(data_dir) / "translations"
    return folder / "games" / game if game else folder


def init_app(app: Flask, data_dir: Path, games: Games) -> None:
    """Babel for ``app``, the shared translations compiled into ``data_dir``, and the
    games (``games``) whose own domains are looked up."""
    source = Path(app.config.get("TRANSLATIONS_SOURCE", WEB_DIR / "translations"))
    target = compiled_folder(data_dir)
    compile_translations(source, target)
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(target)
    app.config["BABEL_DEFAULT_LOCALE"] = DEFAULT_LANG
    Babel(app, locale_selector=page_lang)
    app.extensions[_KEY] = _Languages(games)


class _Keep(dict):
    """format_map helper: an unknown placeholder stays visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# A value that already ends a sentence: the template's own period after it goes
# ("Event: Because the works…." would show two).
SENTENCE_ENDS = (".", "…", "!", "?")
_FORMATTER = string.Formatter()
_FORM = re.compile(r"[A-Za-z_]\w*\.[A-Za-z_]\w*")  # {param.form}: a name in a form


def in_lang(texts: dict, lang: str, fallback: str = "") -> str:
    """A name the data gives in several languages (a game's title, a card's printed name),
    in ``lang``; in English where it lacks that one (every game gives English); else
    ``fallback`` (its id: an owner may enter a card in one language only)."""
    return texts.get(lang) or texts.get("en") or fallback


def fill(template: str, params: dict) -> str:
    """``template`` with its ``{param}`` placeholders filled; an unknown one stays visible,
    and a period right after a value that ends a sentence already is dropped."""
    if "{" not in template:
        return template
    known = _Keep(params)
    out: list[str] = []
    try:
        for literal, field, spec, conversion, simple in _parsed(template):
            if literal.startswith(".") and out and out[-1].endswith(SENTENCE_ENDS):
                literal = literal[1:]
            out.append(literal)
            if field is None:
                continue
            if "{" in spec:  # a nested placeholder: leave it to str.format
                return template.format_map(known)
            if simple:  # {name}: what get_field and convert_field would give
                value = known[field]
            elif field in known:  # {name.form}: a name's grammatical form, given by the
                value = known[field]  # caller (companion.game.views.Namer.forms)
            elif _FORM.fullmatch(field) and field.split(".")[0] in known:
                value = known[field.split(".")[0]]  # no such form: the plain name
            else:
                value, _ = _FORMATTER.get_field(field, (), known)
                value = _FORMATTER.convert_field(value, conversion)
            out.append(format(value, spec))
    except (ValueError, IndexError, AttributeError, KeyError, TypeError):
        return template
    return "".join(out)


_PARSED: dict[str, list] = {}


def _parsed(template: str) -> list:
    """``string.Formatter().parse(template)``, parsed once per template (a view fills the
    same few dozen every time), each field marked simple when it is a plain name."""
    found = _PARSED.get(template)
    if found is None:
        found = [(literal, field, spec or "", conversion,
                  field is not None and field.isidentifier() and conversion is None)
                 for literal, field, spec, conversion in _FORMATTER.parse(template)]
        if len(_PARSED) < 10_000:  # templates come from the catalogs: a bound all the same
            _PARSED[template] = found
    return found


# ---- game domains -------------------------------------------------------------------------
def web_package(game: str) -> str | None:
    """The importable package of ``game``'s web folder (``GAME.info.web``), or None.

    The game is one of the app's games (`init_app`'s ``games``); only its declarations are
    read, never its catalog.
    """
    languages = _languages()

    def make() -> str | None:
        try:
            return languages.games.module_of(game).info.web or None
        except Exception:  # an unknown or broken game has no web folder (doctor says why)
            log.warning("game %s has no web folder", game, exc_info=True)
            return None

    return languages.cached(languages.web_packages, game, make)


def web_dir(game: str) -> Path | None:
    """The folder of ``game``'s web package (static/, templates/, translations/ ...)."""
    package = web_package(game)
    return package_folder(package) if package else None


def package_folder(package: str) -> Path | None:
    """Where the importable package ``package`` lies (in the repo or installed), or None.
    Also web/i18n_tool.py's way to find a game's web folder."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or []) if spec else []
    return Path(locations[0]) if locations else None


def known_games() -> list[str]:
    """Game ids whose domains a text without ``game=`` may come from: the app's games."""
    try:
        return list(_languages().games.known())
    except Exception:  # a broken plug-in must not stop the translations of the others
        log.exception("cannot list the installed games")
        return []


_COMPILING = locks.lock("i18n compiling")


def _game_translations(lang: str, game: str):
    """``game``'s own catalog for ``lang``, compiled into DATA/translations/games/<id> on
    its first use (once per app, language and game: `translations` caches the result)."""
    folder = web_dir(game)
    source = folder / "translations" if folder else None
    if source is None or not source.is_dir():
        return None
    target = compiled_folder(current_app.config["DATA_DIR"], game)
    with _COMPILING:  # no thread reads a .mo another is writing
        compile_translations(source, target)
        try:
            found = Translations.load(str(target), [lang, DEFAULT_LANG])
        except Exception as exc:  # a damaged .mo: English for this game, as for a bad .po
            log.error("cannot load the translations of %s: %s", game, exc)
            return None
    return None if type(found) is NullTranslations else found


class Chain:
    """Catalogs looked up in order: the first that has a msgid translates it."""

    def __init__(self, layers) -> None:
        self.layers = [t for t in layers if t is not None]
        # msgid -> text: the catalogs never change. A memo read and written without a lock
        # (it is asked for every text of every view): one dict get or set at a time, and
        # whoever looks a msgid up finds the same text
        self._found: dict[str, str] = {}

    def gettext(self, msgid: str) -> str:
        found = self._found.get(msgid)
        if found is None:
            found = self._lookup(msgid)
            if len(self._found) < 20_000:  # every text of a game; a stray one is not kept
                self._found[msgid] = found
        return found

    def _lookup(self, msgid: str) -> str:
        for t in self.layers:
            if msgid in getattr(t, "_catalog", {}):
                return t.gettext(msgid)
        return msgid

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        for t in self.layers:
            if (singular, 0) in getattr(t, "_catalog", {}):
                return t.ngettext(singular, plural, n)
        return singular if n == 1 else plural


def translations(lang: str, game: str | None = None) -> Chain:
    """The translations of ``lang``: ``game``'s domain first, then the shared one.

    Without ``game`` (a caller that does not know the game): the shared domain, then the
    domains of the installed games in order. Looked up once per app, language and game:
    socket views are built for many recipients per action; `force_locale` per string would
    cost more than building the view itself.
    """
    languages = _languages()
    if lang not in LANGUAGES:
        lang = normalize_lang(lang)

    def make() -> Chain:
        with force_locale(lang):
            shared = get_translations()
        if game is not None:
            return Chain([_game_translations(lang, game), shared])
        return Chain([shared, *(_game_translations(lang, g) for g in known_games())])

    return languages.cached(languages.translations, (lang, game), make)


def text(lang: str, msgid: str, params: dict | None = None, game: str | None = None,
         chain: Chain | None = None) -> str:
    """``msgid`` translated into ``lang`` with ``{param}`` placeholders filled in.

    ``game``: the game id whose domain is looked up first (then the shared domain).
    A msgid given as [singular, plural] is chosen by ``params["n"]``, ``params["count"]`` or
    ``params["amount"]``; as [singular, plural, name] by ``params[name]`` ("for {cost}
    gold": ``"cost"``), the number the noun it stands before counts.
    ``chain``: ``translations(lang, game)`` if the caller holds it already (a view builds
    dozens of texts; looking the app up for each costs more than the text).
    """
    params = params or {}
    t = chain or translations(lang, game)
    if isinstance(msgid, list | tuple):
        n = params.get(msgid[2], 1) if len(msgid) > 2 else params.get(
            "n", params.get("count", params.get("amount", 1)))
        out = t.ngettext(msgid[0], msgid[1], abs(n) if type(n) is int else 1)
    else:
        out = t.gettext(msgid)
    return fill(out, params)


def ui_strings(lang: str, source: Path | None = None, game: str | None = None) -> dict:
    """The page scripts' UI strings translated into ``lang`` (see socket-protocol.md).

    The shared ``web/ui_strings.json``, then, with ``game``, the game's own
    ``<web folder>/ui_strings.json`` (its keys win), each msgid looked up in the game's
    domain first.
    """
    paths = [Path(source or (WEB_DIR / "ui_strings.json"))]
    folder = web_dir(game) if game else None
    if folder is not None and (folder / "ui_strings.json").is_file():
        paths.append(folder / "ui_strings.json")
    out: dict = {}
    for path in paths:
        try:
            stamp = path.stat().st_mtime
            languages = _languages()
            out.update(languages.cached(
                languages.ui_strings, (str(path), stamp, normalize_lang(lang), game),
                lambda path=path: _ui_strings(
                    lang, json.loads(path.read_text(encoding="utf-8")), game)))
        except (OSError, ValueError):
            continue
    return out


def _ui_strings(lang: str, entries: dict, game: str | None = None) -> dict:
    t = translations(lang, game)
    out: dict = {}
    for key, msgid in entries.items():
        if isinstance(msgid, str):
            out[key] = t.gettext(msgid)
        elif isinstance(msgid, list) and len(msgid) == 2:
            out[key] = _plural_forms(t, normalize_lang(lang), msgid)
    return out


# CLDR's plural rules of the app's languages, as babel gives them (tests/companion/
# test_i18n.py checks they are babel's): babel's `Locale.plural_form` loads the whole
# locale's data to give these lines, 9.6 MB of the worker's memory for the five, held all
# evening (issue 71). A language not listed here gets babel's.
PLURAL_RULES = {
    "en": {"one": "i in 1 and v in 0"},
    "de": {"one": "i in 1 and v in 0"},
    "it": {"many": "e in 0 and i not in 0 and i mod 1000000 in 0 and v in 0 or e not in 0..5",
           "one": "i in 1 and v in 0"},
    "es": {"many": "e in 0 and i not in 0 and i mod 1000000 in 0 and v in 0 or e not in 0..5",
           "one": "n in 1"},
    "pl": {"few": "v in 0 and i mod 10 in 2..4 and i mod 100 not in 12..14",
           "many": "v in 0 and i not in 1 and i mod 10 in 0..1 or v in 0 and i mod 10 in 5..9 "
                   "or v in 0 and i mod 100 in 12..14",
           "one": "i in 1 and v in 0"},
}


@functools.lru_cache(maxsize=16)
def _plural_rule(lang: str) -> PluralRule:
    rules = PLURAL_RULES.get(lang)
    return PluralRule(rules) if rules is not None else Locale.parse(lang).plural_form


def plural_category(lang: str, n: int) -> str:
    """CLDR's plural category of ``n`` in ``lang`` ("one", "few", "many", "other")."""
    return _plural_rule(normalize_lang(lang))(n)


def _plural_forms(t, lang: str, msgid: list) -> dict:
    """{CLDR category: text with {n}} so JS can pick with Intl.PluralRules(lang)."""
    forms: dict = {}
    for category, n in _plural_samples(lang):
        text = t.ngettext(msgid[0], msgid[1], n)
        forms[category] = text.replace("%(num)d", "{n}").replace("{num}", "{n}")
    return forms


@functools.lru_cache(maxsize=16)
def _plural_samples(lang: str) -> tuple[tuple[str, int], ...]:
    """Each CLDR category of ``lang`` with the number whose text stands for it: the first
    of 0-199 in it, in the order they come; a category no whole number reaches (Polish
    "other" is for fractions) with 5, the general plural. Once per language, not once per
    plural string: the 26 plural strings of a wwe page asked babel's rule 200 times each,
    which a worker paid at its first page or count word (`views.Namer.counted`) in each
    language: the first `ui_strings` of "en" 6.9 -> 1.4 ms, "pl" 25 -> 2.5 ms (session 90,
    notes s90/i71 ui_cold.py, load 16; a fresh worker's second action 32 -> 8-10 ms under
    cProfile, cold_actions.py), the same strings (ui_dump.py: 4 domains x 7 languages)."""
    rule = _plural_rule(lang)
    samples: dict[str, int] = {}
    for n in range(200):
        samples.setdefault(rule(n), n)
    for category in [*rule.tags, "other"]:
        samples.setdefault(category, 5)
    return tuple(samples.items())

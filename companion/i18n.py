"""Languages: Flask-Babel set-up, .po → .mo compilation at start, per-recipient translation.

msgids are English texts (UI strings, the engine's REASONS and EVENT_TEXTS templates, the
server's reasons). Socket messages are translated per recipient under `force_locale`, since
each phone may have its own language.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

from babel import Locale
from babel.messages import mofile, pofile
from flask import Flask, current_app, request
from flask_babel import Babel, force_locale, get_translations

LANGUAGES = {"en": "English", "it": "Italiano", "pl": "Polski", "es": "Español",
             "de": "Deutsch"}
DEFAULT_LANG = "en"
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger(__name__)


def normalize_lang(lang: object) -> str:
    lang = str(lang or "").lower()[:2]
    return lang if lang in LANGUAGES else DEFAULT_LANG


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
            with po_path.open("rb") as f:
                catalog = pofile.read_po(f)
            mo_path.parent.mkdir(parents=True, exist_ok=True)
            tmp = mo_path.with_suffix(".mo.tmp")
            with tmp.open("wb") as f:
                mofile.write_mo(f, catalog)
            tmp.replace(mo_path)
            compiled.append(rel.parts[0])
        except Exception as exc:  # keep serving: a bad translation must not stop a game
            log.error("cannot compile %s: %s", po_path, exc)
    return compiled


def page_lang() -> str:
    """?lang= → lang cookie → Accept-Language → English."""
    for candidate in (request.args.get("lang"), request.cookies.get("lang")):
        if candidate and candidate[:2].lower() in LANGUAGES:
            return candidate[:2].lower()
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT_LANG


def init_app(app: Flask, data_dir: Path) -> None:
    source = Path(app.config.get("TRANSLATIONS_SOURCE", WEB_DIR / "translations"))
    target = Path(data_dir) / "translations"
    compile_translations(source, target)
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(target)
    app.config["BABEL_DEFAULT_LOCALE"] = DEFAULT_LANG
    Babel(app, locale_selector=page_lang)


class _Keep(dict):
    """format_map helper: an unknown placeholder stays visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(template: str, params: dict) -> str:
    if "{" not in template:
        return template
    try:
        return template.format_map(_Keep(params))
    except (ValueError, IndexError, AttributeError, KeyError):
        return template


def translations(lang: str):
    """The Flask-Babel translations of ``lang``, looked up once per app and language.

    Socket views are built for many recipients per action; `force_locale` per string would
    cost more than building the view itself.
    """
    cache = current_app.extensions.setdefault("companion.translations", {})
    lang = normalize_lang(lang)
    if lang not in cache:
        with force_locale(lang):
            cache[lang] = get_translations()
    return cache[lang]


def text(lang: str, msgid: str, params: dict | None = None) -> str:
    """``msgid`` translated into ``lang`` with ``{param}`` placeholders filled in.

    A msgid given as [singular, plural] is chosen by ``params["n"]`` or ``params["count"]``.
    """
    params = params or {}
    t = translations(lang)
    if isinstance(msgid, list | tuple):
        n = params.get("n", params.get("count", 1))
        out = t.ngettext(msgid[0], msgid[1], n if isinstance(n, int) else 1)
    else:
        out = t.gettext(msgid)
    return fill(out, params)


def ui_strings(lang: str, source: Path | None = None) -> dict:
    """The WEB-owned ``web/ui_strings.json`` translated into ``lang`` (see socket-protocol.md)."""
    path = Path(source or (WEB_DIR / "ui_strings.json"))
    try:
        stamp = path.stat().st_mtime
        cache = current_app.extensions.setdefault("companion.ui_strings", {})
        key = (str(path), stamp, normalize_lang(lang))
        if key not in cache:
            cache[key] = _ui_strings(lang, json.loads(path.read_text(encoding="utf-8")))
        return cache[key]
    except (OSError, ValueError):
        return {}


def _ui_strings(lang: str, entries: dict) -> dict:
    t = translations(lang)
    out: dict = {}
    for key, msgid in entries.items():
        if isinstance(msgid, str):
            out[key] = t.gettext(msgid)
        elif isinstance(msgid, list) and len(msgid) == 2:
            out[key] = _plural_forms(t, normalize_lang(lang), msgid)
    return out


def _plural_forms(t, lang: str, msgid: list) -> dict:
    """{CLDR category: text with {n}} so JS can pick with Intl.PluralRules(lang)."""
    locale = Locale.parse(lang)
    forms: dict = {}

    def put(category: str, n: int) -> None:
        if category not in forms:
            text = t.ngettext(msgid[0], msgid[1], n)
            forms[category] = text.replace("%(num)d", "{n}").replace("{num}", "{n}")

    for n in range(200):
        put(locale.plural_form(n), n)
    # categories no whole number reaches (Polish "other" is for fractions): general plural
    for category in [*locale.plural_form.tags, "other"]:
        put(category, 5)
    return forms

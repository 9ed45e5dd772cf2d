"""Each game's web folder: its static files, its template partials and its page manifest.

A game declares the importable package of its web folder in ``GAME.info.web`` (in-tree games:
``web.games.<id>``). The folder (docs/engine.md, "Writing a game: the web folder"):

    static/...          served at /games/<id>/static/<path>
    templates/...       partials the shared pages include, as "games/<id>/<file>"
    manifest.json       per page kind (table, phone, host, camera): scripts, styles,
                        partials
    ui_strings.json     the game's UI strings for its scripts (key -> English msgid)
    translations/<lang>/LC_MESSAGES/messages.po   the game's gettext domain

The shared pages know no game: `page_assets()` tells them what to load.
"""
from __future__ import annotations

import json

from flask import Blueprint, Flask, abort, current_app, send_from_directory, url_for
from jinja2 import BaseLoader, ChoiceLoader, TemplateNotFound

from companion.server import i18n
from companion.server.lru import LRU

bp = Blueprint("game_assets", __name__)
PAGE_KINDS = ("table", "phone", "host", "camera")
PREFIX = "games/"
_MANIFESTS = LRU(64)  # (path, mtime) -> a game's manifest.json, read once per change


@bp.get("/games/<game>/static/<path:filename>")
def static(game: str, filename: str):
    folder = i18n.web_dir(game)
    if folder is None or not (folder / "static").is_dir():
        abort(404)
    return send_from_directory(folder / "static", filename,
                               max_age=current_app.get_send_file_max_age(filename))


class GameTemplates(BaseLoader):
    """Loads "games/<id>/<file>" from the templates/ folder of game <id>'s web package."""

    def get_source(self, environment, template: str):
        if not template.startswith(PREFIX):
            raise TemplateNotFound(template)
        game, _, rest = template[len(PREFIX):].partition("/")
        folder = i18n.web_dir(game) if game and rest else None
        if folder is None:
            raise TemplateNotFound(template)
        base = (folder / "templates").resolve()
        path = (base / rest).resolve()
        if base not in path.parents or not path.is_file():
            raise TemplateNotFound(template)
        mtime = path.stat().st_mtime
        return (path.read_text(encoding="utf-8"), str(path),
                lambda: path.exists() and path.stat().st_mtime == mtime)


def manifest(game: str) -> dict:
    """The game's manifest.json ({} without one or when it is broken)."""
    folder = i18n.web_dir(game)
    path = folder / "manifest.json" if folder else None
    if path is None or not path.is_file():
        return {}
    key = (str(path), path.stat().st_mtime)
    found = _MANIFESTS.get(key)
    if found is None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            current_app.logger.error("%s is not valid JSON", path)
            data = {}
        found = _MANIFESTS.put(key, data if isinstance(data, dict) else {})
    return found


def page_assets(game: str | None, page: str | None) -> dict:
    """What a shared page of kind ``page`` loads for ``game``: script and style URLs and the
    partials by slot, as template names ("games/<id>/<file>")."""
    empty = {"scripts": [], "styles": [], "partials": {}}
    if not game or page not in PAGE_KINDS:
        return empty
    entry = manifest(game).get(page)
    if not isinstance(entry, dict):
        return empty

    def url(path: str) -> str:
        return url_for("game_assets.static", game=game, filename=path)

    return {
        "scripts": [url(p) for p in entry.get("scripts", []) if isinstance(p, str)],
        "styles": [url(p) for p in entry.get("styles", []) if isinstance(p, str)],
        "partials": {slot: f"{PREFIX}{game}/{name}"
                     for slot, name in (entry.get("partials") or {}).items()
                     if isinstance(name, str)},
    }


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_loader = ChoiceLoader([app.jinja_loader, GameTemplates()])


"""The finished games of this box on the host's page, and their exports (CSV, BG Stats).

Host only: the host of the game whose host page this is (``/host/<game_id>/...``) sees the
box's finished games; an export names a finished game by its id, checked before anything
is read. Only results leave the box this way (names, scores, dates), never a seat's secrets.
"""
from __future__ import annotations

import json
import re

from flask import Blueprint, abort, current_app, redirect, url_for

from companion.blueprints import common
from companion.server import i18n
from companion.table import history
from engine.api import Refused

bp = Blueprint("history", __name__)
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _finished(game_id: str, other: str):
    """The host's game, and the finished game ``other`` (404 / 409 as JSON otherwise)."""
    live = common.host_only(game_id)
    if not GAME_ID.match(other):
        abort(common.json_error("unknown_game", {}, 404, live))
    try:
        done = common.service().get(other)
    except Refused:
        abort(common.json_error("unknown_game", {}, 404, live))
    if done.status != "finished":
        abort(common.json_error("not_finished", {}, 409, live))
    return live, done


@bp.get("/host/<game_id>/history")
def page(game_id: str):
    live = common.live_or_404(game_id)
    if common.host_identity(game_id) is None:
        return redirect(url_for("host.host_page", game_id=game_id), code=303)
    lang = i18n.page_lang()
    service = common.service()


    def entry(done) -> dict:
        summary = history.summary(service, done, lang)
        try:
            summary["chart"] = history.chart(history.vp_series(service, done))
        except Exception:  # a game the installed rules no longer replay: no chart
            current_app.logger.exception("history: no VP chart for %s", done.id)
            summary["chart"] = None
        return summary

    finished = [done for done in service.all() if done.status == "finished"]
    games, damaged = common.listed(finished, entry)  # one damaged game: listed as such
    return common.render_page("history.html", "host", live, games=games, damaged=damaged)


def _export(game_id: str, other: str, body_of, mimetype: str, suffix: str):
    """One finished game as a download: ``body_of(done)`` (text) after the host and id
    checks; text stored before the text rule (a lone surrogate) is sent as U+FFFD, never a
    500: an export never fails on what the store holds."""
    _, done = _finished(game_id, other)
    response = current_app.response_class(common.shown(body_of(done)), mimetype=mimetype)
    name = f"table-companion-{done.kind.name}-{done.id}.{suffix}"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _summary(done) -> dict:
    return history.summary(common.service(), done, i18n.page_lang())


@bp.get("/host/<game_id>/history/<other>.csv")
def export_csv(game_id: str, other: str):
    return _export(game_id, other, lambda done: history.to_csv(_summary(done)),
                   "text/csv", "csv")  # werkzeug adds "; charset=utf-8"


@bp.get("/host/<game_id>/history/<other>.bgsplay")
def export_bgstats(game_id: str, other: str):
    return _export(game_id, other, lambda done: history.bgstats_text(_summary(done)),
                   "application/json", "bgsplay")


@bp.get("/host/<game_id>/history/<other>/record.json")
def export_record(game_id: str, other: str):
    """A finished game's record (its hands are over: nothing left to keep from the host)."""
    return _export(game_id, other, lambda done: json.dumps(
        common.service().record(done.id), indent=1, ensure_ascii=False),
        "application/json", "json")

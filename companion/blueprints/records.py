"""Game records: export (host only: a record holds every seat's secrets) and import."""
from __future__ import annotations

import json

from flask import Blueprint, current_app, redirect, request, url_for

from companion.blueprints import common
from companion.blueprints.pages import PIN_RE
from engine.api import Refused

bp = Blueprint("records", __name__)


@bp.get("/games/<game_id>/record.json")
def export(game_id: str):
    live = common.live_or_404(game_id)
    if common.host_identity(game_id) is None:
        return common.json_error("not_host", {}, 403, live)
    body = common.shown(json.dumps(common.service().record(game_id), indent=1,
                                   ensure_ascii=False))
    response = current_app.response_class(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="table-companion-{live.kind.name}-{game_id}.json"')
    return response


MAX_RECORD = 2 * 1024 * 1024  # bytes; a whole game's record is far below


@bp.post("/games/import")
def import_record():
    common.check_csrf()
    pin = (request.form.get("host_pin") or "").strip()
    upload = request.files.get("record")
    try:
        if not PIN_RE.match(pin):
            raise Refused("bad_setup", detail="PIN: 4-8 digits")
        if upload is None:
            raise Refused("bad_record", detail="no file")
        try:
            record = json.loads(upload.read(MAX_RECORD + 1).decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise Refused("bad_record", detail="not JSON") from exc
        common.may_create()
        live = common.service().import_record(record, pin)
    except Refused as exc:
        games, broken = common.lobby_games()
        return common.render_page("index.html", "lobby", None, 400, games=games,
                                  broken=broken,
                                  error=common.error_dict(None, exc.code, exc.params))
    response = redirect(url_for("host.host_page", game_id=live.id), code=303)
    common.set_secret_cookie(response, common.HOST_COOKIE.format(live.id),
                             common.service().access.new_host_token(live.id))
    return response

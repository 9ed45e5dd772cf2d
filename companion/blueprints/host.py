"""Host controls: the PIN login and the host page (the ops themselves go over the socket)."""
from __future__ import annotations

from flask import Blueprint, jsonify, redirect, request, url_for

from companion.blueprints import common
from companion.server import i18n
from engine.api import Refused

bp = Blueprint("host", __name__)


@bp.get("/host/<game_id>")
def host_page(game_id: str):
    live = common.live_or_404(game_id)
    if common.host_identity(game_id) is None:
        return common.render_page("host_login.html", "host", live,
                                  screens_cleared=not common.service().store.has_tokens(live.id))
    return common.render_page(
        "host.html", "host", live,
        socket_auth={"role": "host", "game": live.id,
                     "lang": i18n.page_lang(common.languages_of(live))},
        join=common.join_links(live, reveal_claimed=True),
        pairing=table_pairing(live),
        record_url=url_for("records.export", game_id=live.id))


@bp.get("/host/<game_id>/play/<seat>")
def play_for(game_id: str, seat: str):
    """The host plays a seat's turn on the host's own device (a seat with no phone): the
    seat's private screen, asked for here and only by the host; the socket proves the host
    token (companion/blueprints/sockets.py `host_for_seat`) and each action is logged as
    played by the host (docs/security.md, "The host plays for a seat")."""
    live = common.live_or_404(game_id)
    if common.host_identity(game_id) is None:  # the PIN first, on the host page
        return redirect(url_for("host.host_page", game_id=game_id), code=303)
    player = next((p for p in live.players if p["seat"] == seat), None)
    if player is None:
        return common.render_page("error.html", "host", live, 404,
                                  error=common.error_dict(live, "unknown_seat", {}))
    return common.render_page(
        "play.html", "seat", live,
        socket_auth={"role": "seat", "game": live.id, "for_seat": seat,
                     "lang": i18n.page_lang(common.languages_of(live))},
        seat=player, by_host=True)


def table_pairing(live) -> dict:
    """A fresh one-time link (10 minutes) that makes the device opening it the table."""
    code = common.service().access.new_table_pairing(live.id)
    base = common.public_base()
    url = f"{base}/table/{live.id}/pair?code={code}"
    return {"url": url, "qr_svg": common.qr_svg(url),
            "minutes": common.service().access.PAIRING_SECONDS // 60}


@bp.post("/host/<game_id>/pair-here")
def pair_here(game_id: str):
    """The host's own device becomes the table display (e.g. a tablet set up by the host)."""
    common.check_csrf()
    common.host_only(game_id, as_json=False)
    response = redirect(url_for("pages.table", game_id=game_id), code=303)
    # the camera and dice follow only where their game's host agrees (its host cookie here)
    agrees = (common.service().access.table_taken_from(game_id) is None
              or common.holder_agrees(game_id))
    common.set_secret_cookie(response, common.TABLE_COOKIE.format(game_id),
                             common.service().access.new_table_token(game_id, holder_agrees=agrees))
    return response


@bp.post("/host/<game_id>/login")
def login(game_id: str):
    """PIN → host token (cookie for the browser; JSON for other clients)."""
    common.check_csrf()
    live = common.live_or_404(game_id)
    data = common.json_body() if request.is_json else request.form
    pin = data.get("pin") if isinstance(data, dict) else None
    pin = pin.strip()[:16] if isinstance(pin, str) else ""
    key = common.client_key(game_id, "pin")
    code, status = None, 200
    if not common.limiter().attempt(key):  # reserved before the slow hash
        code, status = "rate_limited", 429
    elif not common.service().access.check_pin(game_id, pin):
        code, status = "wrong_pin", 403
    else:
        common.limiter().succeeded(key)
    if code:
        if request.is_json:
            return common.json_error(code, {}, status, live)
        return common.render_page("host_login.html", "host", live, status,
                                  error=common.error_dict(live, code, {}))
    token = common.service().access.new_host_token(game_id)
    if request.is_json:
        return jsonify(ok=True, host_token=token)
    response = redirect(url_for("host.host_page", game_id=game_id), code=303)
    common.set_secret_cookie(response, common.HOST_COOKIE.format(game_id), token)
    return response


@bp.post("/host/<game_id>/logout")
def logout(game_id: str):
    """The host token is revoked on the server, not only forgotten by this browser; every
    socket opened with it closes at once (its next host message would be refused anyway)."""
    common.check_csrf()
    token = request.cookies.get(common.HOST_COOKIE.format(game_id))
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        token = auth[len("Bearer "):]
    if token:
        common.service().access.revoke_token(token)
    response = redirect(url_for("pages.table", game_id=game_id), code=303)
    response.delete_cookie(common.HOST_COOKIE.format(game_id), path="/")
    return response


@bp.post("/host/<game_id>/pin")
def change_pin(game_id: str):
    """A new host PIN (the host only): every host session ends, this one included."""
    common.check_csrf()
    live = common.host_only(game_id, as_json=request.is_json)
    data = common.json_body() if request.is_json else request.form
    pin = data.get("pin") if isinstance(data, dict) else None
    pin = pin.strip() if isinstance(pin, str) else ""
    try:
        common.service().access.change_pin(game_id, pin)
    except Refused as exc:
        if request.is_json:
            return common.json_error(exc.code, {}, 400, live)
        return common.render_page("host_login.html", "host", live, 400,
                                  error=common.error_dict(live, exc.code, {}))
    if request.is_json:
        return jsonify(ok=True)
    response = redirect(url_for("host.host_page", game_id=game_id), code=303)
    response.delete_cookie(common.HOST_COOKIE.format(game_id), path="/")
    return response

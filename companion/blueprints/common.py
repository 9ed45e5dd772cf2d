"""What every page needs: the common template context, CSRF, errors, join links, identities."""
from __future__ import annotations

import json
from io import BytesIO

import qrcode
import qrcode.image.svg
from flask import Response, abort, current_app, render_template, request, session
from markupsafe import Markup

from companion import i18n, netinfo, security, views
from companion.blueprints import game_assets
from companion.service import GameService, Identity, LiveGame
from engine.api import Refused

SEAT_COOKIE = "tc_seat_{}"
HOST_COOKIE = "tc_host_{}"


def service() -> GameService:
    return current_app.extensions["companion"]


def limiter() -> security.RateLimiter:
    return current_app.extensions["companion.limiter"]


def live_or_404(game_id: str) -> LiveGame:
    try:
        return service().get(game_id)
    except Refused:
        abort(render_page("error.html", "lobby", None, 404,
                          error=error_dict(None, "unknown_game", {})))


# CSRF ------------------------------------------------------------------------------------
def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = security.new_token()
    return session["csrf"]


def check_csrf() -> None:
    """Every POST carries the session's token (form field or X-CSRF-Token header)."""
    sent = request.form.get("csrf_token") or request.headers.get("X-CSRF-Token")
    if not security.same(session.get("csrf"), sent):
        if request.is_json:
            abort(json_error("csrf_failed", {}, 400))
        abort(render_page("error.html", "lobby", None, 400,
                          error=error_dict(None, "csrf_failed", {})))


# rendering -------------------------------------------------------------------------------
def error_dict(live: LiveGame | None, code: str, params: dict) -> dict:
    return views.refused_json(live, i18n.page_lang(), Refused(code, **params))


def json_error(code: str, params: dict, status: int, live: LiveGame | None = None):
    body = dict(error_dict(live, code, params), ok=False)
    return current_app.response_class(json.dumps(body), status=status,
                                      mimetype="application/json")


def game_info(live: LiveGame) -> dict:
    return {"id": live.id, "game": live.kind.name, "status": live.status,
            "created": live.row["created"], "players": live.players,
            "demo": bool(live.row["setup"].get("demo"))}


# the shared templates that show one game, by page kind (web/games/<id>/manifest.json)
PAGE_KINDS = {"table.html": "table", "play.html": "phone", "host.html": "host",
              "camera.html": "camera"}


def seat_labels(live: LiveGame, lang: str) -> dict:
    """Seat id -> the seat's name in ``lang`` (``GAME.info.seats``; else the seat id)."""
    info = getattr(live.kind.module, "info", None)
    return {s.id: i18n.text(lang, s.name, game=live.kind.name)
            for s in getattr(info, "seats", ())}


def dice(live: LiveGame, lang: str) -> tuple[dict, dict]:
    """The game's die roles: (role id -> name in ``lang``, role id -> faces).

    Faces come from the catalog when the role says where (``faces_from``, a dotted path).
    """
    info = getattr(live.kind.module, "info", None)
    names, faces = {}, {}
    for role in getattr(getattr(info, "bindings", None), "dice", ()) or ():
        names[role.id] = i18n.text(lang, role.name, game=live.kind.name)
        found = live.kind.catalog if role.faces_from else None
        for part in (role.faces_from or "").split("."):
            found = found.get(part) if isinstance(found, dict) else None
        faces[role.id] = sorted(set(found)) if isinstance(found, list) else list(role.faces)
    return names, faces


def gettext_for(lang: str, game: str | None) -> dict:
    """``_``/``gettext``/``ngettext`` for the templates: the game's domain first."""
    t = i18n.translations(lang, game)

    # as Jinja's "newstyle" gettext that Flask-Babel installs: the translation is markup,
    # the parameters are escaped
    def gettext(msgid: str, **params) -> Markup:
        out = Markup(t.gettext(msgid))
        return out % params if params else out

    def ngettext(singular: str, plural: str, n: int, **params) -> Markup:
        return Markup(t.ngettext(singular, plural, n)) % dict(params, num=n)

    return {"_": gettext, "gettext": gettext, "ngettext": ngettext}


def render_page(template: str, role: str, live: LiveGame | None, status: int = 200,
                socket_auth: dict | None = None, **extra):
    lang = i18n.page_lang()
    game = live.kind.name if live else None
    context = {
        "game": game_info(live) if live else None, "role": role, "lang": lang,
        "languages": [{"code": c, "name": n} for c, n in i18n.LANGUAGES.items()],
        "strings": i18n.ui_strings(lang, game=game), "socket_auth": json.dumps(socket_auth),
        "csrf_token": csrf_token(), "error": None,
        # catalog id -> names in this language and English, for ids a view shows bare
        "names": views.localize(live.kind.names, lang) if live else {},
        "seat_labels": seat_labels(live, lang) if live else {},
        # what this page loads of the game's web folder (scripts, styles, partials)
        "assets": game_assets.page_assets(game, PAGE_KINDS.get(template)),
        **gettext_for(lang, game),
    }
    context["die_roles"], context["dice"] = dice(live, lang) if live else ({}, {})
    context.update(extra)
    response = current_app.make_response((render_template(template, **context), status))
    if request.args.get("lang") in i18n.LANGUAGES:
        response.set_cookie("lang", request.args["lang"], max_age=365 * 86400,
                            samesite="Lax")
    return response


# identities ------------------------------------------------------------------------------
def client_key(game_id: str, what: str) -> tuple:
    return (request.remote_addr, game_id, what)


def seat_identity(game_id: str) -> Identity | None:
    return service().identify(game_id, request.cookies.get(SEAT_COOKIE.format(game_id)),
                              "seat")


def host_identity(game_id: str) -> Identity | None:
    token = request.cookies.get(HOST_COOKIE.format(game_id))
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        token = auth[len("Bearer "):]
    return service().identify(game_id, token, "host")


def host_only(game_id: str, as_json: bool = True) -> LiveGame:
    """The live game if the request is the game's host; else 401 (JSON or plain text)."""
    live = live_or_404(game_id)
    if host_identity(game_id) is None:
        if as_json:
            abort(json_error("not_host", {}, 401, live))
        abort(Response(error_dict(live, "not_host", {})["message"], status=401,
                       mimetype="text/plain"))
    return live


def set_secret_cookie(response, name: str, token: str) -> None:
    response.set_cookie(name, token, max_age=30 * 86400, httponly=True, samesite="Lax",
                        secure=request.is_secure, path="/")


# join links ------------------------------------------------------------------------------
def qr_svg(data: str) -> str:
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10,
                        border=2)
    out = BytesIO()
    image.save(out)
    return out.getvalue().decode()


def join_links(live: LiveGame, reveal_claimed: bool) -> list[dict]:
    """One entry per seat; URLs (the secret join code) only where the viewer may see them."""
    base = current_app.config.get("PUBLIC_BASE_URL") or netinfo.base_url(
        request.host, request.scheme)
    codes = service().store.join_codes(live.id)
    claimed = service().store.claimed_seats(live.id)
    out = []
    for player in live.players:
        seat = player["seat"]
        show = reveal_claimed or seat not in claimed
        url = f"{base}/join/{live.id}/{seat}?code={codes[seat]}" if show else None
        out.append(dict(player, claimed=seat in claimed, url=url,
                        qr_svg=qr_svg(url) if url else None))
    return out


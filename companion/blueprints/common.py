"""What every page needs: the common template context, CSRF, errors, join links, identities."""
from __future__ import annotations

import json
from io import BytesIO
from typing import Any

import qrcode
import qrcode.image.svg
from flask import Response, abort, current_app, render_template, request, session
from markupsafe import Markup

from companion import context
from companion.blueprints import game_assets
from companion.game import views
from companion.game.service import GameService, Identity, LiveGame
from companion.server import budget, i18n, netinfo, security, text
from engine.api import Refused

SEAT_COOKIE = "tc_seat_{}"
HOST_COOKIE = "tc_host_{}"
TABLE_COOKIE = "tc_table_{}"


def service() -> GameService:
    return context.current().service


def limiter() -> security.RateLimiter:
    return context.current().limiter


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
def refuse_text(field: str):
    """The answer to a request whose text breaks the rule (companion/server/text.py): a translated
    ``bad_text`` naming ``field``, as JSON to a script and as a page to a form."""
    return _page_error("bad_text", 400, {"field": field})


def not_found(_error):
    """A path the server does not know (a mistyped or stale link): the translated error page,
    or a translated JSON refusal to a script, never Werkzeug's English page."""
    return _page_error("no_page", 404)


def wrong_method(_error):
    """A known path asked with a method it does not answer (a GET of a form's POST)."""
    return _page_error("bad_request", 405)


def too_large(limit: int):
    """A body over the app's limit (any route, chunked too): the translated 413."""
    return _page_error("too_big", 413, {"what": f"> {limit // (1024 * 1024)} MB"})


def _page_error(code: str, status: int, params: dict | None = None):
    """A refusal no route made: as JSON to a script, as the error page to a browser."""
    if request.is_json or request.path.endswith(".json") or request.accept_mimetypes.best == \
            "application/json":
        return json_error(code, params or {}, status)
    return render_page("error.html", "lobby", None, status,
                       error=error_dict(None, code, params or {}))


def error_dict(live: LiveGame | None, code: str, params: dict) -> dict:
    return views.refused_json(live, i18n.page_lang(), Refused(code, **params))


def json_error(code: str, params: dict, status: int, live: LiveGame | None = None):
    body = dict(error_dict(live, code, params), ok=False)
    return current_app.response_class(json.dumps(body), status=status,
                                      mimetype="application/json")


def game_info(live: LiveGame) -> dict:
    info = live.kind.module.info
    return {"id": live.id, "game": live.kind.name, "status": live.status,
            "created": live.row["created"], "players": live.players,
            "demo": bool(live.row["setup"].get("demo")),
            # a game without a setup guide gets no "Setup" link (its page would be a 404)
            "has_setup_guide": bool(info.table_guide),
            "play_on": live.play_on,  # the TV's lobby closed for good ("Play on without ...")
            "title": dict(info.names or {"en": live.kind.name})}


def listed(games, entry) -> tuple[list[dict], list[dict]]:
    """The entries (``entry(game)``) of a page that lists many games, and the damaged ones:
    a game whose entry fails or holds text that is not valid Unicode is listed as damaged
    (``{id, game, created, problem}``, the lobby's "could not be opened") and the page goes
    on (issue 31: one bad game never takes a page down)."""
    entries, damaged = [], []
    for game in games:
        try:
            made = entry(game)
            bad = text.first_bad(made)
            if bad is not None:
                raise ValueError(f"text that is not valid Unicode in {bad}")
            entries.append(made)
        except Exception as exc:
            current_app.logger.warning("game %s cannot be listed: %s", game.id, exc)
            damaged.append({"id": game.id, "game": game.kind.name,
                            "created": str(game.row.get("created", "")),
                            "problem": f"cannot be shown ({type(exc).__name__})"})
    return entries, damaged


def lobby_games() -> tuple[list[dict], list[dict]]:
    """The lobby's games with their results, and the broken and damaged ones."""
    games, damaged = listed(service().all(), lambda g: dict(
        game_info(g), result=named_result(g),
        # ended by the host: unfinished, nobody won
        ended_early=bool(g.status == "finished" and g.row.get("ended_early"))))
    return games, service().broken_games() + damaged


def named_result(live: LiveGame) -> list | None:
    """The stored result, each row with its player's name (a game's scores may name the
    seat only)."""
    names = {p["seat"]: p["name"] for p in live.players}
    result = live.row.get("result")
    if not isinstance(result, list):
        return result
    return [dict(r, name=r.get("name") or names.get(r.get("seat"), r.get("seat")))
            if isinstance(r, dict) else r for r in result]


def shown(body: str) -> str:
    """A rendered page that can be sent: a lone surrogate stored before the text rule (an
    old database) becomes U+FFFD instead of failing the whole page with a 500."""
    try:
        body.encode("utf-8")
    except UnicodeEncodeError:
        current_app.logger.warning("a page held text that is not valid Unicode; replaced")
        return text.sendable(body)
    return body


# the shared templates that show one game, by page kind (web/games/<id>/manifest.json)
PAGE_KINDS = {"table.html": "table", "play.html": "phone", "host.html": "host",
              "camera.html": "camera"}


def seat_labels(live: LiveGame, lang: str) -> dict:
    """Seat id -> the seat's name in ``lang`` (``GAME.info.seats``; else the seat id)."""
    info = live.kind.module.info
    return {s.id: i18n.text(lang, s.name, game=live.kind.name)
            for s in info.seats}


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


def languages_of(live: LiveGame | None):
    """The languages a page of ``live`` may be in: the game's (all the app's elsewhere)."""
    return live.kind.info.languages if live else None


def render_page(template: str, role: str, live: LiveGame | None, status: int = 200,
                socket_auth: dict | None = None, **extra):
    lang = i18n.page_lang(languages_of(live))
    game = live.kind.name if live else None
    context = {
        "game": game_info(live) if live else None, "role": role, "lang": lang,
        "languages": [{"code": c, "name": i18n.LANGUAGES[c]}
                      for c in i18n.offered(languages_of(live))],
        "strings": i18n.ui_strings(lang, game=game), "socket_auth": json.dumps(socket_auth),
        "csrf_token": csrf_token(), "error": None,
        # catalog id -> names in this language and English, for ids a view shows bare
        "names": views.localize(live.kind.names, lang) if live else {},
        "seat_labels": seat_labels(live, lang) if live else {},
        # what this page loads of the game's web folder (scripts, styles, partials)
        "assets": game_assets.page_assets(game, PAGE_KINDS.get(template)),
        **gettext_for(lang, game),
    }
    context.update(extra)
    response = current_app.make_response((shown(render_template(template, **context)), status))
    if request.args.get("lang") in i18n.LANGUAGES:
        response.set_cookie("lang", request.args["lang"], max_age=365 * 86400,
                            samesite="Lax")
    return response


# identities ------------------------------------------------------------------------------
def client_key(game_id: str, what: str) -> tuple:
    """Whose attempts: an address (an IPv6 one by its /64, one device's addresses), a game,
    what is tried."""
    return (budget.address_key(request.remote_addr or ""), game_id, what)


MAX_OPEN_GAMES = 100  # games not finished: the lobby a table scrolls through


def may_create() -> None:
    """A new game or an import may go on, or Refused (translated) with one log line: the
    rate of `security.CreationLimits` and at most `MAX_OPEN_GAMES` games not finished (the
    machine itself is not held)."""
    if request.remote_addr in budget.THE_MACHINE:  # the owner's own scripts and tools
        return
    address = client_key("*", "new")[0]
    open_games = sum(1 for g in service().all() if g.status != "finished")
    if open_games >= MAX_OPEN_GAMES:
        current_app.logger.warning("refused a new game from %s: %d games not finished",
                                   address, open_games)
        raise Refused("too_many_games_open", count=open_games)
    why = context.current().creations.attempt(address)
    if why is not None:
        current_app.logger.warning("refused a new game from %s: %s", address, why)
        raise Refused("too_many_new_games")


def seat_identity(game_id: str) -> Identity | None:
    return service().access.identify(game_id, request.cookies.get(SEAT_COOKIE.format(game_id)),
                              "seat")


def json_body(limit: int = 64 * 1024):
    """The request's JSON body, or None when it is not JSON, too big or nested too deep
    (a malformed body is a clear refusal, never a 500)."""
    raw = request.get_data(cache=True)
    if len(raw) > limit:
        return None
    try:
        return text.loads(raw)
    except (ValueError, RecursionError):
        return None


def table_identity(game_id: str) -> Identity | None:
    """The paired table display (its cookie), or None for a device that only watches."""
    return service().access.identify(game_id, request.cookies.get(TABLE_COOKIE.format(game_id)),
                              "table")


def die_roles(live: LiveGame) -> list[dict]:
    """The game's die roles with their faces (from the catalog where the game says so), for
    entering a roll by hand when no reader is attached."""
    from companion.game.dice_roles import role_faces

    out = []
    for role in live.kind.module.info.bindings.dice:
        out.append({"id": role.id, "name": role.name, "faces": role_faces(role, live.kind.catalog),
                    "count": role.count})
    return out


def host_identity(game_id: str) -> Identity | None:
    token = request.cookies.get(HOST_COOKIE.format(game_id))
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        token = auth[len("Bearer "):]
    return service().access.identify(game_id, token, "host")


def holder_agrees(game_id: str | None, pin: Any = None) -> bool:
    """May ``game_id`` (None: a game not made yet) take the camera and dice? Yes when the
    table is free for it (`AccessService.table_taken_from`), or when the host of the game
    that has them agrees: this browser is its host (its host cookie), or ``pin`` is its
    host PIN (counted as a login attempt on that game: ``rate_limited``, ``wrong_pin``)."""
    holder = service().access.table_taken_from(game_id)
    if holder is None or host_identity(holder.id) is not None:
        return True
    if not isinstance(pin, str) or not pin.strip():
        return False
    key = client_key(holder.id, "pin")
    if not limiter().attempt(key):
        raise Refused("rate_limited")
    if not service().access.check_pin(holder.id, pin.strip()[:16]):
        raise Refused("wrong_pin")
    limiter().succeeded(key)
    return True


def table_holder(lang: str, game_id: str | None = None) -> dict | None:
    """The game in play whose camera and dice ``game_id`` would take, as a form names it:
    ``{"id", "title", "players"}`` (None: the table is free for it)."""
    holder = service().access.table_taken_from(game_id)
    if holder is None:
        return None
    title = holder.kind.title
    return {"id": holder.id, "title": i18n.in_lang(title, lang, holder.kind.name),
            "players": ", ".join(p["name"] for p in holder.players)}


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


def public_base() -> str:
    """The address phones and the TV reach this server at: ``server.public_base_url``
    (`companion serve` sets the LAN address when it listens on every interface), else this
    request's address as `netinfo.base_url` names it for where the server listens (a server
    bound to 127.0.0.1 is reached there only: a link to the LAN address would lead nowhere)."""
    server = context.current().settings.server
    return server.public_base_url or netinfo.base_url(request.host, request.scheme,
                                                      bound=server.host)


def join_links(live: LiveGame, reveal_claimed: bool) -> list[dict]:
    """One entry per seat; URLs (the secret join code) only where the viewer may see them."""
    base = public_base()
    codes = service().store.join_codes(live.id)
    claimed = service().store.claimed_seats(live.id)
    hidden = service().store.host_only_seats(live.id)  # used up, or re-issued by the host
    out = []
    for player in live.players:
        seat = player["seat"]
        # a claimed seat's link is nobody's to see: the host releases it with a new code
        show = seat in codes and seat not in claimed and (reveal_claimed or seat not in hidden)
        url = f"{base}/join/{live.id}/{seat}?code={codes[seat]}" if show else None
        out.append(dict(player, claimed=seat in claimed, url=url,
                        qr_svg=qr_svg(url) if url else None))
    return out


"""Lobby, new game, table display, joining a seat, the phone page."""
from __future__ import annotations

import importlib
import re

from flask import Blueprint, current_app, jsonify, redirect, request, url_for

from companion import hardware_manager, i18n
from companion.blueprints import common
from companion.games import KNOWN
from engine.api import Refused

bp = Blueprint("pages", __name__)
PIN_RE = re.compile(r"^[0-9]{4,8}$")
COLOUR_RE = re.compile(r"^[#A-Za-z0-9(),. %-]{1,32}$")


def _game_spec(name: str) -> dict:
    """Seats, colours and options of a game for the new-game form."""
    kind = common.service()._kinds(name)
    catalog = kind.catalog if isinstance(kind.catalog, dict) else {}
    game = catalog.get("game", {}) if isinstance(catalog.get("game"), dict) else {}
    seats = list(game.get("seats") or getattr(kind.module, "SEATS", []))
    colours = list(game.get("colours") or {})
    options = []
    try:
        table = importlib.import_module(f"engine.{name}.options").OPTIONS
    except (ImportError, AttributeError):
        table = getattr(kind.module, "OPTIONS", {})
    lang = i18n.page_lang()
    for key, spec in table.items():
        default, allowed = spec[0], list(spec[1])
        options.append({"id": key, "default": default, "choices": allowed,
                        "label": i18n.text(lang, spec[3]) if len(spec) > 3 else key})
    return {"seats": seats, "colours": colours, "options": options,
            "names": kind.title, "min_players": game.get("players", {}).get("min", 2)}


def _modules() -> list[str]:
    configured = list((current_app.config.get("GAMES") or {}).keys())
    return configured + [k for k in KNOWN if k not in configured]


@bp.get("/")
def index():
    games = [dict(common.game_info(g), result=g.row.get("result"))
             for g in common.service().all()]
    return common.render_page("index.html", "lobby", None, games=games)


@bp.get("/new")
def new():
    return _render_new(None)


def _render_new(error: dict | None, status: int = 200):
    name = request.values.get("game") or _modules()[0]
    specs = {}
    for module in _modules():
        try:
            specs[module] = _game_spec(module)
        except Exception:  # a broken catalog shows up in `companion doctor`, not here
            current_app.logger.exception("game %s unavailable", module)
    spec = specs.get(name) or next(iter(specs.values()), {"seats": [], "colours": [],
                                                          "options": []})
    return common.render_page(
        "new.html", "lobby", None, status,
        modules=[{"id": m, "name": s["names"]} for m, s in specs.items()],
        seats=spec["seats"], colours=spec["colours"], options=spec["options"],
        error=error)


def parse_setup(form, spec: dict) -> dict:
    """The engine setup from the new-game form; raises Refused('bad_setup')."""
    players = []
    for seat in spec["seats"]:
        name = (form.get(f"name_{seat}") or "").strip()
        if not name:
            continue
        colour = (form.get(f"colour_{seat}") or "").strip() or None
        if len(name) > 40 or (colour and not COLOUR_RE.match(colour)):
            raise Refused("bad_setup", detail=seat)
        players.append({"seat": seat, "name": name, "colour": colour})
    options = {}
    for option in spec["options"]:
        raw = form.get(f"option_{option['id']}")
        if isinstance(option["default"], bool):
            options[option["id"]] = raw in ("1", "on", "true", "yes")
        elif raw is not None:
            matches = [c for c in option["choices"] if str(c) == raw]
            if not matches:
                raise Refused("bad_setup", detail=option["id"])
            options[option["id"]] = matches[0]
    return {"players": players, "options": options}


@bp.post("/games")
def create():
    common.check_csrf()
    name = request.form.get("game") or _modules()[0]
    pin = (request.form.get("host_pin") or "").strip()
    try:
        if name not in _modules():
            raise Refused("bad_setup", detail="game")
        if not PIN_RE.match(pin):
            raise Refused("bad_setup", detail="PIN: 4-8 digits")
        setup = parse_setup(request.form, _game_spec(name))
        live = common.service().create(name, setup, pin)
    except Refused as exc:
        return _render_new(common.error_dict(None, exc.code, exc.params), 400)
    response = redirect(url_for("host.host_page", game_id=live.id), code=303)
    common.set_secret_cookie(response, common.HOST_COOKIE.format(live.id),
                             common.service().new_host_token(live.id))
    return response


@bp.get("/table/<game_id>")
def table(game_id: str):
    live = common.live_or_404(game_id)
    return common.render_page(
        "table.html", "table", live,
        socket_auth={"role": "table", "game": live.id, "lang": i18n.page_lang()},
        join=common.join_links(live, reveal_claimed=False))


@bp.get("/join/<game_id>/<seat>")
def join(game_id: str, seat: str):
    """Claim or re-claim a seat. A phone already holding this seat keeps its token."""
    live = common.live_or_404(game_id)
    held = common.seat_identity(game_id)
    if held is not None and held.seat == seat:
        return redirect(url_for("pages.play", game_id=game_id), code=303)
    key = common.client_key(game_id, "join")
    if common.limiter().blocked(key):
        return _join_error(live, "rate_limited", 429)
    try:
        token = common.service().claim_seat(game_id, seat, request.args.get("code", ""))
    except Refused as exc:
        common.limiter().fail(key)
        return _join_error(live, exc.code, 403 if exc.code == "wrong_code" else 404)
    response = redirect(url_for("pages.play", game_id=game_id), code=303)
    common.set_secret_cookie(response, common.SEAT_COOKIE.format(game_id), token)
    return response


def _join_error(live, code: str, status: int):
    return common.render_page("join.html", "lobby", live, status,
                              error=common.error_dict(live, code, {}))


@bp.get("/play/<game_id>")
def play(game_id: str):
    live = common.live_or_404(game_id)
    identity = common.seat_identity(game_id)
    if identity is None:
        return _join_error(live, "not_joined", 403)
    seat = next(p for p in live.players if p["seat"] == identity.seat)
    return common.render_page(
        "play.html", "seat", live,
        socket_auth={"role": "seat", "game": live.id, "lang": i18n.page_lang()}, seat=seat)


@bp.get("/healthz")
def healthz():
    return jsonify(ok=True, games=len(common.service().all()),
                   hardware=hardware_manager.status(current_app))

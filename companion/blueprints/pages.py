"""Lobby, new game, table display, joining a seat, the phone page."""
from __future__ import annotations

import random
import re

from flask import Blueprint, current_app, jsonify, redirect, request, url_for

from companion import context
from companion.blueprints import common
from companion.game import views
from companion.game.games import known
from companion.server import i18n
from engine.api import Refused

bp = Blueprint("pages", __name__)
PIN_RE = re.compile(r"^[0-9]{4,8}$")
COLOUR_RE = re.compile(r"^[#A-Za-z0-9(),. %-]{1,32}$")


def _game_spec(name: str) -> dict:
    """Seats, colours, options and the start rule of a game for the new-game form, from
    the game's declarations (engine.api.GameInfo), translated for the page."""
    info = context.current().kinds.get(name).module.info
    lang = i18n.page_lang()
    options = [{"id": o.id, "default": o.default, "choices": list(o.choices),
                "rule": o.rule, "reading": o.reading,
                "label": i18n.text(lang, o.text, game=name),
                "choice_labels": {str(c): i18n.text(lang, o.labels.get(str(c), str(c)),
                                                    game=name)
                                  for c in o.choices}}
               for o in info.options]
    colours = list(dict.fromkeys(seat.colour for seat in info.seats))
    return {"seats": [seat.id for seat in info.seats], "colours": colours,
            "seat_labels": {seat.id: i18n.text(lang, seat.name, game=name) for seat in info.seats},
            "options": options, "names": dict(info.names),
            "min_players": info.min_players, "max_players": info.max_players,
            "start_rule": i18n.text(lang, info.start_rule, game=name) if info.start_rule else ""}


def _modules() -> list[str]:
    """The games a new table may start: a game installed without its pages (no web folder)
    could not be played on the phones and the TV, so it is not offered."""
    configured = list((current_app.config.get("GAMES") or {}).keys())
    return configured + [k for k in known() if k not in configured and i18n.web_dir(k)]


def _last_played() -> str | None:
    """The game of the newest game on this table: the box most likely on it again."""
    newest = common.service().all()
    return newest[0].kind.name if newest else None


@bp.get("/")
def index():
    games, broken = common.lobby_games()  # a damaged game is listed as such
    return common.render_page("index.html", "lobby", None, games=games, broken=broken)


@bp.get("/new")
def new():
    return _render_new(None)


def _render_new(error: dict | None, status: int = 200):
    name = request.values.get("game") or _last_played() or _modules()[0]
    specs = {}
    for module in _modules():
        try:
            specs[module] = _game_spec(module)
        except Exception:  # a broken catalog shows up in `companion doctor`, not here
            current_app.logger.exception("game %s unavailable", module)
    spec = specs.get(name) or next(iter(specs.values()), {"seats": [], "colours": [],
                                                          "options": [], "seat_labels": {},
                                                          "start_rule": "", "min_players": 0,
                                                          "max_players": 0})
    holder = common.table_holder(i18n.page_lang())
    return common.render_page(
        "new.html", "lobby", None, status,
        modules=[{"id": m, "name": s["names"]} for m, s in specs.items()], current=name,
        seats=spec["seats"], colours=spec["colours"], options=spec["options"],
        seat_labels=spec["seat_labels"], start_rule=spec["start_rule"],
        min_players=spec["min_players"], max_players=spec["max_players"], error=error,
        # who has the camera and dice now, and whether this browser is its host
        holder=holder, holder_host=bool(holder and common.host_identity(holder["id"])))


def option_value(form, option: dict):
    """An option's value from the form. A fixed option (one allowed choice) is that choice,
    whatever is sent; a field not sent at all takes the default. A checkbox comes with a
    hidden "0" before it (an unticked box sends nothing), so ["0"] is off and ["0", "1"] on."""
    choices = option["choices"]
    if len(choices) == 1:
        return choices[0]
    sent = form.getlist(f"option_{option['id']}") if hasattr(form, "getlist") else (
        [form[f"option_{option['id']}"]] if f"option_{option['id']}" in form else [])
    if not sent:
        return option["default"]
    if isinstance(option["default"], bool):
        return any(raw in ("1", "on", "true", "yes") for raw in sent)
    matches = [c for c in choices if str(c) == sent[-1]]
    if not matches:
        raise Refused("bad_setup", detail=option["id"])
    return matches[0]


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
    fewest, most = spec.get("min_players") or 1, spec.get("max_players") or len(spec["seats"])
    if not fewest <= len(players) <= most:  # the count the form says, the game's declaration
        raise Refused("bad_setup", detail=f"{fewest} to {most} players")
    start = (form.get("start_seat") or "").strip()
    taken = [p["seat"] for p in players]
    if start == "random" and taken:
        start = random.SystemRandom().choice(taken)
    if start and start not in taken:
        raise Refused("bad_setup", detail="start_seat")
    options = {option["id"]: option_value(form, option) for option in spec["options"]}
    setup = {"players": players, "options": options}
    if start:
        setup["start_seat"] = start
    return setup


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
        common.may_create()
        live = common.service().create(name, setup, pin, to_table=_to_table(request.form))
    except Refused as exc:
        return _render_new(common.error_dict(None, exc.code, exc.params), 400)
    response = redirect(url_for("host.host_page", game_id=live.id), code=303)
    common.set_secret_cookie(response, common.HOST_COOKIE.format(live.id),
                             common.service().access.new_host_token(live.id))
    return response


def _to_table(form) -> bool:
    """Does the new game go to the table now? The form asks the host (``at_table``: "now"
    or "later"); moving the camera and dice from another game in play needs that game's
    host (`common.holder_agrees`: its host cookie or its PIN, ``table_pin``), else
    ``table_taken``. A request that does not say takes a free table only."""
    choice = form.get("at_table")
    if choice not in ("now", "later"):
        return common.service().access.table_taken_from(None) is None
    if choice == "later":
        return False
    if not common.holder_agrees(None, form.get("table_pin")):
        raise Refused("table_taken")
    return True


@bp.get("/table/<game_id>")
def table(game_id: str):
    """The table display. Only the paired display acts as the table and shows the join
    codes; any other device watches the public board."""
    live = common.live_or_404(game_id)
    paired = common.table_identity(game_id) is not None
    role = "table" if paired else "viewer"
    return common.render_page(
        "table.html", "table", live,
        socket_auth={"role": role, "game": live.id,
                     "lang": i18n.page_lang(common.languages_of(live))},
        paired=paired,
        join=common.join_links(live, reveal_claimed=False) if paired else [],
        dice=common.die_roles(live))


@bp.get("/table/<game_id>/pair")
def pair_table(game_id: str):
    """Opened on the TV from the host page's pairing link: this device becomes the table."""
    live = common.live_or_404(game_id)
    key = common.client_key(game_id, "pair")
    if not common.limiter().attempt(key):
        return _pair_error(live, Refused("rate_limited"), 429)
    try:
        token = common.service().access.pair_table(game_id, request.args.get("code", ""))
    except Refused as exc:
        if common.table_identity(game_id) is not None:  # paired already: the link is spent
            return redirect(url_for("pages.table", game_id=game_id), code=303)
        return _pair_error(live, exc, 403)
    common.limiter().succeeded(key)
    response = redirect(url_for("pages.table", game_id=game_id), code=303)
    common.set_secret_cookie(response, common.TABLE_COOKIE.format(game_id), token)
    return response


@bp.get("/join/<game_id>/<seat>")
def join(game_id: str, seat: str):
    """Claim or re-claim a seat. A phone already holding this seat keeps its token."""
    live = common.live_or_404(game_id)
    held = common.seat_identity(game_id)
    if held is not None and held.seat == seat:
        return redirect(_play_url(game_id), code=303)
    key = common.client_key(game_id, "join")
    if not common.limiter().attempt(key):
        return _join_error(live, "rate_limited", 429)
    try:
        token = common.service().access.claim_seat(game_id, seat, request.args.get("code", ""))
    except Refused as exc:
        status = {"wrong_code": 403, "seat_taken": 409}.get(exc.code, 404)
        return _join_error(live, exc.code, status)
    common.limiter().succeeded(key)
    response = redirect(_play_url(game_id), code=303)
    common.set_secret_cookie(response, common.SEAT_COOKIE.format(game_id), token)
    return response


def _play_url(game_id: str) -> str:
    """The seat's page, keeping a join link's ``?lang=`` (a QR code printed for German
    players): the play page reads and remembers it, the redirect must not drop it."""
    lang = request.args.get("lang")
    extra = {"lang": lang} if lang in i18n.LANGUAGES else {}
    return url_for("pages.play", game_id=game_id, **extra)


def _pair_error(live, exc: Refused, status: int):
    """A pairing link that does not work, on the TV: why, and where the host makes a new
    one (never the phone's "scan your seat's code again")."""
    return common.render_page("pair_error.html", "lobby", live, status,
                              error=common.error_dict(live, exc.code, exc.params),
                              host_url=f"{common.public_base()}/host/{live.id}",
                              minutes=common.service().access.PAIRING_SECONDS // 60)


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
        socket_auth={"role": "seat", "game": live.id,
                     "lang": i18n.page_lang(common.languages_of(live))}, seat=seat)


@bp.get("/healthz")
def healthz():
    """Alive, how many games, and each device's state. The details (frame rate, the reader's
    port, what the camera would do) only for this machine itself (`companion doctor`)."""
    parts = context.current()
    hardware = parts.hardware.status()
    if request.remote_addr not in ("127.0.0.1", "::1"):
        hardware = views.hardware_for("viewer", None, hardware)
        return jsonify(ok=True, games=len(parts.service.all()), hardware=hardware)
    return jsonify(ok=True, games=len(parts.service.all()), hardware=hardware,
                   malformed_frames=parts.frames.count)

"""Socket.IO: proving an identity on connect, then act / set_lang / preview / host messages.

A connection proves one identity (table: none needed; seat: its token; host: a host token)
and joins only that identity's room. Every `view` is built per recipient (role, seat,
language) by the sender (companion/game/sender.py) and emitted to that recipient's socket id
only: nothing is broadcast to a room that holds more than one identity. The handlers are the
methods of one `Handlers` namespace, each finding its connection and doing one thing. See
docs/socket-protocol.md.
"""
from __future__ import annotations

import contextlib
import logging
import time

from flask import request
from flask_socketio import ConnectionRefusedError, Namespace, join_room

from companion.blueprints.common import HOST_COOKIE, SEAT_COOKIE, TABLE_COOKIE, holder_agrees
from companion.blueprints.correction_diff import correction_diff
from companion.context import Context, DicePort
from companion.game import shapes, views
from companion.game.events_bus import TokensRevoked
from companion.game.reasons import DeviceRefused
from companion.game.recipients import Client
from companion.game.service import GameService, Identity, LiveGame
from companion.server import i18n, limits
from companion.table import table_steps
from engine.api import Refused

log = logging.getLogger(__name__)
# the host's ops: companion/game/shapes.py HOST_SHAPES says what each carries
GONE = {"host": "not_host", "seat": "not_joined", "table": "not_paired"}  # a revoked token

PREVIEW_EVERY = 0.1  # seconds between two previews of one connection (a card is turned by hand)


def room_of(identity: Identity) -> str:
    return f"{identity.game}/{identity.role}/{identity.seat or ''}"


def _refuse(code: str, lang: str):
    error = views.refusal({}, lang, code, {})
    raise ConnectionRefusedError(error["message"], error)


def authenticate(service: GameService, auth) -> tuple[LiveGame, Client]:
    """The game and identity a connecting socket proves (ConnectionRefusedError if none)."""
    auth = auth if isinstance(auth, dict) else {}
    lang = i18n.normalize_lang(auth.get("lang"))
    game_id, role = auth.get("game"), auth.get("role")
    if not isinstance(game_id, str) or role not in ("table", "viewer", "seat", "host"):
        _refuse("bad_request", lang)
    try:
        live = service.get(game_id)
    except Refused:
        _refuse("unknown_game", lang)
    lang = i18n.normalize_lang(lang, live.kind.info.languages)  # a language of the game's
    if role == "viewer":
        return live, Client(Identity("viewer", game_id), lang)
    if role == "seat" and auth.get("for_seat") is not None:
        return live, Client(host_for_seat(service, live, auth), lang)
    key, cookie, gone = {"table": ("table_token", TABLE_COOKIE, "not_paired"),
                         "seat": ("token", SEAT_COOKIE, "not_joined"),
                         "host": ("host_token", HOST_COOKIE, "not_host")}[role]
    token = auth.get(key) or request.cookies.get(cookie.format(game_id))
    identity = service.access.identify(game_id, token, role)
    if identity is None:
        _refuse(gone, lang)
    return live, Client(identity, lang)


def host_for_seat(service: GameService, live: LiveGame, auth: dict) -> Identity:
    """The host acting as a seat ("Play for ..." on the host page): proven by a host token
    (the host cookie), never by a seat's; the seat one of the game's."""
    lang = i18n.normalize_lang(auth.get("lang"), live.kind.info.languages)
    seat = auth.get("for_seat")
    token = auth.get("host_token") or request.cookies.get(HOST_COOKIE.format(live.id))
    host = service.access.identify(live.id, token, "host")
    if host is None:
        _refuse("not_host", lang)
    if not isinstance(seat, str) or seat not in live.seats:
        _refuse("unknown_seat", lang)
    return Identity("seat", live.id, seat, host.token, by_host=True)


def answer(service: GameService, client: Client | None, call):
    """Run ``call`` and turn its outcome into the ack of docs/socket-protocol.md."""
    if client is None:
        return dict(views.refusal({}, "en", "bad_request", {}), ok=False)
    live = None
    try:
        live = service.get(client.identity.game)
        if not service.access.still_valid(client.identity):  # logged out since it connected
            raise Refused(GONE.get(client.identity.role, "bad_request"))
        result = call(live)
        if isinstance(result, dict):  # an answer with data (a correction's preview)
            return {"ok": True, "version": live.version, **result}
        return {"ok": True, "version": result}
    except Refused as exc:
        return dict(views.refused_json(live, client.lang, exc, client.identity.role),
                    ok=False)
    except Exception:  # an engine or app bug: the caller gets a translated error, not a
        # dropped socket, and the traceback goes to the log at error level
        log.exception("socket call failed")
        return dict(views.refusal({}, client.lang, "internal_error", {}), ok=False)


def dice_port(context: Context) -> DicePort:
    """The running dice wiring, or Refused when there is none."""
    if context.hardware.dice is None:
        raise DeviceRefused("dice_not_running")
    return context.hardware.dice


class Handlers(Namespace):
    """The socket events of the default namespace: ``on_<event>`` handles ``<event>``
    (Flask-SocketIO dispatches by that name; no other method may start with ``on_``); each
    finds its connection, then does one thing."""

    def __init__(self, context: Context) -> None:
        super().__init__("/")
        self.context = context
        self.service, self.connections = context.service, context.connections

    # pushing views and dropping sockets --------------------------------------------------
    def drop(self, game_id: str, goes) -> None:
        """Close every socket of ``game_id`` whose client ``goes`` says goes."""
        for sid, client in self.connections.of_game(game_id).items():
            if goes(client):
                self.connections.remove(sid)
                self.context.socketio.server.disconnect(sid, namespace="/")

    def tokens_revoked(self, event: TokensRevoked) -> None:
        """A logout or a new PIN: every socket that proved itself with those tokens closes."""
        self.drop(event.game, lambda client: client.identity.token in event.hashes)

    def drop_seat(self, game_id: str, seat: str) -> None:
        """A seat's phones signed out (after a new join code)."""
        self.drop(game_id, lambda c: c.identity.role == "seat" and c.identity.seat == seat)

    def phone_of(self, game_id: str, seat: str) -> bool:
        """Does ``seat`` have a phone of its own connected (not the host playing for it)?"""
        return any(c.identity.role == "seat" and c.identity.seat == seat
                   and not c.identity.by_host
                   for c in self.connections.of_game(game_id).values())

    def _answer(self, call):
        """The ack of ``call``, once the views of what it changed are sent."""
        client = self.connections.get(request.sid)
        ack = answer(self.service, client, call)
        if client is not None:
            self.context.views.settle(client.identity.game)
        return ack

    # the events -------------------------------------------------------------------------
    def on_connect(self, auth=None):
        live, client = authenticate(self.service, auth)
        identity = client.identity
        if identity.by_host and self.phone_of(live.id, identity.seat):
            _refuse("seat_has_phone", client.lang)  # its player plays on their own phone
        if identity.role == "seat" and not identity.by_host:  # the seat's own phone is back:
            # the host's screen of it closes (a private screen is one device's at a time)
            self.drop(live.id, lambda c: c.identity.by_host and c.identity.seat == identity.seat)
        join_room(room_of(client.identity))
        self.connections.add(request.sid, client)
        if identity.role == "host":  # its first view carries the frame rate of now, not
            self.context.hardware.push()  # of the tick's last reading (up to `SAFETY_S`)
        self.context.views.post(live)  # the newcomer's view, and everyone's presence

    def on_disconnect(self, *_args):
        client = self.connections.remove(request.sid)
        if client is not None:
            with contextlib.suppress(Refused):
                self.context.views.post(self.service.get(client.identity.game))

    def on_act(self, data=None):
        client = self.connections.get(request.sid)

        def run(live):
            if not isinstance(data, dict):
                raise Refused("bad_request")
            return self.service.act(client.identity, data.get("action"))

        return self._answer(run)

    def on_dice_face(self, data=None):
        """A die the camera could not read, entered by the player who rolled."""
        client = self.connections.get(request.sid)

        def run(live):
            if not isinstance(data, dict):
                raise Refused("bad_request")
            limits.check_json(data, "dice_face")  # the one rule for text, and the sizes
            dice_port(self.context).enter_face(client.identity, data.get("die"),
                                               data.get("face"))
            return live.version

        return self._answer(run)

    def on_resync(self, *_args):
        """A client that missed a patch asks for its whole view."""
        client = self.connections.get(request.sid)
        if client is None:
            return {"ok": False}
        with contextlib.suppress(Refused):
            self.context.views.post(self.service.get(client.identity.game),
                                    whole_for=request.sid)
            self.context.views.settle(client.identity.game)
        return {"ok": True}

    def on_set_lang(self, data=None):
        lang = (data or {}).get("lang") if isinstance(data, dict) else None
        known, allowed = self.connections.get(request.sid), None
        if known is not None:  # a language of the game's (GameInfo.languages)
            with contextlib.suppress(Refused):
                allowed = self.service.get(known.identity.game).kind.info.languages
        client = self.connections.set_lang(request.sid, i18n.normalize_lang(lang, allowed))
        if client is None:
            return {"ok": False}
        self.context.views.post(self.service.get(client.identity.game), whole_for=request.sid)
        self.context.views.settle(client.identity.game)
        return {"ok": True}

    def on_preview(self, data=None):
        client = self.connections.get(request.sid)

        def run(live):
            action = data.get("action") if isinstance(data, dict) else None
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise Refused("bad_request")
            limits.check_action(action)
            seat = client.identity.seat
            owed = {p.seat for p in live.kind.module.prompts(live.state)}
            if client.identity.role != "seat" or seat not in owed:
                raise Refused("not_your_turn")
            now = time.monotonic()
            if not self.connections.may_preview(request.sid, now, PREVIEW_EVERY):
                raise Refused("rate_limited")  # a flood never makes every phone redraw
            self.service.set_preview(live.id, dict(action, by=seat))
            self.connections.previewed(request.sid, now)
            return live.version

        return self._answer(run)

    def on_table_step(self, data=None):
        """The table display's buttons under a table step: its fallback, once or the rest."""
        client = self.connections.get(request.sid)

        def run(live):
            if client.identity.role != "table" or not isinstance(data, dict):
                raise Refused("bad_request")
            return table_steps.take(self.service, client.identity, live, data.get("kind"),
                                    data.get("rest") is True)

        return self._answer(run)

    def on_play_on(self, *_args):
        """The paired table's "Play on without the other phones": kept for the game, so a
        reload of the TV does not bring its lobby back."""
        client = self.connections.get(request.sid)

        def run(live):
            if client.identity.role != "table":
                raise Refused("not_paired")
            return self.service.set_play_on(live.id)

        return self._answer(run)

    def on_host(self, data=None):
        client = self.connections.get(request.sid)
        return self._answer(lambda live: self.host_message(client, live, data))

    def host_message(self, client: Client, live: LiveGame, data):
        """One host message (companion/game/shapes.py HOST_SHAPES says what each op
        carries)."""
        service = self.service
        if client.identity.role != "host":
            raise Refused("not_host")
        op = shapes.check_host(data)
        if op == "undo":
            return service.undo(live.id, data.get("count", 1))
        if op in ("pause", "resume"):
            return service.set_paused(live.id, op == "pause")
        if op == "end":
            return service.end(live.id)
        if op == "take_table":  # from another game in play: its host agrees (cookie or PIN)
            return service.access.move_table(live.id, holder_agrees=holder_agrees(
                live.id, data.get("pin")))
        if op == "new_join_code":
            service.access.new_join_code(live.id, data.get("seat"))
            self.drop_seat(live.id, data.get("seat"))
            return live.version
        if op == "table_step":  # a table step nothing records: its fallback, as the table
            return table_steps.take(service, Identity("table", live.id), live,
                                    data.get("kind"), data.get("rest") is True)
        if op == "dice_source":
            dice_port(self.context).choose(data.get("source"))
            return live.version
        if op in ("correct", "correct_preview"):
            action = data.get("action")
            if not isinstance(action, dict):
                raise Refused("bad_request")
            action = dict(action, type="correct", by="host")
            if op == "correct":
                return service.act(client.identity, action)
            limits.check_action(action)
            shapes.check_action(live.kind.info, action)
            return correction_diff(live, action, client.lang)
        action = {k: data[k] for k in ("seat", "item", "delta", "reason") if k in data}
        return service.act(client.identity, dict(action, type="adjust"))


def init_app(context: Context) -> Handlers:
    """The socket events wired to ``context``; revoked tokens close their sockets."""
    handlers = Handlers(context)
    context.bus.subscribe(TokensRevoked, handlers.tokens_revoked)
    context.socketio.on_namespace(handlers)
    return handlers

"""Socket.IO: proving an identity on connect, then act / set_lang / preview / host messages.

A connection proves one identity (table: none needed; seat: its token; host: a host token)
and joins only that identity's room. Every `view` is built per recipient (role, seat,
language) and emitted to that recipient's socket id only: nothing is broadcast to a room
that holds more than one identity. See docs/socket-protocol.md.
"""
from __future__ import annotations

import contextlib
import logging
import time

from flask import Flask, current_app, request
from flask_socketio import ConnectionRefusedError, SocketIO, join_room

from companion.blueprints.common import HOST_COOKIE, SEAT_COOKIE, TABLE_COOKIE
from companion.blueprints.connections import Client, Connections
from companion.blueprints.correction_diff import correction_diff
from companion.game import patches, shapes, views
from companion.game.service import GameService, Identity, LiveGame
from companion.server import i18n, limits
from companion.table import citations, table_steps
from companion.wiring import hardware_manager
from engine.api import Refused

log = logging.getLogger(__name__)
# the host's ops: companion/game/shapes.py HOST_SHAPES says what each carries
GONE = {"host": "not_host", "seat": "not_joined", "table": "not_paired"}  # a revoked token


PATCH_OPS = 60  # more changes than this: send the whole view
PREVIEW_EVERY = 0.1  # seconds between two previews of one connection (a card is turned by hand)


def room_of(identity: Identity) -> str:
    return f"{identity.game}/{identity.role}/{identity.seat or ''}"


class ViewSender:
    """Builds each recipient's view (once per role/seat/language) and sends it, whole or as
    a patch on the last one that connection got."""

    def __init__(self, app: Flask, socketio: SocketIO, connections: Connections) -> None:
        self.app, self.socketio, self.connections = app, socketio, connections

    def push(self, live: LiveGame, only: str | None = None) -> None:
        """All views are built before the first is sent, so the sending threads do not
        compete with the building for the interpreter lock."""
        connections = self.connections
        with self.app.app_context(), live.lock:
            clients = connections.of_game(live.id)
            connected = {c.identity.seat for c in clients.values() if c.identity.seat}
            hardware = hardware_manager.status_for(self.app, live)  # this game's (the table's)
            built: dict[tuple, dict] = {}
            patches_for: dict[tuple, list] = {}  # (recipient key, base n) -> ops
            memo: dict = {}  # the shared parts of the views, compared once (patches.diff)
            outbox = []
            for sid, client in clients.items():
                if only is not None and sid != only:
                    continue
                key = (client.identity.role, client.identity.seat, client.lang)
                if key not in built:
                    built[key] = views.build(live, client.identity.role, client.identity.seat,
                                             client.lang, connected=connected,
                                             hardware=hardware)
                payload = built[key]
                last = connections.last_sent(sid)
                if only is not None or last is None:
                    if connections.book(sid, client.lang):  # the rules, once per language
                        outbox.append((sid, "rules", citations.book(live.kind, client.lang)))
                    n = last[0] + 1 if last is not None else 0
                    if connections.mark_sent(sid, n, payload):
                        outbox.append((sid, "view", dict(payload, n=n)))
                    continue
                ops = patches_for.get((key, id(last[1])))
                if ops is None:
                    ops = patches_for[(key, id(last[1]))] = patches.diff(last[1], payload,
                                                                      memo=memo)
                if not ops:
                    continue  # nothing this recipient sees changed: no redraw, no bytes
                n = last[0] + 1
                if not connections.mark_sent(sid, n, payload):
                    continue  # disconnected while the views were built
                if len(ops) <= PATCH_OPS:
                    outbox.append((sid, "patch", {"base": last[0], "n": n, "ops": ops}))
                else:  # so much changed that the whole view is as small
                    outbox.append((sid, "view", dict(payload, n=n)))
            for sid, event, message in outbox:
                self.socketio.emit(event, message, to=sid)


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
    if role == "viewer":
        return live, Client(Identity("viewer", game_id), lang)
    key, cookie, gone = {"table": ("table_token", TABLE_COOKIE, "not_paired"),
                         "seat": ("token", SEAT_COOKIE, "not_joined"),
                         "host": ("host_token", HOST_COOKIE, "not_host")}[role]
    token = auth.get(key) or request.cookies.get(cookie.format(game_id))
    identity = service.identify(game_id, token, role)
    if identity is None:
        _refuse(gone, lang)
    return live, Client(identity, lang)


def answer(service: GameService, client: Client | None, call):
    """Run ``call`` and turn its outcome into the ack of docs/socket-protocol.md."""
    if client is None:
        return dict(views.refusal({}, "en", "bad_request", {}), ok=False)
    live = None
    try:
        live = service.get(client.identity.game)
        if not service.still_valid(client.identity):  # logged out since it connected
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


def host_message(service: GameService, drop_seat, client: Client, live: LiveGame, data):
    """One host message (companion/game/shapes.py HOST_SHAPES says what each op carries);
    ``drop_seat(game, seat)`` signs out a seat's phones after a new join code."""
    if client.identity.role != "host":
        raise Refused("not_host")
    op = shapes.check_host(data)
    if op == "undo":
        return service.undo(live.id, data.get("count", 1))
    if op in ("pause", "resume"):
        return service.set_paused(live.id, op == "pause")
    if op == "end":
        return service.end(live.id)
    if op == "take_table":
        return service.move_table(live.id)
    if op == "new_join_code":
        service.new_join_code(live.id, data.get("seat"))
        drop_seat(live.id, data.get("seat"))
        return live.version
    if op == "table_step":  # a table step nothing records: its fallback, as the table
        return table_steps.take(service, Identity("table", live.id), live, data.get("kind"),
                                data.get("rest") is True)
    if op == "dice_source":
        dice_wiring(service).choose(data.get("source"))
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


def dice_wiring(service: GameService):
    """The running dice wiring (companion/wiring/dice.py), or Refused when there is none."""
    manager = current_app.extensions.get("companion.hardware")
    handle = manager.handles.get("dice") if manager is not None else None
    if handle is None or not hasattr(handle, "enter_face"):
        raise Refused("dice_not_running")
    return handle


def init_app(app: Flask, socketio: SocketIO, service: GameService) -> None:
    """Wire the socket events: each handler finds its connection, then does one thing."""
    connections = Connections()
    app.extensions["companion.registry"] = connections
    sender = ViewSender(app, socketio, connections)
    push_views = sender.push

    def on_change(live: LiveGame, what: str) -> None:
        push_views(live)  # first: a page that gets `closed` stops listening
        if what == "closed":
            for sid in connections.of_game(live.id):
                socketio.emit("closed", {}, to=sid)

    service.listeners.append(on_change)

    def drop(game_id: str, keep) -> None:
        """Close every socket of ``game_id`` whose client ``keep`` says goes."""
        for sid, client in connections.of_game(game_id).items():
            if keep(client):
                connections.remove(sid)
                socketio.server.disconnect(sid, namespace="/")

    def on_revoked(game_id: str, hashes: set[str]) -> None:
        """A logout or a new PIN: every socket that proved itself with those tokens closes."""
        drop(game_id, lambda client: client.identity.token in hashes)

    service.revoked.append(on_revoked)

    def drop_seat(game_id: str, seat: str) -> None:
        drop(game_id, lambda c: c.identity.role == "seat" and c.identity.seat == seat)

    @socketio.on("connect")
    def connect(auth=None):
        live, client = authenticate(service, auth)
        join_room(room_of(client.identity))
        connections.add(request.sid, client)
        push_views(live)  # the newcomer's view, and everyone's presence

    @socketio.on("disconnect")
    def disconnect(*_args):
        client = connections.remove(request.sid)
        if client is not None:
            with contextlib.suppress(Refused):
                push_views(service.get(client.identity.game))

    @socketio.on("act")
    def act(data=None):
        client = connections.get(request.sid)

        def run(live):
            if not isinstance(data, dict):
                raise Refused("bad_request")
            return service.act(client.identity, data.get("action"))

        return answer(service, client, run)

    @socketio.on("dice_face")
    def dice_face(data=None):
        """A die the camera could not read, entered by the player who rolled."""
        client = connections.get(request.sid)

        def run(live):
            if not isinstance(data, dict):
                raise Refused("bad_request")
            limits.check_json(data, "dice_face")  # the one rule for text, and the sizes
            dice_wiring(service).enter_face(client.identity, data.get("die"), data.get("face"))
            return live.version

        return answer(service, client, run)

    @socketio.on("resync")
    def resync(*_args):
        """A client that missed a patch asks for its whole view."""
        client = connections.get(request.sid)
        if client is None:
            return {"ok": False}
        with contextlib.suppress(Refused):
            push_views(service.get(client.identity.game), only=request.sid)
        return {"ok": True}

    @socketio.on("set_lang")
    def set_lang(data=None):
        lang = i18n.normalize_lang((data or {}).get("lang") if isinstance(data, dict) else None)
        client = connections.set_lang(request.sid, lang)
        if client is None:
            return {"ok": False}
        push_views(service.get(client.identity.game), only=request.sid)
        return {"ok": True}

    @socketio.on("preview")
    def preview(data=None):
        client = connections.get(request.sid)

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
            if not connections.may_preview(request.sid, now, PREVIEW_EVERY):
                raise Refused("rate_limited")  # a flood never makes every phone redraw
            service.set_preview(live.id, dict(action, by=seat))
            connections.previewed(request.sid, now)
            return live.version

        return answer(service, client, run)

    @socketio.on("table_step")
    def table_step(data=None):
        """The table display's buttons under a table step: its fallback, once or the rest."""
        client = connections.get(request.sid)

        def run(live):
            if client.identity.role != "table" or not isinstance(data, dict):
                raise Refused("bad_request")
            return table_steps.take(service, client.identity, live, data.get("kind"),
                                    data.get("rest") is True)

        return answer(service, client, run)

    @socketio.on("host")
    def host(data=None):
        client = connections.get(request.sid)
        return answer(service, client,
                      lambda live: host_message(service, drop_seat, client, live, data))

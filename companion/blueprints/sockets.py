"""Socket.IO: proving an identity on connect, then act / set_lang / preview / host messages.

A connection proves one identity (table: none needed; seat: its token; host: a host token)
and joins only that identity's room. Every `view` is built per recipient (role, seat,
language) and emitted to that recipient's socket id only: nothing is broadcast to a room
that holds more than one identity. See docs/socket-protocol.md.
"""
from __future__ import annotations

import contextlib
import logging
import threading
import time
from dataclasses import dataclass

from flask import Flask, request
from flask_socketio import ConnectionRefusedError, SocketIO, join_room

from companion import citations, hardware_manager, i18n, limits, patches, shapes, table_steps, views
from companion.blueprints.common import HOST_COOKIE, SEAT_COOKIE, TABLE_COOKIE
from companion.service import GameService, Identity, LiveGame
from engine.api import Refused

log = logging.getLogger(__name__)
# the host's ops: companion/shapes.py HOST_SHAPES says what each carries
GONE = {"host": "not_host", "seat": "not_joined", "table": "not_paired"}  # a revoked token


@dataclass
class Client:
    identity: Identity
    lang: str


PATCH_OPS = 60  # more changes than this: send the whole view
PREVIEW_EVERY = 0.1  # seconds between two previews of one connection (a card is turned by hand)


def room_of(identity: Identity) -> str:
    return f"{identity.game}/{identity.role}/{identity.seat or ''}"


class Registry:
    """Connected sockets by sid; thread-safe."""

    def __init__(self) -> None:
        self._clients: dict[str, Client] = {}
        self._lock = threading.Lock()

    def add(self, sid: str, client: Client) -> None:
        with self._lock:
            self._clients[sid] = client

    def remove(self, sid: str) -> Client | None:
        with self._lock:
            return self._clients.pop(sid, None)

    def get(self, sid: str) -> Client | None:
        with self._lock:
            return self._clients.get(sid)

    def of_game(self, game_id: str) -> dict[str, Client]:
        with self._lock:
            return {s: c for s, c in self._clients.items() if c.identity.game == game_id}



def leaf_changes(before, after, path: str, out: list, most: int = 12) -> None:
    """The leaves that differ between two JSON values, as (path, before, after)."""
    if len(out) >= most or before == after:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for k in sorted(set(before) | set(after), key=str):
            leaf_changes(before.get(k), after.get(k), f"{path}.{k}", out, most)
    elif (isinstance(before, list) and isinstance(after, list)
          and len(before) == len(after)):
        for i, (b, a) in enumerate(zip(before, after, strict=True)):
            leaf_changes(b, a, f"{path}[{i}]", out, most)
    else:
        out.append((path, before, after))


def correction_diff(live: LiveGame, action: dict) -> dict:
    """A correction tried on the live state (nothing changes): what of the public board it
    changes, each changed value before and after (for the host to check first)."""
    import json

    from engine.api import correction_preview

    with live.lock:
        shown = correction_preview(live.kind.module, live.state, action)
    if "refused" in shown:
        raise Refused(shown["refused"]["code"], **shown["refused"].get("params", {}))

    def short(value) -> str:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
        return text if len(text) <= 120 else text[:119] + "…"

    leaves: list = []
    for k in shown["changed"]:
        if k not in ("prompts", "log", "scores"):
            leaf_changes(shown["before"].get(k), shown["after"].get(k), k, leaves)
    return {"preview": {"changed": [{"key": path, "before": short(b), "after": short(a)}
                                    for path, b, a in leaves]}}

def init_app(app: Flask, socketio: SocketIO, service: GameService) -> None:
    registry = Registry()
    app.extensions["companion.registry"] = registry
    sent: dict[str, tuple[int, dict]] = {}  # sid -> (n, the last view sent to it)
    previewed: dict[str, float] = {}  # sid -> when its last preview was taken
    booked: dict[str, str] = {}  # sid -> the language of the `rules` message it has

    def push_views(live: LiveGame, only: str | None = None) -> None:
        """Build each recipient's view (once per role/seat/language) and send it to it.

        All views are built before the first is sent, so the sending threads do not compete
        with the building for the interpreter lock.
        """
        with app.app_context(), live.lock:
            clients = registry.of_game(live.id)
            connected = {c.identity.seat for c in clients.values() if c.identity.seat}
            hardware = hardware_manager.status_for(app, live)  # this game's (the table's)
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
                last = sent.get(sid)
                if only is not None or last is None:
                    if booked.get(sid) != client.lang:  # the rules, once per language
                        booked[sid] = client.lang
                        outbox.append((sid, "rules", citations.book(live.kind, client.lang)))
                    n = last[0] + 1 if last is not None else 0
                    sent[sid] = (n, payload)
                    outbox.append((sid, "view", dict(payload, n=n)))
                    continue
                ops = patches_for.get((key, id(last[1])))
                if ops is None:
                    ops = patches_for[(key, id(last[1]))] = patches.diff(last[1], payload,
                                                                      memo=memo)
                if not ops:
                    continue  # nothing this recipient sees changed: no redraw, no bytes
                n = last[0] + 1
                sent[sid] = (n, payload)
                if len(ops) <= PATCH_OPS:
                    outbox.append((sid, "patch", {"base": last[0], "n": n, "ops": ops}))
                else:  # so much changed that the whole view is as small
                    outbox.append((sid, "view", dict(payload, n=n)))
            for sid, event, message in outbox:
                socketio.emit(event, message, to=sid)

    def on_change(live: LiveGame, what: str) -> None:
        push_views(live)  # first: a page that gets `closed` stops listening
        if what == "closed":
            for sid in registry.of_game(live.id):
                socketio.emit("closed", {}, to=sid)

    service.listeners.append(on_change)

    def on_revoked(game_id: str, hashes: set[str]) -> None:
        """A logout or a new PIN: every socket that proved itself with those tokens closes."""
        for sid, client in registry.of_game(game_id).items():
            if client.identity.token in hashes:
                registry.remove(sid)
                socketio.server.disconnect(sid, namespace="/")

    service.revoked.append(on_revoked)

    def refuse(code: str, lang: str):
        error = views.refusal({}, lang, code, {})
        raise ConnectionRefusedError(error["message"], error)

    @socketio.on("connect")
    def connect(auth=None):
        auth = auth if isinstance(auth, dict) else {}
        lang = i18n.normalize_lang(auth.get("lang"))
        game_id, role = auth.get("game"), auth.get("role")
        if not isinstance(game_id, str) or role not in ("table", "viewer", "seat", "host"):
            refuse("bad_request", lang)
        try:
            live = service.get(game_id)
        except Refused:
            refuse("unknown_game", lang)
        if role == "viewer":
            identity = Identity("viewer", game_id)
        elif role == "table":
            token = auth.get("table_token") or request.cookies.get(TABLE_COOKIE.format(game_id))
            identity = service.identify(game_id, token, "table")
            if identity is None:
                refuse("not_paired", lang)
        elif role == "seat":
            token = auth.get("token") or request.cookies.get(SEAT_COOKIE.format(game_id))
            identity = service.identify(game_id, token, "seat")
            if identity is None:
                refuse("not_joined", lang)
        else:
            token = auth.get("host_token") or request.cookies.get(HOST_COOKIE.format(game_id))
            identity = service.identify(game_id, token, "host")
            if identity is None:
                refuse("not_host", lang)
        join_room(room_of(identity))
        registry.add(request.sid, Client(identity, lang))
        push_views(live)  # the newcomer's view, and everyone's presence

    @socketio.on("disconnect")
    def disconnect(*_args):
        sent.pop(request.sid, None)
        previewed.pop(request.sid, None)
        booked.pop(request.sid, None)
        client = registry.remove(request.sid)
        if client is not None:
            with contextlib.suppress(Refused):
                push_views(service.get(client.identity.game))

    def answer(client: Client | None, call):
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
        except Exception:
            log.exception("socket call failed")
            return dict(views.refusal({}, client.lang, "internal_error", {}), ok=False)

    @socketio.on("act")
    def act(data=None):
        client = registry.get(request.sid)

        def run(live):
            if not isinstance(data, dict):
                raise Refused("bad_request")
            return service.act(client.identity, data.get("action"))

        return answer(client, run)

    @socketio.on("resync")
    def resync(*_args):
        """A client that missed a patch asks for its whole view."""
        client = registry.get(request.sid)
        if client is None:
            return {"ok": False}
        with contextlib.suppress(Refused):
            push_views(service.get(client.identity.game), only=request.sid)
        return {"ok": True}

    @socketio.on("set_lang")
    def set_lang(data=None):
        client = registry.get(request.sid)
        if client is None:
            return {"ok": False}
        lang = i18n.normalize_lang((data or {}).get("lang") if isinstance(data, dict) else None)
        registry.add(request.sid, Client(client.identity, lang))
        push_views(service.get(client.identity.game), only=request.sid)
        return {"ok": True}

    @socketio.on("preview")
    def preview(data=None):
        client = registry.get(request.sid)

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
            if now - previewed.get(request.sid, 0.0) < PREVIEW_EVERY:
                raise Refused("rate_limited")  # a flood never makes every phone redraw
            service.set_preview(live.id, dict(action, by=seat))
            previewed[request.sid] = now
            return live.version

        return answer(client, run)

    @socketio.on("host")
    def host(data=None):
        client = registry.get(request.sid)

        def run(live):
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
                seat = data.get("seat")
                service.new_join_code(live.id, seat)
                for sid, other in registry.of_game(live.id).items():  # sign out its phones
                    if other.identity.role == "seat" and other.identity.seat == seat:
                        registry.remove(sid)
                        socketio.server.disconnect(sid, namespace="/")
                return live.version
            if op == "table_step":  # a table step nothing records: its fallback, as the table
                action = table_steps.fallback(live, data.get("kind"))
                return service.act(Identity("table", live.id), action)
            if op in ("correct", "correct_preview"):
                action = data.get("action")
                if not isinstance(action, dict):
                    raise Refused("bad_request")
                action = dict(action, type="correct", by="host")
                if op == "correct":
                    return service.act(client.identity, action)
                limits.check_action(action)
                shapes.check_action(live.kind.info, action)
                return correction_diff(live, action)
            action = {k: data[k] for k in ("seat", "item", "delta", "reason") if k in data}
            return service.act(client.identity, dict(action, type="adjust"))

        return answer(client, run)

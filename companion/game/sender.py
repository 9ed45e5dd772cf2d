"""The one sender of views: its own thread builds each recipient's view (once per role, seat
and language) and sends it, whole or as a patch on the last one that connection got.

Whoever changes a game only posts that it changed (`post`, through `GameService.notify`,
which publishes `ViewsChanged` on the app's event bus, where the app factory subscribed it):
a socket handler, an HTTP route, the camera's and the dice reader's threads. None of them
builds or sends a view; the sender thread takes the posts in order, one game at a time
(posts for a game that waits already are merged into its turn: its views are built once,
from the state as it is then), builds the views under the game's lock and sends them after
releasing it. Being the only thread that sends views and the patches' bases, it keeps each
connection's patches in order. A socket handler that answers with an ack first waits until
the views of every change it made are sent (`settle`): a phone gets its new view no later
than the ack.

It knows the recipients from `Connections` and sends through ``emit(event, message,
to=sid)`` (the Socket.IO server's); what the views show of the hardware comes from
``hardware(live)``: the status the hardware last pushed down (game/hardware_report.py),
never asked of the hardware above. The thread starts with the first post and ends after
`IDLE_S` seconds without one.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from engineio.exceptions import SocketIsClosedError

from companion.game import patches, views
from companion.game.events_bus import ViewsChanged
from companion.game.live import LiveGame
from companion.game.recipients import Connections
from companion.server import locks, threadnames
from companion.table import citations

log = logging.getLogger(__name__)
PATCH_OPS = 60  # more changes than this: send the whole view
IDLE_S = 5.0  # the sender thread ends after this long without a post
SETTLE_S = 30.0  # a handler waits at most this long for its views (the sender is stuck)
THREAD_NAME = "views"


@dataclass
class _Turn:
    """What is owed to one game's recipients when its turn comes."""

    live: LiveGame
    everyone: bool = False  # every recipient gets its view (else only ``whole``, ``hosts``)
    hosts: bool = False  # the host pages get their view (only what they see changed)
    whole: set[str] = field(default_factory=set)  # sids that get their whole view
    closed: bool = False  # then `closed` to every recipient
    last: int = 0  # the newest post merged in


class ViewSender:
    """Builds and sends the views of the games to their connected recipients, in order."""

    def __init__(self, app, emit: Callable, connections: Connections,
                 hardware: Callable[[LiveGame], dict]) -> None:
        self.app, self.emit, self.connections, self.hardware = app, emit, connections, hardware
        self._cond = locks.condition("view queue")  # a leaf: the queue and the counters below
        self._queue: dict[str, _Turn] = {}  # game id -> its turn, in the order first posted
        self._posts = 0  # posts so far
        self._posted: dict[str, int] = {}  # game id -> its newest post
        self._sent: dict[str, int] = {}  # game id -> the newest post its sent views cover
        self._thread: threading.Thread | None = None
        self.turns = 0  # turns taken (tests: a post owed to no screen takes none)

    # posting ----------------------------------------------------------------------------
    def views_changed(self, event: ViewsChanged) -> None:
        """The game service's event: every recipient gets its view (then `closed`, for a
        game that ended; only the hosts' for "host-hardware"). Subscribed in the app
        factory."""
        self.post(event.live, closed=event.what == "closed",
                  hosts_only=event.what == "host-hardware")

    def post(self, live: LiveGame, whole_for: str | None = None, closed: bool = False,
             hosts_only: bool = False) -> None:
        """``live``'s views changed: every recipient gets its own (``whole_for``: only that
        connection, and its whole view; ``closed``: then the message `closed`;
        ``hosts_only``: only the host pages', the one role that sees every detail of the
        hardware status: a part's change that no other screen shows builds no other view,
        issue 71). A post owed to no connected screen (no recipient of ``live`` at all, or
        ``hosts_only`` with no host page) is not queued: the thread is not woken for a turn
        that sends nothing (issue 71, session 91: such a hand-off, post to settle, costs
        ~0.2 ms beside a busy camera thread, notes s91/i71 handoff2.py). A screen connecting
        meanwhile posts for its own whole view, built from the state as it is then."""
        if whole_for is None and not any(
                not hosts_only or client.identity.role == "host"
                for client in self.connections.of_game(live.id).values()):
            return  # no "connections" lock under the queue's: it is a leaf
        with self._cond:
            self._posts += 1
            turn = self._queue.get(live.id)
            if turn is None:
                turn = self._queue[live.id] = _Turn(live)
            turn.live, turn.last = live, self._posts
            if whole_for is not None:
                turn.whole.add(whole_for)
            elif hosts_only:
                turn.hosts = True
            else:
                turn.everyone = True
            turn.closed |= closed
            self._posted[live.id] = self._posts
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=THREAD_NAME,
                                                daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def settle(self, game_id: str, timeout: float = SETTLE_S) -> bool:
        """Wait until the views of every change posted so far for ``game_id`` are sent
        (False: not within ``timeout``). Never called holding a game's lock: the sender
        needs it to build."""
        locks.none_held("waiting for the views")  # the sender may need any of them
        with self._cond:
            wanted = self._posted.get(game_id, 0)
            done = self._cond.wait_for(lambda: self._sent.get(game_id, 0) >= wanted, timeout)
        if not done:
            log.error("the views of game %s were not sent within %s s", game_id, timeout)
        return done

    # the sender thread --------------------------------------------------------------------
    def _run(self) -> None:
        threadnames.name_this_thread()
        while True:
            with self._cond:
                if not self._cond.wait_for(lambda: self._queue, IDLE_S):
                    self._thread = None  # a post from now on starts another
                    return
                game_id = next(iter(self._queue))
                turn = self._queue.pop(game_id)
                self.turns += 1
            try:
                self._send(turn)
            except Exception:  # one game's failure never stops the others' views
                log.exception("sending the views of game %s failed", game_id)
            with self._cond:
                self._sent[game_id] = max(self._sent.get(game_id, 0), turn.last)
                self._cond.notify_all()

    def _send(self, turn: _Turn) -> None:
        """Build every view owed under the game's lock; send them once it is released."""
        live = turn.live
        with self.app.app_context():
            with live.lock:
                outbox = self._build(live, turn)
            for sid, event, message in outbox:
                self._emit_to(sid, event, message)
            if turn.closed:  # after the views: a page that gets `closed` stops listening
                for sid in self.connections.of_game(live.id):
                    self._emit_to(sid, "closed", {})

    def _emit_to(self, sid: str, event: str, message: object) -> None:
        """One recipient's message. A socket that closed meanwhile (its pings timed out, a
        phone's page gone) misses it, and only it: the rest of the turn still goes out, and
        the page gets its whole view when it connects again."""
        try:
            self.emit(event, message, to=sid)
        except SocketIsClosedError:
            log.info("socket %s closed before its %s was sent", sid, event)

    def _build(self, live: LiveGame, turn: _Turn) -> list[tuple[str, str, dict]]:
        """(sid, event, message) for each recipient owed something, all built before the
        first is sent (the sending threads do not compete with the building for the
        interpreter lock)."""
        locks.owned(live.lock, "the game's views")
        connections = self.connections
        clients = connections.of_game(live.id)
        # a seat's own phone; the host playing for a seat does not make it connected
        connected = {c.identity.seat for c in clients.values()
                     if c.identity.seat and not c.identity.by_host}
        hosted = {c.identity.seat for c in clients.values() if c.identity.by_host}
        hardware = self.hardware(live)  # this game's (the table's)
        built: dict[tuple, dict] = {}
        patches_for: dict[tuple, list] = {}  # (recipient key, base n) -> ops
        memo: dict = {}  # the shared parts of the views, compared once (patches.diff)
        outbox = []
        for sid, client in clients.items():
            whole = sid in turn.whole
            if not (turn.everyone or whole or turn.hosts and client.identity.role == "host"):
                continue
            by_host = client.identity.by_host
            key = (client.identity.role, client.identity.seat, client.lang, by_host)
            if key not in built:
                built[key] = views.build(live, client.identity.role, client.identity.seat,
                                         client.lang, connected=connected, hardware=hardware,
                                         hosted=hosted, by_host=by_host)
            payload = built[key]
            last = connections.last_sent(sid)
            if whole or last is None:
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
        return outbox

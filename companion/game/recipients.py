"""The connected sockets and what the server remembers about each, under one lock.

A push builds views under a game's lock and records, per connection, the last view sent
(the base of the next patch), when its last preview was taken and the language of the rules
it has. A socket thread may disconnect meanwhile: everything about a connection lives here
and is removed in one step, and a push records nothing for a connection already gone, so a
closed socket leaves no entry behind (docs/server.md, "Threads and locks").
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.game.service import Identity
from companion.server import locks


@dataclass(frozen=True)
class Client:
    identity: Identity
    lang: str


class Connections:
    """Connected sockets by sid, with their per-connection state; thread-safe (a leaf lock:
    held only to read or change these dicts, never while building or sending)."""

    def __init__(self) -> None:
        self._lock = locks.lock("connections")
        self._clients: dict[str, Client] = {}
        self._sent: dict[str, tuple[int, dict]] = {}  # sid -> (n, the last view sent to it)
        self._previewed: dict[str, float] = {}  # sid -> when its last preview was taken
        self._booked: dict[str, str] = {}  # sid -> the language of the `rules` it has

    def add(self, sid: str, client: Client) -> None:
        with self._lock:
            self._clients[sid] = client

    def set_lang(self, sid: str, lang: str) -> Client | None:
        """The connection with its new language (its views go on from the same base)."""
        with self._lock:
            client = self._clients.get(sid)
            if client is not None:
                client = self._clients[sid] = Client(client.identity, lang)
            return client

    def remove(self, sid: str) -> Client | None:
        """Forget the connection and everything about it."""
        with self._lock:
            self._sent.pop(sid, None)
            self._previewed.pop(sid, None)
            self._booked.pop(sid, None)
            return self._clients.pop(sid, None)

    def get(self, sid: str) -> Client | None:
        with self._lock:
            return self._clients.get(sid)

    def of_game(self, game_id: str) -> dict[str, Client]:
        with self._lock:
            return {s: c for s, c in self._clients.items() if c.identity.game == game_id}

    def has_host(self) -> bool:
        """Whether a host page is connected (the one screen that shows the camera's frame
        rate: the hardware's tick reads it once a second only then)."""
        with self._lock:
            return any(c.identity.role == "host" for c in self._clients.values())

    def last_sent(self, sid: str) -> tuple[int, dict] | None:
        with self._lock:
            return self._sent.get(sid)

    def mark_sent(self, sid: str, n: int, view: dict) -> bool:
        """Remember the view sent as ``n``; False (nothing kept) once the socket is gone."""
        with self._lock:
            if sid not in self._clients:
                return False
            self._sent[sid] = (n, view)
            return True

    def book(self, sid: str, lang: str) -> bool:
        """True when the connection still needs the rules in ``lang`` (now marked as sent)."""
        with self._lock:
            if sid not in self._clients or self._booked.get(sid) == lang:
                return False
            self._booked[sid] = lang
            return True

    def may_preview(self, sid: str, now: float, every: float) -> bool:
        """False when the connection's last preview taken is under ``every`` seconds old: a
        flood of previews never makes every phone redraw."""
        with self._lock:
            return sid in self._clients and now - self._previewed.get(sid, 0.0) >= every

    def previewed(self, sid: str, now: float) -> None:
        """A preview of the connection was taken at ``now`` (a refused one does not count)."""
        with self._lock:
            if sid in self._clients:
                self._previewed[sid] = now

    def entries(self) -> dict[str, int]:
        """How many entries each per-connection table holds (tests: none for a closed one)."""
        with self._lock:
            return {"clients": len(self._clients), "sent": len(self._sent),
                    "previewed": len(self._previewed), "booked": len(self._booked)}

    def orphans(self) -> set[str]:
        """Sids with state kept but no connection (always empty when the contract holds)."""
        with self._lock:
            return (set(self._sent) | set(self._previewed) | set(self._booked)) - set(
                self._clients)

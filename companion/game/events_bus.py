"""A small typed publish/subscribe: the game's services tell whoever subscribed what happened,
without knowing who listens (the view sender, the socket layer, the hardware).

One `Bus` per app, made in the factory with the services. An event is a frozen dataclass;
a subscriber is a callable taking one event of its type. Publishing calls every subscriber of
the event's type in the order they subscribed, on the publishing thread; a subscriber that
fails is logged and the others still run: what was published happened already (an action
saved, a token revoked) and a failing subscriber must not undo it or hide it from the rest.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from companion.game.live import LiveGame
from companion.server import locks

log = logging.getLogger(__name__)
E = TypeVar("E")
G = TypeVar("G")
W = TypeVar("W")  # who acts (an Identity)


@dataclass(frozen=True)
class ViewsChanged:
    """A game's views changed (``what``: "view", "seats", "hardware", "closed"; or
    "host-hardware": only what the host pages show of the hardware status)."""

    live: LiveGame
    what: str = "view"


@dataclass(frozen=True)
class TokensRevoked:
    """Tokens of ``game`` stopped working (a logout, a new PIN): their sockets close."""

    game: str
    hashes: frozenset[str]


class Bus:
    """Subscribers by event type. Subscribing is rare (at start, when a part starts or
    stops), publishing frequent: publishing reads a tuple replaced whole on each change."""

    def __init__(self) -> None:
        self._lock = locks.lock("event bus")  # a leaf: the subscribers, changed under it
        self._subscribers: dict[type, tuple[Callable, ...]] = {}

    def subscribe(self, kind: type[E], callback: Callable[[E], None]) -> None:
        with self._lock:
            self._subscribers[kind] = (*self._subscribers.get(kind, ()), callback)

    def unsubscribe(self, kind: type[E], callback: Callable[[E], None]) -> None:
        """``callback`` no longer told of ``kind`` (nothing happens if it was not)."""
        with self._lock:
            kept = list(self._subscribers.get(kind, ()))
            if callback in kept:
                kept.remove(callback)
            self._subscribers[kind] = tuple(kept)

    def subscribed(self, kind: type, callback: Callable) -> bool:
        return callback in self._subscribers.get(kind, ())

    def publish(self, event: object) -> None:
        for callback in self._subscribers.get(type(event), ()):
            try:
                callback(event)
            except Exception:  # the others still run (see the module's docstring)
                log.exception("a subscriber of %s failed", type(event).__name__)


class Gates(Generic[G, W]):
    """What is asked before an action is applied: each gate ``(game, identity, action)``
    refuses it by raising `Refused` (the first refusal wins, nothing is applied). Unlike a
    subscriber's, a gate's exception goes to the caller."""

    def __init__(self) -> None:
        self._gates: tuple[Callable[[G, W, dict], None], ...] = ()  # replaced whole

    def add(self, gate: Callable[[G, W, dict], None]) -> None:
        self._gates = (*self._gates, gate)

    def remove(self, gate: Callable[[G, W, dict], None]) -> None:
        self._gates = tuple(g for g in self._gates if g != gate)

    def __contains__(self, gate: object) -> bool:
        return gate in self._gates

    def check(self, game: G, identity: W, action: dict) -> None:
        for gate in self._gates:
            gate(game, identity, action)

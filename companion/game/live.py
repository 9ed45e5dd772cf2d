"""A game in memory (`LiveGame`) and who a connection proved to be (`Identity`): what the
game's services (play, companion/game/service.py; access, companion/game/access.py), the
event bus and the sender share, in a module of their own so none imports another for them.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from companion.game.games import GameKind
from companion.server import locks
from companion.server.lru import LRU

TEXT_CACHE_SIZE = 2048  # translated prompts and refusals kept per game (LiveGame)


@dataclass(frozen=True)
class Identity:
    """Who a connection or request proved to be. ``seat`` only for the seat role."""

    role: str  # "table" (the paired display) | "viewer" (watch only) | "seat" | "host"
    game: str
    seat: str | None = None
    token: str | None = field(default=None, compare=False, repr=False)  # its hash, if any
    # the host acting as ``seat`` (a seat with no phone: "Play for ..." on the host page),
    # proven by a host token; its actions are logged as played by the host
    by_host: bool = False

    @property
    def actor(self) -> str:
        return self.seat if self.role == "seat" else self.role


@dataclass
class LiveGame:
    """A game in memory: the rebuilt state and what the views need."""

    id: str
    kind: GameKind
    row: dict  # the games table row
    state: dict | None  # None: a finished game not opened since the start
    version: int  # actions in effect
    last_seq: int  # highest seq ever written, undone included
    log: list[tuple[int, dict, dict]] = field(default_factory=list)  # (seq, action, event)
    active_seqs: list[int] = field(default_factory=list)
    preview: dict | None = None
    # (lang, position, seq) -> log entry; only the log window's entries are kept
    log_cache: dict = field(default_factory=dict)
    # translated prompts and choice refusals by (kind, lang, their JSON): the same text
    # whatever the state, so kept through undo; an LRU, as a long evening shows thousands
    # of distinct prompts (a few hundred are in use at a time: every choice's refusal)
    text_cache: LRU = field(default_factory=lambda: LRU(TEXT_CACHE_SIZE))
    shared: Any = None  # companion.game.shared.Shared: what the views of this state share
    play_on: bool = False  # the table plays on without the phones not joined (kept on disk)
    lock: threading.RLock = field(default_factory=lambda: locks.rlock("game", "game"))

    @property
    def status(self) -> str:
        return self.row["status"]

    @property
    def seats(self) -> list[str]:
        return [p["seat"] for p in self.row["setup"].get("players", [])]

    @property
    def players(self) -> list[dict]:
        return [{"seat": p["seat"], "name": p.get("name", p["seat"]),
                 "colour": p.get("colour")} for p in self.row["setup"].get("players", [])]

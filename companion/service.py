"""The game service: every change to a game goes through here, in this order:

  engine.apply (under the game's lock) → commit to SQLite → acknowledge → notify listeners

so an acknowledged action is always on disk, and the views sent afterwards are built from
the state that was saved. At start every game is rebuilt from its latest snapshot plus the
later actions; undo marks actions undone and rebuilds. Knows nothing of Flask or sockets:
the socket layer registers a listener (`on_change`).
"""
from __future__ import annotations

import copy
import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion import security
from companion.games import GameKind
from companion.store import Store
from engine import record as engine_record
from engine.api import Refused

log = logging.getLogger(__name__)
END_EVENTS = {"game_over", "game_end", "game_ended", "game_finished", "final_scoring"}


@dataclass(frozen=True)
class Identity:
    """Who a connection or request proved to be. ``seat`` only for the seat role."""

    role: str  # "table" | "seat" | "host"
    game: str
    seat: str | None = None

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
    log_cache: dict = field(default_factory=dict)  # (lang, position, seq) -> log entry
    lock: threading.RLock = field(default_factory=threading.RLock)

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


class GameService:
    def __init__(self, store: Store, kinds: Callable[[str], GameKind],
                 snapshot_every: int = 25) -> None:
        self.store = store
        self._kinds = kinds
        self.snapshot_every = snapshot_every
        self._games: dict[str, LiveGame] = {}
        self._lock = threading.Lock()
        self.listeners: list[Callable[[LiveGame, str], None]] = []

    # loading ---------------------------------------------------------------------------
    def load_all(self) -> None:
        """Rebuild every game in play; finished games only when first opened (a Pi keeps
        years of them: start-up time and memory stay flat)."""
        for row in self.store.games():
            try:
                if row["status"] == "finished":
                    self._games[row["id"]] = LiveGame(
                        row["id"], self._kinds(row["game"]), row, None,
                        version=self.store.count_actions(row["id"]),
                        last_seq=self.store.last_seq(row["id"]))
                else:
                    self._games[row["id"]] = self._rebuild(row)
            except Exception:
                log.exception("cannot rebuild game %s; it stays on disk untouched", row["id"])

    def _rebuild(self, row: dict) -> LiveGame:
        """The state after every action in effect: latest snapshot, then the later actions."""
        kind = self._kinds(row["game"])
        actions = self.store.actions(row["id"])
        snap = self.store.latest_snapshot(row["id"])
        if snap is not None and any(a["seq"] == snap[0] for a in actions):
            start_seq, state = snap
        else:
            start_seq, state = 0, kind.module.setup(kind.catalog, row["setup"])
        for entry in actions:
            if entry["seq"] > start_seq:
                state, _ = kind.module.apply(state, entry["action"])
        live = LiveGame(row["id"], kind, row, state, version=len(actions),
                        last_seq=self.store.last_seq(row["id"]),
                        active_seqs=[a["seq"] for a in actions])
        live.log = [(a["seq"], a["action"], e) for a in actions for e in a["events"]]
        return live

    def get(self, game_id: str) -> LiveGame:
        """A game with its state (rebuilt now if it was left on disk at start)."""
        live = self._games.get(game_id)
        if live is None:
            raise Refused("unknown_game")
        if live.state is None:
            with live.lock:
                if live.state is None:
                    fresh = self._rebuild(live.row)
                    live.log, live.active_seqs = fresh.log, fresh.active_seqs
                    live.version, live.state = fresh.version, fresh.state
        return live

    def all(self) -> list[LiveGame]:
        return sorted(self._games.values(), key=lambda g: g.row["created"], reverse=True)

    def current(self) -> LiveGame | None:
        """The newest running game: where camera and dice readings go."""
        running = [g for g in self.all() if g.status == "active"]
        return running[0] if running else None

    def _notify(self, live: LiveGame, what: str = "view") -> None:
        for listener in list(self.listeners):
            try:
                listener(live, what)
            except Exception:
                log.exception("listener failed")

    # creating --------------------------------------------------------------------------
    def create(self, game: str, setup: dict, pin: str, add_seed: bool = True) -> LiveGame:
        """A new game. ``setup`` as the module wants it; a seed is added when missing
        (not for an imported record: its setup must stay as it was played)."""
        kind = self._kinds(game)
        setup = copy.deepcopy(setup)
        if add_seed:
            setup.setdefault("seed", random.SystemRandom().randrange(2**31))
        try:
            state = kind.module.setup(kind.catalog, setup)
        except Refused as exc:
            detail = exc.params.get("detail") or exc.params.get("reason") or exc.code
            raise Refused("bad_setup", detail=str(detail)) from exc
        except Exception as exc:
            raise Refused("bad_setup", detail=str(exc)) from exc
        seats = [p["seat"] for p in setup.get("players", [])]
        if not seats or len(set(seats)) != len(seats):
            raise Refused("bad_setup", detail="seats")
        game_id = security.new_game_id()
        codes = {seat: security.new_join_code() for seat in seats}
        self.store.create_game(game_id, game, setup, security.hash_pin(pin), codes)
        row = self.store.game(game_id)
        live = LiveGame(game_id, kind, row, state, version=0, last_seq=0)
        with self._lock:
            self._games[game_id] = live
        return live

    # acting ----------------------------------------------------------------------------
    def act(self, identity: Identity, action: Any) -> int:
        """Apply, persist, notify. Returns the new version or raises `Refused`."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise Refused("bad_request")
        live = self.get(identity.game)
        action = dict(action, by=identity.actor)  # the proven identity, never the client's
        with live.lock:
            if live.status == "finished":
                raise Refused("game_closed")
            if live.status == "paused":
                raise Refused("game_paused")
            return self._commit(live, action)

    def _commit(self, live: LiveGame, action: dict) -> int:
        state, events = live.kind.module.apply(live.state, action)
        seq = live.last_seq + 1
        snapshot = state if (live.version + 1) % self.snapshot_every == 0 else None
        try:
            self.store.append(live.id, seq, action, events, snapshot)
        except Exception as exc:
            log.exception("cannot save an action of game %s", live.id)
            raise Refused("storage_error") from exc
        live.state, live.last_seq, live.version = state, seq, live.version + 1
        live.active_seqs.append(seq)
        live.log.extend((seq, action, e) for e in events)
        live.preview = None
        if any(e.get("type") in END_EVENTS for e in events) or self._is_over(live):
            self._finish(live)
        self._notify(live)
        return live.version

    @staticmethod
    def _is_over(live: LiveGame) -> bool:
        """The engine's end marker: an end event (above) or ``over`` in the state."""
        return isinstance(live.state, dict) and live.state.get("over") is True

    def _finish(self, live: LiveGame) -> None:
        result = live.kind.module.scores(live.state)
        self.store.set_status(live.id, "finished", result)
        live.row.update(status="finished", result=result)

    # host ------------------------------------------------------------------------------
    def undo(self, game_id: str, count: int = 1) -> int:
        live = self.get(game_id)
        if not isinstance(count, int) or count < 1:
            raise Refused("bad_request")
        with live.lock:
            if count > len(live.active_seqs):
                raise Refused("nothing_to_undo")
            self.store.mark_undone(game_id, live.active_seqs[-count:])
            if live.status == "finished":
                self.store.set_status(game_id, "active")
            fresh = self._rebuild(self.store.game(game_id))
            live.state, live.version, live.log = fresh.state, fresh.version, fresh.log
            live.active_seqs, live.row, live.preview = fresh.active_seqs, fresh.row, None
            live.log_cache = {}
            self._notify(live)
            return live.version

    def set_paused(self, game_id: str, paused: bool) -> int:
        live = self.get(game_id)
        with live.lock:
            if live.status == "finished":
                raise Refused("game_closed")
            status = "paused" if paused else "active"
            self.store.set_status(game_id, status)
            live.row["status"] = status
            self._notify(live)
            return live.version

    def end(self, game_id: str) -> int:
        live = self.get(game_id)
        with live.lock:
            if live.status != "finished":
                self._finish(live)
            self._notify(live, "closed")
            return live.version

    def check_pin(self, game_id: str, pin: str) -> bool:
        return security.check_pin(self.get(game_id).row["pin_hash"], str(pin))

    def set_preview(self, game_id: str, rotation: int) -> None:
        """While the event card is turned: the incomes and favor move it would give."""
        live = self.get(game_id)
        with live.lock:
            live.preview = self.orient_preview(live, rotation)
            self._notify(live)

    @staticmethod
    def orient_preview(live: LiveGame, rotation: int) -> dict | None:
        module = live.kind.module
        for prompt in module.prompts(live.state):
            if prompt.kind != "orient_event":
                continue
            for choice in module.choices(live.state, prompt.seat):
                if (choice.action.get("type") == "orient_event"
                        and choice.action.get("rotation") == rotation):
                    # the preview goes to every recipient: only the effect's public part
                    # (favor move, landing space, every seat's income), never the active
                    # seat's own gains, which can reveal hidden counts (King = loyalty held)
                    return {"rotation": rotation, "seat": prompt.seat,
                            "effect": choice.effect["public"]}
        return None

    # seats -----------------------------------------------------------------------------
    def claim_seat(self, game_id: str, seat: str, code: str) -> str:
        """A valid join code gives a fresh token for the seat (several phones may share it)."""
        live = self.get(game_id)
        codes = self.store.join_codes(game_id)
        if seat not in codes:
            raise Refused("unknown_seat")
        if not security.same(codes[seat], str(code or "").strip().upper()):
            raise Refused("wrong_code")
        token = security.new_token()
        self.store.add_token(security.token_hash(token), live.id, "seat", seat)
        return token

    def new_join_code(self, game_id: str, seat: str) -> str:
        live = self.get(game_id)
        if seat not in live.seats:
            raise Refused("unknown_seat")
        code = security.new_join_code()
        with live.lock:
            self.store.replace_join_code(game_id, seat, code)
            self._notify(live, "seats")
        return code

    def new_host_token(self, game_id: str) -> str:
        token = security.new_token()
        self.store.add_token(security.token_hash(token), game_id, "host", None)
        return token

    def identify(self, game_id: str, token: str | None, role: str) -> Identity | None:
        """The identity a seat or host token proves for this game, or None."""
        if not token or not isinstance(token, str):
            return None
        found = self.store.token(security.token_hash(token))
        if not found or found["game"] != game_id or found["role"] != role:
            return None
        return Identity(role, game_id, found["seat"])

    # records ---------------------------------------------------------------------------
    def record(self, game_id: str) -> dict:
        live = self.get(game_id)
        with live.lock:
            actions = [a["action"] for a in self.store.actions(game_id)]
        return engine_record.build(live.kind.name, live.row["setup"], actions)

    def import_record(self, record: Any, pin: str) -> LiveGame:
        problems = engine_record.validate(record)
        if problems:
            raise Refused("bad_record", detail="; ".join(problems))
        try:
            kind = self._kinds(str(record.get("game")))
        except Exception as exc:
            raise Refused("bad_record", detail=f"game {record.get('game')!r}") from exc
        # replay first, so a bad record creates nothing
        i, steps = 0, []
        try:
            state = kind.module.setup(kind.catalog, record["setup"])
            for i, action in enumerate(record["actions"]):  # noqa: B007 (i used below)
                state, events = kind.module.apply(state, action)
                steps.append((action, events))
        except Refused as exc:
            raise Refused("bad_record", detail=f"action {i + 1}: {exc}") from exc
        except Exception as exc:
            raise Refused("bad_record", detail=str(exc)) from exc
        live = self.create(kind.name, record["setup"], pin, add_seed=False)
        with live.lock:
            for action, _ in steps:
                self._commit(live, action)
        return live

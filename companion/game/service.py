"""The game service: every change to a game goes through here, in this order:

  engine.apply (under the game's lock) → commit to SQLite → notify listeners (the views are
  posted to the sender) → return the new version (the socket layer acknowledges with it,
  once the sender has sent the views)

so an acknowledged action is always on disk, the views are built from the state that was
saved, and a phone gets its new view no later than the acknowledgement. At start every game
is rebuilt from its latest snapshot plus the later actions; undo marks actions undone and
rebuilds. Knows nothing of Flask or sockets: it publishes what happened on its event bus
(companion/game/events_bus.py), where the app factory subscribed the view sender.
"""
from __future__ import annotations

import copy
import logging
import random
from collections.abc import Callable
from typing import Any

from companion.game import shapes
from companion.game.access import AccessService
from companion.game.events_bus import Bus, Gates, ViewsChanged
from companion.game.games import GameKind
from companion.game.live import Identity, LiveGame
from companion.game.rebuild import Rebuilder, outdated
from companion.game.store import Store
from companion.server import limits, locks, security, text
from companion.table import table_guide
from engine import record as engine_record
from engine.api import CATALOG_KEY, Refused

log = logging.getLogger(__name__)
MAX_ACTIONS = 20_000  # a record longer than any game of any box
PLAY_ON_KEY = "play_on:{}"  # Store.box_value: the table plays on without the other phones
# the app's own log event, before the game's events of an action the host played for a
# seat (its text: companion/game/views.py APP_EVENTS)
HOST_PLAYED = "played_by_host"


class GameService:
    def __init__(self, store: Store, kinds: Callable[[str], GameKind],
                 snapshot_every: int = 25, bus: Bus | None = None) -> None:
        self.store = store
        # where the service publishes what happened (`ViewsChanged`, `TokensRevoked`); the
        # app factory makes it and subscribes the sender and the socket layer
        self.bus = bus if bus is not None else Bus()
        self._kinds = kinds
        self.snapshot_every = snapshot_every
        self._games: dict[str, LiveGame] = {}
        # each game's kind (its pinned catalog), its state rebuilt from disk
        self.rebuilder = Rebuilder(store, kinds)
        # a leaf: the games in memory; held only to read or change them
        self._lock = locks.lock("game service")
        # asked (game, identity, action) before an action is applied; one raises Refused to
        # refuse it: the running hardware's rules (a seat's roll while a reader reads the dice)
        self.gates: Gates[LiveGame, Identity] = Gates()
        # games that could not be rebuilt, with the reason (under `_lock`: a finished game is
        # rebuilt when first opened, by whichever thread opens it)
        self._broken: dict[str, dict] = {}
        # who reaches the games (seats, tokens, PIN, pairing) and the table's custody of
        # the camera and dice: a service of its own, seeing the games through `loaded`,
        # `get`, `all` and `notify`
        self.access = AccessService(store, self, self.bus)

    # loading ---------------------------------------------------------------------------
    def load_all(self) -> None:
        """Rebuild every game in play; finished games only when first opened (a Pi keeps
        years of them: start-up time and memory stay flat)."""
        for row in self.store.games():
            try:
                if row["problem"]:
                    raise ValueError(row["problem"])
                kind = self.rebuilder.kind_for(row)
                if row["status"] == "finished" and not outdated(kind, row):
                    self._games[row["id"]] = LiveGame(
                        row["id"], kind, row, None,
                        version=self.store.count_actions(row["id"]),
                        last_seq=self.store.last_seq(row["id"]))
                else:
                    self._games[row["id"]] = self.rebuilder.rebuild(row)
            except Exception as exc:  # one unreadable game must not keep the others closed
                self._set_broken(row, exc)
        for live in self._games.values():
            live.play_on = self.store.box_value(PLAY_ON_KEY.format(live.id)) is True
        self.access.load()

    def _set_broken(self, row: dict, exc: Exception) -> None:
        """A game that cannot be rebuilt: out of memory, listed with the reason, its file
        untouched."""
        log.error("cannot rebuild game %s; it stays on disk untouched", row["id"],
                  exc_info=exc)
        with self._lock:
            self._games.pop(row["id"], None)
            self._broken[row["id"]] = {"id": row["id"], "game": row["game"],
                                      "created": row["created"],
                                      "problem": f"{type(exc).__name__}: {exc}"[:300]}

    def broken_games(self) -> list[dict]:
        """The games that could not be rebuilt, with the reason (the lobby lists them)."""
        with self._lock:
            return list(self._broken.values())

    def get(self, game_id: str) -> LiveGame:
        """A game with its state (rebuilt now if it was left on disk at start)."""
        with self._lock:
            live = self._games.get(game_id)
        if live is None:
            raise Refused("unknown_game")
        if live.state is None:  # a finished game, opened for the first time since the start
            with live.lock:
                if live.state is None:
                    try:
                        fresh = self.rebuilder.rebuild(live.row)
                    except Exception as exc:  # as at start: listed as broken, not a crash
                        self._set_broken(live.row, exc)
                        raise Refused("unknown_game") from exc
                    live.log, live.active_seqs = fresh.log, fresh.active_seqs
                    live.version, live.state = fresh.version, fresh.state
        return live

    def loaded(self, game_id: str | None) -> LiveGame | None:
        """The game in memory, as it is (None if unknown): no rebuild, never refused."""
        with self._lock:
            return self._games.get(game_id) if game_id else None

    def all(self) -> list[LiveGame]:
        with self._lock:
            games = list(self._games.values())
        return sorted(games, key=lambda g: g.row["created"], reverse=True)

    def notify(self, live: LiveGame, what: str = "view") -> None:
        """Publish that a game's views changed (``what``: "view", "seats", "hardware",
        "closed"); the hardware manager calls it too, when a part's status changes. The view
        sender's subscriber only posts (companion/game/sender.py): whatever thread calls this
        builds and sends nothing."""
        self.bus.publish(ViewsChanged(live, what))


    # creating --------------------------------------------------------------------------
    def create(self, game: str, setup: dict, pin: str, add_seed: bool = True,
               to_table: bool = True) -> LiveGame:
        """A new game. ``setup`` as the module wants it; a seed is added when missing
        (not for an imported record: its setup must stay as it was played). With
        ``to_table`` the new game is put at the table: the caller asked whoever may move
        the camera and dice (POST /games: the host of the game that has them, when one
        does); an imported record is not."""
        kind = self._kinds(game)
        limits.check_setup(setup)
        limits.check_options(kind.info, setup.get("options"))  # before the game's code
        setup = copy.deepcopy(text.normalise(setup))
        if add_seed:
            setup.setdefault("seed", random.SystemRandom().randrange(2**31))
        try:
            state = self.rebuilder.setup(kind, setup)
        except Refused as exc:
            detail = exc.params.get("detail") or exc.params.get("reason") or exc.code
            raise Refused("bad_setup", detail=str(detail)) from exc
        except Exception as exc:  # a game's setup crashing on odd input: refused, and logged
            log.warning("the setup of %s failed", game, exc_info=True)
            raise Refused("bad_setup", detail=str(exc)) from exc
        seats = [p["seat"] for p in setup.get("players", [])]
        if not seats or len(set(seats)) != len(seats):
            raise Refused("bad_setup", detail="seats")
        game_id = security.new_game_id()
        codes = {seat: security.new_join_code() for seat in seats}
        self.store.create_game(game_id, game, setup, security.hash_pin(pin), codes,
                               catalog=kind.catalog, rules=engine_record.current_rules(kind.info))
        row = self.store.game(game_id)
        live = LiveGame(game_id, kind, row, state, version=0, last_seq=0)
        with self._lock:
            self._games[game_id] = live
        if to_table:
            self.access.move_table(game_id, holder_agrees=True)
        return live

    # acting ----------------------------------------------------------------------------
    def act(self, identity: Identity, action: Any) -> int:
        """Apply, persist, notify. Returns the new version or raises `Refused`."""
        limits.check_action(action)
        live = self.get(identity.game)
        may_send(live, identity, action["type"])
        self.gates.check(live, identity, action)
        action = dict(text.normalise(action), by=identity.actor)  # `by`: the proven identity
        shapes.check_action(live.kind.info, action)  # the game's declared shape, first
        with live.lock:
            if live.status == "finished":
                raise Refused("game_closed")
            if live.status == "paused":
                raise Refused("game_paused")
            return self._commit(live, canonical(live.kind, live.state, action),
                                by_host=identity.by_host)

    def _commit(self, live: LiveGame, action: dict, by_host: bool = False) -> int:
        """``by_host``: the host played it for the seat (a log entry says so first)."""
        locks.owned(live.lock, "the game's state")
        state, events = live.kind.module.apply(live.state, action)
        if by_host:
            events = [{"type": HOST_PLAYED, "seat": action.get("by")}, *events]
        seq = live.last_seq + 1
        every = (live.version + 1) % self.snapshot_every == 0
        snapshot = detach_catalog(state) if every else None
        try:
            self.store.append(live.id, seq, action, events, snapshot)
        except Exception as exc:
            log.exception("cannot save an action of game %s", live.id)
            raise Refused("storage_error") from exc
        live.state, live.last_seq, live.version = state, seq, live.version + 1
        live.active_seqs.append(seq)
        live.log.extend((seq, action, e) for e in events)
        live.preview = None
        if live.kind.module.is_over(state):
            finish(self.store, live)
        self.notify(live)
        return live.version

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
            fresh = self.rebuilder.rebuild(self.store.game(game_id))
            live.state, live.version, live.log = fresh.state, fresh.version, fresh.log
            live.active_seqs, live.row, live.preview = fresh.active_seqs, fresh.row, None
            live.log_cache = {}
            self.notify(live)
            return live.version

    def set_paused(self, game_id: str, paused: bool) -> int:
        live = self.get(game_id)
        with live.lock:
            if live.status == "finished":
                raise Refused("game_closed")
            status = "paused" if paused else "active"
            self.store.set_status(game_id, status)
            live.row["status"] = status
            self.notify(live)
            return live.version

    def end(self, game_id: str) -> int:
        live = self.get(game_id)
        with live.lock:
            if live.status != "finished":
                finish(self.store, live, early=not live.kind.module.is_over(live.state))
            self.notify(live, "closed")
            return live.version

    def set_preview(self, game_id: str, action: dict) -> None:
        """A tentative answer (a card being turned): what it would do, for everyone."""
        live = self.get(game_id)
        limits.check_action(action)
        action = text.normalise(action)
        shapes.check_action(live.kind.info, action)
        with live.lock:
            preview = live.kind.module.preview(live.state, action)
            if preview is None:
                raise Refused("bad_request")  # not a legal answer now
            if preview != live.preview:
                live.preview = preview
                self.notify(live)

    def set_play_on(self, game_id: str) -> int:
        """The table plays on without the phones not joined yet: the TV's lobby stays
        closed, after a reload too (kept on disk)."""
        live = self.get(game_id)
        with live.lock:
            if not live.play_on:
                self.store.set_box_value(PLAY_ON_KEY.format(live.id), True)
                live.play_on = True
                self.notify(live)
            return live.version

    # the guided setup: its progress kept in SQLite, owned here --------------------------
    def setup_progress(self, game_id: str,
                       change: Callable[[dict], dict | None] | None = None) -> dict:
        """The progress of the game's guided setup (companion/table/table_guide.py), after
        ``change(progress)``: the progress to keep, or None when nothing changed. Read,
        changed and written under the game's lock, so a tap on the TV and a camera tick
        landing at the same moment are both kept (one waits for the other). ``change`` may
        raise (a bad op): then nothing is written."""
        live = self.get(game_id)
        with live.lock:
            progress = table_guide.load_progress(self.store, live.id)
            if change is not None:
                changed = change(progress)
                if changed is not None:
                    self.store.save_setup_progress(live.id, changed)
                    progress = changed
            return progress

    # records ---------------------------------------------------------------------------
    def record(self, game_id: str) -> dict:
        live = self.get(game_id)
        with live.lock:
            stored = self.store.actions(game_id)
        record = engine_record.build(live.kind.name, live.row["setup"],
                                     [a["action"] for a in stored], live.row.get("rules") or 1)
        by_host = [i for i, a in enumerate(stored, 1)
                   if any(isinstance(e, dict) and e.get("type") == HOST_PLAYED
                          for e in a["events"])]
        if by_host:  # the actions (1 = the first) the host played for a seat without a phone
            record["played_by_host"] = by_host
        return record

    def import_record(self, record: Any, pin: str) -> LiveGame:
        problems = engine_record.validate(record)
        if problems:
            raise Refused("bad_record", detail="; ".join(problems)[:300])
        if type(record.get("version")) is not int or len(record["actions"]) > MAX_ACTIONS:
            raise Refused("bad_record", detail="version or length")
        if "demo" in record["setup"]:
            raise Refused("bad_record", detail="demo")  # only the server makes demo tables
        try:
            limits.check_setup(record["setup"])
            for action in record["actions"]:
                limits.check_action(action)
        except Refused as exc:
            if exc.code == "bad_text":  # names its field, as at every door
                raise
            raise Refused("bad_record", detail=exc.code) from exc
        record = text.normalise(record)
        name = str(record.get("game"))[:40]
        marks = record.get("played_by_host", [])  # the actions the host played for a seat
        if not isinstance(marks, list) or len(marks) > len(record["actions"]) or any(
                type(m) is not int for m in marks):
            raise Refused("bad_record", detail="played_by_host")
        try:
            kind = self._kinds(name)
        except Exception as exc:  # no such game (`../../etc/passwd`), or its catalog does
            # not load: refused, in one log line (the reason, not a traceback)
            log.warning("a record of game %r cannot be imported: %s", name, str(exc)[:200])
            raise Refused("bad_record", detail=f"game {name!r}") from exc
        try:
            limits.check_options(kind.info, record["setup"].get("options"))
        except Refused as exc:
            raise Refused("bad_record", detail=exc.params.get("detail", exc.code)) from exc
        try:  # an older record in today's meaning first (engine/record.py)
            record = engine_record.migrate(kind.module, record)
        except engine_record.RecordError as exc:
            raise Refused("bad_record", detail=str(exc)[:300]) from exc
        # replay first, so a bad record creates nothing
        i, steps = 0, []
        try:
            state = self.rebuilder.setup(kind, record["setup"])
            for i, action in enumerate(record["actions"]):  # noqa: B007 (i used below)
                try:
                    shapes.check_action(kind.info, action)
                except Refused:  # junk in a field the rules do not use: cleaned, not refused
                    action = canonical(kind, state, action)
                    shapes.check_action(kind.info, action)
                action = canonical(kind, state, action)
                state, events = kind.module.apply(state, action)
                steps.append((action, events))
        except Refused as exc:
            raise Refused("bad_record", detail=f"action {i + 1}: {exc}") from exc
        except Exception as exc:  # the rules crashing on a foreign record: refused, logged
            log.warning("an imported record does not replay", exc_info=True)
            raise Refused("bad_record", detail=str(exc)) from exc
        live = self.create(kind.name, record["setup"], pin, add_seed=False, to_table=False)
        with live.lock:
            for number, (action, _) in enumerate(steps, 1):
                self._commit(live, action, by_host=number in marks)
        return live



def may_send(live: LiveGame, identity: Identity, action_type: str) -> None:
    """Who may send what, from the game's declarations: the table display records only
    what the table records; corrections need the host; a viewer only watches."""
    info = live.kind.module.info
    if identity.role == "viewer":
        raise Refused("not_paired")
    if identity.role == "table" and action_type not in info.table_actions:
        raise Refused("host_only" if action_type in info.host_actions else "not_for_table")
    if identity.role == "seat" and action_type in info.host_actions:
        raise Refused("host_only")


def finish(store: Store, live: LiveGame, early: bool = False) -> None:
    """Finished: the scores kept; ``early`` (ended by the host before the game's end)
    marks it so: no winner in history and exports, the scores those of that moment."""
    locks.owned(live.lock, "the game's status")
    result = live.kind.module.scores(live.state)
    store.set_status(live.id, "finished", result, ended_early=early)
    live.row.update(status="finished", result=result, ended_early=early)


def detach_catalog(state: dict) -> dict:
    """A state without the catalog part it carries: as a snapshot is stored."""
    return {k: v for k, v in state.items() if k != CATALOG_KEY}


def canonical(kind: GameKind, state: Any, action: dict) -> dict:
    """The action as the game's rules use it in ``state`` (``GameInfo.canonical``): what is
    stored, so the log holds no junk a replay could depend on. A game without it, or one
    that cannot tell, keeps the action as sent (the rules then judge it)."""
    make = kind.module.info.canonical
    if make is None:
        return action
    try:
        return make(state, action)
    except Refused:
        return action  # the rules refuse it when applied, with their own reason
    except Exception:
        log.exception("%s: no canonical form of %s", kind.name, action.get("type"))
        return action

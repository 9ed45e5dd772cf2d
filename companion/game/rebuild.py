"""A game rebuilt from disk: its kind with the catalog it was created with (pinned; games
with the same catalog share one kind), its latest snapshot plus the later actions, and a
game stored by older rules taken to today's first. The play service
(companion/game/service.py) asks it at start, on undo and when a finished game is opened;
history asks it for a game's start and its actions. Its own state: the pinned kinds.
"""
from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable

from companion.game.games import GameKind, kind_of
from companion.game.live import LiveGame
from companion.game.store import Store, dumps
from companion.server import locks
from engine import record as engine_record
from engine.api import CATALOG_KEY, Refused

log = logging.getLogger(__name__)


class Rebuilder:
    def __init__(self, store: Store, kinds: Callable[[str], GameKind]) -> None:
        self.store, self._kinds = store, kinds
        self._pinned: dict[tuple[str, str], GameKind] = {}  # (game, catalog hash) -> kind
        self._lock = locks.lock("pinned kinds")  # a leaf: `_pinned`

    def kind_for(self, row: dict) -> GameKind:
        """The game's kind with its pinned catalog (games with the same catalog share one).

        A game from before pinning is pinned now to today's catalog."""
        pinned = self.store.catalog(row["id"])
        try:
            current = self._kinds(row["game"])
        except Exception:  # any failure of today's catalog (an owner's file, a plug-in)
            if pinned is None:
                raise
            # the game still has its own: it runs on it, and the log says why
            log.warning("game %s runs on its pinned catalog; today's catalog of %s does "
                        "not load", row["id"], row["game"], exc_info=True)
            from companion.game.games import module_of

            return self._shared_kind(kind_of(module_of(row["game"]), pinned), pinned)
        if pinned is None:
            self.store.pin_catalog(row["id"], current.catalog)
            return current
        return self._shared_kind(current, pinned)

    def _shared_kind(self, current: GameKind, catalog) -> GameKind:
        text = dumps(catalog)
        key = (current.name, hashlib.sha256(text.encode()).hexdigest())
        with self._lock:
            kind = self._pinned.get(key)
        if kind is None:  # made outside the lock (it takes a while); the first one kept
            kind = current if text == dumps(current.catalog) else kind_of(current.module,
                                                                          catalog)
            with self._lock:
                kind = self._pinned.setdefault(key, kind)
        return kind

    @staticmethod
    def attach(kind: GameKind, state: dict) -> dict:
        """A state with the kind's shared catalog part (snapshots are stored without it)."""
        shared = kind.state_catalog
        if shared is None or not isinstance(state, dict):
            return state
        return dict(state, **{CATALOG_KEY: shared})

    def setup(self, kind: GameKind, setup: dict) -> dict:
        return self.attach(kind, kind.module.setup(kind.catalog, setup))

    def initial_state(self, live: LiveGame) -> dict:
        """The state ``live`` started from, before its first action (a replay's start)."""
        return self.setup(live.kind, live.row["setup"])

    def actions_in_effect(self, game_id: str) -> list[dict]:
        """The actions in effect of a game, in order (undone ones left out)."""
        return [a["action"] for a in self.store.actions(game_id)]

    def rebuild(self, row: dict) -> LiveGame:
        """The state after every action in effect: latest snapshot, then the later actions."""
        kind = self.kind_for(row)
        actions = self.store.actions(row["id"])
        if outdated(kind, row):
            row, actions = self._upgrade(kind, row, actions)
        snap = self.store.latest_snapshot(row["id"])
        state = None
        if snap is not None and any(a["seq"] == snap[0] for a in actions):
            try:
                state = self.replay(kind, self.attach(kind, snap[1]), actions, snap[0])
            except Exception:  # a bad snapshot is only a lost cache: replay the whole log
                log.warning("game %s: snapshot %s unusable, replaying the whole log",
                            row["id"], snap[0])
        if state is None:
            state = self.replay(kind, self.setup(kind, row["setup"]), actions, 0)
        live = LiveGame(row["id"], kind, row, state, version=len(actions),
                        last_seq=self.store.last_seq(row["id"]),
                        active_seqs=[a["seq"] for a in actions])
        live.log = [(a["seq"], a["action"], e) for a in actions for e in a["events"]]
        return live

    def _upgrade(self, kind: GameKind, row: dict, actions: list[dict]
                 ) -> tuple[dict, list[dict]]:
        """A game stored by older rules, taken to today's (its migrations, then a whole
        replay) and stored so; one that cannot be raises, and stays on disk as it was
        (listed as broken with the reason, read-only)."""
        setup, moved = engine_record.upgrade(kind.info, row["setup"],
                                             [a["action"] for a in actions], row.get("rules"))
        stored, actions = actions, [dict(a, action=m)
                                    for a, m in zip(actions, moved, strict=True)]
        try:
            self.replay(kind, self.setup(kind, setup), actions, 0)
        except Refused as exc:
            raise engine_record.RecordError(
                [f"in today's rules it does not replay ({exc})"]) from exc
        changed = {a["seq"]: m for a, m in zip(stored, moved, strict=True) if m != a["action"]}
        self.store.upgrade_game(row["id"], setup, engine_record.current_rules(kind.info),
                                changed)
        log.info("game %s taken from rules version %s to %s", row["id"], row.get("rules") or 1,
                 engine_record.current_rules(kind.info))
        return self.store.game(row["id"]), actions

    @staticmethod
    def replay(kind: GameKind, state: dict, actions: list[dict], after: int) -> dict:
        for entry in actions:
            if entry["seq"] > after:
                state, _ = kind.module.apply(state, entry["action"])
        return state


def outdated(kind: GameKind, row: dict) -> bool:
    """Whether a stored game was played by older rules than the installed game's."""
    return (row.get("rules") or 1) < engine_record.current_rules(kind.info)

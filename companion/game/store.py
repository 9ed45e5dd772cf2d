"""SQLite persistence: the append-only action log is the truth, snapshots only speed up loading.

Durability rules (docs/persistence.md): WAL journal with ``synchronous=FULL`` so a committed
transaction survives a power cut; an action is committed before the server acknowledges it;
undo never deletes an action, it marks it undone (the audit trail stays) and drops the
snapshots that included it (snapshots are a cache, rebuilt on demand).
"""
from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.server import json_codec, locks

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    created TEXT NOT NULL,
    status TEXT NOT NULL,             -- active | paused | finished
    setup TEXT NOT NULL,              -- JSON given to module.setup
    pin_hash TEXT NOT NULL,
    result TEXT,                      -- JSON scores once finished
    ended_early INTEGER NOT NULL DEFAULT 0, -- 1: the host ended it before its end (no winner)
    rules INTEGER                     -- the game's rules version its setup and actions mean
                                      -- (NULL: stored before rules versions, so 1)
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,             -- 1, 2, 3 ... in order of arrival, never reused
    action TEXT NOT NULL,             -- JSON
    events TEXT NOT NULL,             -- JSON list the engine returned
    at TEXT NOT NULL,
    undone_at TEXT,                   -- set by undo; the row stays for the audit trail
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS snapshots (
    game TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,             -- state after this action
    state TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    join_code TEXT NOT NULL,          -- shown as a QR code at the table, so stored as is
    host_only INTEGER NOT NULL DEFAULT 0,  -- 1: re-issued by the host, never on the table
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS catalogs (
    game TEXT PRIMARY KEY REFERENCES games(id),
    catalog TEXT NOT NULL             -- JSON: the catalog the game was created with (pinned)
);
CREATE TABLE IF NOT EXISTS setup_progress (
    game TEXT PRIMARY KEY REFERENCES games(id),
    progress TEXT NOT NULL            -- JSON: the guided setup's step, done, skipped
);
CREATE TABLE IF NOT EXISTS box (
    key TEXT PRIMARY KEY,             -- the box's own choices, e.g. "table_game"
    value TEXT NOT NULL               -- JSON
);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,            -- sha256 of the token; the token itself is never stored
    game TEXT NOT NULL REFERENCES games(id),
    role TEXT NOT NULL,               -- seat | host | table | pairing
    seat TEXT,
    created TEXT NOT NULL
);
"""

# Checkpoint the WAL every ~100 pages (~400 kB; SQLite's default is 1,000): after a
# checkpoint the WAL is written again from its start, and an fdatasync of a file that does
# not grow skips the file system's metadata commit: ~0.05 ms less CPU per action after the
# first ~40 actions (docs/persistence.md). Every commit is still synced (synchronous=FULL).
WAL_PAGES = 100


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def dumps(data: Any) -> str:
    """Compact JSON, key order kept (engines iterate dicts), UTF-8: companion/server/json_codec.py's
    orjson (the json module for what orjson does not take); ~0.02-0.04 ms less per action than the
    json module (the action, its events and every 25th the state)."""
    return json_codec.dumps(data)


class Store:
    """One SQLite file, one connection guarded by a lock (writes are serialised anyway)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = locks.rlock("store")
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise RuntimeError(f"SQLite refused WAL mode ({mode})")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute(f"PRAGMA wal_autocheckpoint={WAL_PAGES}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        self._migrate()

    def _migrate(self) -> None:
        """Columns added since a database was made (an old file opens as it is)."""
        columns = {r["name"] for r in self._db.execute("PRAGMA table_info(seats)")}
        if "host_only" not in columns:
            self._db.execute("ALTER TABLE seats ADD COLUMN host_only INTEGER NOT NULL "
                             "DEFAULT 0")
        columns = {r["name"] for r in self._db.execute("PRAGMA table_info(games)")}
        if "ended_early" not in columns:
            self._db.execute("ALTER TABLE games ADD COLUMN ended_early INTEGER NOT NULL "
                             "DEFAULT 0")
        if "rules" not in columns:
            self._db.execute("ALTER TABLE games ADD COLUMN rules INTEGER")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _tx(self, statements: list[tuple[str, tuple]]) -> None:
        """Run statements in one transaction; it is on disk when this returns."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self._db.execute(sql, args)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _all(self, sql: str, args: tuple = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # games -----------------------------------------------------------------------------
    def catalog(self, game_id: str) -> Any:
        """The catalog a game was pinned to, or None (a game from before pinning)."""
        rows = self._all("SELECT catalog FROM catalogs WHERE game = ?", (game_id,))
        return json.loads(rows[0]["catalog"]) if rows else None

    def pin_catalog(self, game_id: str, catalog: Any) -> None:
        """Pin an older game to a catalog (once; an existing pin is kept)."""
        self._tx([("INSERT OR IGNORE INTO catalogs (game, catalog) VALUES (?, ?)",
                   (game_id, dumps(catalog)))])

    def create_game(self, game_id: str, game: str, setup: dict, pin_hash: str,
                    join_codes: dict[str, str], catalog: Any = None,
                    rules: int | None = None) -> None:
        statements = [(
            "INSERT INTO games (id, game, created, status, setup, pin_hash, rules) "
            "VALUES (?, ?, ?, 'active', ?, ?, ?)",
            (game_id, game, now(), dumps(setup), pin_hash, rules),
        )]
        if catalog is not None:
            statements.append(("INSERT INTO catalogs (game, catalog) VALUES (?, ?)",
                               (game_id, dumps(catalog))))
        statements += [("INSERT INTO seats (game, seat, join_code) VALUES (?, ?, ?)",
                        (game_id, seat, code)) for seat, code in join_codes.items()]
        self._tx(statements)

    def games(self) -> list[dict]:
        rows = self._all("SELECT * FROM games ORDER BY created DESC")
        return [self._game_row(r) for r in rows]

    def game(self, game_id: str) -> dict | None:
        rows = self._all("SELECT * FROM games WHERE id = ?", (game_id,))
        return self._game_row(rows[0]) if rows else None

    @staticmethod
    def _game_row(row: sqlite3.Row) -> dict:
        """A games row; a column that does not parse is reported in ``problem`` (one bad row
        must never stop the server from starting)."""
        out = {"id": row["id"], "game": row["game"], "created": row["created"],
               "status": row["status"], "pin_hash": row["pin_hash"], "problem": None,
               "ended_early": bool(row["ended_early"]), "rules": row["rules"]}
        for key, text in (("setup", row["setup"]), ("result", row["result"])):
            try:
                out[key] = json.loads(text) if text else None
            except (TypeError, ValueError, RecursionError):
                out[key], out["problem"] = None, f"{key} is not JSON"
        if not isinstance(out["setup"], dict) and out["problem"] is None:
            out["setup"], out["problem"] = None, "setup is not an object"
        return out

    def set_status(self, game_id: str, status: str, result: Any = None,
                   ended_early: bool = False) -> None:
        self._tx([("UPDATE games SET status = ?, result = ?, ended_early = ? WHERE id = ?",
                   (status, dumps(result) if result is not None else None,
                    int(bool(ended_early)), game_id))])

    def box_value(self, key: str) -> Any:
        """One of the box's own choices (table ``box``), or None."""
        rows = self._all("SELECT value FROM box WHERE key = ?", (key,))
        try:
            return json.loads(rows[0]["value"]) if rows else None
        except ValueError:
            return None

    def set_box_value(self, key: str, value: Any) -> None:
        self._tx([("INSERT OR REPLACE INTO box (key, value) VALUES (?, ?)",
                   (key, dumps(value)))])

    def setup_progress(self, game_id: str) -> Any:
        """The guided setup's progress of a game (companion/table/table_guide.py), or None."""
        rows = self._all("SELECT progress FROM setup_progress WHERE game = ?", (game_id,))
        try:
            return json.loads(rows[0]["progress"]) if rows else None
        except ValueError:
            return None

    def save_setup_progress(self, game_id: str, progress: dict) -> None:
        self._tx([("INSERT OR REPLACE INTO setup_progress (game, progress) VALUES (?, ?)",
                   (game_id, dumps(progress)))])

    def upgrade_game(self, game_id: str, setup: dict, rules: int,
                     actions: dict[int, dict]) -> None:
        """A game taken to today's rules (engine/record.py `upgrade`): its setup, the
        actions a migration changed (by seq), its rules version, in one transaction; its
        snapshots (of the old meaning) dropped."""
        statements = [("UPDATE games SET setup = ?, rules = ? WHERE id = ?",
                       (dumps(setup), rules, game_id))]
        statements += [("UPDATE actions SET action = ? WHERE game = ? AND seq = ?",
                        (dumps(action), game_id, seq)) for seq, action in actions.items()]
        statements.append(("DELETE FROM snapshots WHERE game = ?", (game_id,)))
        self._tx(statements)

    # actions ---------------------------------------------------------------------------
    def append(self, game_id: str, seq: int, action: dict, events: list,
               snapshot: dict | None = None) -> None:
        """Commit one action (and maybe a snapshot of the state after it)."""
        statements = [("INSERT INTO actions (game, seq, action, events, at) VALUES (?,?,?,?,?)",
                       (game_id, seq, dumps(action), dumps(events), now()))]
        if snapshot is not None:
            statements.append(("INSERT OR REPLACE INTO snapshots (game, seq, state) "
                               "VALUES (?, ?, ?)", (game_id, seq, dumps(snapshot))))
        self._tx(statements)

    def actions(self, game_id: str, include_undone: bool = False) -> list[dict]:
        sql = "SELECT * FROM actions WHERE game = ?"
        if not include_undone:
            sql += " AND undone_at IS NULL"
        rows = self._all(sql + " ORDER BY seq", (game_id,))
        return [{"seq": r["seq"], "action": json.loads(r["action"]),
                 "events": json.loads(r["events"]), "at": r["at"],
                 "undone_at": r["undone_at"]} for r in rows]

    def count_actions(self, game_id: str) -> int:
        rows = self._all("SELECT COUNT(*) AS n FROM actions WHERE game = ? AND undone_at IS NULL",
                         (game_id,))
        return rows[0]["n"]

    def last_seq(self, game_id: str) -> int:
        rows = self._all("SELECT MAX(seq) AS m FROM actions WHERE game = ?", (game_id,))
        return rows[0]["m"] or 0

    def mark_undone(self, game_id: str, seqs: list[int]) -> None:
        """Undo: mark the actions, drop snapshots taken at or after the first of them."""
        first = min(seqs)
        statements = [("UPDATE actions SET undone_at = ? WHERE game = ? AND seq = ?",
                       (now(), game_id, s)) for s in seqs]
        statements.append(("DELETE FROM snapshots WHERE game = ? AND seq >= ?",
                           (game_id, first)))
        self._tx(statements)

    def latest_snapshot(self, game_id: str) -> tuple[int, dict] | None:
        rows = self._all("SELECT seq, state FROM snapshots WHERE game = ? "
                         "ORDER BY seq DESC LIMIT 1", (game_id,))
        if not rows:
            return None
        try:
            state = json.loads(rows[0]["state"])
        except (ValueError, RecursionError):
            return None  # snapshots are a cache: the action log rebuilds the game
        return (rows[0]["seq"], state) if isinstance(state, dict) else None

    # seats and tokens ------------------------------------------------------------------
    def join_codes(self, game_id: str) -> dict[str, str]:
        rows = self._all("SELECT seat, join_code FROM seats WHERE game = ?", (game_id,))
        return {r["seat"]: r["join_code"] for r in rows}

    def replace_join_code(self, game_id: str, seat: str, code: str) -> None:
        """A new join code for a seat, shown only to the host; the phones holding its old
        tokens are signed out."""
        self._tx([
            ("UPDATE seats SET join_code = ?, host_only = 1 WHERE game = ? AND seat = ?",
             (code, game_id, seat)),
            ("DELETE FROM tokens WHERE game = ? AND role = 'seat' AND seat = ?", (game_id, seat)),
        ])

    def host_only_seats(self, game_id: str) -> set[str]:
        rows = self._all("SELECT seat FROM seats WHERE game = ? AND host_only = 1", (game_id,))
        return {r["seat"] for r in rows}

    def claim_seat(self, game_id: str, seat: str, code: str, used_up: str,
                   token_hash: str) -> bool:
        """Use a seat's join code once: the token is stored and the code replaced (by
        ``used_up``, never shown) in one transaction; False if the code is not current."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                changed = self._db.execute(
                    "UPDATE seats SET join_code = ?, host_only = 1 "
                    "WHERE game = ? AND seat = ? AND join_code = ?",
                    (used_up, game_id, seat, code)).rowcount
                if changed:
                    self._db.execute(
                        "INSERT OR IGNORE INTO tokens (hash, game, role, seat, created) "
                        "VALUES (?,?,?,?,?)", (token_hash, game_id, "seat", seat, now()))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return bool(changed)

    def add_token(self, token_hash: str, game_id: str, role: str, seat: str | None) -> None:
        self._tx([("INSERT OR IGNORE INTO tokens (hash, game, role, seat, created) "
                   "VALUES (?,?,?,?,?)", (token_hash, game_id, role, seat, now()))])

    def token(self, token_hash: str) -> dict | None:
        rows = self._all("SELECT game, role, seat, created FROM tokens WHERE hash = ?",
                         (token_hash,))
        return dict(rows[0]) if rows else None

    def take_token(self, token_hash: str) -> dict | None:
        """A one-time token (a table pairing code): read and deleted in one transaction."""
        with self._lock:
            found = self.token(token_hash)
            if found is not None:
                self._tx([("DELETE FROM tokens WHERE hash = ?", (token_hash,))])
            return found

    def set_pin(self, game_id: str, pin_hash: str) -> set[str]:
        """A new host PIN; every host token of the game is dropped in the same transaction.
        Returns the dropped tokens' hashes."""
        with self._lock:
            gone = {r["hash"] for r in self._all(
                "SELECT hash FROM tokens WHERE game = ? AND role = 'host'", (game_id,))}
            self._tx([("UPDATE games SET pin_hash = ? WHERE id = ?", (pin_hash, game_id)),
                      ("DELETE FROM tokens WHERE game = ? AND role = 'host'", (game_id,))])
            return gone

    def has_tokens(self, game_id: str) -> bool:
        """Does any screen (seat, host, table) hold a token of the game? None after a
        restore (companion/box/backup.py `fresh_screens`)."""
        return bool(self._all("SELECT 1 FROM tokens WHERE game = ? AND role != 'pairing' "
                              "LIMIT 1", (game_id,)))

    def claimed_seats(self, game_id: str) -> set[str]:
        rows = self._all("SELECT DISTINCT seat FROM tokens WHERE game = ? AND role = 'seat'",
                         (game_id,))
        return {r["seat"] for r in rows}

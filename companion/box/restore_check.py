"""What `companion restore` accepts: only a database this app would have written.

A backup file is a whole program for SQLite: beside the games it may carry triggers, views and
indexes that would run inside the server for ever after (a trigger that deletes every new
action, a view standing in for the games table). So a restore compares the file's schema
object by object with the schema of a fresh database the app makes (tables, their columns and
foreign keys, indexes, triggers, views), refuses an unknown game status or token role, holds
every stored text to the one rule for text (`text_problems`: every TEXT column of every
table, and every string and key inside the JSON ones; a lone surrogate stored as ``\\ud800``
in a result would fail every export; a JSON column's numbers are finite, as the app writes
them: hardware/strict_json.py), and replays every game from its action log alone,
comparing the state with each stored snapshot (a later snapshot must not hide an action that
does not replay) and a finished game's result with the scores of the replayed state. See
docs/security.md.
"""
from __future__ import annotations

import json
import logging
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

from hardware import strict_json

log = logging.getLogger(__name__)

STATUSES = ("active", "paused", "finished")
ROLES = ("seat", "host", "table", "pairing")
# columns an older database may lack: the app adds them when it opens one (Store._migrate)
MIGRATED = {("seats", "host_only"), ("games", "ended_early"), ("games", "rules")}
# tables an older database may lack, with their indexes: the app makes them when it opens
# one (SCHEMA)
MIGRATED_TABLES = {"box"}
# the TEXT columns the app fills with JSON (companion/game/store.py): strict JSON, its every
# string and key under the text rule
JSON_COLUMNS = {("games", "setup"), ("games", "result"), ("actions", "action"),
                ("actions", "events"), ("snapshots", "state"), ("catalogs", "catalog"),
                ("setup_progress", "progress"), ("box", "value")}
# the column that names a row in a refusal (the token hashes are not shown)
ROW_NAMES = {"games": "id", "box": "key", "tokens": "game"}
MAX_TEXT_PROBLEMS = 5


class NotOurs(Exception):
    """The file is not a database this app would have written; the message says why."""


def schema_of(con: sqlite3.Connection) -> dict[str, Any]:
    """Every schema object by name: its type, its table, and for a table its columns (name,
    declared type, not null, default, primary key, hidden) and foreign keys."""
    out: dict[str, Any] = {}
    for kind, name, table in con.execute(
            "SELECT type, name, tbl_name FROM sqlite_master ORDER BY name"):
        item: dict[str, Any] = {"type": kind, "table": table}
        if kind == "table":
            quoted = name.replace('"', '""')
            item["columns"] = {r[1]: (str(r[2]).upper(), r[3], r[4], r[5], r[6]) for r in
                               con.execute(f'PRAGMA table_xinfo("{quoted}")')}
            item["keys"] = sorted(tuple(r[2:5]) for r in
                                  con.execute(f'PRAGMA foreign_key_list("{quoted}")'))
        out[name] = item
    return out


def fresh_schema() -> dict[str, Any]:
    """The schema of a database the app makes now."""
    from companion.game.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        Store(Path(tmp) / "fresh.sqlite3").close()
        con = sqlite3.connect(Path(tmp) / "fresh.sqlite3")
        try:
            return schema_of(con)
        finally:
            con.close()


def schema_problems(found: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    """How ``found`` differs from the app's schema ``wanted``, one line per object."""
    problems = []
    for name, item in found.items():
        want = wanted.get(name)
        if want is None:
            problems.append(f"an extra {item['type']} {name!r} on {item['table']!r} "
                            "(the app makes none)")
        elif want["type"] != item["type"]:
            problems.append(f"{name!r} is a {item['type']}, not a {want['type']}")
        elif item["type"] == "table":
            for column, spec in item["columns"].items():
                if column not in want["columns"]:
                    problems.append(f"an extra column {name}.{column}")
                elif want["columns"][column] != spec:
                    problems.append(f"the column {name}.{column} is not the app's "
                                    f"{want['columns'][column]} but {spec}")
            problems += [f"no column {name}.{column}" for column in want["columns"]
                         if column not in item["columns"] and (name, column) not in MIGRATED]
            if item["keys"] != want["keys"]:
                problems.append(f"the foreign keys of {name} are not the app's")
        elif want["table"] != item["table"]:
            problems.append(f"{name!r} belongs to {item['table']!r}, not {want['table']!r}")
    problems += [f"no {want['type']} {name!r}" for name, want in wanted.items()
                 if name not in found and want["table"] not in MIGRATED_TABLES]
    return problems


def check_schema(path: Path) -> None:
    """Raise NotOurs unless ``path``'s schema is the app's and its values are known ones."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        found = schema_of(con)
        if any(found.get(t, {}).get("type") is None for t in ("games", "actions")):
            raise NotOurs("not a Table Companion database (no games or actions table)")
        problems = schema_problems(found, fresh_schema())
        if problems:
            raise NotOurs("not the schema this app writes: " + "; ".join(problems[:5]))
        # every text first: the checks below read text columns, which must decode
        bad = text_problems(con, found)
        if bad:
            raise NotOurs("text the app never stores: " + "; ".join(bad))
        marks = ", ".join("?" * len(STATUSES))
        odd = con.execute(f"SELECT id, status FROM games WHERE status NOT IN ({marks})",
                          STATUSES).fetchall()
        if odd:
            raise NotOurs("unknown game status: " + ", ".join(
                f"game {i!r} has {s!r}" for i, s in odd[:5]))
        marks = ", ".join("?" * len(ROLES))
        odd = con.execute(f"SELECT DISTINCT role FROM tokens WHERE role NOT IN ({marks})",
                          ROLES).fetchall()
        if odd:
            raise NotOurs("unknown token role: " + ", ".join(repr(r[0]) for r in odd[:5]))
        orphans = con.execute("PRAGMA foreign_key_check").fetchall()
        if orphans:  # the app writes with foreign keys on: every row's game is there
            raise NotOurs("rows that refer to no game: " + ", ".join(
                sorted({f"{table} (row {rowid})" for table, rowid, *_ in orphans})[:5]))
    except sqlite3.DatabaseError as exc:
        raise NotOurs(f"its schema cannot be read ({exc})") from exc
    finally:
        con.close()


def text_problems(con: sqlite3.Connection, schema: dict[str, Any]) -> list[str]:
    """One line per stored text that breaks the one rule for text (at most
    `MAX_TEXT_PROBLEMS`): every TEXT column of every table of ``schema`` (the app's, checked
    before) read as its bytes, so text that is not UTF-8 is named rather than failing the
    read; in a JSON column every string and key passes too (JSON that does not parse is the
    game's problem, named by `replay_problems`, restored with ``--force`` as broken)."""
    from companion.server import text as text_rule

    problems: list[str] = []
    for table, item in sorted(schema.items()):
        if item["type"] != "table":
            continue
        named = ROW_NAMES.get(table, "game" if "game" in item["columns"] else None)
        for column, spec in item["columns"].items():
            if spec[0] != "TEXT":
                continue
            who = f'"{named}"' if named else "rowid"
            rows = con.execute(f'SELECT CAST({who} AS BLOB), typeof("{column}"), '
                               f'CAST("{column}" AS BLOB) FROM "{table}" '
                               f'WHERE "{column}" IS NOT NULL')
            for key, kind, raw in rows:
                where = f"{table}.{column}" + (f" of {named} {_shown(key)}" if named else "")
                why = _text_problem(kind, raw, (table, column) in JSON_COLUMNS, text_rule)
                if why is not None:
                    problems.append(f"{where} {why}")
                    if len(problems) >= MAX_TEXT_PROBLEMS:
                        return problems
    return problems


def _text_problem(kind: str, raw: bytes, is_json: bool, text_rule) -> str | None:
    """Why one stored value breaks the rule, or None."""
    if kind != "text":
        return f"holds {kind}, not text"
    try:
        value = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "is not UTF-8 text"
    if not text_rule.is_clean(value):
        return "holds a character the text rule refuses"
    if not is_json:
        return None
    try:
        data = json.loads(value)
    except (ValueError, RecursionError):  # not JSON: the game's own problem (`replay_problems`)
        return None
    bad = text_rule.first_bad(data)
    if bad is not None:
        return f"holds text the text rule refuses at {bad}"
    try:  # NaN, Infinity, 1e309: Python's json reads them, the app never writes them
        strict_json.loads(value, max_digits=sys.get_int_max_str_digits() or 4300)
    except ValueError as exc:
        return f"holds a number that is not one ({exc})"[:200]
    return None


def _shown(key: bytes | None) -> str:
    """A row's name in a refusal (its stored bytes): short, and only what the rule lets
    through."""
    from companion.server import text as text_rule

    try:
        shown = (key or b"").decode("utf-8")
    except UnicodeDecodeError:
        return "(not UTF-8)"
    return repr(shown[:40]) if text_rule.is_clean(shown) else "(not clean text)"


def replay_problems(path: Path, data_dir: Path | str | None) -> list[str]:
    """One line per game that does not replay from its action log alone, or whose stored
    snapshots differ from the replayed state (with the installed games and the owner's
    catalogs in ``data_dir``). Reads ``path`` only."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    problems = []
    try:
        for row in con.execute("SELECT * FROM games ORDER BY created").fetchall():
            try:
                _replay(con, row, data_dir)
            except Exception as exc:  # any failure is this game's problem, reported in
                # one line (`companion restore` prints it); the traceback only at debug level
                log.debug("restore check: game %s does not replay", row["id"], exc_info=True)
                why = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
                problems.append(f"game {row['id']} ({row['game']}): {why}"[:300])
    finally:
        con.close()
    return problems


def _replay(con: sqlite3.Connection, row: sqlite3.Row, data_dir) -> None:
    from companion.box import catalog
    from companion.game import games, shapes
    from companion.game.service import detach_catalog
    from companion.game.store import dumps
    from companion.server import limits
    from engine import record

    current = catalog.load_kind(row["game"], str(data_dir) if data_dir else None)
    pinned = con.execute("SELECT catalog FROM catalogs WHERE game = ?", (row["id"],)).fetchone()
    kind = current
    if pinned is not None and pinned[0] != dumps(current.catalog):
        kind = games.kind_of(current.module, json.loads(pinned[0]))
    setup = json.loads(row["setup"])
    if not isinstance(setup, dict):
        raise ValueError("setup is not an object")
    limits.check_setup(setup)  # sizes and the one rule for text, as at every door
    stored = [(seq, json.loads(text)) for seq, text in con.execute(
        "SELECT seq, action FROM actions WHERE game = ? AND undone_at IS NULL ORDER BY seq",
        (row["id"],)).fetchall()]
    rules = row["rules"] if "rules" in row.keys() else None  # noqa: SIM118 (a Row: `in` reads values)
    # an older game is replayed in today's meaning, as the app will load it (its snapshots,
    # of the old meaning, are dropped then: not compared)
    outdated = (rules or 1) < record.current_rules(kind.info)
    setup, moved = record.upgrade(kind.info, setup, [a for _, a in stored], rules)
    state = kind.module.setup(kind.catalog, setup)
    shared = kind.state_catalog
    if shared is not None:
        state = dict(state, cat=shared)
    snapshots = {} if outdated else dict(con.execute(
        "SELECT seq, state FROM snapshots WHERE game = ?", (row["id"],)).fetchall())
    for (seq, _), action in zip(stored, moved, strict=True):
        try:
            limits.check_action(action)
            shapes.check_action(kind.info, action)
            state, _ = kind.module.apply(state, action)
        except Exception as exc:  # a refusal or a crash: named for the report (logged above)
            raise ValueError(f"action {seq} does not replay ({exc})") from exc
        if seq in snapshots:
            replayed = json.loads(dumps(detach_catalog(state)))
            if json.loads(snapshots[seq]) != replayed:
                raise ValueError(f"the snapshot after action {seq} is not the state the "
                                 "action log replays to")
    # a finished game's scores, as the history and its exports show them
    if row["result"] is not None and not outdated and json.loads(row["result"]) != json.loads(
            dumps(kind.module.scores(state))):
        raise ValueError("the stored result is not the scores of the replayed game")

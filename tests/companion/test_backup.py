"""Backups of the live database with real SQLite files and a real writer process."""
from __future__ import annotations

import datetime as dt
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.box import backup as backups
from companion.cli import cli
from tests.waiting import wait_for

# A stand-in for the server: another process writing in WAL mode, synchronous=FULL, each
# transaction inserting one row into each of two tables (a backup must never see half of one).
WRITER = textwrap.dedent("""
    import sqlite3, sys, time
    con = sqlite3.connect(sys.argv[1], timeout=30, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL"); con.execute("PRAGMA synchronous=FULL")
    print("ready", flush=True)
    i = 0
    while True:
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO actions(n, payload) VALUES (?, ?)", (i, "x" * 500))
        con.execute("INSERT INTO snapshots(n) VALUES (?)", (i,))
        con.execute("COMMIT")
        i += 1
        time.sleep(0.001)
""")


def make_db(data: Path, rows: int = 10) -> Path:
    data.mkdir(parents=True, exist_ok=True)
    path = data / "companion.sqlite3"
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    # the app's two tables' columns (so a restore sees a Table Companion file) plus the
    # writer's own (n, payload): no game rows, the integrity and WAL behaviour is what counts
    con.execute("CREATE TABLE games(id TEXT, game TEXT, created TEXT, status TEXT, setup TEXT,"
                " pin_hash TEXT, result TEXT)")
    con.execute("CREATE TABLE actions(n INTEGER, payload TEXT, game TEXT, seq INTEGER,"
                " action TEXT, events TEXT, at TEXT, undone_at TEXT)")
    con.execute("CREATE TABLE snapshots(n INTEGER)")
    con.execute("CREATE INDEX actions_n ON actions(n)")
    for i in range(rows):
        con.execute("INSERT INTO actions(n, payload) VALUES (?, ?)", (i, "game"))
        con.execute("INSERT INTO snapshots VALUES (?)", (i,))
    con.commit()
    con.close()
    return path


def game_count(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        con.close()


def counts(path: Path) -> tuple[int, int]:
    con = sqlite3.connect(path)
    try:
        return (con.execute("SELECT count(*) FROM actions").fetchone()[0],
                con.execute("SELECT count(*) FROM snapshots").fetchone()[0])
    finally:
        con.close()


@pytest.fixture
def writer(tmp_path):
    db = make_db(tmp_path / "data", rows=0)
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline().strip() == "ready"
    yield proc
    proc.kill()
    proc.wait()


def test_backup_while_another_process_writes(tmp_path, writer):
    data = tmp_path / "data"
    seen, live = [], data / "companion.sqlite3"
    for i in range(6):
        # the writer has committed more since the last backup (however slow its turn comes)
        wait_for(lambda: counts(live)[0] > (seen[-1] if seen else 0), what="the writer")
        path = backups.backup(data, keep=0, now=dt.datetime(2026, 11, 22, 8, 0, i))
        backups.check_database(path)
        actions, snapshots = counts(path)
        assert actions == snapshots  # a consistent snapshot: no half transaction
        seen.append(actions)
        # one self-contained file: no WAL left beside it
        assert not Path(str(path) + "-wal").exists()
        con = sqlite3.connect(path)
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        con.close()
    assert writer.poll() is None  # the writer was never blocked to death
    assert seen == sorted(seen) and seen[-1] > seen[0] > 0
    assert len(backups.list_backups(data)) == 6


def test_rotation_keeps_newest_of_each_recent_day(tmp_path):
    data = tmp_path / "data"
    make_db(data)
    made = {}
    for day, hour in [(18, 3), (19, 3), (20, 3), (20, 15), (21, 3), (22, 3), (22, 9)]:
        made[(day, hour)] = backups.backup(data, keep=0, now=dt.datetime(2026, 11, day, hour))
    other = data / "backups" / "my-own-copy.sqlite3"
    other.write_bytes(made[(18, 3)].read_bytes())
    deleted = backups.rotate(data / "backups", keep=3)
    remaining = set(backups.list_backups(data))
    assert remaining == {made[(22, 9)], made[(21, 3)], made[(20, 15)]}
    assert set(deleted) == {made[k] for k in [(18, 3), (19, 3), (20, 3), (22, 3)]}
    assert other.exists()  # rotation touches only its own files


def test_same_second_backups_do_not_overwrite(tmp_path):
    data = tmp_path / "data"
    make_db(data)
    now = dt.datetime(2026, 11, 22, 8, 0, 0)
    first = backups.backup(data, keep=0, now=now)
    second = backups.backup(data, keep=0, now=now)
    assert first != second and first.exists() and second.exists()
    backups.rotate(data / "backups", keep=1)
    assert backups.list_backups(data) == [second]


def test_restore_puts_games_back_and_keeps_the_replaced_database(tmp_path):
    data = tmp_path / "data"
    live, _, second = real_db(data)
    saved = backups.backup(data, keep=0)
    con = sqlite3.connect(live)
    for table in ("seats", "catalogs", "tokens"):
        con.execute(f"DELETE FROM {table} WHERE game = ?", (second,))
    con.execute("DELETE FROM games WHERE id = ?", (second,))
    con.commit()
    con.close()
    result = backups.restore(saved, data)
    assert game_count(live) == 2
    assert result.kept_aside is not None and game_count(result.kept_aside) == 1
    con = sqlite3.connect(live)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # the live mode is kept
    con.close()


def test_restore_into_empty_data_dir(tmp_path):
    source, _, _ = real_db(tmp_path / "elsewhere")
    result = backups.restore(source, tmp_path / "fresh")
    assert result.kept_aside is None
    assert game_count(tmp_path / "fresh" / "companion.sqlite3") == 2


def test_restore_refuses_a_file_that_is_not_a_database(tmp_path):
    data = tmp_path / "data"
    live = make_db(data)
    before = live.read_bytes()
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(backups.BackupError, match="not a valid SQLite database"):
        backups.restore(junk, data)
    assert live.read_bytes() == before
    assert not (data / "backups").exists()


def test_restore_refuses_a_corrupt_database(tmp_path):
    data = tmp_path / "data"
    live = make_db(data, rows=3)
    bad = make_db(tmp_path / "bad", rows=2000)
    con = sqlite3.connect(bad)
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    raw = bytearray(bad.read_bytes())
    page = 4096
    for offset in range(3 * page, len(raw) - page, 7 * page):  # scribble over several pages
        raw[offset + 100: offset + 400] = b"\xff" * 300
    bad.write_bytes(bytes(raw))
    with pytest.raises(backups.BackupError):
        backups.check_database(bad)
    with pytest.raises(backups.BackupError):
        backups.restore(bad, data)
    assert counts(live) == (3, 3)


def test_restore_refuses_while_the_server_has_the_database_open(tmp_path, writer):
    """Even with --force: a running server keeps writing sequence numbers from memory."""
    data = tmp_path / "data"
    saved = make_db(tmp_path / "saved", rows=4)
    before = counts(data / "companion.sqlite3")
    for force in (False, True):
        with pytest.raises(backups.BackupError, match=f"pid {writer.pid}"):
            backups.restore(saved, data, force=force)
    assert counts(data / "companion.sqlite3") >= before  # the live file was not swapped


def real_db(data: Path, bad_setup: bool = False) -> Path:
    """A database of the app with two toy games, one of them (optionally) unreadable."""
    from companion.game.games import kind_of
    from companion.game.service import GameService
    from companion.game.store import Store
    from tests.companion import toygame

    data.mkdir(parents=True, exist_ok=True)
    store = Store(data / "companion.sqlite3")
    service = GameService(store, lambda name: kind_of(toygame.GAME, None))
    players = [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bo"}]
    first = service.create("toy", {"players": players}, "1234")
    second = service.create("toy", {"players": players}, "1234")
    if bad_setup:
        store._db.execute("UPDATE games SET setup = 'not json' WHERE id = ?", (second.id,))
    store.close()
    return data / "companion.sqlite3", first.id, second.id


def test_restore_checks_the_schema_and_every_game_first(tmp_path):
    data = tmp_path / "data"
    live, _, _ = real_db(data)
    before = live.read_bytes()
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    other = tmp_path / "other.sqlite3"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes(text TEXT)")
    con.commit()
    con.close()
    for wrong in (empty, other):
        with pytest.raises(backups.BackupError, match="not a Table Companion database"):
            backups.restore(wrong, data)
    broken, _, bad_id = real_db(tmp_path / "broken", bad_setup=True)
    with pytest.raises(backups.BackupError, match=bad_id):
        backups.restore(broken, data)
    assert live.read_bytes() == before  # nothing swapped
    result = backups.restore(broken, data, force=True)
    assert any(bad_id in p for p in result.problems)
    refused = CliRunner().invoke(cli, ["restore", str(other), "--data", str(data)])
    assert refused.exit_code == 1 and "not a Table Companion database" in refused.output


def test_cli_backup_and_restore(tmp_path):
    data = tmp_path / "data"
    real_db(data)
    runner = CliRunner()
    made = runner.invoke(cli, ["backup", "--data", str(data), "--keep", "2"])
    assert made.exit_code == 0, made.output
    path = Path(made.output.strip())
    assert path.parent == data / "backups" and game_count(path) == 2
    junk = tmp_path / "junk"
    junk.write_text("nope")
    refused = runner.invoke(cli, ["restore", str(junk), "--data", str(data)])
    assert refused.exit_code == 1 and "not a valid SQLite database" in refused.output
    done = runner.invoke(cli, ["restore", str(path), "--data", str(data)])
    assert done.exit_code == 0, done.output
    assert "previous database kept as" in done.output


def test_cli_backup_without_database_explains(tmp_path):
    result = CliRunner().invoke(cli, ["backup", "--data", str(tmp_path / "none")])
    assert result.exit_code == 1 and "no database at" in result.output

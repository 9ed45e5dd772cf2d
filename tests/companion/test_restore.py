"""Issue 21: `companion restore` takes only a database the app would have written, and every
refusal leaves the live database byte for byte as it was (real SQLite files, the real CLI)."""
from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.box import backup as backups
from companion.cli import cli
from companion.game.games import kind_of
from companion.game.service import GameService, Identity
from companion.game.store import Store
from tests.companion import toygame


def played_db(path: Path, moves: int = 8) -> tuple[Path, str]:
    """A database of the app holding one toy game with ``moves`` actions and snapshots."""
    path.parent.mkdir(parents=True, exist_ok=True)
    store = Store(path)
    service = GameService(store, lambda name: kind_of(toygame.GAME, None), snapshot_every=3)
    live = service.create("toy", {"players": [{"seat": "A", "name": "Ann"},
                                              {"seat": "B", "name": "Bo"}]}, "1234")
    for _ in range(moves):
        seat = live.state["active"]
        service.act(Identity("seat", live.id, seat),
                    {"type": "play", "card": live.state["hands"][seat][0]})
    store.close()
    return path, live.id


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file of the data folder with the SHA-256 of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def tampered(tmp_path: Path, name: str, *statements: str) -> Path:
    path, _ = played_db(tmp_path / name / "backup.sqlite3")
    con = sqlite3.connect(path)
    con.executescript(";".join(statements))
    con.commit()
    con.close()
    return path


@pytest.fixture
def data(tmp_path):
    folder = tmp_path / "data"
    played_db(folder / "companion.sqlite3", moves=5)
    return folder


def refused(data: Path, backup: Path, match: str) -> None:
    before = fingerprint(data)
    with pytest.raises(backups.BackupError, match=match):
        backups.restore(backup, data)
    assert fingerprint(data) == before  # the live data untouched, byte for byte
    answer = CliRunner().invoke(cli, ["restore", str(backup), "--data", str(data)])
    assert answer.exit_code == 1 and str(backup) in answer.output, answer.output
    assert fingerprint(data) == before


def test_a_hostile_trigger_is_refused(tmp_path, data):
    evil = tampered(tmp_path, "evil", "CREATE TRIGGER evil AFTER INSERT ON actions "
                                      "BEGIN DELETE FROM actions; END")
    refused(data, evil, "extra trigger 'evil'")


def test_the_games_table_replaced_by_a_view_is_refused(tmp_path, data):
    view = tampered(tmp_path, "view", "ALTER TABLE games RENAME TO games_real",
                    "CREATE VIEW games AS SELECT * FROM games_real")
    refused(data, view, "'games' is a view, not a table")


def test_extra_indexes_views_and_columns_are_refused(tmp_path, data):
    for name, statement, match in [
            ("index", "CREATE INDEX quick ON actions(at)", "extra index 'quick'"),
            ("peek", "CREATE VIEW peek AS SELECT * FROM tokens", "extra view 'peek'"),
            ("column", "ALTER TABLE games ADD COLUMN note TEXT", "extra column games.note")]:
        refused(data, tampered(tmp_path, name, statement), match)


def test_an_unknown_status_is_refused(tmp_path, data):
    weird = tampered(tmp_path, "weird", "UPDATE games SET status = 'weird'")
    refused(data, weird, "unknown game status.*'weird'")


def test_a_log_that_does_not_replay_is_refused_even_behind_a_snapshot(tmp_path, data):
    path, game_id = played_db(tmp_path / "hidden" / "backup.sqlite3")
    con = sqlite3.connect(path)
    seqs = [r[0] for r in con.execute("SELECT seq FROM snapshots ORDER BY seq")]
    assert seqs and seqs[-1] > 2  # a later snapshot would hide action 2 from a plain load
    con.execute("UPDATE actions SET action = ? WHERE game = ? AND seq = 2",
                (json.dumps({"type": "play", "by": "B", "card": "nope"}), game_id))
    con.commit()
    con.close()
    refused(data, path, "action 2 does not replay")
    forged = tmp_path / "forged.sqlite3"  # a snapshot that is not the replay of the log
    played_db(forged)
    con = sqlite3.connect(forged)
    state = json.loads(con.execute("SELECT state FROM snapshots ORDER BY seq LIMIT 1")
                       .fetchone()[0])
    state["pot"] = state.get("pot", 0) + 1000
    con.execute("UPDATE snapshots SET state = ? WHERE seq = (SELECT MIN(seq) FROM snapshots)",
                (json.dumps(state),))
    con.commit()
    con.close()
    refused(data, forged, "snapshot after action 3 is not the state")


def test_a_database_the_app_wrote_is_restored(tmp_path, data):
    good, game_id = played_db(tmp_path / "good" / "backup.sqlite3", moves=7)
    result = backups.restore(good, data)
    assert result.problems == [] and result.kept_aside is not None
    store = Store(data / "companion.sqlite3")
    try:
        service = GameService(store, lambda name: kind_of(toygame.GAME, None))
        service.load_all()
        assert service.get(game_id).version == 7 and not service.broken_games()
    finally:
        store.close()


def test_an_older_database_without_a_later_column_is_still_ours(tmp_path, data):
    """A backup from before `seats.host_only` (the app adds it when it opens the file)."""
    old, _ = played_db(tmp_path / "old" / "backup.sqlite3")
    con = sqlite3.connect(old)
    con.executescript("CREATE TABLE seats2 (game TEXT NOT NULL REFERENCES games(id), "
                      "seat TEXT NOT NULL, join_code TEXT NOT NULL, PRIMARY KEY (game, seat));"
                      "INSERT INTO seats2 SELECT game, seat, join_code FROM seats;"
                      "DROP TABLE seats; ALTER TABLE seats2 RENAME TO seats;")
    con.close()
    assert backups.restore(old, data).problems == []
    shutil.rmtree(data / "backups")

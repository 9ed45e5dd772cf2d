"""An upgrade never strands a stored game (issue 48): the SQLite file main wrote before the
start-player fix (tests/golden/2b1ebd0, made by that commit's own code) loads, restores,
undoes and exports on today's app, every game at the state and scores it had; its records
import. A game that cannot be taken to today's rules stays on disk as it was, listed with the
reason."""
from __future__ import annotations

import dataclasses
import gzip
import io
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion import context
from companion.app import create_app
from companion.box import backup
from companion.game.service import Identity
from companion.table import history
from engine import record
from tests.companion.conftest import csrf

OLD = Path(__file__).parents[1] / "golden" / "2b1ebd0"
GOLDEN = {g["game_id"]: g for g in (json.loads(p.read_text()) for p in OLD.glob("*.json"))}
ISSUE = next(g for g in GOLDEN.values() if g["record"]["setup"].get("start_seat") == "S"
             and g["record"]["game"] == "monasterium")


def old_database(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "old.sqlite3"
    with gzip.open(OLD / "companion.sqlite3.gz", "rb") as packed, open(path, "wb") as raw:
        shutil.copyfileobj(packed, raw)
    return path


def rows(path: Path, sql: str, args: tuple = ()) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute(sql, args).fetchall()


def app_on(data: Path):
    return create_app({"DATA_DIR": str(data), "TESTING": True})


def state_of(live) -> dict:
    return json.loads(json.dumps({k: v for k, v in live.state.items() if k != "cat"}))


def as_it_was(service, game_id: str) -> None:
    live = service.get(game_id)
    golden = GOLDEN[game_id]
    assert state_of(live) == golden["state"], game_id
    assert live.kind.module.scores(live.state) == golden["scores"], game_id


@pytest.fixture
def restored(tmp_path) -> Path:
    """A data folder the old file was restored into with `companion restore`'s code."""
    data = tmp_path / "data"
    result = backup.restore(old_database(tmp_path / "backup"), data)
    assert result.problems == []
    return data


def test_a_restored_old_database_loads_every_game_as_it_was(restored):
    columns = [c[1] for c in rows(restored / "companion.sqlite3", "PRAGMA table_info(games)")]
    assert "rules" not in columns  # restored as it was written then
    app = app_on(restored)
    service = context.of(app).service
    try:
        assert service.broken_games() == []
        for game_id in GOLDEN:
            as_it_was(service, game_id)
        for golden in GOLDEN.values():  # the history of a finished game: VP over the game
            if golden["over"]:
                series = history.vp_series(service, service.get(golden["game_id"]))
                assert {seat: points[-1][1] for seat, points in series.items()} == {
                    row["seat"]: row["vp"] for row in golden["scores"]}
        live = service.get(ISSUE["game_id"])
        assert live.row["setup"]["start_seat"] == "N"  # who started, as the engine did then
        assert live.row["rules"] == live.kind.info.rules_version == 2
        exported = service.record(ISSUE["game_id"])
        assert (exported["version"], exported["rules"]) == (2, 2)
        assert exported["actions"] == ISSUE["record"]["actions"]
    finally:
        service.store.close()
    # stored so: the next start takes nothing again, and the games are still as they were
    db = restored / "companion.sqlite3"
    ruled = dict(rows(db, "SELECT game, rules FROM games WHERE rules IS NOT NULL"))
    assert set(ruled) == {"monasterium", "pillars"}
    app = app_on(restored)
    service = context.of(app).service
    try:
        for game_id in GOLDEN:
            as_it_was(service, game_id)
    finally:
        service.store.close()


LONGEST = max(GOLDEN.values(), key=lambda g: len(g["record"]["actions"]))


@pytest.mark.parametrize("golden, back", [(ISSUE, 10), (LONGEST, 30)],
                         ids=["in-progress", "finished-past-its-snapshot"])
def test_undo_on_an_old_game_and_the_same_actions_again_reach_the_same_end(
        restored, golden, back):
    game_id = golden["game_id"]
    db = restored / "companion.sqlite3"
    newest = rows(db, "SELECT MAX(seq) FROM snapshots WHERE game = ?", (game_id,))[0][0]
    last = rows(db, "SELECT MAX(seq) FROM actions WHERE game = ?", (game_id,))[0][0]
    assert golden is ISSUE or (golden["over"] and newest and last - back < newest)
    app = app_on(restored)
    service = context.of(app).service
    try:
        live = service.get(game_id)
        assert live.status == ("finished" if golden["over"] else "active")
        service.undo(game_id, back)
        assert live.status == "active" and not live.kind.module.is_over(live.state)
        for action in golden["record"]["actions"][-back:]:
            by = action["by"]
            who = Identity(by, game_id) if by in ("host", "table") else \
                Identity("seat", game_id, by)
            service.act(who, {k: v for k, v in action.items() if k != "by"})
        assert live.status == ("finished" if golden["over"] else "active")
        as_it_was(service, game_id)
    finally:
        service.store.close()


def test_an_old_record_imports_as_it_was_played(tmp_path):
    app = app_on(tmp_path / "data")
    service = context.of(app).service
    client = app.test_client()
    try:
        others = [g for g in GOLDEN.values() if g["record"]["game"] != "monasterium"]
        for golden in (ISSUE, *others):
            data = {"csrf_token": csrf(client), "host_pin": "1357",
                    "record": (io.BytesIO(json.dumps(golden["record"]).encode()), "r.json")}
            response = client.post("/games/import", data=data,
                                   content_type="multipart/form-data")
            assert response.status_code == 303, response.get_data(as_text=True)[:500]
            live = service.get(response.headers["Location"].rsplit("/", 1)[-1])
            assert state_of(live) == golden["state"]
            assert live.kind.module.scores(live.state) == golden["scores"]
            assert live.row["rules"] == live.kind.info.rules_version
    finally:
        service.store.close()


def test_an_old_record_that_cannot_be_migrated_is_refused_and_creates_nothing(tmp_path):
    app = app_on(tmp_path / "data")
    service = context.of(app).service
    client = app.test_client()
    try:
        bad = dict(ISSUE["record"], setup=dict(ISSUE["record"]["setup"], start="W"))
        data = {"csrf_token": csrf(client), "host_pin": "1357",
                "record": (io.BytesIO(json.dumps(bad).encode()), "r.json")}
        response = client.post("/games/import", data=data, content_type="multipart/form-data")
        assert response.status_code == 400
        assert service.all() == []
    finally:
        service.store.close()


def kept(db: Path) -> tuple:
    """The issue's game as stored: its row (columns of then), its actions, its snapshots."""
    game = (ISSUE["game_id"],)
    return (rows(db, "SELECT id, game, created, status, setup, pin_hash, result "
                 "FROM games WHERE id = ?", game),
            rows(db, "SELECT * FROM actions WHERE game = ? ORDER BY seq", game),
            rows(db, "SELECT * FROM snapshots WHERE game = ? ORDER BY seq", game))


def test_a_stored_game_that_cannot_be_migrated_is_kept_as_it_was_with_the_reason(tmp_path):
    """Planted: the issue's game with a start player no seat holds (the old engine would
    have refused it; a hand-edited file). The restore check names it; restored anyway, it
    stays listed as broken and its rows are not changed; the other games load."""
    old = old_database(tmp_path / "backup")
    with sqlite3.connect(old) as db:
        setup = dict(ISSUE["record"]["setup"], start="W")
        db.execute("UPDATE games SET setup = ? WHERE id = ?", (json.dumps(setup),
                                                               ISSUE["game_id"]))
    with pytest.raises(backup.BackupError, match=f"game {ISSUE['game_id']} .monasterium.: "
                       "cannot be taken from rules version 1 to 2: not_migratable"):
        backup.restore(old, tmp_path / "data")
    data = tmp_path / "data"
    result = backup.restore(old, data, force=True)
    assert len(result.problems) == 1
    db = data / "companion.sqlite3"
    before = kept(db)
    app = app_on(data)
    service = context.of(app).service
    try:
        broken = {b["id"]: b for b in service.broken_games()}[ISSUE["game_id"]]
        assert "not_migratable" in broken["problem"] and "'W' is not a seat" in broken["problem"]
        lobby = app.test_client().get("/").get_data(as_text=True)  # listed with the reason
        listed = lobby[lobby.index(f'data-game="{ISSUE["game_id"]}"'):]
        assert "is not a seat" in listed[:listed.index("</li>")]
        for game_id in set(GOLDEN) - {ISSUE["game_id"]}:
            as_it_was(service, game_id)
    finally:
        service.store.close()
    assert kept(db) == before
    assert rows(db, "SELECT rules FROM games WHERE id = ?", (ISSUE["game_id"],)) == [(None,)]


def test_the_restore_check_replays_an_old_game_in_todays_meaning(tmp_path):
    """Planted: the restore check without the migration (rules version read as today's)
    refuses the old file, as the issue found."""
    old = old_database(tmp_path / "backup")
    assert backup.check_backup(old) == []
    with sqlite3.connect(old) as db:  # the same file claiming today's rules for its games
        db.execute("ALTER TABLE games ADD COLUMN rules INTEGER")
        db.execute("UPDATE games SET rules = 2 WHERE game IN ('monasterium', 'pillars')")
    problems = backup.check_backup(old)
    assert any(ISSUE["game_id"] in p and "not_your_turn" in p for p in problems), problems
    assert record.VERSION == 2


def test_a_migration_that_changes_actions_rewrites_only_those(tmp_path, monkeypatch):
    """A planted next rules version of the toy game whose roll carries ``pips`` (before:
    ``value``): reopened, the stored game's rolls in effect are rewritten, its plays and an
    undone roll stay as they were, its snapshots go, and it is at the same state."""
    from tc_toygame import GAME

    from companion.box.catalog import load_kind
    from companion.game.service import GameService
    from companion.game.store import Store

    path = tmp_path / "toy.sqlite3"
    service = GameService(Store(path), lambda n: load_kind(n, None), snapshot_every=2)
    live = service.create("toy", {"players": [{"seat": "A"}, {"seat": "B"}], "seed": 5}, "1234")
    table = Identity("table", live.id)
    service.act(table, {"type": "roll", "value": 3})
    service.act(table, {"type": "roll", "value": 6})
    service.undo(live.id)
    service.act(Identity("seat", live.id, "A"), {"type": "play",
                                                 "card": live.state["hands"]["A"][0]})
    service.act(table, {"type": "roll", "value": 2})
    before = state_of(live)
    service.store.close()
    stored = dict(rows(path, "SELECT seq, action FROM actions"))
    assert rows(path, "SELECT COUNT(*) FROM snapshots")[0][0] > 0

    def value_to_pips(setup, actions):
        return setup, [{k if k != "value" else "pips": v for k, v in a.items()}
                       if a["type"] == "roll" else a for a in actions]

    def apply_v2(state, action):
        if action.get("type") == "roll":
            action = {k if k != "pips" else "value": v for k, v in action.items()}
        return apply_v1(state, action)

    apply_v1 = GAME.apply
    monkeypatch.setattr(GAME, "apply", apply_v2)
    now_version = GAME.info.rules_version
    monkeypatch.setattr(GAME, "info", dataclasses.replace(
        GAME.info, rules_version=now_version + 1,
        migrations={**GAME.info.migrations, now_version: value_to_pips}))
    service = GameService(Store(path), lambda n: load_kind(n, None), snapshot_every=2)
    try:
        service.load_all()
        assert service.broken_games() == []
        assert state_of(service.get(live.id)) == before
    finally:
        service.store.close()
    now = dict(rows(path, "SELECT seq, action FROM actions"))
    changed = {seq for seq in now if now[seq] != stored[seq]}
    assert changed == {1, 4}  # the rolls in effect; 2 (undone) and 3 (a play) as they were
    assert json.loads(now[1]) == {"type": "roll", "by": "table", "pips": 3}
    assert rows(path, "SELECT COUNT(*) FROM snapshots")[0][0] == 0
    assert rows(path, "SELECT rules FROM games") == [(now_version + 1,)]

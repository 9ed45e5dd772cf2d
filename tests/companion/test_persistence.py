"""SQLite persistence: durability settings, commit before ack, exact rebuild, undo audit trail."""
from __future__ import annotations

import random
import sqlite3

import pytest

from companion import context
from companion.box.catalog import load_catalog, load_kind
from companion.game.service import GameService, Identity
from companion.game.store import Store
from engine.api import Refused
from engine.wwe import GAME

PLAYERS = [{"seat": "N", "name": "Ann"}, {"seat": "E", "name": "Bo"},
           {"seat": "S", "name": "Cy"}]


def wwe_service(path, snapshot_every=7):
    kinds = {}

    def kind(name):
        if name not in kinds:
            kinds[name] = load_kind(name, None)
        return kinds[name]

    service = GameService(Store(path), kind, snapshot_every=snapshot_every)
    service.load_all()
    return service


def identity(game_id, action):
    by = action["by"]
    return Identity("seat", game_id, by) if by in "NESW" else Identity("table", game_id)


def play(service, game_id, n, seed=3):
    rnd = random.Random(seed)
    live = service.get(game_id)
    for _ in range(n):
        action = GAME.random_action(live.state, rnd)
        service.act(identity(game_id, action), action)


def test_wal_and_synchronous_full(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()


def test_an_acknowledged_action_is_in_the_database_file(tmp_path):
    path = tmp_path / "db.sqlite3"
    service = wwe_service(path)
    live = service.create("wwe", {"players": PLAYERS}, "1234")
    action = GAME.random_action(live.state, random.Random(1))
    version = service.act(identity(live.id, action), action)  # returns = acknowledged
    other = sqlite3.connect(path)  # another connection, as after a crash
    rows = other.execute("SELECT seq, action FROM actions WHERE game = ?", (live.id,)).fetchall()
    assert version == 1 and len(rows) == 1 and f'"{action["type"]}"' in rows[0][1]
    other.close()


def test_a_refused_action_changes_nothing(tmp_path):
    service = wwe_service(tmp_path / "db.sqlite3")
    live = service.create("wwe", {"players": PLAYERS}, "1234")
    before = live.state
    with pytest.raises(Refused):
        service.act(Identity("seat", live.id, "E"), {"type": "roll_tax", "value": 99})
    with pytest.raises(Refused):
        service.act(Identity("seat", live.id, "E"), ["not", "an", "action"])
    assert live.state is before and live.version == 0
    assert service.store.actions(live.id) == []


def test_restart_rebuilds_every_game_exactly_from_snapshots_and_actions(tmp_path):
    path = tmp_path / "db.sqlite3"
    service = wwe_service(path, snapshot_every=7)
    games = [service.create("wwe", {"players": PLAYERS[:k]}, "1234") for k in (2, 3)]
    for i, live in enumerate(games):
        play(service, live.id, 30 + i, seed=i)
    states = {g.id: g.state for g in games}
    assert service.store.latest_snapshot(games[0].id)[0] == 28
    service.store.close()
    again = wwe_service(path, snapshot_every=7)
    for game_id, state in states.items():
        assert again.get(game_id).state == state
        assert again.get(game_id).version == len(again.store.actions(game_id))


def test_undo_rebuilds_without_the_last_actions_and_keeps_the_audit_trail(tmp_path):
    path = tmp_path / "db.sqlite3"
    service = wwe_service(path, snapshot_every=5)
    live = service.create("wwe", {"players": PLAYERS}, "1234")
    play(service, live.id, 12)
    actions = [a["action"] for a in service.store.actions(live.id)]
    assert service.undo(live.id, 3) == 9  # crosses the snapshot taken after action 10
    catalog = load_catalog("wwe")
    expected = GAME.setup(catalog, live.row["setup"])
    for action in actions[:9]:
        expected, _ = GAME.apply(expected, action)
    assert live.state == expected
    trail = service.store.actions(live.id, include_undone=True)
    assert len(trail) == 12 and [bool(a["undone_at"]) for a in trail] == [False] * 9 + [True] * 3
    # new actions get new sequence numbers; the undone ones stay in the trail
    play(service, live.id, 1, seed=99)
    assert service.store.actions(live.id)[-1]["seq"] == 13
    state = live.state
    service.store.close()
    assert wwe_service(path, snapshot_every=5).get(live.id).state == state
    with pytest.raises(Refused):
        service.undo(live.id, 0)


def test_record_export_replays_to_the_same_state(tmp_path):
    from engine import record as engine_record

    service = wwe_service(tmp_path / "db.sqlite3")
    live = service.create("wwe", {"players": PLAYERS}, "1234")
    play(service, live.id, 20)
    service.undo(live.id, 2)
    record = service.record(live.id)
    assert engine_record.validate(record) == []
    assert len(record["actions"]) == 18
    replayed = engine_record.replay(GAME, live.kind.catalog, record)
    state = replayed[0] if isinstance(replayed, tuple) else replayed
    assert state == live.state


def test_past_games_list_results(tmp_path):
    service = wwe_service(tmp_path / "db.sqlite3")
    live = service.create("wwe", {"players": PLAYERS[:2]}, "1234")
    service.end(live.id)
    row = service.store.games()[0]
    assert row["status"] == "finished"
    assert [r["seat"] for r in row["result"]] and {r["seat"] for r in row["result"]} == {"N", "E"}


def test_import_replays_a_record_exactly_and_refuses_a_bad_one(tmp_path):
    from engine import record as engine_record

    service = wwe_service(tmp_path / "db.sqlite3")
    catalog = load_catalog("wwe")
    setup = {"players": PLAYERS[:2]}  # no seed: the engine's default must stay
    state, actions, rnd = GAME.setup(catalog, setup), [], random.Random(4)
    for _ in range(15):
        action = GAME.random_action(state, rnd)
        state, _ = GAME.apply(state, action)
        actions.append(action)
    record = engine_record.build("wwe", setup, actions)
    live = service.import_record(record, "1234")
    assert live.state == state and live.version == 15 and "seed" not in live.row["setup"]
    before = len(service.all())
    bad = engine_record.build("wwe", setup, [*actions, {"type": "roll_tax", "by": "N",
                                                        "value": 99}])
    with pytest.raises(Refused) as caught:
        service.import_record(bad, "1234")
    assert caught.value.code == "bad_record" and "16" in caught.value.params["detail"]
    with pytest.raises(Refused):
        service.import_record({"format": "something else"}, "1234")
    assert len(service.all()) == before


def test_finished_games_are_rebuilt_when_first_opened(tmp_path):
    path = tmp_path / "db.sqlite3"
    service = wwe_service(path, snapshot_every=7)
    live = service.create("wwe", {"players": PLAYERS[:2]}, "1234")
    play(service, live.id, 20)
    service.end(live.id)
    state, version = live.state, live.version
    service.store.close()
    again = wwe_service(path, snapshot_every=7)
    listed = next(g for g in again.all() if g.id == live.id)
    assert listed.state is None and listed.status == "finished"  # not rebuilt at start
    assert listed.version == version and listed.row["result"]
    opened = again.get(live.id)
    assert opened is listed and opened.state == state and len(opened.log) == len(live.log)


def data_service(data_dir, snapshot_every=7):
    """A service whose games load the catalog with the owner's files in ``data_dir``."""
    kinds = {}

    def kind(name):
        if name not in kinds:
            kinds[name] = load_kind(name, str(data_dir))
        return kinds[name]

    service = GameService(Store(data_dir / "db.sqlite3"), kind, snapshot_every=snapshot_every)
    service.load_all()
    return service


def test_a_game_keeps_its_catalog_when_the_owner_edits_it(tmp_path):
    """Issue 9: 30 actions, an override added, a restart, undo(6): still the first catalog."""
    import json

    service = data_service(tmp_path)
    live = service.create("wwe", {"players": PLAYERS, "seed": 4}, "1234")
    play(service, live.id, 30)
    before = service.get(live.id).state["cat"]
    service.store.close()
    site = dict(load_catalog("wwe")["building_sites"][0], rent={"item": "gold", "amount": 9})
    overrides = tmp_path / "catalogs" / "wwe"
    overrides.mkdir(parents=True)
    (overrides / "building_sites.json").write_text(json.dumps([site]))
    restarted = data_service(tmp_path)
    assert restarted.get(live.id).state["cat"] == before
    restarted.undo(live.id, 6)
    state = restarted.get(live.id).state
    assert state["cat"] == before
    assert state["cat"]["sites"][site["id"]]["rent"] != site["rent"]
    newer = restarted.create("wwe", {"players": PLAYERS, "seed": 4}, "1234")
    assert newer.state["cat"]["sites"][site["id"]]["rent"] == site["rent"]  # new games: new cards
    restarted.store.close()
    (overrides / "building_sites.json").write_text("[{")  # a broken owner file
    broken = data_service(tmp_path)
    assert broken.get(live.id).state["cat"] == before  # the running game does not depend on it
    broken.store.close()


def test_snapshots_hold_the_position_not_the_catalog(tmp_path):
    service = wwe_service(tmp_path / "db.sqlite3", snapshot_every=5)
    live = service.create("wwe", {"players": PLAYERS}, "1234")
    play(service, live.id, 12)
    seq, snapshot = service.store.latest_snapshot(live.id)
    assert "cat" not in snapshot and seq == 10
    assert service.store.catalog(live.id) == load_catalog("wwe")
    rebuilt = wwe_service(tmp_path / "db.sqlite3")
    assert rebuilt.get(live.id).state == service.get(live.id).state


def test_a_database_from_before_pinning_opens_and_is_pinned(tmp_path):
    """An older database: no catalogs row, snapshots with the catalog inside."""
    import json

    path = tmp_path / "db.sqlite3"
    service = wwe_service(path, snapshot_every=5)
    live = service.create("wwe", {"players": PLAYERS}, "1234")
    play(service, live.id, 12)
    expected = service.get(live.id).state
    seq, position = service.store.latest_snapshot(live.id)
    service.store._db.execute("DELETE FROM catalogs")
    service.store._db.execute("UPDATE snapshots SET state = ? WHERE seq = ?",  # the old format
                              (json.dumps(dict(position, cat=expected["cat"])), seq))
    service.store.close()
    old = wwe_service(path)
    assert old.store.catalog(live.id) == load_catalog("wwe")  # pinned on first load
    assert old.get(live.id).version == 12
    assert old.get(live.id).state == expected


def test_a_corrupt_snapshot_or_row_loses_no_game_and_the_server_boots(tmp_path):
    """Issue 10: snapshots are a cache (a bad one means a full replay); a game whose row
    cannot be read is listed with its problem; every other game opens; the app boots."""
    from companion.app import create_app

    path = tmp_path / "companion.sqlite3"
    service = wwe_service(path, snapshot_every=5)
    good = service.create("wwe", {"players": PLAYERS, "seed": 9}, "1234")
    play(service, good.id, 12)
    expected = service.get(good.id).state
    bad = service.create("wwe", {"players": PLAYERS, "seed": 8}, "1234")
    db = service.store._db
    db.execute("UPDATE snapshots SET state = '{not json' WHERE game = ?", (good.id,))
    db.execute("UPDATE games SET setup = 'not json' WHERE id = ?", (bad.id,))
    service.store.close()
    reopened = wwe_service(path)
    assert reopened.get(good.id).state == expected and reopened.get(good.id).version == 12
    broken = {b["id"]: b for b in reopened.broken_games()}
    assert bad.id in broken and "setup" in broken[bad.id]["problem"]
    reopened.store.close()
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True})
    page = app.test_client().get("/").get_data(as_text=True)
    assert good.id in page and f'data-game="{bad.id}"' in page
    context.of(app).service.store.close()


def test_a_finished_game_that_does_not_rebuild_when_first_opened_is_listed_broken(tmp_path):
    """A finished game is rebuilt only when first opened (above): one whose action log does
    not read then (a forced restore) is refused as unknown and listed with its problem, as
    at start; the pages answer, no 500 (found by test_restore_text's property)."""
    from companion.app import create_app

    service = wwe_service(tmp_path / "companion.sqlite3")
    live = service.create("wwe", {"players": PLAYERS[:2]}, "1234")
    play(service, live.id, 6)
    service.end(live.id)
    service.store._db.execute("UPDATE actions SET action = '' WHERE game = ? AND seq = 3",
                              (live.id,))
    service.store.close()
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True})
    parts, client = context.of(app), app.test_client()
    try:
        with pytest.raises(Refused) as refused:
            parts.service.get(live.id)
        assert refused.value.code == "unknown_game"
        broken = {b["id"]: b for b in parts.service.broken_games()}
        assert "JSONDecodeError" in broken[live.id]["problem"]
        for url in (f"/games/{live.id}/camera/unknown.json", f"/table/{live.id}"):
            assert client.get(url).status_code == 404, url
        page = client.get("/").get_data(as_text=True)
        assert f'data-game="{live.id}"' in page
        with pytest.raises(Refused):  # and stays so
            parts.service.get(live.id)
    finally:
        parts.service.store.close()

"""Golden records (issue 48): games recorded by earlier commits of main replay on today's code
to the state and scores they reached then.

tests/golden/<commit>/ holds what record_games.py wrote with that commit's own code: every
game, two to four players, a start seat chosen on the form or not, host corrections, undo
(undone actions are not in a record), games finished and in progress. 2b1ebd0 is main just
before the start-player fix (683e53d), 81a2886 main before rules versions. A rules change that
alters what a stored setup or action means must raise the game's rules version with a
migration (docs/record-format.md, "Rules versions"), or this fails; the planted changes below
show it does.
"""
from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.box.catalog import load_kind
from companion.game import games
from engine import record

HERE = Path(__file__).parent
GOLDEN = sorted(HERE.glob("*/*.json"))
ISSUE = HERE / "2b1ebd0" / "monasterium-3-S-40.json"  # the issue's record


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def mismatch(golden: dict) -> str | None:
    """How today's replay of a golden record differs from what it reached then (None: not)."""
    kind = load_kind(golden["record"]["game"], None)
    try:
        state, _ = record.replay(kind.module, kind.catalog, golden["record"])
    except record.RecordError as exc:
        return f"does not replay: {exc}"
    state = json.loads(json.dumps({k: v for k, v in state.items() if k != "cat"}))
    wrong = sorted(k for k in set(state) | set(golden["state"])
                   if state.get(k) != golden["state"].get(k))
    if wrong:
        return f"the state differs in {', '.join(wrong)}"
    if json.loads(json.dumps(kind.module.scores(state))) != golden["scores"]:
        return "the scores differ"
    return None


def test_the_golden_records_cover_what_the_issue_asks():
    records = [load(p) for p in GOLDEN]
    assert {g["record"]["game"] for g in records} >= {"wwe", "pillars", "monasterium"}
    assert len({g["commit"] for g in records}) >= 2
    for game in ("wwe", "pillars", "monasterium"):
        mine = [g for g in records if g["record"]["game"] == game]
        assert len({len(g["record"]["setup"]["players"]) for g in mine}) >= 2
        assert {g["over"] for g in mine} == {True, False}  # finished and in progress
        assert any(a["type"] == "adjust" for g in mine for a in g["record"]["actions"])
    assert {g["record"]["version"] for g in records} == {1}  # all from before rules versions


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_golden_record_replays_to_what_it_reached_then(path):
    assert mismatch(load(path)) is None


def test_the_issues_record_replays_through_the_command(tmp_path):
    """`companion replay` on the record main made before the start-player fix."""
    golden = load(ISSUE)
    assert golden["record"]["setup"]["start_seat"] == "S"
    assert golden["record"]["actions"][1]["by"] == "N"  # N started, as the engine then did
    path = tmp_path / "old.json"
    path.write_text(json.dumps(golden["record"]))
    done = subprocess.run([sys.executable, "-c", "from companion.cli import main; main()",
                           "replay", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == golden["scores"]


def test_a_migrated_record_names_todays_rules_and_keeps_the_start_player_played():
    golden = load(ISSUE)
    module = games.module_of("monasterium")
    moved = record.migrate(module, golden["record"])
    assert (moved["version"], moved["rules"]) == (record.VERSION, module.info.rules_version)
    assert moved["setup"]["start_seat"] == "N" and moved["actions"] == golden["record"]["actions"]
    assert golden["record"]["setup"]["start_seat"] == "S"  # what was given is not changed
    assert record.migrate(module, moved) == moved  # today's record: nothing to migrate


def test_every_game_declares_a_migration_for_each_rules_version_step():
    for name in games.known():
        info = games.module_of(name).info
        version = record.current_rules(info)
        assert type(version) is int and version >= 1, name
        steps = getattr(info, "migrations", {})
        assert sorted(steps) == list(range(1, version)), name
        assert all(callable(step) for step in steps.values()), name


# planted faults: each must make the golden test fail ----------------------------------------
def _replaced_info(monkeypatch, name: str, **changes) -> None:
    module = games.module_of(name)
    monkeypatch.setattr(module, "info", dataclasses.replace(module.info, **changes))


def test_planted_the_start_player_fix_without_its_migration_fails(monkeypatch):
    _replaced_info(monkeypatch, "monasterium", rules_version=1, migrations={})
    found = mismatch(load(ISSUE))
    assert found and "not_your_turn(seat='N', active='S')" in found, found


def test_planted_a_rules_change_without_a_new_version_fails(monkeypatch):
    """Pillars' start player the seat after the one the setup names: a changed meaning of
    every stored setup, no rules version raised."""
    from engine import api
    from engine.pillars import flow

    def next_starts(setup, order, *args, **kwargs):
        table = api.table_from_setup(setup, order, *args, **kwargs)
        after = table.seats[(table.seats.index(table.start) + 1) % len(table.seats)]
        return dataclasses.replace(table, start=after)

    monkeypatch.setattr(flow, "table_from_setup", next_starts)
    pillars = [p for p in GOLDEN if p.name.startswith("pillars")]
    assert len(pillars) >= 4 and all(mismatch(load(p)) for p in pillars)


def test_planted_a_version_step_without_a_migration_fails(monkeypatch):
    module = games.module_of("monasterium")
    _replaced_info(monkeypatch, "monasterium", rules_version=module.info.rules_version + 1)
    found = mismatch(load(ISSUE))
    assert found and "no migration from rules version 2" in found, found


def test_a_record_of_newer_rules_is_refused_with_the_reason():
    golden = load(ISSUE)
    newer = dict(golden["record"], version=2, rules=99)
    with pytest.raises(record.RecordError, match="rules version 99 of monasterium; this app "
                       "has version 2"):
        record.migrate(games.module_of("monasterium"), newer)
    assert record.validate(dict(newer, rules="2")) == [
        "rules must be the game's rules version (1, 2, ...)"]

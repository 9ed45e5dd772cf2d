"""The game record: JSON round trip, identical replay, refusals named, the CLI."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from engine import record
from engine.wwe import GAME

SETUP = {"players": [{"seat": "N", "name": "Anna", "colour": "blue"},
                     {"seat": "E", "name": "Bo", "colour": "red"},
                     {"seat": "S", "name": "Cy", "colour": "green"},
                     {"seat": "W", "name": "Di", "colour": "yellow"}],
         "seed": 11, "options": {"plague_values": "app"}}


def random_game(catalog, seed, setup=SETUP):
    rnd = random.Random(seed)
    state = GAME.setup(catalog, setup)
    actions = []
    while (action := GAME.random_action(state, rnd)) is not None:
        actions.append(action)
        state, _ = GAME.apply(state, action)
    return state, actions


def test_replay_gives_identical_state(catalog):
    state, actions = random_game(catalog, 1)
    assert state["over"]
    rec = json.loads(json.dumps(record.build("wwe", SETUP, actions)))
    assert record.validate(rec) == []
    again, events = record.replay(GAME, catalog, rec)
    assert again == state
    assert json.loads(json.dumps(again)) == again
    assert any(e["type"] == "game_over" for e in events)


def test_bad_records_named(catalog):
    assert record.validate([]) == ["a record is a JSON object"]
    bad = record.build("wwe", SETUP, [{"type": "orient_event"}])
    assert "action 1 has no 'by'" in record.validate(bad)
    refused = record.build("wwe", SETUP, [{"type": "orient_event", "by": "N", "rotation": 0}])
    with pytest.raises(record.RecordError, match="action 1 .orient_event. refused: wrong_phase"):
        record.replay(GAME, catalog, refused)


def test_cli_replay_prints_public_and_scores(catalog, tmp_path):
    state, actions = random_game(catalog, 2)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.build("wwe", SETUP, actions)))
    out = subprocess.run([sys.executable, "-c", "from companion.cli import main; main()",
                          "replay", str(path)],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["scores"] == GAME.scores(state)
    assert data["public"] == json.loads(json.dumps(GAME.public_view(state)))
    assert data["public"]["over"] is True
    assert "seed" not in json.dumps(data["public"]["options"])


def test_cli_replay_refuses_garbage(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    out = subprocess.run([sys.executable, "-c", "from companion.cli import main; main()",
                          "replay", str(path)], capture_output=True, text=True, check=False)
    assert out.returncode != 0 and "cannot read" in out.stderr

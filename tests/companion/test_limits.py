"""Bounds at every door (issue 10): absurd numbers, huge strings, deep nesting, extra junk,
over a real socket and through the import, are refused and change nothing."""
from __future__ import annotations

import io
import json

import pytest

from companion import context
from companion.server import limits
from engine.api import Refused
from tests.companion.conftest import Spy, create_game, csrf
from tests.waiting import PATIENCE


@pytest.mark.parametrize("value, code", [
    (10**400, "bad_value"), (-(10**100), "bad_value"), (float("nan"), "bad_value"),
    ("x" * 10_000, "too_big"), (list(range(1000)), "too_big"),
    (json.loads("[" * 50 + "]" * 50), "too_big"), ({1: 2}, "bad_value"), (b"raw", "bad_value"),
])
def test_absurd_shapes_are_refused(value, code):
    with pytest.raises(Refused) as refused:
        limits.check_action({"type": "adjust", "value": value})
    assert refused.value.code == code


def test_a_normal_action_passes():
    limits.check_action({"type": "play_card", "by": "N", "card": "grain",
                         "params": {"project": "bridge", "stone": 1, "wood": 0}})


def test_socket_and_import_doors_refuse_absurd_input(app, client, live):
    service = context.of(app).service
    game_id = create_game(client)
    host = Spy(live.url, {"role": "host", "game": game_id,
                          "host_token": service.access.new_host_token(game_id)})
    try:
        before = json.dumps(service.get(game_id).state, sort_keys=True)
        for delta in (10**400, 10**100, 10**4299):
            ack = host.call("host", {"op": "adjust", "seat": "A", "item": "coins",
                                     "delta": delta, "reason": "x"})
            assert not ack["ok"] and ack["code"] == "bad_value"
        ack = host.call("act", {"action": {"type": "roll", "value": 3, "junk": "x" * 60_000}})
        assert not ack["ok"] and ack["code"] == "too_big"
        assert json.dumps(service.get(game_id).state, sort_keys=True) == before
        assert host.got_view.wait(PATIENCE)  # the game still encodes and serves views
    finally:
        host.close()
    record = client.get(f"/games/{game_id}/record.json").get_json()
    token = csrf(client)
    games = len(service.all())
    for bad in ({"version": True}, {"setup": dict(record["setup"], seed=True)},
                {"setup": dict(record["setup"], demo=True)},
                {"setup": dict(record["setup"], players=[{"seat": "A", "name": "n" * 1_000_000},
                                                         {"seat": "B", "name": "B"}])},
                {"setup": dict(record["setup"], players=[{"seat": "A", "name": {"x": 1}},
                                                         {"seat": "B", "name": "B"}])},
                {"actions": [{"type": "roll", "by": "table", "value": 10**400}]}):
        data = {"csrf_token": token, "host_pin": "1357",
                "record": (io.BytesIO(json.dumps(dict(record, **bad)).encode()), "r.json")}
        response = client.post("/games/import", data=data, content_type="multipart/form-data")
        assert response.status_code == 400, bad.keys()
    assert len(service.all()) == games

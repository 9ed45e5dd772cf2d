"""Socket.IO with real clients over a real socket (the toy test game: per-seat secrets)."""
from __future__ import annotations

import pytest
import socketio

from companion import context
from tests.companion.conftest import Spy, create_game, csrf
from tests.waiting import PATIENCE, wait_for


def seat_token(app, game_id, seat):
    service = context.of(app).service
    return service.access.claim_seat(game_id, seat, service.store.join_codes(game_id)[seat])


def host_token(app, game_id):
    return context.of(app).service.access.new_host_token(game_id)


@pytest.fixture
def table(app, client, live):
    """A game with table, host and one spy per seat connected."""
    game_id = create_game(client)
    table_token = context.of(app).service.access.new_table_token(game_id)
    spies = {"table": Spy(live.url, {"role": "table", "game": game_id, "lang": "en",
                                      "table_token": table_token}),
             "host": Spy(live.url, {"role": "host", "game": game_id,
                                    "host_token": host_token(app, game_id)})}
    for seat in "ABC":
        spies[seat] = Spy(live.url, {"role": "seat", "game": game_id,
                                     "token": seat_token(app, game_id, seat)})
    for spy in spies.values():
        assert spy.got_view.wait(PATIENCE)
    yield game_id, spies
    for spy in spies.values():
        spy.close()


def test_connect_refuses_unproven_identities(app, client, live):
    game_id = create_game(client)
    bad = [{"role": "seat", "game": game_id, "token": "forged"},
           {"role": "seat", "game": game_id},
           {"role": "host", "game": game_id, "host_token": seat_token(app, game_id, "A")},
           {"role": "table", "game": "no-such-game"},
           {"role": "god", "game": game_id}]
    for auth in bad:
        sio = socketio.Client(reconnection=False)
        with pytest.raises(socketio.exceptions.ConnectionError):
            sio.connect(live.url, auth=auth, transports=["websocket"], wait_timeout=5)


def test_seat_token_cookie_is_accepted(app, client, live):
    game_id = create_game(client)
    token = seat_token(app, game_id, "B")
    spy = Spy(live.url, {"role": "seat", "game": game_id},
              headers={"Cookie": f"tc_seat_{game_id}={token}"})
    try:
        assert spy.got_view.wait(PATIENCE)
        assert spy.views[-1]["seat"] == "B"
        assert "hand" in spy.views[-1]["view"]
    finally:
        spy.close()


def test_each_recipient_gets_its_own_view(app, table):
    game_id, spies = table
    state = context.of(app).service.get(game_id).state
    for seat in "ABC":
        view = spies[seat].views[-1]
        assert view["role"] == "seat" and view["seat"] == seat
        assert view["view"]["hand"] == state["hands"][seat]
        assert view["choices"], "a seat gets its choices"
    for role in ("table", "host"):
        view = spies[role].views[-1]
        assert "hand" not in view["view"] and view["choices"] == [] and view["seat"] is None
    assert spies["host"].views[-1]["host"]["can_undo"] == 0
    spies["table"].wait_for(lambda v: all(p["connected"] for p in v["players"]))
    seen = len(spies["table"].views)
    spies["C"].close()  # presence: the others see C go
    gone = spies["table"].wait_for(lambda v: not all(p["connected"] for p in v["players"]),
                                   since=seen)
    assert [p["seat"] for p in gone["players"] if not p["connected"]] == ["C"]


def test_act_ack_after_commit_and_everyone_updated(app, table, tmp_path):
    game_id, spies = table
    card = spies["A"].views[-1]["view"]["hand"][0]
    ack = spies["A"].call("act", {"action": {"type": "play", "card": card}})
    assert ack == {"ok": True, "version": 1}
    store = context.of(app).service.store
    assert store.actions(game_id)[-1]["action"]["card"] == card  # on disk when acked
    for spy in spies.values():
        view = spy.wait_version(1)
        assert card in view["view"]["played"]
    assert any("played" in e["text"] for e in spies["table"].views[-1]["log"])


def test_a_seat_cannot_act_for_another(app, table):
    game_id, spies = table
    card = spies["A"].views[-1]["view"]["hand"][0]
    # B claims to be A: the server sets "by" from B's proven identity, so it is B's move
    ack = spies["B"].call("act", {"action": {"type": "play", "by": "A", "card": card}})
    assert ack["ok"] is False and ack["code"] == "not_your_turn"
    assert ack["message"] == "It is not Ann's turn."
    assert context.of(app).service.get(game_id).version == 0


def test_refusals_are_translated_per_recipient(app, table):
    game_id, spies = table
    assert spies["B"].call("set_lang", {"lang": "de"}) == {"ok": True}
    ack = spies["B"].call("act", {"action": {"type": "roll", "value": 9}})
    assert ack["ok"] is False and ack["code"] == "bad_value"
    assert "9" in ack["message"]
    bad = spies["B"].call("act", "garbage")
    assert bad["ok"] is False and bad["code"] == "bad_request"


def test_host_ops(app, table):
    game_id, spies = table
    service = context.of(app).service
    card = spies["A"].views[-1]["view"]["hand"][0]
    assert spies["A"].call("act", {"action": {"type": "play", "card": card}})["ok"]
    # only the host may use host ops
    assert spies["A"].call("host", {"op": "undo"})["code"] == "not_host"
    assert spies["host"].call("host", {"op": "pause"})["ok"]
    assert spies["table"].wait_for(lambda v: v["paused"])["version"] == 1
    refused = spies["B"].call("act", {"action": {"type": "roll", "value": 3}})
    assert refused["code"] == "game_paused"
    assert spies["host"].call("host", {"op": "resume"})["ok"]
    seen = len(spies["A"].views)
    assert spies["host"].call("host", {"op": "undo", "count": 1}) == {"ok": True, "version": 0}
    assert card in spies["A"].wait_for(lambda v: v["version"] == 0, since=seen)["view"]["hand"]
    assert service.store.actions(game_id, include_undone=True)[0]["undone_at"]
    assert spies["host"].call("host", {"op": "undo"})["code"] == "nothing_to_undo"
    coins = service.get(game_id).state["coins"]["C"]
    ack = spies["host"].call("host", {"op": "adjust", "seat": "C", "item": "coins",
                                      "delta": -5, "reason": "miscount"})
    assert ack["ok"]
    assert service.get(game_id).state["coins"]["C"] == coins - 5
    assert service.store.actions(game_id)[-1]["action"]["by"] == "host"
    assert spies["host"].call("host", {"op": "end"})["ok"]
    # `closed` follows the last view on C's own socket
    wait_for(lambda: any(event == "closed" for event, _ in spies["C"].messages), what="closed")
    events = [event for event, _ in spies["C"].messages]
    assert "closed" in events and events[events.index("closed") - 1] in ("view", "patch")
    assert spies["C"].views[-1]["closed"] is True
    assert spies["A"].call("act", {"action": {"type": "roll", "value": 3}})["code"] == \
        "game_closed"
    assert service.store.game(game_id)["status"] == "finished"
    assert service.store.game(game_id)["result"]


def test_host_login_then_socket(app, client, live):
    game_id = create_game(client, pin="8642")
    other = app.test_client()
    token = other.post(f"/host/{game_id}/login", json={"pin": "8642"},
                       headers={"X-CSRF-Token": csrf(other)}).get_json()["host_token"]
    spy = Spy(live.url, {"role": "host", "game": game_id, "host_token": token})
    try:
        assert spy.got_view.wait(PATIENCE) and spy.views[-1]["role"] == "host"
    finally:
        spy.close()


def test_new_join_code_signs_out_the_old_phones(app, client, live):
    game_id = create_game(client)
    service = context.of(app).service
    old_code = service.store.join_codes(game_id)["A"]
    old_token = seat_token(app, game_id, "A")
    old_phone = Spy(live.url, {"role": "seat", "game": game_id, "token": old_token})
    host = Spy(live.url, {"role": "host", "game": game_id,
                          "host_token": host_token(app, game_id)})
    try:
        assert old_phone.got_view.wait(PATIENCE)
        assert host.call("host", {"op": "new_join_code", "seat": "A"})["ok"]
        assert host.call("host", {"op": "new_join_code", "seat": "Q"})["code"] == "unknown_seat"
        # the connected old phone is sent away
        wait_for(lambda: not old_phone.sio.connected, what="the old phone sent away")
    finally:
        host.close()
        old_phone.close()
    new_code = service.store.join_codes(game_id)["A"]
    assert new_code != old_code
    sio = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        sio.connect(live.url, auth={"role": "seat", "game": game_id, "token": old_token},
                    transports=["websocket"], wait_timeout=5)
    phone = app.test_client()
    assert phone.get(f"/join/{game_id}/A?code={old_code}").status_code == 403
    assert phone.get(f"/join/{game_id}/A?code={new_code}").status_code == 303

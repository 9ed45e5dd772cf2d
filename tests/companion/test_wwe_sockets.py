"""World Without End over real sockets: the turning-card preview, a whole game's end state,
and the hardware status in every view."""
from __future__ import annotations

import json
import random

import pytest
import socketio

from companion import context
from companion.game.service import Identity
from engine.api import Refused
from engine.wwe import GAME
from tests.companion.conftest import Spy
from tests.companion.test_privacy import new_wwe_game
from tests.waiting import PATIENCE


def seat_spies(server, service, game_id: str, seats) -> dict:
    """A real socket for each seat, its phone signed in with the seat's join code."""
    codes = service.store.join_codes(game_id)
    return {seat: Spy(server.url, {"role": "seat", "game": game_id,
                                   "token": service.access.claim_seat(game_id, seat, codes[seat])})
            for seat in seats}


def turn(rotation):
    return {"action": {"type": "orient_event", "rotation": rotation}}


def advance_to(service, game_id, kind, rnd):
    live = service.get(game_id)
    while GAME.prompts(live.state)[0].kind != kind:
        action = GAME.random_action(live.state, rnd)
        by = action["by"]
        who = Identity("seat", game_id, by) if by in live.seats else Identity("table", game_id)
        service.act(who, action)
    return GAME.prompts(live.state)[0]


def test_turning_card_preview_goes_to_everyone_then_clears(games_live):
    app, server = games_live
    service = context.of(app).service
    game_id = new_wwe_game(app.test_client(), ("N", "E", "S", "W"))
    prompt = advance_to(service, game_id, "orient_event", random.Random(5))
    spies = seat_spies(server, service, game_id, ("N", "E", "S", "W"))
    spies["table"] = Spy(server.url, {"role": "table", "game": game_id,
                                      "table_token": service.access.new_table_token(game_id)})
    try:
        other = next(s for s in ("N", "E", "S", "W") if s != prompt.seat)
        assert spies[other].call("preview", turn(1))["code"] == "not_your_turn"
        assert spies[prompt.seat].call("preview", turn(7))["code"] == "bad_action"
        assert spies[prompt.seat].call("preview", turn(2))["ok"]
        version = service.get(game_id).version
        full = next(c.effect for c in GAME.choices(service.get(game_id).state, prompt.seat)
                    if c.action.get("rotation") == 2)
        for spy in spies.values():
            preview = spy.wait_for(lambda v: v["preview"] is not None)["preview"]
            # everyone sees the favor move and every seat's income, nothing private
            assert preview == {"rotation": 2, "seat": prompt.seat, "effect": full["public"],
                               "action": {"type": "orient_event", "by": prompt.seat,
                                          "rotation": 2}}
            assert "favor_gain" not in preview["effect"]
            assert set(preview["effect"]) == {"favor", "space", "income"}
        ack = spies[prompt.seat].call("act", {"action": {"type": "orient_event",
                                                         "rotation": 2}})
        assert ack == {"ok": True, "version": version + 1}
        assert spies["table"].wait_version(version + 1)["preview"] is None
    finally:
        for spy in spies.values():
            spy.close()


def test_hardware_status_is_in_every_view(games_live):
    app, server = games_live
    game_id = new_wwe_game(app.test_client(), ("N", "S"))
    spy = Spy(server.url, {"role": "viewer", "game": game_id})
    try:
        assert spy.got_view.wait(PATIENCE)
        hardware = spy.views[-1]["hardware"]
        assert set(hardware) == {"camera", "dice", "table"}  # table: where the hardware is
        assert all("state" in hardware[part] for part in ("camera", "dice"))
        assert hardware["table"]["here"] is True and hardware["table"]["message"] == ""
    finally:
        spy.close()
    health = app.test_client().get("/healthz").get_json()
    assert health["ok"] and set(health["hardware"]) == {"camera", "dice"}


def test_finished_game_is_listed_with_its_result(games_app):
    app = games_app
    service = context.of(app).service
    client = app.test_client()
    game_id = new_wwe_game(client, ("E", "W"))
    live = service.get(game_id)
    rnd = random.Random(2)
    while live.status != "finished":
        action = GAME.random_action(live.state, rnd)
        by = action["by"]
        service.act(Identity("seat", game_id, by) if by in live.seats
                    else Identity("table", game_id), action)
    result = service.store.game(game_id)["result"]
    assert result == GAME.scores(live.state) and all(r.get("final") for r in result)
    index = client.get("/").get_data(as_text=True)
    assert game_id in index
    with pytest.raises(Refused) as caught:  # a finished game refuses further actions
        service.act(Identity("table", game_id), {"type": "roll_tax", "value": 3})
    assert caught.value.code == "game_closed"


def test_host_correction_is_an_engine_action_in_the_log(games_live):
    app, server = games_live
    service = context.of(app).service
    game_id = new_wwe_game(app.test_client(), ("N", "E"))
    token = service.access.claim_seat(game_id, "N", service.store.join_codes(game_id)["N"])
    phone = Spy(server.url, {"role": "seat", "game": game_id, "token": token})
    host = Spy(server.url, {"role": "host", "game": game_id,
                            "host_token": service.access.new_host_token(game_id)})
    try:
        stone = phone.wait_version(0)["view"]["private"]["resources"]["stone"]
        ack = host.call("host", {"op": "adjust", "seat": "N", "item": "stone", "delta": 2,
                                 "reason": "miscount"})
        assert ack == {"ok": True, "version": 1}
        view = phone.wait_version(1)
        assert view["view"]["private"]["resources"]["stone"] == stone + 2
        texts = [entry["text"] for entry in host.wait_version(1)["log"]]
        assert any("Ann" in t and "miscount" in t for t in texts), texts
        assert service.store.actions(game_id)[-1]["action"] == {
            "type": "adjust", "by": "host", "seat": "N", "item": "stone", "delta": 2,
            "reason": "miscount"}
        # a seat cannot send host corrections
        assert phone.call("host", {"op": "adjust", "seat": "N", "item": "stone",
                                   "delta": 5, "reason": "x"})["code"] == "not_host"
    finally:
        phone.close()
        host.close()


def test_the_table_display_cannot_correct_and_a_viewer_cannot_act(games_live):
    """Issue 9/10: the paired table records only what the table records; corrections need
    the host; an unpaired screen only watches. Every refusal leaves the state as it was."""
    import json

    app, server = games_live
    service = context.of(app).service
    game_id = new_wwe_game(app.test_client(), ("N", "E", "S", "W"))
    prompt = advance_to(service, game_id, "play_card", random.Random(2))
    table = Spy(server.url, {"role": "table", "game": game_id,
                             "table_token": service.access.new_table_token(game_id)})
    viewer = Spy(server.url, {"role": "viewer", "game": game_id})
    with pytest.raises(socketio.exceptions.ConnectionError):  # no table secret
        Spy(server.url, {"role": "table", "game": game_id})
    try:
        assert table.got_view.wait(PATIENCE) and viewer.got_view.wait(PATIENCE)
        before = json.dumps(service.get(game_id).state, sort_keys=True)
        host_only = [{"type": "adjust", "seat": "N", "item": "vp", "delta": 50, "reason": "x"},
                     {"type": "set_start_player", "seat": "E"}]
        seat_actions = [{"type": "play_card", "card": "grain", "discard": None, "params": {}},
                        {"type": "orient_event", "rotation": 1}]
        for action in host_only:
            assert table.call("act", {"action": action})["code"] == "host_only"
        for action in seat_actions:
            assert table.call("act", {"action": action})["code"] == "not_for_table"
        for action in host_only + seat_actions:
            assert viewer.call("act", {"action": action})["code"] == "not_paired"
        assert viewer.call("preview", turn(1))["code"] == "not_your_turn"
        assert json.dumps(service.get(game_id).state, sort_keys=True) == before
        assert GAME.prompts(service.get(game_id).state)[0] == prompt
        codes = service.store.join_codes(game_id).values()
        assert not any(code in json.dumps(viewer.views) for code in codes)
    finally:
        for spy in (table, viewer):
            spy.close()


def test_a_preview_flood_reaches_no_phone(games_live):
    """Issue 10: a flood of previews, from a viewer or from the seat itself, does not make
    the phones redraw for each message."""
    app, server = games_live
    service = context.of(app).service
    game_id = new_wwe_game(app.test_client(), ("N", "E", "S", "W"))
    prompt = advance_to(service, game_id, "orient_event", random.Random(5))
    spies = seat_spies(server, service, game_id, ("N", "E", "S", "W"))
    viewer = Spy(server.url, {"role": "viewer", "game": game_id})
    try:
        for spy in spies.values():
            assert spy.got_view.wait(PATIENCE)
        other = next(s for s in spies if s != prompt.seat)
        before = len(spies[other].views)
        answers = [viewer.call("preview", turn(i % 4))["code"] for i in range(50)]
        assert set(answers) == {"not_your_turn"}
        oks = sum(spies[prompt.seat].call("preview", turn(i % 4)).get("ok", False)
                  for i in range(100))
        assert oks < 100  # most of a flood is refused (rate_limited) at once
        assert len(spies[other].views) - before <= oks + 1
    finally:
        for spy in (*spies.values(), viewer):
            spy.close()


def test_refusals_tell_the_host_and_the_table_no_seat_s_counts(games_live):
    """Issue 10: a host correction that would go below zero, or any refusal carrying a seat's
    own count, reaches someone who is not that seat without the count."""
    from companion.game import views
    from engine.api import Refused as EngineRefused

    app, server = games_live
    service = context.of(app).service
    game_id = new_wwe_game(app.test_client(), ("N", "E"))
    gold = service.get(game_id).state["players"]["E"]["res"]["gold"]
    host = Spy(server.url, {"role": "host", "game": game_id,
                            "host_token": service.access.new_host_token(game_id)})
    try:
        ack = host.call("host", {"op": "adjust", "seat": "E", "item": "gold", "delta": -1000,
                                 "reason": "probe"})
        assert ack["code"] == "correction_below_zero"
        assert str(gold) not in json.dumps(ack["params"]) and "have" not in ack["params"]
    finally:
        host.close()
    live = service.get(game_id)
    refusal = EngineRefused("cannot_afford", item="gold", need=5, have=2)
    with app.test_request_context():
        for role in ("host", "table", "viewer"):
            assert "have" not in views.refused_json(live, "en", refusal, role)["params"]
        assert views.refused_json(live, "en", refusal, "seat")["params"]["have"] == 2


def test_a_decision_out_of_turn_is_refused_in_the_phone_s_words(games_live):
    """A tap that arrives after the game moved on (another phone was quicker) is refused
    naming both decisions as the phone names them, in the phone's language: never the
    engine's `reveal_event` / `orient_event`."""
    from companion.game import views

    app, _server = games_live
    service = context.of(app).service
    game_id = new_wwe_game(app.test_client(), ("N", "E"))
    live = service.get(game_id)
    with pytest.raises(Refused) as refused:
        GAME.apply(live.state, {"type": "orient_event", "by": "N", "rotation": 0})
    assert refused.value.code == "wrong_phase"
    with app.test_request_context():
        messages = {lang: views.refused_json(live, lang, refused.value, "seat")["message"]
                    for lang in ("en", "pl", "it")}
    assert messages["en"] == ("Now the game expects “Reveal the event card”, not “Turn the "
                              "event card”.")
    assert messages["pl"] == "Gra czeka teraz na „Odkryj kartę wydarzenia”, nie na „Obróć " \
                             "kartę wydarzenia”."
    assert all("_" not in m for m in messages.values()), messages

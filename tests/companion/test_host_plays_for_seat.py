"""The host plays a seat's turn when the seat has no phone (issue 69, point 1), over real
sockets with the toy game (per-seat secret hands): the host's screen of that seat gets its
private view and may act as it; the log and the record say the host played; no other seat,
the table, a watcher or the host's own page ever gets that seat's secrets; a non-host cannot
do it; the seat's own phone takes its screen back."""
from __future__ import annotations

import pytest
import socketio

from companion import context
from tests.companion.conftest import Spy, create_game
from tests.companion.test_sockets import host_token, seat_token
from tests.waiting import PATIENCE, wait_for


def secrets_of(app, game_id, seat) -> list[str]:
    """The seat's secret cards now and every card it ever drew (its private events)."""
    live = context.of(app).service.get(game_id)
    drawn = [e["card"] for _s, _a, e in live.log if e.get("private") == seat]
    return list(live.state["hands"][seat]) + drawn


def leaks(spy: Spy, secrets: list[str]) -> list[str]:
    text = repr(spy.messages)
    return [s for s in secrets if s in text]


@pytest.fixture
def room(app, client, live):
    """A toy game (A, B, C; A starts): A and C on their phones, B has none; the table, a
    watcher and the host's page connected."""
    game_id = create_game(client)
    service = context.of(app).service
    spies = {"table": Spy(live.url, {"role": "table", "game": game_id, "lang": "en",
                                      "table_token": service.access.new_table_token(game_id)}),
             "viewer": Spy(live.url, {"role": "viewer", "game": game_id}),
             "host": Spy(live.url, {"role": "host", "game": game_id,
                                    "host_token": host_token(app, game_id)})}
    for seat in "AC":
        spies[seat] = Spy(live.url, {"role": "seat", "game": game_id,
                                     "token": seat_token(app, game_id, seat)})
    for spy in spies.values():
        assert spy.got_view.wait(PATIENCE)
    yield game_id, spies
    for spy in spies.values():
        spy.close()


def test_the_host_plays_for_a_seat_without_a_phone(app, live, room):
    game_id, spies = room
    service = context.of(app).service
    ack = spies["A"].call("act", {"action": {"type": "play",
                                             "card": spies["A"].views[-1]["view"]["hand"][0]}})
    assert ack["ok"], ack
    # B's turn, no phone: every screen says B has none
    view = spies["table"].wait_version(1)
    assert {p["seat"]: p["connected"] for p in view["players"]} == {
        "A": True, "B": False, "C": True}
    assert [p["seat"] for p in view["prompts"]] == ["B"]

    for_b = Spy(live.url, {"role": "seat", "game": game_id, "for_seat": "B",
                           "host_token": host_token(app, game_id)})
    try:
        assert for_b.got_view.wait(PATIENCE)
        mine = for_b.views[-1]
        assert mine["seat"] == "B" and mine["by_host"] is True
        hand = mine["view"]["hand"]
        assert hand == service.get(game_id).state["hands"]["B"]  # B's private screen
        # the host playing is not B's phone: still "no phone", but "the host plays"
        table = spies["table"].wait_for(lambda v: any(p["host_plays"] for p in v["players"]))
        assert [(p["seat"], p["connected"]) for p in table["players"]
                if p["host_plays"]] == [("B", False)]

        ack = for_b.call("act", {"action": {"type": "play", "card": hand[0]}})
        assert ack["ok"], ack
        live_game = service.get(game_id)
        assert live_game.state["played"][-1] == hand[0]
        stored = service.store.actions(game_id)[-1]
        assert stored["action"]["by"] == "B"  # the rules see B's move
        assert stored["events"][0] == {"type": "played_by_host", "seat": "B"}
        # the log says so, to everyone, in their language
        log = spies["table"].wait_version(2)["log"]
        texts = [e["text"] for e in log]
        assert "Move played by the host for Bob." in texts, texts
        assert texts.index("Move played by the host for Bob.") < len(texts) - 1
        record = service.record(game_id)
        assert record["played_by_host"] == [2]  # the record says which, and keeps it
        again = service.import_record(record, "2468")
        assert [e["type"] for _s, _a, e in again.log][:3] == ["played", "drew", "played_by_host"]
        assert service.record(again.id)["played_by_host"] == [2]

        for_b.sio.emit("set_lang", {"lang": "it"})
        wait_for(lambda: for_b.views[-1]["lang"] == "it", PATIENCE, what="Italian")
        spies["C"].wait_version(2)
        it_host = Spy(live.url, {"role": "host", "game": game_id, "lang": "it",
                                 "host_token": host_token(app, game_id)})
        try:
            assert it_host.got_view.wait(PATIENCE)
            assert "Mossa giocata dall'host per Bob." in [
                e["text"] for e in it_host.views[-1]["log"]]
        finally:
            it_host.close()

        secrets = secrets_of(app, game_id, "B")
        assert len(secrets) >= 4
        for name in ("table", "viewer", "host", "A", "C"):  # nobody else ever got them
            assert leaks(spies[name], secrets) == [], name
        assert leaks(for_b, secrets)  # (the check can see a secret where there is one)
    finally:
        for_b.close()


def test_only_the_host_may_play_for_a_seat(app, client, live, room):
    game_id, _spies = room
    a_token = seat_token(app, game_id, "B")  # even B's own token is no host's
    bad = [{"role": "seat", "game": game_id, "for_seat": "B"},
           {"role": "seat", "game": game_id, "for_seat": "B", "host_token": "forged"},
           {"role": "seat", "game": game_id, "for_seat": "B", "host_token": a_token},
           {"role": "seat", "game": game_id, "for_seat": "B", "token": a_token},
           {"role": "seat", "game": game_id, "for_seat": "Z",
            "host_token": host_token(app, game_id)}]
    for auth in bad:
        sio = socketio.Client(reconnection=False)
        with pytest.raises(socketio.exceptions.ConnectionError):
            sio.connect(live.url, auth=auth, transports=["websocket"], wait_timeout=5)
    # the page too: without the host cookie, the PIN first (the host's browser gets it)
    assert client.get(f"/host/{game_id}/play/B").status_code == 200
    response = app.test_client().get(f"/host/{game_id}/play/B")
    assert response.status_code == 303 and response.headers["Location"].endswith(
        f"/host/{game_id}")


def test_a_seat_with_its_phone_is_its_players(app, live, room):
    """The host never opens the screen of a seat whose phone is connected, and the seat's
    phone coming back closes the host's screen of it."""
    game_id, spies = room
    sio, why = socketio.Client(reconnection=False), []
    sio.on("connect_error", why.append)
    with pytest.raises(socketio.exceptions.ConnectionError):
        sio.connect(live.url, auth={"role": "seat", "game": game_id, "for_seat": "A",
                                    "host_token": host_token(app, game_id)},
                    transports=["websocket"], wait_timeout=5)
    assert "seat_has_phone" in repr(why), why
    for_b = Spy(live.url, {"role": "seat", "game": game_id, "for_seat": "B",
                           "host_token": host_token(app, game_id)})
    try:
        assert for_b.got_view.wait(PATIENCE)
        phone = Spy(live.url, {"role": "seat", "game": game_id,
                               "token": seat_token(app, game_id, "B")})
        try:
            wait_for(lambda: not for_b.sio.connected, PATIENCE, what="the host's screen closed")
            view = spies["table"].wait_for(lambda v: {p["seat"]: p["connected"]
                                                      for p in v["players"]}["B"])
            assert not any(p["host_plays"] for p in view["players"])
        finally:
            phone.close()
    finally:
        for_b.close()

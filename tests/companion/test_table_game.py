"""The hardware belongs to the game at the table (AccessService.at_table): two games in play,
the table moved between them by the host, a real dice reader (the emulator over a pty) and
real Socket.IO clients. Readings go to the game at the table only, and every screen of the
other game says where the camera and dice are and how to move them; the choice survives a
restart."""
from __future__ import annotations

from companion import context
from companion.app import create_app
from companion.server.settings import DiceSettings
from companion.wiring import dice as wiring
from tests.companion.conftest import Spy
from tests.companion.test_dice_wiring import play_live_to_tax
from tests.waiting import wait_for

PLAYERS = [{"seat": s, "name": n} for s, n in zip("NESW", ("Anna", "Bruno", "Chiara", "Dario"),
                                                  strict=True)]


def seat_spy(url, service, game_id, seat, lang="en") -> Spy:
    token = service.access.claim_seat(game_id, seat, service.store.join_codes(game_id)[seat])
    return Spy(url, {"role": "seat", "game": game_id, "lang": lang, "token": token})


def step(view: dict, kind: str) -> dict:
    return next(s for s in view["steps"] if s["kind"] == kind)


def test_readings_go_to_the_game_at_the_table_and_the_other_game_says_where(games_live,
                                                                             tmp_path):
    app, server = games_live
    service = context.of(app).service
    wwe = service.create("wwe", {"players": PLAYERS, "seed": 5}, "2468")
    play_live_to_tax(service, wwe)
    mon = service.create("monasterium", {"players": PLAYERS[:2]}, "2468")
    assert service.access.at_table() is mon  # the game set up last is the one at the table
    wwe_title = wwe.kind.title["en"]
    mon_title = mon.kind.title["en"]

    manager = context.of(app).hardware
    handle = wiring.DiceWiring(service, manager.changed,
                               DiceSettings(emulate="on", emulator_http_port=0),
                               app.config["DATA_DIR"])
    manager.dice = handle.start()
    spies = []
    try:
        wait_for(lambda: handle.status()["state"] == "ok", what="emulated reader connected")
        anna = seat_spy(server.url, service, wwe.id, "N")
        anna_de = seat_spy(server.url, service, wwe.id, "E", lang="de")
        mon_phone = seat_spy(server.url, service, mon.id, "N")
        spies += [anna, anna_de, mon_phone]

        # the table is Monasterium's: a roll of every die goes to Monasterium's first roll,
        # not to World Without End's tax (due too)
        version = wwe.version
        at_mon = mon_phone.wait_for(lambda v: v["hardware"]["dice"]["state"] == "ok")
        assert at_mon["hardware"]["table"] == dict(at_mon["hardware"]["table"], here=True,
                                                   message="")
        assert step(at_mon, "roll")["devices"][0]["present"] is True
        handle.emulator.roll({"tax": 3})
        wait_for(lambda: handle.status()["rolls_seen"] == 1, what="the roll handled")
        assert wwe.version == version and mon.version == 1
        assert handle.status()["last_applied"]["game"] == mon.id

        # World Without End's phones say where the dice reader is, and promise no reading
        seen = anna.wait_for(lambda v: v["hardware"]["dice"]["state"] == "elsewhere")
        where = seen["hardware"]["table"]
        assert (where["here"], where["game"]) == (False, mon.id)
        assert mon_title in where["message"] and "Play this game at the table" in where["message"]
        assert "Anna, Bruno" in where["message"]
        (device,) = step(seen, "roll_tax")["devices"]
        assert device["present"] is False and device["elsewhere"] is True
        assert mon_title in device["text"] and "records the roll" not in device["text"][:25]
        german = anna_de.wait_for(lambda v: v["hardware"]["dice"]["state"] == "elsewhere")
        assert mon.kind.title["de"] in german["hardware"]["table"]["message"]
        assert german["hardware"]["table"]["message"] != where["message"]

        # the host of World Without End takes the table, with the word of Monasterium's
        # host (its PIN): without it, or with a wrong one, nothing moves
        host = Spy(server.url, {"role": "host", "game": wwe.id, "lang": "en",
                                "host_token": service.access.new_host_token(wwe.id)})
        spies.append(host)
        ack = host.sio.call("host", {"op": "take_table"}, timeout=10)
        assert (ack["ok"], ack["code"]) == (False, "table_taken"), ack
        assert "Only its host moves them" in ack["message"]
        ack = host.sio.call("host", {"op": "take_table", "pin": "1357"}, timeout=10)
        assert (ack["ok"], ack["code"]) == (False, "wrong_pin"), ack
        assert service.access.at_table() is mon
        ack = host.sio.call("host", {"op": "take_table", "pin": "2468"}, timeout=10)
        assert ack["ok"] is True
        assert service.access.at_table() is wwe
        back = anna.wait_for(lambda v: v["hardware"]["dice"]["state"] == "ok")
        assert back["hardware"]["table"]["here"] is True and not back["hardware"]["table"][
            "message"]
        assert step(back, "roll_tax")["devices"][0]["present"] is True
        away = mon_phone.wait_for(lambda v: v["hardware"]["dice"]["state"] == "elsewhere")
        assert wwe_title in away["hardware"]["table"]["message"]
        assert away["hardware"]["table"]["game"] == wwe.id

        handle.emulator.roll({"tax": 3})  # now it reaches World Without End
        wait_for(lambda: wwe.version == version + 1, what="the tax recorded")
        assert {"type": "roll_tax", "by": "table", "value": 3} in [a for _, a, _ in wwe.log]
        assert mon.version == 1
    finally:
        for spy in spies:
            spy.close()
        handle.stop()
        manager.dice = None

    # the choice is on disk: a restart keeps the table where the host put it
    again = create_app({"DATA_DIR": app.config["DATA_DIR"], "TESTING": True})
    try:
        assert context.of(again).service.access.at_table().id == wwe.id
    finally:
        context.of(again).service.store.close()


def test_a_refused_move_changes_nothing(games_app):
    service = context.of(games_app).service
    first = service.create("wwe", {"players": PLAYERS, "seed": 5}, "2468")
    second = service.create("wwe", {"players": PLAYERS, "seed": 6}, "2468")
    service.end(first.id)
    try:
        service.access.move_table(first.id)
    except Exception as exc:  # noqa: BLE001 (the refusal's code is what matters)
        assert getattr(exc, "code", None) == "game_closed"
    else:
        raise AssertionError("a finished game was put at the table")
    assert service.access.at_table() is second
    service.end(second.id)
    assert service.access.at_table() is None and service.access.current() is None  # nothing guessed

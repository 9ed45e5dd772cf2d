"""Issue 45 §5: while the dice reader or the table camera reads the rolls, a phone enters only
the dice it is asked for, and only while it is asked. Seat N sending
``act {"type": "roll", "by": "N", "faces": {...all sixes...}}`` is refused in its language
and nothing is recorded; with the phones as the source (or a reader that cannot read) the
same message is the player's roll. Real server, real Socket.IO clients, a real serial reader
on a pty (the emulator), the camera's tray read from rendered frames."""
from __future__ import annotations

from companion import context
from companion.game.service import Identity
from companion.server.settings import DiceSettings
from companion.wiring import camera_dice
from companion.wiring import dice as wiring
from engine.api import Refused
from hardware.dice.observations import Roll
from tests.companion.test_camera_dice_wiring import PLAYERS, RunningCamera, host_spy, seat_spy
from tests.companion.test_dice_wiring import play_live_to_tax
from tests.companion.test_text_doors import tracebacks
from tests.waiting import wait_for

ALL_SIXES = {die: 6 for die in ("N1", "n1", "n2", "n3", "n4", "n5")}


def anna_rolls(anna) -> dict:
    """The issue's message: Anna (seat N, whose dice are to be rolled) enters all sixes."""
    return anna.call("act", {"action": {"type": "roll", "by": "N", "faces": ALL_SIXES}})


def monasterium_wired(app, settings: DiceSettings):
    """A Monasterium game (Anna N, Bruno E) at the table and the dice wiring the server
    starts (`DiceWiring.start`: its gate on the service included): (service, game, wiring)."""
    service = context.of(app).service
    mon = service.create("monasterium", {"players": PLAYERS, "seed": 1}, "2468")
    manager = context.of(app).hardware
    handle = wiring.DiceWiring(service, manager.changed, settings, app.config["DATA_DIR"])
    manager.dice = handle
    return service, mon, handle


def recorded(service, game_id) -> list:
    return [a["action"] for a in service.store.actions(game_id, include_undone=True)]


def test_a_phone_enters_no_roll_while_the_serial_reader_reads_it(games_live, caplog):
    app, server = games_live
    service, mon, handle = monasterium_wired(app, DiceSettings(emulate="on",
                                                               emulator_http_port=0))
    manager = context.of(app).hardware
    handle.start()
    spies = []
    try:
        wait_for(lambda: handle.status()["state"] == "ok", what="the reader connected")
        host = host_spy(server.url, service, mon.id)
        anna = seat_spy(server.url, service, mon.id, "N", lang="de")
        bruno = seat_spy(server.url, service, mon.id, "E")
        spies += [host, anna, bruno]
        manager.changed()
        seen = anna.wait_for(lambda v: v["hardware"]["dice"].get("reads"))
        assert seen["hardware"]["dice"]["source"] == "serial"

        answer = anna_rolls(anna)
        assert (answer["ok"], answer["code"]) == (False, "roll_read_by_serial"), answer
        assert "Würfelleser" in answer["message"] and "Nichts" in answer["message"]  # German
        answer = bruno.call("act", {"action": {"type": "roll", "faces": ALL_SIXES}})
        assert answer["ok"] is False
        assert mon.version == 0 and recorded(service, mon.id) == []  # nothing recorded

        # the table display and the host's fallback still may (the step's "or tap it in")
        assert handle.refuse_hand_roll(mon, Identity("table", mon.id), {"type": "roll"}) is None

        # the phones chosen as the source: the same message is Anna's roll
        assert host.call("host", {"op": "dice_source", "source": "phones"})["ok"]
        anna.wait_for(lambda v: v["hardware"]["dice"]["source"] == "phones"
                      and not v["hardware"]["dice"]["reads"])
        answer = anna_rolls(anna)
        assert answer["ok"] is True, answer
        assert recorded(service, mon.id) == [{"type": "roll", "by": "N", "faces": ALL_SIXES}]
    finally:
        for spy in spies:
            spy.close()
        handle.stop()
    assert handle.refuse_hand_roll not in service.gates  # a stopped reader refuses nothing
    assert not tracebacks(caplog)


def test_a_reader_that_cannot_read_lets_the_phone_enter_the_roll(games_live):
    """The serial reader chosen but none attached (a Pi without one): nothing records the
    roll by itself, so the rolling player's phone enters it, as the step line says."""
    app, server = games_live
    service, mon, handle = monasterium_wired(app, DiceSettings(port="/nonexistent"))
    handle.start()
    try:
        assert handle.status()["source"] == "serial" and handle.status()["reads"] is False
        anna = seat_spy(server.url, service, mon.id, "N")
        try:
            assert anna_rolls(anna)["ok"] is True
        finally:
            anna.close()
    finally:
        handle.stop()


def test_with_the_camera_a_phone_enters_only_the_die_it_is_asked_for(games_live, caplog):
    app, server = games_live
    service, mon, handle = monasterium_wired(app, DiceSettings(port="/nonexistent"))
    wiring.attach_camera(handle, service, RunningCamera())
    camera_dice.save_tray(handle.config_path, (0.0, 0.0, 480.0, 360.0))
    handle.start()
    spies = []
    try:
        handle.choose("camera")
        assert handle.status()["reads"] is True
        anna = seat_spy(server.url, service, mon.id, "N", lang="it")
        bruno = seat_spy(server.url, service, mon.id, "E")
        spies += [anna, bruno]
        answer = anna_rolls(anna)
        assert (answer["ok"], answer["code"]) == (False, "roll_read_by_camera"), answer
        assert "telecamera" in answer["message"]  # Italian
        assert mon.version == 0

        # the camera read all but one die: only Anna, only that die, only while it waits
        roll = Roll(1, {"blue1": 2, "white1": 1, "white2": 1, "white3": 6, "white4": 3}, False,
                    0.0, ("white5",), {"white5": (0.8, 0.2)})
        assert handle.apply_roll(roll, "camera") is None and handle.waiting() is not None
        assert anna_rolls(anna)["code"] == "roll_read_by_camera"  # not the whole roll
        assert bruno.call("dice_face", {"die": "white5", "face": 4})["code"] == \
            "dice_not_your_roll"
        assert anna.call("dice_face", {"die": "white1", "face": 4})["code"] == \
            "dice_not_waiting"
        assert mon.version == 0 and recorded(service, mon.id) == []
        assert anna.call("dice_face", {"die": "white5", "face": 4})["ok"] is True
        assert mon.version == 1 and recorded(service, mon.id)[0]["by"] == "table"
        assert anna.call("dice_face", {"die": "white5", "face": 5})["code"] == \
            "dice_not_waiting"  # no longer asked
        assert mon.version == 1
    finally:
        for spy in spies:
            spy.close()
        handle.stop()
    assert not tracebacks(caplog)


def test_the_tax_die_of_world_without_end_follows_the_same_rule(games_app):
    service = context.of(games_app).service
    live = service.create("wwe", {"players": [{"seat": s, "name": s} for s in "NESW"],
                                  "seed": 5}, "2468")
    play_live_to_tax(service, live)
    manager = context.of(games_app).hardware
    handle = wiring.DiceWiring(service, manager.changed,
                               DiceSettings(emulate="on", emulator_http_port=0),
                               games_app.config["DATA_DIR"])
    handle.start()
    try:
        wait_for(lambda: handle.status()["reads"], what="the reader connected")
        who = next(p.seat for p in live.kind.module.prompts(live.state) if p.kind == "roll_tax")
        version = live.version
        try:
            service.act(Identity("seat", live.id, who), {"type": "roll_tax", "value": 3})
            raise AssertionError("the phone's tax die was taken while the reader reads it")
        except Refused as refused:
            assert refused.code == "roll_read_by_serial"
        assert live.version == version
        handle.choose("phones")
        service.act(Identity("seat", live.id, who), {"type": "roll_tax", "value": 3})
        assert live.version == version + 1
    finally:
        handle.stop()

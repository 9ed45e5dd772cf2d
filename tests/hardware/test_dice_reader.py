"""The dice reader against the emulator over real ptys: handshake, rolls, resync, noise,
unplug, silence, reset. Waits poll with generous timeouts; nothing asserts a duration."""
import random

from hardware.dice import protocol
from hardware.dice.observations import Roll
from hardware.dice.reader import DiceReader
from tests.hardware.dice.support import (
    PATIENCE,
    Collector,
    connected,
    emulator_and_reader,
    wait_for,
)

TWO_DICE = {"red": [1, 2, 3, 4, 5, 6], "blue": [1, 2, 3, 4, 5, 6]}


def test_handshake_reports_firmware_and_asks_state(tmp_path):
    with emulator_and_reader(tmp_path) as (emu, reader, seen):
        status = wait_for(lambda: connected(reader), what="connected")
        assert status.firmware == "1.0.0-emu" and status.uid == "E0E0CAFE"
        assert status.port == emu.port
        assert status.dice == {"tax": {"state": "SETTLED", "face": 2}}
        assert protocol.StateQuery() in emu.received
        # the Arduino-style boot noise before HELLO is ignored, not counted
        assert status.garbage == 0 and status.crc_errors == 0
        assert seen.states()[:3] == ["searching", "connecting", "connected"]


def test_hello_query_is_retried_while_the_board_boots(tmp_path):
    # A board that resets on open, ignores what it hears while booting and does not
    # announce itself: only a HELLO? sent after the boot gets an answer.
    options = {"boot_time": 0.8, "hello_at_boot": False}
    with emulator_and_reader(tmp_path, emulator_options=options) as (emu, reader, seen):
        wait_for(lambda: connected(reader), what="connected")
        assert protocol.HelloQuery() in emu.received
        assert reader.status().garbage == 0


def test_single_die_roll(tmp_path):
    with emulator_and_reader(tmp_path) as (emu, reader, seen):
        wait_for(lambda: connected(reader))
        emu.roll({"tax": 5})
        [roll] = seen.wait_rolls(1)
        assert (roll.roll, roll.faces, roll.recovered) == (1, {"tax": 5}, False)
        assert [e.state for e in seen.events()] == ["ROLLING", "SETTLED"]
        assert roll.to_json() == {"type": "roll", "roll": 1, "faces": {"tax": 5},
                                  "recovered": False}


def test_multi_die_rolls_list_every_die(tmp_path):
    with emulator_and_reader(tmp_path, TWO_DICE) as (emu, reader, seen):
        wait_for(lambda: connected(reader))
        emu.roll({"red": 6, "blue": 1})
        emu.start_roll(["red"])  # only red moves: the reading still lists blue
        emu.settle({"red": 3})
        rolls = seen.wait_rolls(2)
        assert [(r.roll, r.faces) for r in rolls] == [
            (1, {"red": 6, "blue": 1}), (2, {"red": 3, "blue": 1})]


def test_dropped_reading_is_recovered_from_the_snapshot(tmp_path):
    with emulator_and_reader(tmp_path, TWO_DICE) as (emu, reader, seen):
        wait_for(lambda: connected(reader))
        emu.drop_next("RD")
        emu.roll({"red": 2, "blue": 4})
        # the next frame (a heartbeat) shows the gap; STATE? brings the snapshot
        [roll] = seen.wait_rolls(1)
        assert (roll.roll, roll.faces, roll.recovered) == (1, {"red": 2, "blue": 4}, True)
        status = reader.status()
        assert status.gaps >= 1 and status.missed_rolls == 0
        emu.roll({"red": 1, "blue": 1})
        assert [r.roll for r in seen.wait_rolls(2)] == [1, 2]


def test_dropped_event_resyncs_without_inventing_a_roll(tmp_path):
    with emulator_and_reader(tmp_path) as (emu, reader, seen):
        wait_for(lambda: connected(reader))
        asked = emu.received.count(protocol.StateQuery())
        emu.drop_next("EV")
        emu.start_roll()  # the ROLLING event is lost on the line
        wait_for(lambda: reader.status().gaps >= 1, what="gap")
        wait_for(lambda: emu.received.count(protocol.StateQuery()) > asked, what="STATE?")
        wait_for(lambda: reader.status().dice["tax"]["state"] == "ROLLING", what="snapshot")
        assert seen.rolls() == []
        emu.settle({"tax": 3})
        [roll] = seen.wait_rolls(1)
        assert (roll.roll, roll.faces, roll.recovered) == (1, {"tax": 3}, False)


def test_lost_reading_with_dice_moving_again_is_missed_not_invented(tmp_path):
    with emulator_and_reader(tmp_path) as (emu, reader, seen):
        wait_for(lambda: connected(reader))
        with emu.holding_line():  # no heartbeat in between
            emu.drop_next("RD")  # the reading is lost on the line...
            emu.roll({"tax": 4})
            emu.start_roll()  # ...and the die moves again before the host can resync
        wait_for(lambda: reader.status().missed_rolls == 1, what="missed roll")
        assert seen.rolls() == []
        emu.settle({"tax": 5})
        [roll] = seen.wait_rolls(1)
        assert (roll.roll, roll.faces, roll.recovered) == (2, {"tax": 5}, False)


def test_random_bytes_between_frames(tmp_path):
    """100,000+ random bytes interleaved with valid frames: no crash, no false roll, every
    valid frame after garbage still read (no sequence gap at all)."""
    rng = random.Random(2024)
    dice = {"a": [1, 2, 3, 4, 5, 6], "b": [1, 2, 3, 4, 5, 6]}
    with emulator_and_reader(tmp_path, dice) as (emu, reader, seen):
        wait_for(lambda: connected(reader))
        expected, sent = [], 0
        while sent < 100_000:
            noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 1500)))
            emu.inject(noise)
            sent += len(noise)
            faces = {"a": rng.randint(1, 6), "b": rng.randint(1, 6)}
            expected.append((len(expected) + 1, faces))
            emu.roll(faces)
        emu.inject(bytes(rng.randrange(256) for _ in range(500)))
        emu.start_roll(["a"])  # a final frame after the last garbage
        wait_for(lambda: len(seen.events()) == 4 * len(expected) + 1, what="all events")
        rolls = seen.wait_rolls(len(expected))
        assert [(r.roll, r.faces, r.recovered) for r in rolls] == [
            (n, f, False) for n, f in expected]
        status = reader.status()
        assert status.gaps == 0 and status.missed_rolls == 0
        assert status.garbage + status.crc_errors > 0


def test_corrupted_frames_never_give_a_wrong_roll(tmp_path):
    with emulator_and_reader(tmp_path, TWO_DICE, {"corrupt": 0.3}) as (emu, reader, seen):
        wait_for(lambda: connected(reader), timeout=20)
        truth = {}
        for _ in range(40):
            number, faces = emu.roll()
            truth[number] = faces
        wait_for(lambda: len(seen.rolls()) + reader.status().missed_rolls == 40, timeout=20,
                 what="every roll delivered or counted missed")
        rolls = seen.rolls()
        assert rolls, "some rolls must come through"
        for roll in rolls:
            assert roll.faces == truth[roll.roll]
        assert len({r.roll for r in rolls}) == len(rolls)
        status = reader.status()
        assert status.crc_errors + status.garbage > 0
        assert status.last_roll == 40


def test_unplug_and_replug_reconnects(tmp_path):
    with emulator_and_reader(tmp_path) as (emu, reader, seen):
        wait_for(lambda: connected(reader))
        emu.roll({"tax": 2})
        seen.wait_rolls(1)
        emu.unplug()
        wait_for(lambda: reader.status().state in ("searching", "connecting"), what="loss")
        emu.replug()
        # the board reset on open: its roll counter restarted; a player rolls at once,
        # whether or not the reader has heard the new boot's heartbeat or snapshot yet
        status = wait_for(lambda: (s := connected(reader)) and s.reconnects == 1 and s,
                          what="reconnected")
        assert status.firmware == "1.0.0-emu"
        emu.roll({"tax": 5})
        rolls = seen.wait_rolls(2)
        assert [(r.roll, r.faces) for r in rolls] == [(1, {"tax": 2}), (1, {"tax": 5})]


def _replugged(emu, reader):
    """Replug the emulator; return once the reader heard its HELLO and asked STATE?."""
    asked = emu.received.count(protocol.StateQuery())
    emu.replug()
    wait_for(lambda: (s := connected(reader)) and s.reconnects == 1, what="reconnected")
    wait_for(lambda: emu.received.count(protocol.StateQuery()) > asked, what="STATE? after replug")


def _then_heartbeat_and_snapshot(emu, reader):
    """Let the reader hear a fresh snapshot and a heartbeat after it (in this order)."""
    asked = emu.received.count(protocol.StateQuery())
    assert reader.request_state()
    wait_for(lambda: emu.received.count(protocol.StateQuery()) > asked, what="STATE? heard")
    with emu.holding_line():  # the snapshot is written by now: count frames after it
        sent = emu.sent
    wait_for(lambda: emu.sent > sent, what="a heartbeat after the snapshot")


def test_a_roll_right_after_a_replug_is_delivered_exactly_once(tmp_path):
    # The board resets on open and numbers its next roll 1 again, like the last roll before
    # the unplug. The player rolls before the reader hears the new boot's heartbeat or its
    # snapshot (both lost on the line meanwhile, to hold the reader in that moment).
    with emulator_and_reader(tmp_path, silent_after=PATIENCE) as (emu, reader, seen):
        wait_for(lambda: connected(reader))
        emu.roll({"tax": 2})
        seen.wait_rolls(1)
        emu.unplug()
        wait_for(lambda: reader.status().state in ("searching", "connecting"), what="loss")
        emu.lose = {"HB", "ST"}
        _replugged(emu, reader)
        assert reader.status().last_roll == 1  # the old baseline, still unsure
        emu.roll({"tax": 5})
        rolls = seen.wait_rolls(2)
        assert [(r.roll, r.faces, r.recovered) for r in rolls] == [
            (1, {"tax": 2}, False), (1, {"tax": 5}, False)]
        emu.lose = set()
        _then_heartbeat_and_snapshot(emu, reader)  # both say roll 1 of a new boot
        emu.roll({"tax": 3})
        wait_for(lambda: reader.status().last_roll == 2, what="roll 2")
        assert [(r.roll, r.faces) for r in seen.rolls()] == [
            (1, {"tax": 2}), (1, {"tax": 5}), (2, {"tax": 3})]
        assert reader.status().missed_rolls == 0


def test_a_replug_without_a_reset_delivers_no_old_roll_again(tmp_path):
    # A board that keeps running when the port is opened (native USB): its counters go on,
    # so its snapshot after the replug names the roll delivered before the unplug.
    options = {"reset_on_open": False}
    with emulator_and_reader(tmp_path, emulator_options=options,
                             silent_after=PATIENCE) as (emu, reader, seen):
        wait_for(lambda: connected(reader))
        emu.roll({"tax": 2})
        seen.wait_rolls(1)
        emu.unplug()
        wait_for(lambda: reader.status().state in ("searching", "connecting"), what="loss")
        _replugged(emu, reader)
        _then_heartbeat_and_snapshot(emu, reader)
        emu.roll({"tax": 4})  # roll 2; and one made while unplugged is recovered once
        seen.wait_rolls(2)  # read before the cable goes (an unplug loses unread bytes)
        emu.unplug()
        wait_for(lambda: reader.status().state in ("searching", "connecting"), what="loss")
        emu.roll({"tax": 5})  # roll 3, its RD lost with the cable
        asked = emu.received.count(protocol.StateQuery())
        emu.replug()
        wait_for(lambda: (s := connected(reader)) and s.reconnects == 2, what="reconnected")
        wait_for(lambda: emu.received.count(protocol.StateQuery()) > asked, what="STATE?")
        _then_heartbeat_and_snapshot(emu, reader)
        emu.roll({"tax": 3})
        wait_for(lambda: reader.status().last_roll == 4, what="roll 4")
        assert [(r.roll, r.faces, r.recovered) for r in seen.rolls()] == [
            (1, {"tax": 2}, False), (2, {"tax": 4}, False), (3, {"tax": 5}, True),
            (4, {"tax": 3}, False)]
        assert reader.status().missed_rolls == 0


def test_silent_device_trips_the_watchdog_then_reopens(tmp_path):
    with emulator_and_reader(tmp_path, emulator_options={"hb_interval": 0.1},
                             silent_after=1.0, reopen_after=0.4,
                             handshake_timeout=0.5) as (emu, reader, seen):
        wait_for(lambda: connected(reader))
        asked = emu.received.count(protocol.StateQuery())
        assert "silent" not in seen.states()
        emu.silent = True
        wait_for(lambda: "silent" in seen.states(), what="silent status")
        wait_for(lambda: emu.received.count(protocol.StateQuery()) > asked, what="STATE? sent")
        wait_for(lambda: seen.states()[-1] in ("searching", "connecting"), what="reopen")
        emu.silent = False
        wait_for(lambda: connected(reader) and reader.status().reconnects >= 1,
                 what="back after silence")


def test_board_reset_mid_session(tmp_path):
    with emulator_and_reader(tmp_path) as (emu, reader, seen):
        wait_for(lambda: connected(reader))
        for face in (3, 4, 5):
            emu.roll({"tax": face})
        seen.wait_rolls(3)
        emu.reboot()  # boot noise, HELLO, counters restart at 0
        wait_for(lambda: reader.status().last_roll == 0, what="baseline follows the reset")
        emu.roll({"tax": 2})
        rolls = seen.wait_rolls(4)
        assert (rolls[-1].roll, rolls[-1].faces) == (1, {"tax": 2})
        assert reader.status().garbage >= 1  # the noise was seen and dropped


def test_second_reader_cannot_open_the_same_port(tmp_path):
    with emulator_and_reader(tmp_path) as (emu, reader, seen):
        wait_for(lambda: connected(reader))
        other = Collector()
        second = DiceReader(emu.port, on_observation=other, handshake_timeout=0.3).start()
        try:
            wait_for(lambda: "cannot open" in second.status().message, what="open refused")
            assert "connecting" not in other.states()
            emu.roll({"tax": 3})  # the first reader still owns the port
            assert seen.wait_rolls(1)[0].faces == {"tax": 3}
            assert other.rolls() == []
        finally:
            second.stop()


def test_queue_delivery_without_callback(tmp_path):
    from hardware.dice.emulator import DiceEmulator

    with DiceEmulator({"tax": [2, 3, 3, 4, 4, 5]}, link=str(tmp_path / "tty")) as emu, \
            DiceReader(emu.port) as reader:
        wait_for(lambda: connected(reader))
        emu.roll({"tax": 4})
        items = []
        wait_for(lambda: items.append(reader.observations.get(timeout=5)) or
                 isinstance(items[-1], Roll))
        assert items[-1].faces == {"tax": 4}

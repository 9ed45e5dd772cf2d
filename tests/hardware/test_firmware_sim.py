"""The Uno build of the reference firmware, run in simavr with its UART on a pty, read by the
companion's real DiceReader: HELLO, heartbeats, a roll with the demo button, STATE?/DICE?,
noise on the line both ways, and a reset in the middle of a roll."""
import itertools
import random

import pytest
import serial

from hardware.dice import protocol
from hardware.dice.observations import DieEvent, Roll
from hardware.dice.reader import DiceReader
from tests.hardware.dice.support import Collector, connected
from tests.hardware.firmware_support import (
    SimulatedBoard,
    needs_avr_toolchain,
    needs_simavr,
    uno_build,
)
from tests.waiting import wait_for

pytestmark = [needs_avr_toolchain, needs_simavr]
TAX_FACES = {2, 3, 4, 5}  # the sketch's demo tax die: 2, 3, 3, 4, 4, 5


class Messages:
    """Every parsed device message the reader hands to on_message."""

    def __init__(self) -> None:
        self.seen: list = []

    def __call__(self, message) -> None:
        self.seen.append(message)

    def of(self, kind) -> list:
        return [m for m in list(self.seen) if isinstance(m, kind)]


@pytest.fixture
def board():
    sim = SimulatedBoard(uno_build().elf)
    yield sim
    sim.stop()


@pytest.fixture
def reading(board):
    seen, messages = Collector(), Messages()
    reader = DiceReader(board.port, on_observation=seen, on_message=messages).start()
    yield board, reader, seen, messages
    reader.stop()


def roll(board, seen, count: int) -> Roll:
    """Press and release the demo button; the count-th roll delivered."""
    board.command("press")
    wait_for(lambda: sum(e.state == "ROLLING" for e in seen.events()) >= count,
             what="the die rolling")
    board.command("release")
    return seen.wait_rolls(count)[count - 1]


def test_hello_and_heartbeats(reading):
    board, reader, seen, messages = reading
    status = wait_for(lambda: connected(reader), what="connected")
    assert (status.firmware, status.uid, status.proto) == ("2.0.0", "00C0FFEE", 2)
    wait_for(lambda: reader.status().dice == {"tax": {"state": "SETTLED", "face": 2}},
             what="the first snapshot")
    beats = wait_for(lambda: len(messages.of(protocol.Heartbeat)) >= 3
                     and messages.of(protocol.Heartbeat),
                     what="three heartbeats")
    uptimes = [b.uptime_ms for b in beats]
    # twice a second by the board's clock (millis() may skip a value: at least 500 ms apart)
    assert all(later - earlier >= 500 for earlier, later in itertools.pairwise(uptimes))
    assert reader.status().crc_errors == 0 and reader.status().garbage == 0


def test_a_complete_roll_then_state_and_dice_answers(reading):
    board, reader, seen, messages = reading
    wait_for(lambda: connected(reader))
    first = roll(board, seen, 1)
    assert first.roll == 1 and not first.recovered
    assert set(first.faces) == {"tax"} and first.faces["tax"] in TAX_FACES
    settled = [e for e in seen.events() if e.state == "SETTLED"]
    assert settled[-1].face == first.faces["tax"]
    second = roll(board, seen, 2)
    assert second.roll == 2 and second.faces["tax"] in TAX_FACES

    before = len(messages.of(protocol.Snapshot))
    assert reader.request_state()
    snapshot = wait_for(lambda: len(messages.of(protocol.Snapshot)) > before
                        and messages.of(protocol.Snapshot)[-1], what="ST")
    assert snapshot.roll == 2
    assert snapshot.dice == {"tax": protocol.DieState("SETTLED", second.faces["tax"])}
    assert reader.request_dice()
    wait_for(lambda: reader.status().groups == {"tax": "neutral"}, what="DI")
    assert len(seen.rolls()) == 2  # answers are not rolls


def test_noise_towards_the_companion_is_dropped_and_rolls_go_on(reading):
    board, reader, seen, messages = reading
    wait_for(lambda: connected(reader))
    board.command("garble")
    status = wait_for(lambda: reader.status().garbage > 0 and reader.status().crc_errors > 0
                      and reader.status(), what="noise counted")
    assert status.connected
    later = roll(board, seen, 1)
    assert later.roll == 1 and later.faces["tax"] in TAX_FACES


def test_noise_towards_the_firmware_does_not_stop_it(board):
    rng = random.Random(33)
    with serial.Serial(board.port, 115200, timeout=0.2) as line:
        parser, frames = protocol.FrameParser(), []

        def heard(kind):
            frames.extend(f for f in parser.feed(line.read(256)) if isinstance(f, protocol.Frame))
            found = [m for m in (protocol.parse_device(f.body) for f in frames)
                     if isinstance(m, kind)]
            return found or None

        # opening the port flushes what came before: the boot's HELLO may be gone, so ask
        line.write(protocol.encode("HELLO?"))
        wait_for(lambda: heard(protocol.Hello), what="HELLO")
        noise = bytes(rng.randrange(256) for _ in range(200)) + b"\n$STATE?*0000\n"
        line.write(noise + protocol.encode("JUMP 3") + protocol.encode("STATE?"))
        [error] = wait_for(lambda: heard(protocol.DeviceError), what="ERR for JUMP")
        assert error.code == "UNKNOWN"
        [snapshot] = wait_for(lambda: heard(protocol.Snapshot), what="ST")
        assert snapshot.dice == {"tax": protocol.DieState("SETTLED", 2)}


def test_a_reset_in_the_middle_of_a_roll(reading):
    board, reader, seen, messages = reading
    wait_for(lambda: connected(reader))
    done = roll(board, seen, 1)
    assert done.roll == 1
    board.command("press")
    wait_for(lambda: sum(e.state == "ROLLING" for e in seen.events()) >= 2, what="rolling")
    hellos = len(messages.of(protocol.Hello))
    board.command("reset")  # the board restarts with the die still moving
    wait_for(lambda: len(messages.of(protocol.Hello)) > hellos, what="HELLO after the reset")
    # the new boot sees the die moving (the button is still down), and no roll is read
    wait_for(lambda: sum(e.state == "ROLLING" for e in seen.events()) >= 3,
             what="rolling again after the boot")
    assert len(seen.rolls()) == 1
    board.command("release")
    [_, after] = seen.wait_rolls(2)
    # the restarted board numbers from 1 again; the reader delivers it, once
    assert after.roll == 1 and after.faces["tax"] in TAX_FACES and not after.recovered
    last = wait_for(lambda: [e for e in seen.events() if isinstance(e, DieEvent)][-1])
    assert last.state == "SETTLED" and last.face == after.faces["tax"]
    assert len(seen.rolls()) == 2

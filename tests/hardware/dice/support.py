"""Shared helpers of the dice tests: an emulator on a real pty and a reader on it."""
from __future__ import annotations

import contextlib
import queue

from hardware.dice.emulator import DiceEmulator
from hardware.dice.observations import DiceStatus, DieEvent, Roll
from hardware.dice.reader import DiceReader
from tests.waiting import PATIENCE, wait_for

__all__ = ["PATIENCE", "Collector", "connected", "emulator_and_reader", "wait_for"]


class Collector:
    """Collects observations delivered by the reader's callback."""

    def __init__(self) -> None:
        self.items: queue.Queue = queue.Queue()
        self.seen: list = []

    def __call__(self, observation) -> None:
        self.items.put(observation)

    def drain(self) -> list:
        while True:
            try:
                self.seen.append(self.items.get_nowait())
            except queue.Empty:
                return self.seen

    def rolls(self) -> list[Roll]:
        return [o for o in self.drain() if isinstance(o, Roll)]

    def events(self) -> list[DieEvent]:
        return [o for o in self.drain() if isinstance(o, DieEvent)]

    def states(self) -> list[str]:
        return [o.state for o in self.drain() if isinstance(o, DiceStatus)]

    def wait_rolls(self, n: int, timeout: float = PATIENCE) -> list[Roll]:
        return wait_for(lambda: len(self.rolls()) >= n and self.rolls(), timeout,
                        f"{n} rolls")


TAX = {"tax": [2, 3, 3, 4, 4, 5]}  # a tax die, as World Without End and Pillars have


@contextlib.contextmanager
def emulator_and_reader(tmp_path, dice=None, emulator_options=None, **reader_options):
    emu = DiceEmulator(dice or TAX, link=str(tmp_path / "dice-tty"), seed=7,
                       **(emulator_options or {})).start()
    collector = Collector()
    reader = DiceReader(emu.port, on_observation=collector, **reader_options).start()
    try:
        yield emu, reader, collector
    finally:
        reader.stop()
        emu.stop()


def connected(reader: DiceReader, emu: DiceEmulator | None = None):
    """Connected and the first snapshot (the baseline) handled."""
    status = reader.status()
    return status.state == "connected" and status.last_roll is not None and status

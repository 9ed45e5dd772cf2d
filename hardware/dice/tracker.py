"""The roll-delivery rules of the protocol, without I/O: sequence gaps, die states, and
when a roll may be delivered. The reader thread feeds it parsed messages; tests can too.

The rules (docs/dice-reader.md):
- Roll results come from ``RD`` only, or from a snapshot as a *recovered* roll.
- A sequence gap, a (re)connection, a HELLO or a heartbeat whose uptime went backwards (the
  device rebooted) asks for ``STATE?``.
- A snapshot whose ``r`` is beyond the last delivered roll is delivered as recovered only if
  at least one die is settled and every die is settled or absent; otherwise the roll is
  counted as missed. Never a result from partial data.
- The first snapshot of a reader sets the baseline without delivering: a roll made before
  the companion was listening is not applied to a game.
- A roll number below the last one means the device's counter restarted (reboot): the
  baseline follows it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from hardware.dice import protocol as p
from hardware.dice.observations import DieEvent, Roll


@dataclass
class Outcome:
    observations: list = field(default_factory=list)
    ask_state: bool = False
    note: str = ""


class RollTracker:
    def __init__(self) -> None:
        self.last_roll: int | None = None
        self.dice: dict[str, p.DieState] = {}
        self.hello: p.Hello | None = None
        self.gaps = 0
        self.missed_rolls = 0
        self.device_errors = 0
        self.last_error: p.DeviceError | None = None
        self._seq: int | None = None
        self._uptime: int | None = None

    def connected(self) -> None:
        """A new connection: the next sequence number starts a fresh count."""
        self._seq = None
        self._uptime = None

    def handle(self, msg: p.DeviceMessage, at: float) -> Outcome:
        out = Outcome()
        if isinstance(msg, p.Hello):
            self.hello = msg
            self._seq = None
            self._uptime = None
            out.ask_state = True
            return out
        if self._seq is not None and msg.seq != p.next_seq(self._seq):
            self.gaps += 1
            out.ask_state = True
        self._seq = msg.seq
        if isinstance(msg, p.Heartbeat):
            if self._uptime is not None and msg.uptime_ms < self._uptime:
                out.ask_state = True  # the device restarted under us
            self._uptime = msg.uptime_ms
        elif isinstance(msg, p.Event):
            self.dice[msg.die] = p.DieState(msg.state, msg.face)
            out.observations.append(DieEvent(msg.die, msg.state, msg.face, at))
        elif isinstance(msg, p.Reading):
            for die, face in msg.faces.items():
                self.dice[die] = p.DieState("SETTLED", face)
            if self.last_roll is None or msg.roll != self.last_roll:
                if self.last_roll is not None and msg.roll > self.last_roll + 1:
                    self.missed_rolls += msg.roll - self.last_roll - 1
                self.last_roll = msg.roll
                out.observations.append(Roll(msg.roll, dict(msg.faces), False, at))
        elif isinstance(msg, p.Snapshot):
            self.dice = dict(msg.dice)
            self._snapshot(msg, at, out)
        elif isinstance(msg, p.DeviceError):
            self.device_errors += 1
            self.last_error = msg
        return out

    def _snapshot(self, msg: p.Snapshot, at: float, out: Outcome) -> None:
        if self.last_roll is None or msg.roll < self.last_roll:
            self.last_roll = msg.roll  # baseline: first snapshot, or the device restarted
            return
        if msg.roll == self.last_roll:
            return
        present = {d: s for d, s in msg.dice.items() if s.state != "ABSENT"}
        if present and all(s.state == "SETTLED" for s in present.values()):
            self.missed_rolls += msg.roll - self.last_roll - 1
            faces = {d: s.face for d, s in present.items()}
            out.observations.append(Roll(msg.roll, faces, True, at))
        else:
            self.missed_rolls += msg.roll - self.last_roll
            out.note = f"roll {msg.roll} missed: dice moved before it could be recovered"
        self.last_roll = msg.roll

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
- After a HELLO (a reconnection, a reboot) the device may have restarted, its roll numbers
  from 1 again. Proof of it: an ``RD`` numbered at or below the baseline before any other
  roll since the HELLO (a counter that did not restart never goes back: a new roll, so
  delivered), or a heartbeat whose uptime is below the last one heard (the baseline drops
  to what this boot has shown, 0 if nothing, and STATE? recovers a roll lost meanwhile).
  Without proof the old baseline holds, so a roll delivered before an unplug and named
  again by the snapshot after it is not delivered twice. (An uptime that did not go back
  proves nothing: the session before the unplug may have been shorter than the boot.)
- Which HELLO was the restart, when several came before the proof (a restart, then a
  replug): the heartbeat's uptime says when the device booted, on the host's monotonic
  clock; the first HELLO heard since then was the restart's, and the baseline is the last
  roll heard since it. Without the clock (``now=None``) the last HELLO counts.
- Version 2: an ``RD``, ``ST`` or ``DI`` may come in parts ``p=<i>/<n>``. A set counts only
  when parts 1..n arrived in order with consecutive sequence numbers and no die twice; a
  set with a part lost is dropped whole (``incomplete``) and the host asks ``STATE?`` (or
  ``DICE?``): a roll is recovered from a complete snapshot or counted missed, never pieced
  together.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from hardware.dice import protocol
from hardware.dice.observations import DieEvent, Roll

BOOT_SLACK_S = 0.5
"""How much earlier than the heartbeat's boot time a HELLO may arrive and still be the
restart's: the heartbeat's own serial latency (a HELLO is sent at boot, so it never comes
before the boot). A replug's HELLO comes seconds before a restart at least (a person pulls
and plugs a cable), so 0.5 s tells them apart."""
BOOT_DRIFT = 0.01
"""The device's clock may run this much fast or slow against the host's (a ceramic
resonator: ±0.5 %): the boot time the uptime gives is that uncertain, per second of uptime."""


@dataclass
class Outcome:
    observations: list = field(default_factory=list)
    ask_state: bool = False
    ask_dice: bool = False
    state_answered: bool = False
    """A snapshot set ended (complete, or dropped incomplete): a STATE? is no longer due."""
    dice_answered: bool = False
    note: str = ""


class RollTracker:
    def __init__(self) -> None:
        self.last_roll: int | None = None
        self.dice: dict[str, protocol.DieState] = {}
        self.hello: protocol.Hello | None = None
        self.gaps = 0
        self.missed_rolls = 0
        self.device_errors = 0
        self.last_error: protocol.DeviceError | None = None
        self.groups: dict[str, str] = {}
        """Die id → group from the last complete ``DI`` (version 2 readers)."""
        self.incomplete = 0
        """Multi-part sets (RD, ST, DI) dropped because a part was lost."""
        self._seq: int | None = None
        self._uptime: int | None = None
        """The last heartbeat's uptime, kept across connections to tell a restart."""
        self._unsure = False
        """A HELLO came and the device has not shown a restart (yet)."""
        self._since_hello: int | None = None
        """The last roll number heard since that HELLO (RD or snapshot)."""
        self._hellos: list[float] = []
        """When each HELLO came since the device was last known to have restarted (host's
        monotonic clock): the proof of a restart tells which of them was its HELLO."""
        self._heard: tuple[float, int] | None = None
        """When the last roll number was heard (RD or snapshot), and that number."""
        self._parts: list[protocol.PartMessage] = []
        self._dice_asked = False
        self._dropped: tuple | None = None  # the last set counted incomplete

    def connected(self) -> None:
        """A new connection: the next sequence number starts a fresh count."""
        self._seq = None
        self._parts = []

    @property
    def proto(self) -> int | None:
        return self.hello.proto if self.hello else None

    def handle(self, msg: protocol.DeviceMessage, at: float,
               now: float | None = None) -> Outcome:
        """``at`` stamps the observations (wall clock); ``now`` is when the message came on
        the host's monotonic clock (a Pi without a real-time clock steps its wall clock at
        its first NTP sync), to tell a restart's HELLO from a replug's."""
        out = Outcome()
        if isinstance(msg, protocol.Hello):
            self.hello = msg
            self._seq = None
            self._unsure = self.last_roll is not None
            self._since_hello = None
            if self._unsure and now is not None:
                self._hellos.append(now)
            self._drop_parts(out)
            out.ask_state = True
            if msg.proto >= 2:
                out.ask_dice = self._dice_asked = True
            return out
        consecutive = self._seq is not None and msg.seq == protocol.next_seq(self._seq)
        if self._seq is not None and not consecutive:
            self.gaps += 1
            out.ask_state = True
        self._seq = msg.seq
        if isinstance(msg, protocol.Reading | protocol.Snapshot | protocol.DiceList):
            whole = self._assemble(msg, consecutive, out)
            if whole is None:
                return out
            msg = whole
        else:
            self._drop_parts(out)
        if isinstance(msg, protocol.Heartbeat):
            if self._uptime is not None and msg.uptime_ms < self._uptime:
                out.ask_state = True  # the device restarted under us
                if self._unsure:
                    self._restarted(self._since_restart(msg.uptime_ms, now))
            self._uptime = msg.uptime_ms
        elif isinstance(msg, protocol.Event):
            self.dice[msg.die] = protocol.DieState(msg.state, msg.face)
            self._check_known([msg.die], out)
            out.observations.append(DieEvent(msg.die, msg.state, msg.face, at))
        elif isinstance(msg, protocol.DiceList):
            self.groups = dict(msg.groups)
            self._dice_asked = False
            out.dice_answered = True
        elif isinstance(msg, protocol.Reading):
            self._check_known(list(msg.faces), out)
            for die, face in msg.faces.items():
                self.dice[die] = protocol.DieState("SETTLED", face)
            if self._unsure and self._since_hello is None and msg.roll <= self.last_roll:
                self._restarted(0)  # a counter that did not restart never goes back
            if self.last_roll is None or msg.roll != self.last_roll:
                if self.last_roll is not None and msg.roll > self.last_roll + 1:
                    self.missed_rolls += msg.roll - self.last_roll - 1
                self.last_roll = msg.roll
                self._heard_roll(msg.roll, now)
                out.observations.append(Roll(msg.roll, dict(msg.faces), False, at))
        elif isinstance(msg, protocol.Snapshot):
            self.dice = dict(msg.dice)
            out.state_answered = True
            self._snapshot(msg, at, now, out)
        elif isinstance(msg, protocol.DeviceError):
            self.device_errors += 1
            self.last_error = msg
        return out

    def _assemble(self, msg: protocol.PartMessage, consecutive: bool,
                  out: Outcome) -> protocol.PartMessage | None:
        """Collect the parts of a set; the whole message once the last part arrived."""
        if msg.parts == 1:
            self._drop_parts(out)
            return msg
        if msg.part == 1:
            self._drop_parts(out)
            self._parts = [msg]
            return None
        if self._parts and self._follows(self._parts[-1], msg) and consecutive:
            self._parts.append(msg)
        else:  # a part whose predecessors were lost: the whole set is lost
            self._drop_parts(out)
            if msg.part == msg.parts and _key(msg) != self._dropped:
                self._count_incomplete(msg, out)  # a set whose first part was lost
            out.ask_state = True
            return None
        if msg.part < msg.parts:
            return None
        parts, self._parts = self._parts, []
        ids = [d for m in parts for d in _ids(m)]
        if len(ids) != len(set(ids)):
            self._count_incomplete(parts[0], out)
            return None
        return protocol.merge_parts(parts)

    @staticmethod
    def _follows(last: protocol.PartMessage, msg: protocol.PartMessage) -> bool:
        return (type(last) is type(msg) and last.parts == msg.parts
                and msg.part == last.part + 1
                and getattr(last, "roll", None) == getattr(msg, "roll", None))

    def _drop_parts(self, out: Outcome) -> None:
        if self._parts:
            self._count_incomplete(self._parts[0], out)
            self._parts = []

    def _count_incomplete(self, first: protocol.PartMessage, out: Outcome) -> None:
        self.incomplete += 1
        self._dropped = _key(first)
        out.ask_state = True
        if isinstance(first, protocol.DiceList):
            out.ask_dice = self._dice_asked = out.dice_answered = True
            out.note = "die list incomplete: a part was lost; asked again"
        elif isinstance(first, protocol.Reading):
            out.note = (f"roll {first.roll} incomplete: a part was lost; "
                        "asked for a snapshot")
        else:
            out.state_answered = True  # a snapshot with a part lost: ask again at once

    def _check_known(self, dice: list[str], out: Outcome) -> None:
        """A version-2 reader naming a die its list lacks (one added): ask DICE? again."""
        if (self.proto or 1) >= 2 and not self._dice_asked and \
                any(d not in self.groups for d in dice):
            out.ask_dice = self._dice_asked = True

    def _restarted(self, baseline: int) -> None:
        """The device restarted since the HELLO: its roll numbers start again, and its
        uptime: the old boot's last heartbeat no longer tells a later restart (a heartbeat
        of this boot below it would prove this restart a second time)."""
        self._unsure = False
        self._hellos = []
        self._uptime = None
        self.last_roll = baseline

    def _heard_roll(self, roll: int, now: float | None) -> None:
        self._since_hello = roll
        if now is not None:
            self._heard = (now, roll)

    def _since_restart(self, uptime_ms: int, now: float | None) -> int:
        """The last roll heard since the restart a heartbeat just proved: since the first
        HELLO that came after the boot its uptime gives (a replug's HELLO after it resets
        nothing), or the boot if its HELLO was lost; 0 if no roll came since. Without the
        clock: since the last HELLO."""
        if now is None or not self._hellos:
            return self._since_hello or 0
        boot = now - uptime_ms / 1000 * (1 + BOOT_DRIFT) - BOOT_SLACK_S
        # the restart's HELLO; if it was lost, the boot itself
        start = next((t for t in self._hellos if t >= boot), boot)
        if self._heard is None or self._heard[0] < start:
            return 0
        return self._heard[1]

    def _snapshot(self, msg: protocol.Snapshot, at: float, now: float | None,
                  out: Outcome) -> None:
        if self.last_roll is None or msg.roll < self.last_roll:
            # baseline: first snapshot, or the device restarted
            self._restarted(msg.roll)
            self._heard_roll(msg.roll, now)
            return
        if msg.roll == self.last_roll:
            return  # after a HELLO it may be this boot's roll: only a restart's proof tells
        self._heard_roll(msg.roll, now)
        present = {d: s for d, s in msg.dice.items() if s.state != "ABSENT"}
        if present and all(s.state == "SETTLED" for s in present.values()):
            self.missed_rolls += msg.roll - self.last_roll - 1
            faces = {d: s.face for d, s in present.items()}
            out.observations.append(Roll(msg.roll, faces, True, at))
        else:
            self.missed_rolls += msg.roll - self.last_roll
            out.note = f"roll {msg.roll} missed: dice moved before it could be recovered"
        self.last_roll = msg.roll


def _ids(msg: protocol.PartMessage) -> list[str]:
    if isinstance(msg, protocol.Reading):
        return list(msg.faces)
    if isinstance(msg, protocol.Snapshot):
        return list(msg.dice)
    return list(msg.groups)


def _key(msg: protocol.PartMessage) -> tuple:
    """Which set a part belongs to: its kind, roll, size and first sequence number."""
    first_seq = (msg.seq - msg.part + 1) % protocol.SEQ_MODULO
    return type(msg), getattr(msg, "roll", None), msg.parts, first_seq

"""What the dice reader tells the rest of the program: small frozen dataclasses.

They know nothing of any game; `companion/wiring/dice.py` turns a `Roll` into a game action.
`hardware.dice.reader` re-exports them (``hardware.dice.reader.Roll`` is the shared name).
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Roll:
    """A completed roll: every die on the reader settled. ``faces`` maps die id → face value.
    ``recovered`` is True when the result came from a state snapshot after a lost ``RD``
    frame rather than from the ``RD`` itself. ``at`` is the wall-clock time it was read.
    ``unreadable`` names the dice a reader saw but could not read with confidence (the
    camera: a cocked die, glare); they are not in ``faces``, and the rolling player is asked
    for them. ``places`` gives a camera die's centre in the tray (x, y from the top left: pixels
    from the reader, fractions of the tray once the wiring has it), so the phone can say
    which die it means."""

    roll: int
    faces: dict[str, int]
    recovered: bool
    at: float
    unreadable: tuple[str, ...] = ()
    places: dict[str, tuple[float, float]] = field(default_factory=dict)

    def to_json(self) -> dict:
        """Exactly the line `companion dice listen` prints for a roll."""
        out = {"type": "roll", "roll": self.roll, "faces": dict(self.faces),
               "recovered": self.recovered}
        if self.unreadable:
            out["unreadable"] = list(self.unreadable)
        return out


@dataclass(frozen=True)
class DieEvent:
    """One die changed: ``state`` is ROLLING, SETTLED (with ``face``) or TILTED."""

    die: str
    state: str
    face: int | None
    at: float

    def to_json(self) -> dict:
        return {"type": "die", "die": self.die, "state": self.state, "face": self.face}


@dataclass(frozen=True)
class DiceStatus:
    """A snapshot of the reader for the host page.

    ``state``: ``stopped``, ``searching`` (no port open), ``connecting`` (port open, waiting
    for HELLO), ``connected`` or ``silent`` (connected but nothing valid heard for the
    watchdog time). ``message`` is a short English explanation; ``state`` is the stable code
    to translate. Counters are totals since the reader was created. ``proto`` is the
    reader's protocol version; ``groups`` (version 2) maps each die id the reader declared
    to its group (e.g. ``neutral``, ``red``), for the host page's die roles.
    ``incomplete`` counts multi-part messages dropped because a part was lost.
    """

    state: str = "stopped"
    port: str | None = None
    firmware: str | None = None
    uid: str | None = None
    dice: dict[str, dict] = field(default_factory=dict)
    last_roll: int | None = None
    crc_errors: int = 0
    garbage: int = 0
    malformed: int = 0
    gaps: int = 0
    missed_rolls: int = 0
    reconnects: int = 0
    device_errors: int = 0
    message: str = ""
    proto: int | None = None
    groups: dict[str, str] = field(default_factory=dict)
    incomplete: int = 0

    @property
    def connected(self) -> bool:
        return self.state in ("connected", "silent")

    def to_json(self) -> dict:
        return {
            "type": "status", "state": self.state, "connected": self.connected,
            "port": self.port, "firmware": self.firmware, "uid": self.uid,
            "dice": {d: dict(s) for d, s in self.dice.items()}, "last_roll": self.last_roll,
            "crc_errors": self.crc_errors, "garbage": self.garbage, "malformed": self.malformed,
            "gaps": self.gaps, "missed_rolls": self.missed_rolls, "reconnects": self.reconnects,
            "device_errors": self.device_errors, "message": self.message,
            "proto": self.proto, "groups": dict(self.groups), "incomplete": self.incomplete,
        }

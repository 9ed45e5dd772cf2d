"""The dice-reader wire protocol (docs/dice-protocol.md): framing, CRC and message parsing.

Pure functions and one incremental parser, no I/O, so the reader, the emulator, the CLI and
the tests share exactly one definition. The firmware's C framing
(hardware/firmware/dicereader/dice_protocol.c) follows the same rules and is tested against
the same vectors (tests/hardware/dice/vectors.json).

Frame: ``$<BODY>*<CRC>\\n`` (a ``\\r`` before ``\\n`` is tolerated), CRC-16/XMODEM over BODY
as 4 uppercase hex digits, at most 120 bytes from ``$`` to ``\\n`` inclusive.
"""
from __future__ import annotations

import binascii
import re
from dataclasses import dataclass, field

MAX_FRAME = 120
"""Bytes from ``$`` to ``\\n`` inclusive (a tolerated ``\\r`` counts too)."""
MAX_CONTENT = MAX_FRAME - 2
"""Bytes between ``$`` and ``\\n``: BODY, ``*``, CRC and an optional ``\\r``."""
MAX_BODY = MAX_FRAME - 7
"""The longest BODY an encoder may send: ``$`` + BODY + ``*`` + 4 hex + ``\\n``."""
SEQ_MODULO = 65536
PROTOCOL_VERSION = 2
"""The newest version: what the reference firmware and the emulator speak by default."""
PROTOCOL_VERSIONS = (1, 2)
"""Versions this host reads. Version 2 adds multi-part RD/ST, DI and DICE? (many dice)."""
MAX_PARTS = 99

DIE_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
DIE_STATES = ("ROLLING", "SETTLED", "TILTED", "ABSENT")
_HEX4 = re.compile(rb"[0-9A-F]{4}")
_NUMBER = re.compile(r"[0-9]{1,10}")
_FACE = re.compile(r"[0-9]{1,5}")
_RGB = re.compile(r"[0-9A-Fa-f]{6}")
_PART = re.compile(r"p=([1-9][0-9]?)/([1-9][0-9]?)")


def crc16(data: bytes) -> int:
    """CRC-16/XMODEM (poly 0x1021, init 0): ``crc16(b"123456789") == 0x31C3``."""
    return binascii.crc_hqx(data, 0)


def encode(body: str | bytes) -> bytes:
    """One frame for BODY; refuses a body the protocol does not allow (ValueError)."""
    raw = body.encode("ascii") if isinstance(body, str) else bytes(body)
    if not raw or len(raw) > MAX_BODY:
        raise ValueError(f"body length {len(raw)} outside 1..{MAX_BODY}")
    if not _printable_body(raw):
        raise ValueError(f"body {raw!r} must be printable ASCII without '$' and '*'")
    return b"$%s*%04X\n" % (raw, crc16(raw))


_PRINTABLE = re.compile(rb"[\x20-\x23\x25-\x29\x2b-\x7e]*")  # printable minus $ and *


def _printable_body(raw: bytes) -> bool:
    return _PRINTABLE.fullmatch(raw) is not None


# --------------------------------------------------------------------------- framing


@dataclass(frozen=True)
class Frame:
    """A frame whose CRC checked: its BODY as text."""

    body: str


@dataclass(frozen=True)
class FrameError:
    """Bytes dropped by the framer. ``kind`` is ``"crc"`` (a well-formed frame whose CRC
    did not match) or ``"garbage"`` (bytes outside frames, a frame cut by the next ``$``,
    an overlong frame, a malformed CRC field, a non-printable body)."""

    kind: str
    data: bytes = field(repr=False, compare=False, default=b"")


_IDLE, _FRAME, _SKIP = 0, 1, 2


class FrameParser:
    """Incremental framer: feed it any chunks of bytes, get frames and errors in order.

    Rules (identical in the firmware's C framer): outside a frame, a run of bytes ending at
    ``\\n`` or before ``$`` is one garbage item unless it holds only ``\\r``/``\\n``; ``$``
    starts a frame; a ``$`` inside a frame drops the partial frame (garbage) and starts anew;
    a frame longer than MAX_FRAME is garbage and the rest up to ``\\n`` or ``$`` is skipped.
    """

    def __init__(self) -> None:
        self._state = _IDLE
        self._buf = bytearray()  # frame content after '$' while in a frame
        self._junk = bytearray()  # the current garbage run outside frames

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        out: list[Frame | FrameError] = []
        pos, end = 0, len(data)
        while pos < end:
            dollar = data.find(b"$", pos)
            newline = data.find(b"\n", pos)
            if dollar < 0 and newline < 0:
                stop = -1
            elif dollar < 0:
                stop = newline
            elif newline < 0:
                stop = dollar
            else:
                stop = min(dollar, newline)
            segment = data[pos:] if stop < 0 else data[pos:stop]
            if self._state == _IDLE:
                self._junk += segment
                if stop < 0:
                    return out
                self._end_junk(out)
                if data[stop] == 0x24:  # '$'
                    self._state = _FRAME
                    self._buf.clear()
            elif self._state == _SKIP:
                if stop < 0:
                    return out
                self._state = _FRAME if data[stop] == 0x24 else _IDLE
                self._buf.clear()
            else:  # in a frame
                if len(self._buf) + len(segment) > MAX_CONTENT:
                    out.append(FrameError("garbage", b"$" + bytes(self._buf) + segment))
                    self._buf.clear()
                    self._state = _SKIP
                    if stop < 0:
                        return out
                    pos = stop  # the terminator is handled by the skip state
                    continue
                self._buf += segment
                if stop < 0:
                    return out
                if data[stop] == 0x24:
                    out.append(FrameError("garbage", b"$" + bytes(self._buf)))
                    self._buf.clear()
                else:
                    out.append(check_frame(bytes(self._buf)))
                    self._buf.clear()
                    self._state = _IDLE
            pos = stop + 1
        return out

    def _end_junk(self, out: list[Frame | FrameError]) -> None:
        if self._junk.strip(b"\r\n"):
            out.append(FrameError("garbage", bytes(self._junk)))
        self._junk.clear()


def check_frame(content: bytes) -> Frame | FrameError:
    """Check the content between ``$`` and ``\\n``: ``BODY*CRC`` with an optional ``\\r``."""
    if content.endswith(b"\r"):
        content = content[:-1]
    star = content.rfind(b"*")
    if star < 0 or not _HEX4.fullmatch(content[star + 1 :]):
        return FrameError("garbage", content)
    body = content[:star]
    if crc16(body) != int(content[star + 1 :], 16):
        return FrameError("crc", content)
    if not body or not _printable_body(body):
        return FrameError("garbage", content)
    return Frame(body.decode("ascii"))


# --------------------------------------------------------------------------- messages


class MalformedMessage(ValueError):
    """A frame whose CRC checked but whose BODY is not a message of the protocol."""


@dataclass(frozen=True)
class Hello:
    proto: int
    fw: str
    dice: int
    uid: str

    def to_json(self) -> dict:
        return {"type": "hello", "proto": self.proto, "fw": self.fw, "dice": self.dice,
                "uid": self.uid}


@dataclass(frozen=True)
class Event:
    """``EV <seq> <die> ROLLING|SETTLED <face>|TILTED``."""

    seq: int
    die: str
    state: str
    face: int | None = None

    def to_json(self) -> dict:
        return {"type": "event", "seq": self.seq, "die": self.die, "state": self.state,
                "face": self.face}


def _part_json(out: dict, part: int, parts: int) -> dict:
    if parts != 1:
        out.update(part=part, parts=parts)
    return out


@dataclass(frozen=True)
class Reading:
    """``RD <seq> r=<roll> [p=<part>/<parts>] <die>=<face> ...``: roll ``roll`` is complete
    (version 2: once all ``parts`` frames, with consecutive sequence numbers, arrived)."""

    seq: int
    roll: int
    faces: dict[str, int]
    part: int = 1
    parts: int = 1

    def to_json(self) -> dict:
        return _part_json({"type": "reading", "seq": self.seq, "roll": self.roll,
                           "faces": dict(self.faces)}, self.part, self.parts)


@dataclass(frozen=True)
class DieState:
    state: str
    face: int | None = None


@dataclass(frozen=True)
class Snapshot:
    """``ST <seq> r=<lastroll> [p=<part>/<parts>] <die>=<STATE>[:<face>] ...``."""

    seq: int
    roll: int
    dice: dict[str, DieState]
    part: int = 1
    parts: int = 1

    def to_json(self) -> dict:
        return _part_json({"type": "snapshot", "seq": self.seq, "roll": self.roll,
                           "dice": {d: {"state": s.state, "face": s.face}
                                    for d, s in self.dice.items()}}, self.part, self.parts)


@dataclass(frozen=True)
class DiceList:
    """``DI <seq> [p=<part>/<parts>] <die>=<group> ...`` (version 2, in reply to ``DICE?``):
    every die slot of the reader with its group (e.g. ``neutral``, ``red``)."""

    seq: int
    groups: dict[str, str]
    part: int = 1
    parts: int = 1

    def to_json(self) -> dict:
        return _part_json({"type": "dice", "seq": self.seq, "groups": dict(self.groups)},
                          self.part, self.parts)


@dataclass(frozen=True)
class Heartbeat:
    seq: int
    uptime_ms: int

    def to_json(self) -> dict:
        return {"type": "heartbeat", "seq": self.seq, "uptime_ms": self.uptime_ms}


@dataclass(frozen=True)
class DeviceError:
    seq: int
    code: str
    text: str

    def to_json(self) -> dict:
        return {"type": "error", "seq": self.seq, "code": self.code, "text": self.text}


@dataclass(frozen=True)
class Unknown:
    """A message type this host does not know, kept only for its sequence number."""

    seq: int
    kind: str
    fields: tuple[str, ...]

    def to_json(self) -> dict:
        return {"type": "unknown", "seq": self.seq, "kind": self.kind, "fields": list(self.fields)}


DeviceMessage = (Hello | Event | Reading | Snapshot | DiceList | Heartbeat | DeviceError
                 | Unknown)
PartMessage = Reading | Snapshot | DiceList


@dataclass(frozen=True)
class HelloQuery:
    def body(self) -> str:
        return "HELLO?"


@dataclass(frozen=True)
class StateQuery:
    def body(self) -> str:
        return "STATE?"


@dataclass(frozen=True)
class DiceQuery:
    """``DICE?`` (version 2): the device answers with its die list (``DI``)."""

    def body(self) -> str:
        return "DICE?"


@dataclass(frozen=True)
class Led:
    die: str
    rgb: str

    def body(self) -> str:
        return f"LED {self.die} {self.rgb}"


HostCommand = HelloQuery | StateQuery | DiceQuery | Led


def _fields(body: str) -> list[str]:
    fields = body.split(" ")
    if "" in fields:
        raise MalformedMessage("fields must be separated by single spaces")
    return fields


def _seq(text: str) -> int:
    if not _NUMBER.fullmatch(text) or int(text) >= SEQ_MODULO:
        raise MalformedMessage(f"bad sequence number {text!r}")
    return int(text)


def _die(text: str) -> str:
    if not DIE_ID.fullmatch(text):
        raise MalformedMessage(f"bad die id {text!r}")
    return text


def _face(text: str) -> int:
    if not _FACE.fullmatch(text):
        raise MalformedMessage(f"bad face {text!r}")
    return int(text)


def _roll(text: str) -> int:
    if not text.startswith("r=") or not _NUMBER.fullmatch(text[2:]):
        raise MalformedMessage(f"bad roll number {text!r}")
    return int(text[2:])


def _part(fields: list[str]) -> tuple[int, int, list[str]]:
    """An optional leading ``p=<part>/<parts>`` (version 2); the rest of the fields."""
    if fields:
        match = _PART.fullmatch(fields[0])
        if match:
            part, parts = int(match[1]), int(match[2])
            if part > parts:
                raise MalformedMessage(f"bad part {fields[0]!r}")
            return part, parts, fields[1:]
        if fields[0].startswith("p=") and "/" in fields[0]:
            raise MalformedMessage(f"bad part {fields[0]!r}")
    return 1, 1, fields


def _pairs(fields: list[str]) -> list[tuple[str, str]]:
    pairs, seen = [], set()
    for item in fields:
        die, sep, value = item.partition("=")
        if not sep:
            raise MalformedMessage(f"expected die=value, got {item!r}")
        if _die(die) in seen:
            raise MalformedMessage(f"die {die!r} listed twice")
        seen.add(die)
        pairs.append((die, value))
    return pairs


def parse_device(body: str) -> DeviceMessage:
    """Parse a device → host BODY; raises MalformedMessage."""
    f = _fields(body)
    kind = f[0]
    if kind == "HELLO":
        if len(f) < 2 or f[1] != "dicereader":
            raise MalformedMessage("HELLO must name the dicereader protocol")
        values = dict(item.partition("=")[::2] for item in f[2:])
        try:
            proto, dice = int(values["proto"]), int(values["dice"])
            fw, uid = values["fw"], values["uid"]
        except (KeyError, ValueError) as exc:
            raise MalformedMessage(f"HELLO needs proto, fw, dice, uid: {exc}") from None
        if not fw or not re.fullmatch(r"[0-9A-Fa-f]{1,32}", uid):
            raise MalformedMessage("bad fw or uid in HELLO")
        return Hello(proto, fw, dice, uid)
    if len(f) < 2:
        raise MalformedMessage(f"{kind!r} without a sequence number")
    seq = _seq(f[1])
    if kind == "EV":
        if len(f) == 4 and f[3] in ("ROLLING", "TILTED"):
            return Event(seq, _die(f[2]), f[3])
        if len(f) == 5 and f[3] == "SETTLED":
            return Event(seq, _die(f[2]), "SETTLED", _face(f[4]))
        raise MalformedMessage(f"bad EV {body!r}")
    if kind == "RD":
        part, parts, items = _part(f[3:])
        if len(f) < 3 or not items:
            raise MalformedMessage("RD needs a roll number and at least one die")
        return Reading(seq, _roll(f[2]), {d: _face(v) for d, v in _pairs(items)}, part, parts)
    if kind == "ST":
        if len(f) < 3:
            raise MalformedMessage("ST needs a roll number")
        part, parts, items = _part(f[3:])
        dice = {}
        for die, value in _pairs(items):
            state, sep, face = value.partition(":")
            if state not in DIE_STATES or bool(sep) != (state == "SETTLED"):
                raise MalformedMessage(f"bad die state {value!r}")
            dice[die] = DieState(state, _face(face) if sep else None)
        return Snapshot(seq, _roll(f[2]), dice, part, parts)
    if kind == "DI":
        part, parts, items = _part(f[2:])
        if not items:
            raise MalformedMessage("DI needs at least one die")
        groups = {}
        for die, group in _pairs(items):
            if not DIE_ID.fullmatch(group):
                raise MalformedMessage(f"bad group {group!r}")
            groups[die] = group
        return DiceList(seq, groups, part, parts)
    if kind == "HB":
        if len(f) != 3 or not _NUMBER.fullmatch(f[2]):
            raise MalformedMessage(f"bad HB {body!r}")
        return Heartbeat(seq, int(f[2]))
    if kind == "ERR":
        if len(f) < 3:
            raise MalformedMessage("ERR needs a code")
        return DeviceError(seq, f[2], " ".join(f[3:]))
    if re.fullmatch(r"[A-Z][A-Z0-9]{0,7}", kind):
        return Unknown(seq, kind, tuple(f[2:]))
    raise MalformedMessage(f"unknown message {body!r}")


def parse_host(body: str) -> HostCommand:
    """Parse a host → device BODY (what the emulator and the firmware understand)."""
    f = _fields(body)
    if f == ["HELLO?"]:
        return HelloQuery()
    if f == ["STATE?"]:
        return StateQuery()
    if f == ["DICE?"]:
        return DiceQuery()
    if len(f) == 3 and f[0] == "LED" and _RGB.fullmatch(f[2]):
        return Led(_die(f[1]), f[2].lower())
    raise MalformedMessage(f"unknown command {body!r}")


def next_seq(seq: int) -> int:
    return (seq + 1) % SEQ_MODULO


def hello_body(fw: str, dice: int, uid: str, proto: int = PROTOCOL_VERSION) -> str:
    return f"HELLO dicereader proto={proto} fw={fw} dice={dice} uid={uid}"


def reading_body(seq: int, roll: int, faces: dict[str, int]) -> str:
    """A one-frame RD (version 1; ValueError from encode() if it does not fit)."""
    return " ".join([f"RD {seq} r={roll}", *_face_items(faces)])


def snapshot_body(seq: int, roll: int, dice: dict[str, DieState]) -> str:
    """A one-frame ST (version 1)."""
    return " ".join([f"ST {seq} r={roll}", *_state_items(dice)])


def _face_items(faces: dict[str, int]) -> list[str]:
    return [f"{d}={v}" for d, v in faces.items()]


def _state_items(dice: dict[str, DieState]) -> list[str]:
    return [f"{d}={s.state}" + (f":{s.face}" if s.state == "SETTLED" else "")
            for d, s in dice.items()]


def _head_room(kind: str, with_roll: bool) -> int:
    """Bytes left for the items after the longest possible header of KIND, so a device can
    split a list into parts before it knows their sequence numbers (the firmware does the
    same: dicereader.ino ``send_parts``)."""
    head = f"{kind} {SEQ_MODULO - 1}" + (" r=4294967295" if with_roll else "")
    return MAX_BODY - len(head) - len(f" p={MAX_PARTS}/{MAX_PARTS}")


def split_items(kind: str, items: list[str], with_roll: bool = True) -> list[list[str]]:
    """Greedy packing of ``items`` into parts that fit one frame each (version 2)."""
    room = _head_room(kind, with_roll)
    parts: list[list[str]] = [[]]
    used = 0
    for item in items:
        size = 1 + len(item)
        if size > room:
            raise ValueError(f"item {item!r} too long for a frame")
        if parts[-1] and used + size > room:
            parts.append([])
            used = 0
        parts[-1].append(item)
        used += size
    if len(parts) > MAX_PARTS:
        raise ValueError(f"{len(items)} items need more than {MAX_PARTS} parts")
    return parts


def part_bodies(kind: str, seq: int, items: list[str], roll: int | None = None) -> list[str]:
    """The frames of one version-2 ``RD``/``ST`` (``roll`` given) or ``DI`` message: one
    body per part, sequence numbers ``seq``, ``seq + 1``... (mod 65536), ``p=<i>/<n>``
    only when there is more than one part."""
    parts = split_items(kind, items, roll is not None)
    bodies = []
    for index, chunk in enumerate(parts, 1):
        head = [kind, str(seq)] + ([f"r={roll}"] if roll is not None else [])
        if len(parts) > 1:
            head.append(f"p={index}/{len(parts)}")
        bodies.append(" ".join(head + chunk))
        seq = next_seq(seq)
    return bodies


def reading_bodies(seq: int, roll: int, faces: dict[str, int]) -> list[str]:
    return part_bodies("RD", seq, _face_items(faces), roll)


def snapshot_bodies(seq: int, roll: int, dice: dict[str, DieState]) -> list[str]:
    return part_bodies("ST", seq, _state_items(dice), roll)


def dice_list_bodies(seq: int, groups: dict[str, str]) -> list[str]:
    return part_bodies("DI", seq, [f"{d}={g}" for d, g in groups.items()])


def merge_parts(parts: list[PartMessage]) -> PartMessage:
    """One whole message from the parts of a complete set (checked by the caller)."""
    first = parts[0]
    if isinstance(first, Reading):
        faces = {d: v for m in parts for d, v in m.faces.items()}
        return Reading(first.seq, first.roll, faces)
    if isinstance(first, Snapshot):
        return Snapshot(first.seq, first.roll, {d: s for m in parts for d, s in m.dice.items()})
    return DiceList(first.seq, {d: g for m in parts for d, g in m.groups.items()})

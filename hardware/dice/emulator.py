"""A dice reader in software: speaks the protocol on a pseudo-terminal.

For people (`companion dice emulate`, `make run` without a reader) and for tests. It makes a
pty, keeps a stable symlink to it (``port``: like /dev/serial/by-id, the link disappears on
unplug and returns on replug), sends HELLO, EV, RD, ST and HB (every ``hb_interval`` ≤ 1 s),
answers HELLO? and STATE? (and DICE? in version 2), and can corrupt or drop frames, go
silent, unplug, and behave like an Arduino that resets when the host opens the port (boot
noise, then HELLO).

Any set of dice: ``DiceEmulator({"n1": [1, 2, 3, 4, 5, 6], ...}, groups={"n1": "neutral"})``;
``roll(dice=[...])`` rerolls a subset, ``add_die()`` brings an extra die mid-phase. Version 2
(the default) splits long RD/ST/DI into parts; ``proto=1`` acts as an old reader.
"""
from __future__ import annotations

import contextlib
import json
import os
import random
import select
import tempfile
import threading
import time
import tty
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from hardware.dice import protocol

D6 = [1, 2, 3, 4, 5, 6]
DEFAULT_DICE = {"d6": D6}  # a plain die; callers name the dice they need
DEFAULT_GROUP = "default"
BOOT_NOISE = b"\x00\xf0\xfe\r\nboot v1.0 \xff\xff$\x13\r\n"


class DiceEmulator:
    def __init__(
        self,
        dice: dict[str, list[int]] | None = None,
        *,
        link: str | None = None,
        fw: str = "1.0.0-emu",
        uid: str = "E0E0CAFE",
        hb_interval: float = 0.5,
        corrupt: float = 0.0,
        drop: float = 0.0,
        reset_on_open: bool = True,
        boot_time: float = 0.1,
        hello_at_boot: bool = True,
        roll_time: float = 0.0,
        seed: int | None = None,
        proto: int = protocol.PROTOCOL_VERSION,
        groups: dict[str, str] | None = None,
        absent: tuple[str, ...] | list[str] = (),
    ) -> None:
        """``dice``: die id → its faces; ``groups``: die id → group (version 2's DI; dice
        not named get ``default``); ``absent``: dice off the reader at the start."""
        if proto not in protocol.PROTOCOL_VERSIONS:
            raise ValueError(f"protocol {proto} unknown")
        self.proto = proto
        self.dice: dict[str, list[int]] = {}
        self.groups: dict[str, str] = {}
        for die, faces in (dice or DEFAULT_DICE).items():
            self._check_die(die, faces, (groups or {}).get(die, DEFAULT_GROUP))
            self.dice[die] = list(faces)
            self.groups[die] = (groups or {}).get(die, DEFAULT_GROUP)
        self.port = link or os.path.join(tempfile.gettempdir(), f"companion-dice-{os.getpid()}")
        self.fw, self.uid = fw, uid
        self.hb_interval = min(hb_interval, 1.0)
        self.corrupt, self.drop = corrupt, drop
        self.reset_on_open, self.boot_time, self.roll_time = reset_on_open, boot_time, roll_time
        self.hello_at_boot = hello_at_boot
        self.silent = False
        """True: send nothing and answer nothing (a hung device)."""
        self.lose: set[str] = set()
        """Kinds of numbered frames (``"HB"``, ``"ST"``...) lost on the line while set: for
        tests that must act before the host hears them (e.g. a roll right after a replug,
        before the snapshot that answers the host's STATE?)."""
        self.received: list[protocol.HostCommand] = []
        self.sent = 0
        self._rng = random.Random(seed)
        self._states = {d: protocol.DieState("ABSENT") if d in absent
                        else protocol.DieState("SETTLED", faces[0])
                        for d, faces in self.dice.items()}
        self._roll = 0
        self._seq = 0
        self._drop_next: list[tuple[str, int | None]] = []
        self._master: int | None = None
        self.slave_path: str | None = None
        self._host_attached = False
        self._booting_until = 0.0
        self._boot_started = time.monotonic()
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> DiceEmulator:
        self._plug()
        self._thread = threading.Thread(target=self._run, name="dice-emulator", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(2)
        self.unplug()

    def __enter__(self) -> DiceEmulator:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def unplug(self) -> None:
        """Close the pty (the host's reads fail) and remove the link."""
        with self._lock:
            if self._master is not None:
                os.close(self._master)
                self._master = None
            self._host_attached = False
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.port)

    def replug(self) -> None:
        with self._lock:
            if self._master is None:
                self._plug()

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing, as a real serial port after open
        self.slave_path = os.ttyname(slave)
        os.close(slave)  # the master now sees POLLHUP until a host opens the slave
        os.set_blocking(master, False)
        self._master = master
        self._host_attached = False
        tmp = f"{self.port}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(self.slave_path, tmp)
        os.replace(tmp, self.port)

    # ------------------------------------------------------------------ dice

    @staticmethod
    def _check_die(die: str, faces, group: str) -> None:
        if not protocol.DIE_ID.fullmatch(die) or not faces or not protocol.DIE_ID.fullmatch(group):
            raise ValueError(f"bad die {die!r}, group {group!r} or no faces")

    def roll(self, faces: dict[str, int] | None = None,
             dice: list[str] | None = None) -> tuple[int, dict[str, int]]:
        """A whole roll: the dice (all present ones, or the subset ``dice``: a reroll) roll,
        settle (on ``faces`` or at random), then RD with every die on the reader."""
        with self._lock:
            self.start_roll(dice)
        if self.roll_time:
            time.sleep(self.roll_time)
        with self._lock:
            return self.settle(faces)

    def start_roll(self, dice: list[str] | None = None) -> None:
        """These dice (default: every die on the reader) start moving; an absent die
        named here is thrown onto the reader."""
        with self._lock:
            if dice is None:
                dice = [d for d, s in self._states.items() if s.state != "ABSENT"]
            for die in dice:
                if die not in self.dice:
                    raise KeyError(f"unknown die {die!r}")
                self._states[die] = protocol.DieState("ROLLING")
                self._send_numbered("EV", f"{die} ROLLING")

    def add_die(self, die: str, faces: list[int] | None = None,
                group: str = DEFAULT_GROUP) -> None:
        """A new die slot (absent until rolled: ``roll(dice=[die])``), e.g. an extra die
        brought in mid-phase. The host learns its group by asking DICE? again."""
        faces = list(faces or D6)
        self._check_die(die, faces, group)
        with self._lock:
            if die in self.dice:
                raise ValueError(f"die {die!r} exists")
            self.dice[die], self.groups[die] = faces, group
            self._states[die] = protocol.DieState("ABSENT")

    def remove_die(self, die: str) -> None:
        """Take a die off the reader: absent (no EV; snapshots list it ABSENT)."""
        with self._lock:
            self._states[die] = protocol.DieState("ABSENT")

    def settle(self, faces: dict[str, int] | None = None) -> tuple[int, dict[str, int]]:
        """Settle every rolling or tilted die; if all dice on the reader are then settled,
        the roll is complete: RD with every die's face."""
        faces = faces or {}
        with self._lock:
            for die, state in self._states.items():
                if state.state in ("ROLLING", "TILTED"):
                    face = faces.get(die, self._rng.choice(self.dice[die]))
                    self._states[die] = protocol.DieState("SETTLED", face)
                    self._send_numbered("EV", f"{die} SETTLED {face}")
            result = {d: s.face for d, s in self._states.items() if s.state == "SETTLED"}
            if result and len(result) == sum(
                    1 for s in self._states.values() if s.state != "ABSENT"):
                self._roll += 1
                if self.proto == 1:  # one frame (encode refuses a roll too long for it)
                    self._send_all([protocol.reading_body(self._seq, self._roll, result)])
                else:
                    self._send_all(protocol.reading_bodies(self._seq, self._roll, result))
            return self._roll, result

    def tilt(self, die: str) -> None:
        with self._lock:
            self._states[die] = protocol.DieState("TILTED")
            self._send_numbered("EV", f"{die} TILTED")

    @contextlib.contextmanager
    def holding_line(self):
        """Nothing else (heartbeats, replies) is sent while inside: for exact sequences."""
        with self._lock:
            yield self

    def drop_next(self, kind: str, part: int | None = None) -> None:
        """Lose the next frame of this kind (``"RD"``, ``"HB"``...) on the line; with
        ``part``, the next frame that is that part of a multi-part message."""
        with self._lock:
            self._drop_next.append((kind, part))

    def inject(self, data: bytes) -> None:
        """Put raw bytes on the line (noise)."""
        with self._lock:
            self._write(data)

    def reboot(self) -> None:
        """As if the board reset: counters restart, boot noise, then HELLO."""
        with self._lock:
            self._booting_until = time.monotonic() + self.boot_time

    def state(self) -> dict:
        with self._lock:
            return {"port": self.port, "pty": self.slave_path, "plugged": self.plugged,
                    "host_attached": self._host_attached, "roll": self._roll,
                    "proto": self.proto, "groups": dict(self.groups),
                    "dice": {d: {"state": s.state, "face": s.face}
                             for d, s in self._states.items()}}

    # ------------------------------------------------------------------ line

    def _send_numbered(self, kind: str, rest: str) -> None:
        """A message with the next sequence number (lost or not, it uses one up)."""
        body = f"{kind} {self._seq} {rest}" if rest else f"{kind} {self._seq}"
        self._seq = protocol.next_seq(self._seq)
        self._send(body)

    def _send_all(self, bodies: list[str]) -> None:
        """The parts of one message, back to back (their numbers are in the bodies)."""
        for body in bodies:
            self._seq = protocol.next_seq(self._seq)
            self._send(body)

    def _send(self, body: str) -> None:
        frame = protocol.encode(body)
        fields = body.split(" ")
        part = next((int(f[2:].split("/")[0]) for f in fields[2:4] if f.startswith("p=")
                     and "/" in f), 1)
        if fields[0] in self.lose:
            return
        for wanted in ((fields[0], None), (fields[0], part)):
            if wanted in self._drop_next:
                self._drop_next.remove(wanted)
                return
        if self.drop and self._rng.random() < self.drop:
            return
        if self.corrupt and self._rng.random() < self.corrupt:
            data = bytearray(frame)
            data[self._rng.randrange(len(data))] ^= 1 << self._rng.randrange(8)
            frame = bytes(data)
        self._write(frame)

    def _write(self, data: bytes) -> None:
        if self._master is None or not self._host_attached or self.silent:
            return  # nobody listening: the bytes are lost, as on a real line
        view = memoryview(data)
        deadline = time.monotonic() + 1.0
        while view:  # like a UART: wait while the host drains the line, but not forever
            try:
                view = view[os.write(self._master, view):]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return  # host not reading: the rest is lost
                select.select([], [self._master], [], 0.05)
            except OSError:
                return  # host gone
        self.sent += 1

    def _hello(self) -> None:
        body = protocol.hello_body(self.fw, len(self.dice), self.uid, self.proto)
        self._write(protocol.encode(body))

    def _snapshot(self) -> None:
        if self.proto == 1:
            body = protocol.snapshot_body(self._seq, self._roll, self._states)
            self._seq = protocol.next_seq(self._seq)
            self._send(body)
        else:
            self._send_all(protocol.snapshot_bodies(self._seq, self._roll, self._states))

    def _run(self) -> None:
        parser = protocol.FrameParser()
        next_hb = time.monotonic()
        while not self._stop.is_set():
            with self._lock:
                master = self._master
            if master is None:
                self._stop.wait(0.02)
                continue
            poller = select.poll()
            poller.register(master, select.POLLIN)
            try:
                events = poller.poll(20)
            except (OSError, ValueError):
                continue
            hangup = any(ev & select.POLLHUP for _, ev in events)
            with self._lock:
                if master != self._master:
                    continue
                if hangup:
                    self._host_attached = False
                    parser = protocol.FrameParser()
                else:
                    if not self._host_attached:
                        self._host_attached = True
                        if self.reset_on_open:
                            self._booting_until = time.monotonic() + self.boot_time
                        else:
                            self._hello()
                    if events:
                        self._read_host(parser)
                now = time.monotonic()
                if self._booting_until and now >= self._booting_until:
                    self._booting_until = 0.0
                    self._seq, self._roll = 0, 0
                    self._boot_started = now
                    self._write(BOOT_NOISE)
                    if self.hello_at_boot:
                        self._hello()
                if self._host_attached and not self._booting_until and now >= next_hb:
                    uptime = int((now - self._boot_started) * 1000)
                    self._send_numbered("HB", str(uptime))
                    next_hb = now + self.hb_interval
            if hangup:
                self._stop.wait(0.02)

    def _read_host(self, parser: protocol.FrameParser) -> None:
        try:
            data = os.read(self._master, 4096)
        except (BlockingIOError, OSError):
            return
        if self._booting_until:
            return  # a booting board hears nothing
        for item in parser.feed(data):
            if not isinstance(item, protocol.Frame):
                continue
            try:
                command = protocol.parse_host(item.body)
            except protocol.MalformedMessage:
                if not self.silent:
                    self._send_numbered("ERR", "UNKNOWN unknown command")
                continue
            self.received.append(command)
            if self.silent:
                continue  # a hung board: hears, never answers
            if isinstance(command, protocol.HelloQuery):
                self._hello()
            elif isinstance(command, protocol.StateQuery):
                self._snapshot()
            elif isinstance(command, protocol.DiceQuery):
                if self.proto == 1:  # an old reader does not know DICE?
                    self._send_numbered("ERR", "UNKNOWN unknown command")
                else:
                    self._send_all(protocol.dice_list_bodies(self._seq, self.groups))


def cross_site(headers) -> str | None:
    """Why a control request comes from a web page, or None (issue 67): a page on any site
    may POST to 127.0.0.1 (a "simple" request, no preflight: ``text/plain`` or a form), and
    the control port would roll. A browser names the page's origin (``Origin``,
    ``Sec-Fetch-Site``) on every such request; curl, scripts and the tests send neither. A
    text or multipart body is never this port's JSON either."""
    if headers.get("Origin") is not None:
        return "a request from a web page (Origin)"
    if (headers.get("Sec-Fetch-Site") or "none") not in ("none", "same-origin"):
        return "a request from a web page (Sec-Fetch-Site)"
    kind = (headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
    if kind in ("text/plain", "multipart/form-data"):
        return f"a body of {kind}, not JSON"
    return None


def serve_http(emulator: DiceEmulator, port: int = 0, host: str = "127.0.0.1"):
    """A tiny control endpoint: ``POST /roll`` (optional JSON ``{"faces": {die: n},
    "dice": [die, ...]}``: ``dice`` rerolls only those), ``POST /add`` (``{"die": id,
    "faces": [...], "group": g}``: an extra die, absent until rolled), ``POST /unplug``,
    ``POST /replug``, ``GET /state``. Returns the started server."""

    class Handler(BaseHTTPRequestHandler):
        def _reply(self, code: int, data: dict) -> None:
            body = json.dumps(data).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            if self.path == "/state":
                self._reply(200, emulator.state())
            else:
                self._reply(404, {"error": "not_found"})

        def do_POST(self) -> None:  # noqa: N802
            refusal = cross_site(self.headers)
            if refusal:
                self._reply(403, {"error": "cross_site", "detail": refusal})
                return
            length = int(self.headers.get("Content-Length") or 0)
            try:
                payload = json.loads(self.rfile.read(length) or b"{}")
                if self.path == "/add":
                    die, group = payload.get("die"), payload.get("group") or DEFAULT_GROUP
                    faces = payload.get("faces") or None
                    if not isinstance(die, str) or not isinstance(group, str) or (
                            faces is not None and (not isinstance(faces, list) or not all(
                                isinstance(f, int) and f >= 0 for f in faces))):
                        raise ValueError("add needs a die id, optional faces and group")
                    emulator.add_die(die, faces, group)
                    self._reply(200, emulator.state())
                    return
                faces = payload.get("faces") or {}
                if not isinstance(faces, dict) or any(
                        d not in emulator.dice or not isinstance(v, int) or v < 0
                        for d, v in faces.items()):
                    raise ValueError("faces must map known dice to non-negative integers")
                dice = payload.get("dice")
                if dice is not None and (not isinstance(dice, list) or not dice or any(
                        d not in emulator.dice for d in dice)):
                    raise ValueError("dice must list known dice")
            except (ValueError, AttributeError, TypeError) as exc:
                self._reply(400, {"error": "bad_request", "detail": str(exc)})
                return
            if self.path == "/roll":
                roll, result = emulator.roll(faces, dice)
                self._reply(200, {"roll": roll, "faces": result})
            elif self.path in ("/unplug", "/replug"):
                getattr(emulator, self.path[1:])()
                self._reply(200, emulator.state())
            else:
                self._reply(404, {"error": "not_found"})

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer((host, port), Handler)
    threading.Thread(target=server.serve_forever, name="dice-emulator-http", daemon=True).start()
    return server

"""The dice reader: one thread that owns the serial port and never lies about a roll.

It opens the port exclusively (a given path, or discovery by /dev/serial/by-id and VID:PID),
survives the Arduino reset on open (HELLO? retried for ~3 s, boot noise ignored), reads as
bytes arrive (waking 4 times a second when idle), drops and counts CRC failures and
garbage, asks STATE? after every (re)connection and sequence gap, watches the heartbeat
(silent for 3 s → state "silent", STATE?, then reopen), and reopens after an unplug with a
backoff of 0.5 s doubling to 5 s. Observations (`Roll`, `DieEvent`, `DiceStatus`) go to a
callback or, without one, to the `observations` queue. Behaviour for people: docs/dice-reader.md.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

import serial

from hardware.dice import discovery, protocol
from hardware.dice.observations import DiceStatus, DieEvent, Roll
from hardware.dice.tracker import RollTracker

__all__ = ["DiceReader", "DiceStatus", "DieEvent", "Roll"]

log = logging.getLogger(__name__)


class DiceReader:
    def __init__(
        self,
        port: str | None = None,
        *,
        on_observation: Callable[[object], None] | None = None,
        on_message: Callable[[protocol.DeviceMessage], None] | None = None,
        usb_ids=None,
        read_timeout: float = 0.25,
        silent_after: float = 3.0,
        reopen_after: float = 1.0,
        handshake_timeout: float = 3.0,
        hello_retry: float = 0.5,
        backoff: tuple[float, float] = (0.5, 5.0),
        ask_timeout: float = 1.0,
    ) -> None:
        """``port``: a path, or None to discover. ``on_observation`` is called in the reader
        thread with every Roll, DieEvent and DiceStatus change; ``on_message`` with every
        parsed device message (for `companion dice listen`). ``read_timeout``: how often
        the idle thread wakes for its timers (replies, silence); bytes are handled as they
        arrive whatever it is, so a long one only spares the Pi's core (bench/evening.py)."""
        self.port = port
        self.observations: queue.Queue = queue.Queue()
        self._on_observation = on_observation
        self._on_message = on_message
        self._usb_ids = usb_ids
        self._read_timeout = read_timeout
        self._silent_after = silent_after
        self._reopen_after = reopen_after
        self._handshake_timeout = handshake_timeout
        self._hello_retry = hello_retry
        self._backoff = backoff
        self._ask_timeout = ask_timeout
        # STATE? and DICE? in flight: [deadline (0: none), retries]. One at a time, so that
        # frames lost inside a multi-part reply do not multiply the requests.
        self._asks: dict[str, list] = {"state": [0.0, 0], "dice": [0.0, 0]}
        self._tracker = RollTracker()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: serial.Serial | None = None
        self._write_lock = threading.Lock()
        self._status_lock = threading.Lock()
        self._state = "stopped"
        self._open_port: str | None = None
        self._message = ""
        self._counts = {"crc_errors": 0, "garbage": 0, "malformed": 0, "reconnects": 0}
        self._connections = 0

    # ------------------------------------------------------------------ public

    def start(self) -> DiceReader:
        self._stop.clear()
        self._set_state("searching", "looking for the dice reader")
        self._thread = threading.Thread(target=self._run, name="dice-reader", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._set_state("stopped", "")

    def __enter__(self) -> DiceReader:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def status(self) -> DiceStatus:
        t = self._tracker
        with self._status_lock:
            hello = t.hello
            return DiceStatus(
                state=self._state, port=self._open_port,
                firmware=hello.fw if hello else None, uid=hello.uid if hello else None,
                dice={d: {"state": s.state, "face": s.face} for d, s in t.dice.items()},
                last_roll=t.last_roll, gaps=t.gaps, missed_rolls=t.missed_rolls,
                device_errors=t.device_errors, message=self._message, proto=t.proto,
                groups=dict(t.groups), incomplete=t.incomplete, **self._counts)

    def request_state(self) -> bool:
        """Ask the device for a snapshot (STATE?). False if no port is open."""
        return self._send(protocol.StateQuery())

    def request_dice(self) -> bool:
        """Ask a version-2 reader for its die list (DICE?). False if no port is open. The
        firmware's emulated-board test (tests/hardware/test_firmware_sim.py) asks it so."""
        return self._send(protocol.DiceQuery())

    # ------------------------------------------------------------------ thread

    def _run(self) -> None:
        delay = self._backoff[0]
        while not self._stop.is_set():
            opened = self._open()
            if opened is None:
                self._stop.wait(delay)
                delay = min(delay * 2, self._backoff[1])
                continue
            port, path, hello, parser, pending = opened
            delay = self._backoff[0]
            try:
                self._connected(port, path, hello)
                self._read_loop(port, parser, pending)
            except (serial.SerialException, OSError) as exc:
                log.info("dice reader on %s lost: %s", path, exc)
                self._set_state("searching", f"reader lost: {exc}")
            except Exception as exc:  # a bug must not end the reading for good
                log.exception("dice reader failed; reopening")
                self._set_state("searching", f"reader error: {exc}")
            finally:
                with self._write_lock:
                    self._serial = None
                port.close()
                with self._status_lock:
                    self._open_port = None
            if not self._stop.is_set():
                self._stop.wait(self._backoff[0])

    def _open(self):
        paths = [self.port] if self.port else discovery.candidates(self._usb_ids)
        problem = "no dice reader answered HELLO" if paths else "no dice reader found"
        for path in paths:
            try:
                port = serial.Serial(path, discovery.BAUDRATE, timeout=self._read_timeout,
                                     exclusive=True)
            except (serial.SerialException, OSError, ValueError) as exc:
                problem = f"cannot open {path}: {exc}"
                continue
            self._set_state("connecting", f"waiting for HELLO on {path}", path)
            try:
                hello, parser, pending = discovery.handshake(
                    port, self._handshake_timeout, self._hello_retry, self._stop)
            except (serial.SerialException, OSError):
                hello = None
            if hello is not None:
                return port, path, hello, parser, pending
            port.close()
            problem = f"no dice reader answered HELLO on {path}"
        with self._status_lock:
            self._open_port = None
        self._set_state("searching", problem)
        return None

    def _connected(self, port: serial.Serial, path: str, hello: protocol.Hello) -> None:
        with self._write_lock:
            self._serial = port
        self._connections += 1
        with self._status_lock:
            self._tracker.connected()
            outcome = self._tracker.handle(hello, time.time(), time.monotonic())
            if self._connections > 1:
                self._counts["reconnects"] += 1
        self._message_out(hello)
        self._set_state("connected", f"dice reader {hello.fw} on {path}", path)
        self._asks = {"state": [0.0, 0], "dice": [0.0, 0]}
        if outcome.ask_dice:
            self._ask("dice")
        self._ask("state")

    def _read_loop(self, port: serial.Serial, parser: protocol.FrameParser, pending: list) -> None:
        last_valid = time.monotonic()
        self._handle_items(pending)
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            now = time.monotonic()
            self._retry_asks(now)
            if data and self._handle_items(parser.feed(data)):
                last_valid = now
                if self._state == "silent":
                    self._set_state("connected", "dice reader speaking again")
            quiet = now - last_valid
            if quiet >= self._silent_after and self._state != "silent":
                self._set_state("silent", f"reader silent for {quiet:.1f} s")
                self._send(protocol.StateQuery())
            elif quiet >= self._silent_after + self._reopen_after:
                self._set_state("searching", "reader silent: reopening the port")
                return

    def _handle_items(self, items: list) -> bool:
        """Process framer output; True if at least one valid message arrived."""
        valid = False
        for item in items:
            if isinstance(item, protocol.FrameError):
                self._count("crc_errors" if item.kind == "crc" else "garbage")
                continue
            try:
                msg = protocol.parse_device(item.body)
            except protocol.MalformedMessage:
                self._count("malformed")
                continue
            valid = True
            self._message_out(msg)
            with self._status_lock:
                outcome = self._tracker.handle(msg, time.time(), time.monotonic())
            for observation in outcome.observations:
                self._emit(observation)
            if outcome.note:
                with self._status_lock:
                    self._message = outcome.note
                self._emit(self.status())
            if isinstance(msg, protocol.Hello) or (outcome.dice_answered and not outcome.ask_dice):
                self._emit(self.status())  # new firmware, or a complete die list
            if outcome.state_answered:
                self._asks["state"] = [0.0, 0]
            if outcome.dice_answered:
                self._asks["dice"] = [0.0, 0]
            if outcome.ask_dice:
                self._ask("dice")
            if outcome.ask_state:
                self._ask("state")
        return valid

    # ------------------------------------------------------------------ helpers

    _QUERIES = {"state": protocol.StateQuery(), "dice": protocol.DiceQuery()}
    _MAX_RETRIES = 5

    def _ask(self, what: str) -> None:
        """Send STATE?/DICE? unless one is in flight (its reply covers this need too)."""
        now = time.monotonic()
        if now < self._asks[what][0]:
            return
        self._asks[what] = [now + self._ask_timeout, 0]
        self._send(self._QUERIES[what])

    def _retry_asks(self, now: float) -> None:
        """A query without a complete reply in time is sent again (a few times)."""
        for what, (deadline, tries) in self._asks.items():
            if deadline and now >= deadline:
                if tries >= self._MAX_RETRIES:
                    self._asks[what] = [0.0, 0]
                else:
                    self._asks[what] = [now + self._ask_timeout, tries + 1]
                    self._send(self._QUERIES[what])

    def _send(self, command: protocol.HostCommand) -> bool:
        with self._write_lock:
            if self._serial is None:
                return False
            try:
                self._serial.write(protocol.encode(command.body()))
                return True
            except (serial.SerialException, OSError) as exc:
                log.info("dice reader write failed: %s", exc)
                return False

    def _message_out(self, msg: protocol.DeviceMessage) -> None:
        if self._on_message is None:
            return
        try:
            self._on_message(msg)
        except Exception:  # a bad consumer must not kill the reader thread
            log.exception("dice message callback failed")

    def _count(self, name: str) -> None:
        with self._status_lock:
            self._counts[name] += 1

    def _set_state(self, state: str, message: str, path: str | None = None) -> None:
        with self._status_lock:
            changed = (state, message) != (self._state, self._message)
            self._state, self._message = state, message
            if path is not None:
                self._open_port = path
        if changed:
            self._emit(self.status())

    def _emit(self, observation: object) -> None:
        if self._on_observation is None:
            self.observations.put(observation)
            return
        try:
            self._on_observation(observation)
        except Exception:  # a bad consumer must not kill the reader thread
            log.exception("dice observation callback failed")

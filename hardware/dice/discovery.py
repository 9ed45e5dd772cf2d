"""Finding the dice reader: an explicit path, else /dev/dicereader (the udev link deploy/
installs), else USB serial ports whose VID:PID is a known USB-serial chip, named by their
stable /dev/serial/by-id link when there is one; a candidate counts only once it answers
``HELLO?`` with a dicereader HELLO.

Ports are not probed blindly: opening a serial port resets most Arduino-like boards (a 3D
printer too), so only configured paths and known USB-serial VID:PIDs are tried.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import serial
from serial.tools import list_ports

from hardware.dice import protocol

BAUDRATE = 115200
BY_ID = Path("/dev/serial/by-id")
UDEV_LINK = "/dev/dicereader"
"""The name deploy/'s udev rule gives a reader (``SYMLINK+="dicereader"``): tried first."""

# VID, PID (None: any product of that vendor) of boards a dice reader is likely built on.
KNOWN_USB_IDS: dict[tuple[int, int | None], str] = {
    (0x2341, None): "Arduino",
    (0x2A03, None): "Arduino.org",
    (0x1A86, 0x7523): "CH340",
    (0x1A86, 0x55D4): "CH9102",
    (0x0403, 0x6001): "FTDI FT232R",
    (0x0403, 0x6015): "FTDI FT231X",
    (0x10C4, 0xEA60): "Silicon Labs CP210x",
    (0x067B, 0x2303): "Prolific PL2303",
    (0x239A, None): "Adafruit",
    (0x1B4F, None): "SparkFun",
    (0x2E8A, None): "Raspberry Pi RP2040",
}


def parse_usb_ids(items: list[str]) -> dict[tuple[int, int | None], str]:
    """``["2341:0043", "1a86:*"]`` (from config.json) → the form of KNOWN_USB_IDS."""
    ids: dict[tuple[int, int | None], str] = {}
    for item in items:
        vid, _, pid = item.partition(":")
        ids[(int(vid, 16), None if pid in ("", "*") else int(pid, 16))] = item
    return ids


def _matches(vid: int | None, pid: int | None, ids) -> bool:
    return vid is not None and ((vid, pid) in ids or (vid, None) in ids)


def candidates(usb_ids=None) -> list[str]:
    """Serial ports that may be a dice reader, by-id link names preferred."""
    ids = KNOWN_USB_IDS if usb_ids is None else usb_ids
    by_target: dict[str, str] = {}
    if BY_ID.is_dir():
        for link in sorted(BY_ID.iterdir()):
            by_target.setdefault(os.path.realpath(link), str(link))
    found = [UDEV_LINK] if os.path.exists(UDEV_LINK) else []
    seen = {os.path.realpath(path) for path in found}
    for info in sorted(list_ports.comports(), key=lambda i: i.device):
        real = os.path.realpath(info.device)
        if _matches(info.vid, info.pid, ids) and real not in seen:
            seen.add(real)
            found.append(by_target.get(real, info.device))
    return found


def handshake(port: serial.Serial, timeout: float = 3.0, retry: float = 0.5,
              stop=None, any_version: bool = False
              ) -> tuple[protocol.Hello | None, protocol.FrameParser, list]:
    """Send ``HELLO?`` every ``retry`` s until a HELLO comes back or ``timeout`` s pass.

    Only a HELLO of our protocol version counts, unless ``any_version`` (`companion doctor`
    accepts every version, to say which one the device speaks).

    Whatever arrives before the HELLO (an Arduino's boot noise after the reset that opening
    the port causes) is ignored. Returns the HELLO (or None), the parser and the framer
    items that followed the HELLO in the same read, for the caller to go on with.
    """
    parser = protocol.FrameParser()
    query = protocol.encode(protocol.HelloQuery().body())
    deadline = time.monotonic() + timeout
    next_query = 0.0
    while time.monotonic() < deadline and not (stop and stop.is_set()):
        now = time.monotonic()
        if now >= next_query:
            port.write(query)
            next_query = now + retry
        items = parser.feed(port.read(max(1, port.in_waiting)))
        for index, item in enumerate(items):
            if isinstance(item, protocol.Frame):
                try:
                    msg = protocol.parse_device(item.body)
                except protocol.MalformedMessage:
                    continue
                if isinstance(msg, protocol.Hello) and (any_version
                                                 or msg.proto in protocol.PROTOCOL_VERSIONS):
                    return msg, parser, items[index + 1:]
    return None, parser, []


def hello(path: str, timeout: float = 3.0, any_version: bool = False) -> protocol.Hello | None:
    """Open ``path`` (exclusively), ask HELLO?, close. The HELLO, or None if none came.
    Raises serial.SerialException or OSError when the port cannot be opened or read (held
    by another program: "lock" in the message, or errno 11)."""
    with serial.Serial(path, BAUDRATE, timeout=0.05, exclusive=True) as port:
        return handshake(port, timeout, any_version=any_version)[0]


def probe(path: str, timeout: float = 3.0) -> protocol.Hello | None:
    """Open ``path``, ask HELLO?, close. The HELLO, or None if it is not a dice reader."""
    try:
        return hello(path, timeout)
    except (serial.SerialException, OSError):
        return None


def discover(usb_ids=None, timeout: float = 3.0) -> tuple[str, protocol.Hello] | None:
    """The first candidate port that answers as a dice reader."""
    for path in candidates(usb_ids):
        hello = probe(path, timeout)
        if hello is not None:
            return path, hello
    return None

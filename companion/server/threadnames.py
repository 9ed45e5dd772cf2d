"""The server's threads named for the operating system (``top -H``, ``ps -L``, /proc).

Python names its threads ("capture folder:...", "camera recognizer", "dice-reader") but
Linux shows every thread of the worker as the process name, so on the Pi one cannot tell
whether the camera, the dice or the sockets use the core. Linux lets a process rename its
own threads through /proc/self/task/<tid>/comm (15 characters); `bench/evening.py` reads
those names to report the CPU of each part.
"""
from __future__ import annotations

import contextlib
import threading
from pathlib import Path

COMM_LENGTH = 15  # Linux keeps the first 15 bytes of a thread name


def name_this_thread() -> None:
    """Give the calling thread its Python name at the OS level (a thread started later than
    `name_os_threads` ran, such as the view sender's)."""
    thread = threading.current_thread()
    name = thread.name.encode("utf-8", "replace")[:COMM_LENGTH]
    with contextlib.suppress(OSError, TypeError):
        Path(f"/proc/self/task/{thread.native_id}/comm").write_bytes(name)


def name_os_threads() -> None:
    """Give each running Python thread its Python name at the OS level (no-op elsewhere)."""
    for thread in threading.enumerate():
        tid = getattr(thread, "native_id", None)
        if not tid or thread is threading.main_thread():
            continue
        name = thread.name.encode("utf-8", "replace")[:COMM_LENGTH]
        path = Path(f"/proc/self/task/{tid}/comm")
        with contextlib.suppress(OSError):
            if path.read_bytes().rstrip(b"\n") != name:
                path.write_bytes(name)

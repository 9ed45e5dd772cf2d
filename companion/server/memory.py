"""Fewer malloc arenas: a threaded server's memory stays near what it uses.

glibc gives threads that allocate at the same time their own arenas (up to 8 per core),
and each keeps its freed memory. The companion runs a thread per phone and display plus
the camera and dice threads, whose allocations are brief: two arenas cost nothing in speed
here and keep several MB off the Pi's resident memory (bench/evening.py, rss_mb).
Set before the worker's threads start (``companion serve``); MALLOC_ARENA_MAX in the
environment still wins. Elsewhere than glibc it does nothing.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading

M_ARENA_MAX = -8  # glibc's mallopt parameter


def limit_arenas(most: int = 2) -> bool:
    """Ask glibc for at most ``most`` arenas; True when it took the setting."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
        return bool(libc and libc.mallopt(M_ARENA_MAX, most))
    except (OSError, AttributeError):
        return False


def _libc():
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
        return libc if libc is not None and hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


def start_trimming(every: float = 20.0,
                   stop: threading.Event | None = None) -> threading.Thread | None:
    """A thread that hands glibc's freed memory back every ``every`` seconds
    (``malloc_trim(0)``); None where there is no glibc.

    Why (issue 37): the camera threads allocate and free frame-sized buffers 30 times a
    second in glibc's second arena, which kept the freed pages: the worker grew ~20 MB an
    hour with or without actions (30-minute bench/evening.py runs). With a trim every
    20 s the same 6-minute run stayed flat (-0.5 against +20 MB/h, same machine, same
    time) at no visible CPU cost. Started in the worker (`companion serve`)."""
    libc = _libc()
    if libc is None:
        return None
    stop = stop or threading.Event()

    def run() -> None:
        while not stop.wait(every):
            libc.malloc_trim(0)

    thread = threading.Thread(target=run, name="malloc-trim", daemon=True)
    thread.start()
    return thread

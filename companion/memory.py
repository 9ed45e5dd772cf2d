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

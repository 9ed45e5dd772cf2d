"""glibc's malloc set for a long evening: memory stays near what the worker uses.

Two settings, made once in `companion serve` before gunicorn forks its worker (the worker
inherits them; nothing else is needed by the Pi's service or `make run`, which both run
`companion serve`), and a trimming thread in the worker:

- **two arenas** (``M_ARENA_MAX``): glibc gives threads that allocate at the same time their
  own arenas (up to 8 per core), and each keeps its freed memory. The companion runs a
  thread per phone and display plus the camera and dice threads, whose allocations are
  brief: two arenas cost nothing in speed here and keep several MB off the resident memory.
- **a fixed mmap threshold** (``M_MMAP_THRESHOLD``, `MMAP_THRESHOLD`): blocks of 128 KiB and
  more get their own mapping, given back the moment they are freed. By default glibc raises
  that threshold to the largest block freed so far (up to 32 MB), after which the camera's
  frame-sized temporaries and the rescue's filters (0.2-1 MB each, sizes changing with the
  crops) are carved out of the arenas between long-lived small objects, and the holes they
  leave are rarely whole pages at the top: the arena grows over the evening (issue 37,
  docs/pi-appliance.md). Setting the threshold also stops that raising.
- ``malloc_trim(0)`` every 20 s (`start_trimming`) hands back the free pages inside the
  arenas that remain.

The environment still wins (``MALLOC_ARENA_MAX``, ``MALLOC_MMAP_THRESHOLD_``,
``GLIBC_TUNABLES``), for an owner who measures otherwise. Elsewhere than glibc it does
nothing.

And one more, not glibc's (`one_blas_thread`): NumPy and OpenCV each bring an OpenBLAS,
and each starts a thread per core but one when loaded, each with its stack and buffers
(six threads on the Pi's four cores). The companion's only BLAS products are the card
faces' matrix x vector, too small to gain from threads (and 4x slower in wall time with
them on a loaded machine, docs/camera.md).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameters
M_ARENA_MAX = -8
ARENAS = 2
MMAP_THRESHOLD = 128 * 1024  # glibc's own starting value, kept fixed


def _libc():
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
        return libc if libc is not None and hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


def _from_environment(variable: str, tunable: str) -> bool:
    return bool(os.environ.get(variable)) or tunable in os.environ.get("GLIBC_TUNABLES", "")


def configure(arenas: int = ARENAS, mmap_threshold: int = MMAP_THRESHOLD) -> dict[str, bool]:
    """Ask glibc for at most ``arenas`` arenas and a fixed ``mmap_threshold``; which of the
    two it took (a setting from the environment is left alone and reported False)."""
    libc = _libc()
    wanted = {"arena_max": (M_ARENA_MAX, arenas, "MALLOC_ARENA_MAX", "glibc.malloc.arena_max"),
              "mmap_threshold": (M_MMAP_THRESHOLD, mmap_threshold, "MALLOC_MMAP_THRESHOLD_",
                                 "glibc.malloc.mmap_threshold")}
    done = {}
    for key, (param, value, variable, tunable) in wanted.items():
        if libc is None or _from_environment(variable, tunable):
            done[key] = False
            continue
        try:
            done[key] = bool(libc.mallopt(param, value))
        except AttributeError:
            done[key] = False
    return done


def one_blas_thread() -> bool:
    """``OPENBLAS_NUM_THREADS=1`` for this process and its children unless the environment
    sets it; True if set here. Must run before NumPy or OpenCV is imported: OpenBLAS reads
    it once, when loaded (`companion serve` calls it before forking the worker, which
    imports them)."""
    if os.environ.get("OPENBLAS_NUM_THREADS"):
        return False
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    return True


def start_trimming(every: float = 20.0,
                   stop: threading.Event | None = None) -> threading.Thread | None:
    """A thread that hands glibc's freed memory back every ``every`` seconds
    (``malloc_trim(0)``); None where there is no glibc.

    Why (issue 37): the camera threads allocate and free frame-sized buffers 30 times a
    second, and the pages freed inside an arena stay resident until trimmed. Started in
    the worker (`companion serve`); costs no measurable CPU (docs/pi-appliance.md)."""
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

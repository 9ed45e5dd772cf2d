"""The app's locks, each made here with its name, and the one order in which they may nest.

THE CONTRACT (docs/server.md, "Threads and locks"): a thread may take a lock only while
every lock it holds is of an earlier level in `LEVELS`:

    scene  →  camera  →  game  →  dice  →  a leaf

- ``scene``: the simulated camera's demo scene (its capture thread, while it asks the game
  at the table what to show);
- ``camera``: `CameraWiring._lock`, the camera thread's rules (held while it acts in a game);
- ``game``: a game's `LiveGame.lock`; never two games' at once;
- ``dice``: `DiceWiring._lock`, its counters, warning and the roll waiting for dice;
- a leaf: every other lock; held only to read or change what it guards, never while
  taking another lock, never by a thread that waits for the view sender.

Production code gets plain `threading` locks: nothing is checked and nothing costs. With
checking on (``checking = True`` before the app's modules are imported, as tests/conftest.py
does for the whole test suite, or ``COMPANION_LOCK_CHECK=1`` in a server's environment)
every lock made here records, per thread, what it holds; each acquisition is checked
against the contract, and every order seen (``seen``: (held, taken) -> count) and every
violation (``violations``) is kept, and written to the file ``COMPANION_LOCK_LOG`` names
(a server run by a test). `owned` checks that the caller holds a lock (state touched
without its owner's lock); `none_held` that it holds none (it is about to wait).
"""
from __future__ import annotations

import os
import threading
import traceback
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

LEVELS = ("scene", "camera", "game", "dice", "leaf")
RANK = {level: i for i, level in enumerate(LEVELS)}

checking = os.environ.get("COMPANION_LOCK_CHECK") == "1"
log_path = os.environ.get("COMPANION_LOCK_LOG")
violations: list[str] = []
seen: Counter = Counter()  # (held level:name, taken level:name) -> times
planted: Counter = Counter()  # the same, taken while a test plants wrong orders (`expecting`)
_held = threading.local()  # .locks: the checked locks this thread holds, in order taken
_record = threading.Lock()  # guards `violations`, `seen` and the log file (not checked)
_diverted: list[list[str]] = []  # `expecting`: violations go to its list instead


def lock(name: str, level: str = "leaf"):
    """A lock (checked when checking is on)."""
    return _Checked(name, level, threading.Lock(), reentrant=False) if checking \
        else threading.Lock()


def rlock(name: str, level: str = "leaf"):
    """A re-entrant lock (checked when checking is on)."""
    return _Checked(name, level, threading.RLock(), reentrant=True) if checking \
        else threading.RLock()


def condition(name: str, level: str = "leaf") -> threading.Condition:
    """A condition over a lock of its own (checked when checking is on)."""
    return threading.Condition(lock(name, level))


def owned(lock_, what: str) -> None:
    """The caller must hold ``lock_`` while it touches ``what`` (checked locks only)."""
    if isinstance(lock_, _Checked) and lock_ not in _holding():
        _violation(f"{what} touched without holding {lock_.label}")


def none_held(what: str) -> None:
    """The caller must hold no lock made here while it does ``what`` (it waits)."""
    held = _holding() if checking else []
    if held:
        _violation(f"{what} while holding {', '.join(h.label for h in held)}")


def _holding() -> list:
    locks = getattr(_held, "locks", None)
    if locks is None:
        locks = _held.locks = []
    return locks


def _violation(message: str) -> None:
    where = "".join(traceback.format_stack(limit=8)[:-2])
    line = f"{message} (thread {threading.current_thread().name})"
    with _record:
        if _diverted:
            _diverted[-1].append(line)
            return
        violations.append(f"{line}\n{where}")
        _write(f"violation {line}\n")


@contextmanager
def expecting() -> Iterator[list[str]]:
    """The violations made meanwhile, in any thread, are put in the list given and not
    kept, and the orders taken meanwhile go to `planted`, not `seen` (the tests that plant
    a wrong order: the run's list of orders seen stays the app's own)."""
    found: list[str] = []
    with _record:
        _diverted.append(found)
    try:
        yield found
    finally:
        with _record:
            _diverted.remove(found)


def _write(line: str) -> None:
    if log_path:
        try:
            with open(log_path, "a", encoding="utf-8") as f:
                f.write(line)
        except OSError:
            pass


class _Checked:
    """A lock that checks each acquisition against the contract and records the orders."""

    __slots__ = ("name", "level", "label", "_inner", "reentrant")

    def __init__(self, name: str, level: str, inner, reentrant: bool) -> None:
        if level not in RANK:
            raise ValueError(f"unknown lock level {level!r}")
        self.name, self.level, self._inner, self.reentrant = name, level, inner, reentrant
        self.label = f"{level}:{name}" if level != "leaf" else name

    def _check(self) -> None:
        held = _holding()
        if self in held:
            if not self.reentrant:
                _violation(f"{self.label} taken again by the thread holding it (a deadlock)")
            return
        for other in dict.fromkeys(held):
            pair = (other.label, self.label)
            with _record:
                counter = planted if _diverted else seen  # a planted order is no app's
                first = pair not in counter
                counter[pair] += 1
            if first and counter is seen:
                _write(f"seen {other.label} -> {self.label}\n")
            if RANK[other.level] >= RANK[self.level]:
                _violation(f"{self.label} taken while holding {other.label}: not allowed by "
                           f"the order {' → '.join(LEVELS)}")

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        self._check()
        got = self._inner.acquire(blocking, timeout)
        if got:
            _holding().append(self)
        return got

    def release(self) -> None:
        held = _holding()
        for i in range(len(held) - 1, -1, -1):
            if held[i] is self:
                del held[i]
                break
        self._inner.release()

    __enter__ = acquire

    def __exit__(self, *exc) -> None:
        self.release()

    def locked(self) -> bool:
        return self._inner.locked()

    # what threading.Condition asks of its lock (a non-reentrant one)
    def _is_owned(self) -> bool:
        return self in _holding()

    def _release_save(self) -> None:
        self.release()

    def _acquire_restore(self, _state) -> None:
        self.acquire()

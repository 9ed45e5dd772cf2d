"""Each synthetic frame rendered once per test run, not once per test that asks for it.

The tests render the same tables, trays and scripts again and again (the same seed, the same
arguments, in one file's tests and in other files'); rendering is most of their time. A
renderer marked `@cached` keeps what it returned, keyed by everything that decides the
picture: the function, its arguments (seed included) and the source of every module that
draws (`SOURCES`) with numpy's and OpenCV's versions, so a changed renderer renders anew.

Off unless `enable()` is called: tests/conftest.py turns it on, in memory and on disk under
pytest's cache folder, which the processes of `pytest -n` share. `make run`'s simulated camera
and the benches render as before.

Rendered as before, never served from the cache:
- arguments not made only of plain values (numbers, strings, arrays, tuples, lists, dicts and
  the dataclasses of hardware.synthetic): a random generator whose state the call moves on,
  an object that draws itself with code of its own;
- while any name of a drawing module is not what it was at `enable()` (a test planting a fault
  in the renderer).
Every answer is a fresh copy (unpickled): a test changing its frame changes no other test's.
Only the tests' own thread is served: a live camera's thread in a test's server renders each
of its frames as they go (never the same twice, thirty a second: not worth keeping).
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import io
import os
import pickle
import sys
import threading
from collections import OrderedDict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
# what draws a frame: the renderers and the QR stickers they print
SOURCES = ("hardware/synthetic/*.py", "hardware/tags/format.py", "hardware/tags/sheet.py")
MEMORY_BYTES = 768 * 2**20  # per process; the oldest answers are dropped past it
PLAIN = (type(None), bool, int, float, complex, str, bytes, np.generic)

_on = False
_depth = 0  # inside a cached call
TAG = "_frame_cache_key"
_folder: Path | None = None  # None: memory only
_memory: OrderedDict[str, bytes] = OrderedDict()
_seen_names: dict[str, dict[str, int]] = {}
counts = {"hits": 0, "misses": 0, "bypassed": 0}


def source_hash(root: Path | None = None) -> str:
    """The drawing code's fingerprint: its files' bytes and numpy's and OpenCV's versions."""
    root = root or ROOT
    digest = hashlib.sha256(f"numpy {np.__version__} cv2 {cv2.__version__}".encode())
    for pattern in SOURCES:
        for path in sorted(root.glob(pattern)):
            if path.name != "frame_cache.py":
                digest.update(path.relative_to(root).as_posix().encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _drawing_modules() -> list:
    return [module for name, module in sorted(sys.modules.items())
            if module is not None and name != __name__
            and (name.startswith("hardware.synthetic.")
                 or name in ("hardware.tags.format", "hardware.tags.sheet"))]


def _names(module) -> dict[str, int]:
    """A module's names (and its classes' attributes), by identity."""
    names = {}
    for name, value in vars(module).items():
        if name.startswith("__"):  # Python's own (pickle adds __slotnames__ to classes)
            continue
        names[name] = id(value)
        if isinstance(value, type) and value.__module__ == module.__name__:
            for attr, member in vars(value).items():
                if not attr.startswith("__"):
                    names[f"{name}.{attr}"] = id(member)
    return names


def _unchanged() -> bool:
    """Every drawing module's names as they were when first seen after `enable()`."""
    for module in _drawing_modules():
        seen = _seen_names.setdefault(module.__name__, _names(module))
        if _names(module) != seen:
            return False
    return True


def enable(folder: Path | None) -> None:
    """Keep answers in memory, and on disk under ``folder`` (None: memory only). Folders of
    other source hashes are removed."""
    global _on, _folder, _seen_names
    _seen_names = {}
    _unchanged()  # the names of the drawing modules imported so far, as they are now
    _memory.clear()
    _on, _folder = True, None
    if folder is not None:
        current = source_hash()
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.iterdir():
            if old.is_dir() and old.name != current:
                _remove(old)
        _folder = folder / current
        _folder.mkdir(exist_ok=True)


def disable() -> None:
    global _on, _folder
    _on, _folder = False, None
    _memory.clear()


@contextlib.contextmanager
def enabled(folder: Path | None):
    """On with ``folder`` inside the block; as it was before after (the cache's own tests)."""
    global _on, _folder, _seen_names
    before = _on, _folder, OrderedDict(_memory), _seen_names, dict(counts)
    enable(folder)
    counts.update(hits=0, misses=0, bypassed=0)
    try:
        yield
    finally:
        _on, _folder, memory, _seen_names, old_counts = before
        _memory.clear()
        _memory.update(memory)
        counts.update(old_counts)


def _remove(folder: Path) -> None:
    """Another process may remove it at the same time."""
    for path in folder.iterdir():
        with contextlib.suppress(OSError):
            path.unlink()
    with contextlib.suppress(OSError):
        folder.rmdir()


def _plain(value, depth: int = 0) -> bool:
    """Made only of values whose pickle is all that decides them."""
    if depth > 8:
        return False
    if isinstance(value, PLAIN):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype != object
    if isinstance(value, (tuple, list, set, frozenset)):
        return all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(_plain(k, depth + 1) and _plain(v, depth + 1) for k, v in value.items())
    if isinstance(value, type):  # a classmethod's class
        return value.__module__.startswith("hardware.synthetic.")
    if dataclasses.is_dataclass(value):
        return (type(value).__module__.startswith("hardware.synthetic.")
                and all(_plain(getattr(value, f.name), depth + 1)
                        for f in dataclasses.fields(value)))
    return False


class _KeyPickler(pickle.Pickler):
    """Pickles an answer of a cached call (a camera: 55 MB of arrays at scale 2) as the key
    it was made under, and a set in the same order in every process."""

    def persistent_id(self, obj):
        return getattr(obj, "__dict__", {}).get(TAG)

    def reducer_override(self, obj):
        """A set in sorted order: the same key in every process (strings hash apart)."""
        if isinstance(obj, (set, frozenset)):
            return type(obj), (sorted(obj, key=repr),)
        return NotImplemented


def _key(function, args, kwargs) -> str | None:
    if not (_plain(args) and _plain(kwargs)) or not _unchanged():
        return None
    data = io.BytesIO()
    _KeyPickler(data, protocol=5).dump((args, sorted(kwargs.items())))
    digest = hashlib.blake2b(f"{function.__module__}.{function.__qualname__}".encode())
    digest.update(data.getbuffer())
    return digest.hexdigest()[:32]


def _tagged(value, key: str):
    """An object answer remembers its key (`_KeyPickler`); a copy made of it does not."""
    if dataclasses.is_dataclass(value) and hasattr(value, "__dict__"):
        object.__setattr__(value, TAG, key)  # frozen dataclasses too
    return value


def _remember(key: str, data: bytes) -> None:
    _memory[key] = data
    _memory.move_to_end(key)
    total = sum(len(d) for d in _memory.values())
    while total > MEMORY_BYTES and len(_memory) > 1:
        total -= len(_memory.popitem(last=False)[1])


def _load(key: str) -> bytes | None:
    data = _memory.get(key)
    if data is None and _folder is not None:
        try:
            data = (_folder / key).read_bytes()
        except OSError:
            return None
        _remember(key, data)
    return data


def _store(key: str, value) -> None:
    data = pickle.dumps(value, protocol=5)
    _remember(key, data)
    if _folder is not None:
        part = _folder / f"{key}.{os.getpid()}.part"
        part.write_bytes(data)
        os.replace(part, _folder / key)  # whole or absent for the other processes


def cached(function):
    """Render once per key while the cache is on (module docstring). Only the outermost
    cached call is kept: a throw, not each of its frames again."""

    @functools.wraps(function)
    def rendered(*args, **kwargs):
        global _depth
        if not _on or _depth or threading.current_thread() is not threading.main_thread():
            return function(*args, **kwargs)
        key = _key(function, args, kwargs)
        data = _load(key) if key is not None else None
        if data is not None:
            counts["hits"] += 1
            return _tagged(pickle.loads(data), key)
        counts["misses" if key is not None else "bypassed"] += 1
        _depth += 1
        try:
            value = function(*args, **kwargs)
        finally:
            _depth -= 1
        if key is None:
            return value
        _store(key, value)
        return _tagged(value, key)

    return rendered

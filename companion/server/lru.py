"""A dict with a size: the least recently used entry goes when a new one would exceed it.

The caches that live as long as a game (translated prompts and refusals, the VP chart)
are keyed by what they hold, so without a bound they grow with every distinct prompt for
a whole evening; with one they keep what is in use and let the rest go. Thread-safe: the
views of one game are built under its lock, but the host pages read without it.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from companion.server import locks


class LRU:
    """At most ``size`` entries; `get` and `put` count as a use."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("an LRU holds at least one entry")
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = locks.lock("lru")

    def get(self, key: Hashable, default: Any = None) -> Any:
        with self._lock:
            try:
                self._items.move_to_end(key)
            except KeyError:
                return default
            return self._items[key]

    def put(self, key: Hashable, value: Any) -> Any:
        """Keep ``value`` under ``key`` (dropping the oldest past the size); returns it."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

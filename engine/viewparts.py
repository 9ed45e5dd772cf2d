"""Parts of a view that did not change stay the same objects from one state to the next.

After an action the server translates the public view and diffs it for five recipients
(companion/game/views.py, companion/game/patches.py); a part it finds to be the very object it had
before needs no comparing at all (``is``), while an equal but new one must be compared byte
for byte. The rules copy a state's containers at every action, so a view built afresh is
all new objects. `Parts` gives back the object made before for the same inputs: the same
catalog (by identity; it is never changed) and the same position data (by their marshal
bytes: equal bytes are the same JSON, types and key order included; equal JSON with other
bytes only makes a new part). A view's parts are therefore shared between calls: views are
read-only to whoever asks for them (the server copies what it translates). The tests make
that loud: with ``Parts.checking`` on (tests/conftest.py) every part given back again is
first compared with what it was when made, and one changed in place raises
`SharedPartChanged` naming it.

Pure as far as any caller can tell: a part is a function of its inputs, the memo only saves
making it again (bounded; emptied when full; a thread that races another makes it twice).
"""
from __future__ import annotations

import marshal
from collections.abc import Callable
from typing import Any


class SharedPartChanged(AssertionError):
    """A view part shared between recipients was changed in place by whoever got it."""


class Parts:
    """A memo of view parts by (catalog, position data)."""

    checking = False  # tests: check each part is unchanged whenever it is given back

    def __init__(self, size: int = 1024) -> None:
        self._memo: dict[tuple, tuple] = {}
        self._made: dict[tuple, bytes] = {}  # checking: each part's bytes when made
        self._size = size

    def _unchanged(self, key: tuple, value: Any) -> Any:
        if self.checking and key in self._made and marshal.dumps(value, 2) != self._made[key]:
            raise SharedPartChanged(f"a shared view part was changed in place: now {value!r:.200}"
                                    " (views are read-only: copy before changing)")
        return value

    def get(self, anchor: Any, inputs: Any, make: Callable[[], Any]) -> Any:
        """``make()``, or what it made before for the same ``anchor`` (by identity: the
        catalog the part reads, held here so its id stays its own) and ``inputs`` (every
        piece of the position the part reads, by their marshal bytes)."""
        key = (id(anchor), marshal.dumps(inputs))
        found = self._memo.get(key)
        if found is not None and found[0] is anchor:
            return self._unchanged(key, found[1])
        value = make()
        self._keep(key, (anchor, value))
        return value

    def same(self, value: Any) -> Any:
        """``value`` (a dict or list), or the equal one given before whose keys (in order)
        and items are the same objects: a group of unchanged parts stays one object too."""
        items = value.items() if type(value) is dict else enumerate(value)
        key = (type(value), *(x for k, v in items for x in (k, id(v))))
        found = self._memo.get(key)
        if found is not None:  # its items are alive (held by it): equal ids, same objects
            return self._unchanged(key, found[1])
        self._keep(key, (None, value))  # the old container holds its items: ids stay theirs
        return value

    def _keep(self, key: tuple, entry: tuple) -> None:
        if len(self._memo) >= self._size:
            self._memo.clear()
            self._made.clear()
        self._memo[key] = entry
        if self.checking:
            self._made[key] = marshal.dumps(entry[1], 2)  # 2: no refs, whose flags vary

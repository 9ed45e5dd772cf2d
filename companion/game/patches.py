"""Small changes between two views, so a phone gets what changed rather than the whole view.

A patch is a list of operations on plain JSON, applied in order (web/static/js/client.js has
the same five lines of JavaScript):

    ["s", path, value]   set the value at path (a new key too)
    ["d", path]          delete the key at path
    ["t", path, n]       drop the first n items of the list at path
    ["a", path, items]   append items to the list at path

``path`` is a list of object keys and list indexes. Objects are compared key by key; a list
that only lost items at its front and gained some at its end (a log that scrolls) becomes
"t" + "a"; a list of as many objects, a few of them changed in place, is patched inside
those; any other changed list is set whole; an object whose keys changed order too.
`apply(old, diff(old, new))` encodes to the same JSON as ``new``, byte for byte.
"""
from __future__ import annotations

import marshal
from operator import is_
from typing import Any

JSON = Any


def diff(old: JSON, new: JSON, path: list | None = None, memo: dict | None = None) -> list:
    """The operations that turn ``old`` into ``new``.

    ``memo``: one dict for the patches of one change to every recipient. Their views share
    their public parts (companion/game/shared.py), so each shared pair of parts is compared once;
    a memo must not outlive the views it was used with (it keys on their ids)."""
    path = path or []
    kind = type(old)
    if kind is type(new) and (kind is dict or kind is list):
        if memo is not None and len(path) <= 2:  # a part several recipients' views share
            key = (id(old), id(new), *path)
            found = memo.get(key)
            if found is None:
                found = memo[key] = (_dict_diff(old, new, path, memo) if kind is dict
                                     else _list_diff(old, new, path))
            return found
        return _dict_diff(old, new, path, memo) if kind is dict else _list_diff(old, new, path)
    return [] if same(old, new) else [["s", path, new]]


def _dict_diff(old: dict, new: dict, path: list, memo: dict | None) -> list:
    ops: list = []
    shared = memo is not None and len(path) <= 1  # parts every recipient's view holds
    keys = list(new)
    if list(old) != keys:
        ops += [["d", [*path, key]] for key in old if key not in new]
        stay = _in_place(old, new, keys)
        if stay < len(keys):  # reordered: a set keeps a key where it was, so the keys
            moved = keys[stay:]  # after the last in place go out and in again, in order
            ops += [["d", [*path, key]] for key in moved if key in old]
            ops += [["s", [*path, key], new[key]] for key in moved]
            keys = keys[:stay]
    get = old.get
    for key in keys:
        value = new[key]
        before = get(key, _ABSENT)
        if before is value:  # a part reused from the view before: nothing to compare
            continue
        kind = type(value)
        if before is _ABSENT or kind is not type(before):
            ops.append(["s", [*path, key], value])
        elif kind is not dict and kind is not list:  # a scalar: set unless the same
            if not (before == value and (kind in _PLAIN or same(before, value))):
                ops.append(["s", [*path, key], value])
        elif not (_same_shared(before, value, memo) if shared else same(before, value)):
            ops += diff(before, value, [*path, key], memo)
    return ops


def _in_place(old: dict, new: dict, keys: list) -> int:
    """How many of ``new``'s first keys (``keys``) are in ``old`` in the same order (others
    of ``old`` between them aside): those stay where they are."""
    kept = iter([key for key in old if key in new])
    stay = 0
    for key in keys:
        if key not in old or not any(key == other for other in kept):
            break
        stay += 1
    return stay


def _same_shared(a: JSON, b: JSON, memo: dict) -> bool:
    """`same`, once per pair of parts for every recipient of one change (their views share
    their public parts)."""
    key = ("same", id(a), id(b))
    found = memo.get(key)
    if found is None:
        found = memo[key] = same(a, b)
    return found


_ABSENT = object()
_PLAIN = frozenset((str, int, bool, type(None)))


def same(a: JSON, b: JSON) -> bool:
    """Do ``a`` and ``b`` encode to the same JSON? ``==`` is not enough: 1 == True == 1.0,
    and two objects with their keys in another order are equal (the pages show them in
    their order). In C: ``==`` first, then, where that could differ, `exact`, then repr."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b) or a != b:
        return False
    return kind in _PLAIN or exact(a) == exact(b) or repr(a) == repr(b)


def exact(value: JSON) -> bytes:
    """Bytes that tell JSON values apart, types and key order included (marshal: 4x
    faster than repr). Equal bytes mean the same JSON; but the same JSON can give other
    bytes (marshal marks an object referenced more than once, so it depends on who else
    holds it): then ``repr``, slower but exact, decides."""
    return marshal.dumps(value)


def _same_items(old: list, new: list) -> bool:
    """`same` for every pair of items (the lists as long): identical items at C speed."""
    if old != new:
        return False
    return (all(map(is_, old, new)) or exact(old) == exact(new)
            or all(map(same, old, new)))


def _list_diff(old: list, new: list, path: list) -> list:
    """A scrolled list (front dropped, end appended) as "t"/"a"; else set whole.

    The fewest items dropped such that the rest of ``old`` starts ``new``; only a drop
    whose first kept item is ``new[0]`` can, so the others are not compared."""
    if not old:
        return [["a", path, new]] if new else []
    if new:
        first = new[0]
        for drop in range(max(0, len(old) - len(new)), len(old)):
            if not same(old[drop], first):
                continue
            kept = len(old) - drop
            if _same_items(old[drop:], new[:kept]):
                ops = [["t", path, drop]] if drop else []
                if len(new) > kept:
                    ops.append(["a", path, new[kept:]])
                return ops
    if len(old) == len(new):
        return _items_diff(old, new, path)
    return [["s", path, new]]


def _items_diff(old: list, new: list, path: list) -> list:
    """A list of objects where some items changed in place (a step's count, one player's
    row): the changes inside those items (an item where most keys changed is set whole);
    a list of scalars, or one where every item changed, is set whole."""
    changed = [i for i in range(len(new)) if not same(old[i], new[i])]
    if (len(changed) == len(new) > 1) or not all(
            type(old[i]) is dict and type(new[i]) is dict for i in changed):
        return [["s", path, new]]
    ops: list = []
    for i in changed:
        inside = _dict_diff(old[i], new[i], [*path, i], None)
        ops += inside if 2 * len(inside) <= len(new[i]) else [["s", [*path, i], new[i]]]
    return ops


def apply(doc: JSON, ops: list) -> JSON:
    """The document with ``ops`` applied. The input is not changed: each operation copies
    only the containers on its path (the rest is shared with the input)."""
    for op in ops:
        kind, path = op[0], op[1]
        if kind == "s" and not path:
            doc = op[2]
            continue
        doc = root = _copy(doc)
        parent = root
        for key in path[:-1]:
            parent[key] = _copy(parent[key])
            parent = parent[key]
        if kind == "s":
            parent[path[-1]] = op[2]
        elif kind == "d":
            del parent[path[-1]]
        else:
            if path:
                parent[path[-1]] = _copy(parent[path[-1]])
                target = parent[path[-1]]
            else:
                target = root
            if kind == "t":
                del target[:op[2]]
            else:
                target.extend(op[2])
    return doc


def _copy(node: JSON) -> JSON:
    return node.copy() if isinstance(node, (dict, list)) else node


class Replica:
    """A Python client's copy of its view, kept from "view" and "patch" messages in order.

    What client.js does in the browser, for the tests' and benchmarks' Socket.IO clients.
    python-engineio hands each message to its own thread, so two patches the server sent in
    order can reach the handlers swapped (a browser never sees that): a patch that comes
    before its base waits here until the base is in. Thread-safe; ``on_view(message)`` is
    called, under the lock and in order, with every complete view message.
    """

    def __init__(self, on_view=None) -> None:
        from companion.server import locks

        self.current: dict | None = None
        self._on_view = on_view or (lambda message: None)
        self._early: dict[int, dict] = {}  # patches that arrived before their base
        self._lock = locks.rlock("replica")  # a leaf: on_view takes no lock of ours

    def view(self, message: dict) -> None:
        with self._lock:
            self._early = {b: p for b, p in self._early.items() if p["n"] > message["n"]}
            self._set(message)
            self._drain()

    def patch(self, message: dict) -> None:
        with self._lock:
            self._early[message["base"]] = message
            self._drain()
            if len(self._early) > 100:
                raise ValueError("patches on a base that never came")

    def _drain(self) -> None:
        while self.current is not None and self.current["n"] in self._early:
            patch = self._early.pop(self.current["n"])
            self._set(dict(apply(self.current, patch["ops"]), n=patch["n"]))

    def _set(self, message: dict) -> None:
        self.current = message
        self._on_view(message)

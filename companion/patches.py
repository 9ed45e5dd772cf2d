"""Small changes between two views, so a phone gets what changed rather than the whole view.

A patch is a list of operations on plain JSON, applied in order (web/static/js/client.js has
the same five lines of JavaScript):

    ["s", path, value]   set the value at path (a new key too)
    ["d", path]          delete the key at path
    ["t", path, n]       drop the first n items of the list at path
    ["a", path, items]   append items to the list at path

``path`` is a list of object keys and list indexes. Objects are compared key by key; a list
that only lost items at its front and gained some at its end (a log that scrolls) becomes
"t" + "a"; any other changed list is set whole. `apply(old, diff(old, new)) == new`.
"""
from __future__ import annotations

from typing import Any

JSON = Any


def diff(old: JSON, new: JSON, path: list | None = None) -> list:
    path = path or []
    if isinstance(old, dict) and isinstance(new, dict):
        ops: list = []
        for key in old:
            if key not in new:
                ops.append(["d", [*path, key]])
        for key, value in new.items():
            if key not in old:
                ops.append(["s", [*path, key], value])
            elif not _same(old[key], value):
                ops += diff(old[key], value, [*path, key])
        return ops
    if isinstance(old, list) and isinstance(new, list):
        return _list_diff(old, new, path)
    return [] if _same(old, new) else [["s", path, new]]


def _same(a: JSON, b: JSON) -> bool:
    return type(a) is type(b) and a == b


def _list_diff(old: list, new: list, path: list) -> list:
    """A scrolled list (front dropped, end appended) as "t"/"a"; else set whole."""
    for drop in range(len(old) + 1):
        kept = len(old) - drop
        if kept <= len(new) and all(_same(old[drop + i], new[i]) for i in range(kept)):
            ops = []
            if drop:
                ops.append(["t", path, drop])
            if len(new) > kept:
                ops.append(["a", path, new[kept:]])
            if kept or not old:
                return ops
            break
    return [["s", path, new]]


def apply(doc: JSON, ops: list) -> JSON:
    """The document with ``ops`` applied (the input is not changed)."""
    import copy

    doc = copy.deepcopy(doc)
    for op in ops:
        kind, path = op[0], op[1]
        if kind == "s" and not path:
            doc = op[2]
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if kind == "s":
            parent[path[-1]] = op[2]
        elif kind == "d":
            del parent[path[-1]]
        else:
            target = parent[path[-1]] if path else doc
            if kind == "t":
                del target[:op[2]]
            else:
                target.extend(op[2])
    return doc

"""Project code that reaches into a web library's private names (issue 65): a minor release of
flask, flask-socketio, python-socketio, python-engineio or simple-websocket may rename or drop
any of them, silently undoing what we built on it.

What counts, found in the source's syntax tree:
- ``x._name`` read or written, ``getattr(x, "_name")`` / ``setattr`` / ``hasattr``, where
  ``_name`` is a private name those libraries define (a function, class, module-level name or
  ``self._name`` attribute of theirs) and our own code defines nowhere (a private name of
  ours, ``self._lock`` say, that a library also happens to use is ours, not theirs);
- ``from <library>... import _name``;
- assigning to an attribute of a library module (``engineio.socket.packet = ...``): that
  replaces a part of the library for the whole process.
"""
from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

LIBRARIES = ("flask", "flask_socketio", "socketio", "engineio", "simple_websocket")


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def defined_privates(paths) -> set[str]:
    """The private names the files in ``paths`` define."""
    names: set[str] = set()
    for path in paths:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
    return {name for name in names if is_private(name)}


def library_files() -> list[Path]:
    files = []
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, name
        files += sorted(Path(spec.origin).parent.rglob("*.py"))
    return files


def _library_modules(tree: ast.AST) -> set[str]:
    """Local names bound to a library module by ``import engineio.socket`` and the like."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in LIBRARIES:
                    bound.add(alias.asname or alias.name.split(".")[0])
    return bound


def _root(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def reaches(source: str, theirs: set[str], ours: set[str], where: str = "<source>") -> list[str]:
    """Each place in ``source`` that reads or writes a library's private name or part."""
    tree = ast.parse(source)
    modules = _library_modules(tree)
    found = []

    def theirs_only(name: str) -> bool:
        return is_private(name) and name in theirs and name not in ours

    for node in ast.walk(tree):
        line = f"{where}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute) and theirs_only(node.attr):
            found.append(f"{line}: .{node.attr}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
              and isinstance(node.args[1].value, str) and theirs_only(node.args[1].value)):
            found.append(f"{line}: {node.func.id}(..., {node.args[1].value!r})")
        elif (isinstance(node, ast.ImportFrom) and node.module
              and node.module.split(".")[0] in LIBRARIES):
            found += [f"{line}: import {a.name}" for a in node.names if is_private(a.name)]
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and _root(target) in modules:
                    found.append(f"{line}: assigns {ast.unparse(target)}")
    return found

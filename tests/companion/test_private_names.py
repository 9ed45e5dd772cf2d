"""No module of companion/ reaches into another module's private names (issue 44, item 5):
what a module offers others has a public name, so renaming a private helper never breaks a
caller it does not know of. Read from the sources with `ast`: an import of a ``_name`` from a
project module, and ``X._name`` where ``X`` was imported from one (a module or a class)."""
from __future__ import annotations

import ast
from pathlib import Path

from tests.imports import FOLDERS, ROOT


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _ours(module: str | None) -> bool:
    return bool(module) and module.split(".")[0] in FOLDERS


def private_uses(root: Path) -> list[str]:
    """``path:line module.name`` for each use of another project module's private name."""
    found: list[tuple[str, int, str]] = []
    for path in sorted((root / "companion").rglob("*.py")):
        rel = path.relative_to(root)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported: dict[str, str] = {}  # local name -> the project module it came from
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and _ours(node.module):
                for alias in node.names:
                    if _private(alias.name):
                        found.append((str(rel), node.lineno, f"{node.module}.{alias.name}"))
                    imported[alias.asname or alias.name] = node.module
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if _ours(alias.name):
                        imported[alias.asname or alias.name.split(".")[0]] = alias.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and _private(node.attr)
                    and isinstance(node.value, ast.Name) and node.value.id in imported):
                found.append((str(rel), node.lineno, f"{node.value.id}.{node.attr}"))
    return [f"{rel}:{line} {name}" for rel, line, name in sorted(found)]


def test_no_module_of_companion_uses_another_modules_private_names():
    assert private_uses(ROOT) == []


def test_the_scan_finds_a_planted_private_import_and_attribute(tmp_path):
    (tmp_path / "companion").mkdir()
    (tmp_path / "companion" / "deck.py").write_text(
        "import os\n"
        "from companion.box.catalog import _deep_merge, load_kind\n"
        "from companion.game.service import GameService\n"
        "os._exit(0)\n"  # the standard library's: not ours
        "GameService._detach({})\n"
        "load_kind._cache\n")
    assert private_uses(tmp_path) == [
        "companion/deck.py:2 companion.box.catalog._deep_merge",
        "companion/deck.py:5 GameService._detach",
        "companion/deck.py:6 load_kind._cache"]

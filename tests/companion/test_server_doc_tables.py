"""docs/server.md's "Threads and locks" tables against the code (issue 65): every lock made
through companion/server/locks.py, every named thread of companion/ and hardware/, and every
lock hardware/ makes for itself is listed, so the tables cannot fall behind the code."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## Threads and locks"


def section() -> str:
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start:end if end > 0 else None]


def modules(*parts: str):
    for part in parts:
        for path in sorted((ROOT / part).rglob("*.py")):
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def server_locks() -> dict[str, str]:
    """The name of every lock made through ``locks.lock/rlock/condition`` -> where."""
    found = {}
    for path, tree in modules("companion", "hardware"):
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "locks"
                    and node.func.attr in ("lock", "rlock", "condition") and node.args
                    and isinstance(node.args[0], ast.Constant)):
                found[node.args[0].value] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return found


def _constant_prefix(node: ast.AST, names: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.JoinedStr) and node.values:
        return _constant_prefix(node.values[0], names)
    return None


def thread_names() -> dict[str, str]:
    """The name (its constant start) of every ``threading.Thread(name=...)`` -> where."""
    found = {}
    for path, tree in modules("companion", "hardware"):
        names = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                 for t in n.targets if isinstance(t, ast.Name)
                 and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "Thread"):
                for keyword in node.keywords:
                    if keyword.arg == "name":
                        name = _constant_prefix(keyword.value, names)
                        assert name, f"{path}:{node.lineno}: a thread named at run time only"
                        found[name.strip()] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return found


def hardware_locks() -> set[tuple[str, str]]:
    """(module file, attribute) of every ``self.X = threading.Lock/RLock/Condition()`` in
    hardware/ (its own locks, not made through locks.py: hardware/ knows no app)."""
    found = set()
    for path, tree in modules("hardware"):
        for node in ast.walk(tree):
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Attribute)
                    and node.value.func.attr in ("Lock", "RLock", "Condition")):
                for target in node.targets:
                    if isinstance(target, ast.Attribute):
                        found.add((path.name, target.attr))
    return found


def test_every_lock_of_the_server_is_in_the_tables():
    text = section()
    missing = {name: where for name, where in server_locks().items()
               if f"`{name}`" not in text}
    assert len(server_locks()) >= 15 and not missing, missing


def test_every_named_thread_is_in_the_tables():
    text = section()
    names = thread_names()
    assert {"views", "camera recognizer", "dice-reader", "rpicam-reaper"} <= set(names)
    missing = {name: where for name, where in names.items()
               if not re.search(r"`" + re.escape(name), text)}
    assert not missing, missing


def test_every_lock_of_hardware_is_in_its_table():
    text = section()
    rows = [line for line in text.splitlines() if line.startswith("| `") and ".py` `" in line]
    listed = {(m, attr) for row in rows
              for m in re.findall(r"`(\w+\.py)`", row.split("|")[1])
              for attr in re.findall(r"`(_\w+)`", row.split("|")[1])}
    missing = hardware_locks() - listed
    assert len(hardware_locks()) >= 8 and not missing, sorted(missing)


def test_the_server_makes_its_locks_through_locks_py():
    """A plain ``threading`` lock in companion/ is one the lock-order check never sees (the
    CLI's own processes, companion/commands/, aside)."""
    plain = []
    for path, tree in modules("companion"):
        rel = path.relative_to(ROOT).as_posix()
        if rel in ("companion/server/locks.py",) or rel.startswith("companion/commands/"):
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "threading"
                    and node.func.attr in ("Lock", "RLock", "Condition")):
                plain.append(f"{rel}:{node.lineno}")
    assert not plain, plain

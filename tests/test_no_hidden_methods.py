"""No instance attribute takes a method's name: `self.x = ...` in a class that also defines
`def x` hides the method on every instance, and only the call that reaches it fails (at
stop 75, making `CameraWiring.would` private as `_would` hid its method `_would`: every
proposal of the simulated camera failed, and ruff saw nothing)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "companion", "hardware", "web")


def hidden_methods(source: str) -> list[str]:
    """``Class.name`` for each `self.name = ...` (plain or annotated) in a class whose body
    defines a method ``name``."""
    found = []
    for cls in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef)):
        methods = {n.name for n in cls.body
                   if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for node in ast.walk(cls):
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign):
                targets = [node.target]
            else:
                continue
            found += [f"{cls.name}.{t.attr}" for t in targets
                      if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                      and t.value.id == "self" and t.attr in methods]
    return found


def test_no_attribute_hides_a_method():
    found = [f"{path.relative_to(ROOT)}: {name}"
             for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             for name in hidden_methods(path.read_text(encoding="utf-8"))]
    assert found == []


def test_the_scan_finds_the_stop_75_fault():
    """The fault as it was: a deque named like the method that appends to it."""
    source = '''
class CameraWiring:
    def __init__(self):
        self._would: deque[dict] = deque(maxlen=5)
        self._kept = []

    def _would(self, step):
        self._would.append(step)
'''
    assert hidden_methods(source) == ["CameraWiring._would"]

"""companion/ and hardware/ name no game (issue 9): every identifier and every string that is
not a docstring is checked against tests/game_words.py. Comments and docstrings may give a
game as an example."""
import ast
from pathlib import Path

import pytest

from tests.game_words import hits

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for folder in ("companion", "hardware") for p in (ROOT / folder).rglob("*.py"))


def code_words(source: str) -> list[str]:
    """Identifiers and non-docstring strings of a Python source."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                out.append(node.value)
        elif isinstance(node, ast.Name):
            out.append(node.id)
        elif isinstance(node, ast.Attribute):
            out.append(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
            out.append(node.name)
        elif isinstance(node, ast.arg):
            out.append(node.arg)
        elif isinstance(node, ast.alias):
            out.append(node.name)
    return out


def test_the_checker_sees_code_and_skips_docstrings():
    source = '"""The council space."""\nCOUNCIL = "x"\ndef f():\n    """tax"""\n    return "wool"\n'
    found = [w for text in code_words(source) for w in hits(text)]
    assert sorted(found) == ["COUNCIL", "wool"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_game_words_outside_the_game_folders(path):
    found = {w for text in code_words(path.read_text(encoding="utf-8")) for w in hits(text)}
    assert not found, f"{path.relative_to(ROOT)} names a game's concepts: {sorted(found)}"

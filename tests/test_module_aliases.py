"""No module is imported under a single-letter alias (issue 36: `S` for state, `R` for
rules, `p` for protocol): a reader should not have to scroll up to learn what `F.x` is.
`np` and `cv2` style names are not single letters and stay."""
from __future__ import annotations

import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _python_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    return [ROOT / f for f in out if (ROOT / f).is_file()]


def single_letter_aliases(source: str, where: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found += [f"{where}:{node.lineno} {a.name} as {a.asname}"
                      for a in node.names if a.asname and len(a.asname) == 1]
    return found


def test_no_module_has_a_single_letter_alias():
    found = [hit for path in _python_files()
             for hit in single_letter_aliases(path.read_text(encoding="utf-8"),
                                              str(path.relative_to(ROOT)))]
    assert found == []


def test_the_check_sees_an_alias():
    """The walk finds both import forms, nested ones too (so the test above can fail)."""
    source = "import os.path as P\ndef f():\n    from engine import api as A\n"
    assert single_letter_aliases(source, "x.py") == ["x.py:1 os.path as P", "x.py:3 api as A"]

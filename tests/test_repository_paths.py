"""No path of one machine in the repository: the rules references are ``../shared`` beside
the checkout (tests/rules_reference.py), anything else is relative to the checkout."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|home/\w+|Users/\w+)/")


def test_no_absolute_path_of_a_development_machine():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    found = []
    for name in filter(None, files):
        path = ROOT / name
        if not path.is_file() or path.stat().st_size > 2_000_000:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += [f"{name}:{n}" for n, line in enumerate(text.splitlines(), 1)
                  if MACHINE_PATH.search(line)]
    assert found == []

"""The checkout's own files, walked without the folders a run writes into.

Tests that walk the repository (shellcheck's scripts, and any other that lists the tree) run
while other xdist workers write `.pytest_cache` (the frame cache), `test-artifacts`,
`.hypothesis` and `__pycache__`: a file listed there may be gone by the time it is read, and
the test fails for nothing. The folders left out are the ones .gitignore names (as
deploy/install.sh's build copy does), plus `.git`.
"""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def written_folders(root: Path = ROOT) -> set[str]:
    """The folder names .gitignore gives (``name/``), and ``.git``."""
    text = (root / ".gitignore").read_text() if (root / ".gitignore").is_file() else ""
    return {line.strip().rstrip("/") for line in text.splitlines()
            if line.strip().endswith("/") and not line.startswith(("#", "!"))} | {".git"}


def files(root: Path = ROOT) -> list[Path]:
    """Every file under ``root`` outside the written folders (at any depth), sorted."""
    skip = written_folders(root)
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in skip and not d.endswith(".egg-info")]
        found += [Path(folder) / name for name in names]
    return sorted(found)

"""Every `docs/<name>.md` named in the code, the tests, the docs, README or pyproject.toml is
a file of docs/ (a renamed or deleted note leaves no pointer to nothing behind)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMED = re.compile(r"(?<![\w./-])docs/([\w./-]+?\.md)\b")


def test_every_named_doc_exists():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    missing = []
    for name in filter(None, files):
        path = ROOT / name
        if path.suffix not in {".py", ".md", ".toml", ".js", ".html", ".sh", ".cfg"} \
                or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for doc in NAMED.findall(line):
                if not (ROOT / "docs" / doc).is_file():
                    missing.append(f"{name}:{number}: docs/{doc}")
    assert missing == []

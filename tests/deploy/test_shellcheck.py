"""Every shell script in the repository is shellcheck-clean."""
from __future__ import annotations

import subprocess

from tests.deploy.conftest import REPO, require


def shell_scripts():
    found = []
    for path in REPO.rglob("*"):
        if {".venv", ".venv313"} & set(path.parts) or ".git" in path.parts or not path.is_file():
            continue
        if path.suffix == ".sh":
            found.append(path)
        elif path.suffix == "" and path.stat().st_size < 1_000_000:
            with open(path, "rb") as fh:
                first = fh.readline(100)
            if first.startswith(b"#!") and (b"bash" in first or b"/sh" in first):
                found.append(path)
    return sorted(found)


def test_install_script_is_found():
    assert REPO / "deploy" / "install.sh" in shell_scripts()


def test_every_script_passes_shellcheck():
    shellcheck = require("shellcheck")
    scripts = shell_scripts()
    result = subprocess.run([shellcheck, "--severity=style", *map(str, scripts)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr

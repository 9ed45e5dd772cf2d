"""Every shell script in the repository is shellcheck-clean."""
from __future__ import annotations

import subprocess

from tests import checkout
from tests.deploy.conftest import REPO, require


def shell_scripts(root=REPO):
    """The shell scripts of the checkout, outside the folders a test run writes into (a
    file listed there may be gone when it is read: tests/checkout.py)."""
    found = []
    for path in checkout.files(root):
        if not path.is_file():
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


def test_the_folders_a_run_writes_are_not_walked(tmp_path):
    """.pytest_cache, test-artifacts, __pycache__ change while other workers run: a script
    there is not listed (nor read)."""
    (tmp_path / ".gitignore").write_text(".pytest_cache/\ntest-artifacts/\n__pycache__/\n")
    for folder in ("deploy", ".pytest_cache/d", "test-artifacts/browser", "deploy/__pycache__",
                   ".git/hooks"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "run.sh").write_text("#!/bin/sh\n")
    assert shell_scripts(tmp_path) == [tmp_path / "deploy" / "run.sh"]


def test_every_script_passes_shellcheck():
    shellcheck = require("shellcheck")
    scripts = shell_scripts()
    result = subprocess.run([shellcheck, "--severity=style", *map(str, scripts)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr

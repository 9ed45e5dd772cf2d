"""Helpers for the deploy tests: run deploy/install.sh for real into throwaway roots."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "deploy" / "install.sh"


def run_install(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True,
                            timeout=120)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def require(tool: str) -> str:
    path = shutil.which(tool)
    if not path:
        pytest.skip(f"{tool} is not installed (tests/install-system-packages.sh installs it)")
    return path


@pytest.fixture
def root(tmp_path) -> Path:
    target = tmp_path / "root"
    target.mkdir()
    return target

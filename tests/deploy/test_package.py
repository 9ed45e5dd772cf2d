"""The app as install.sh installs it on a Pi: a wheel built from the checkout (not editable).

Every data file the server serves or reads (templates, static assets including the vendored
socket.io client, translations, catalogs) must be inside the wheel, or the Pi serves a
broken page while the development tree works.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.deploy.conftest import REPO

DATA_DIRS = ("web/static/", "web/templates/", "web/translations/", "companion/catalogs/")


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("not a git checkout")
    return out.stdout.splitlines()


@pytest.mark.slow
def test_wheel_holds_every_served_file(tmp_path):
    files = tracked_files()
    source = tmp_path / "src"
    for name in files:  # a copy: building in the shared tree would leave build/ behind
        if (REPO / name).is_file():
            target = source / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, target)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                            "-w", str(tmp_path / "dist"), str(source)],
                           capture_output=True, text=True, timeout=300)
    if built.returncode != 0 and ("connection" in built.stderr.lower()
                                  or "network" in built.stderr.lower()):
        pytest.skip("building needs setuptools from PyPI, which is unreachable")
    assert built.returncode == 0, built.stderr
    [wheel] = list((tmp_path / "dist").glob("*.whl"))
    inside = set(zipfile.ZipFile(wheel).namelist())
    wanted = [n for n in files if n.startswith(DATA_DIRS) and not n.endswith(".pot")
              and Path(n).name not in ("README.md", ".gitkeep")]
    assert wanted, "no data files found"
    missing = [n for n in wanted if n not in inside]
    assert not missing, f"not in the wheel: {missing}"

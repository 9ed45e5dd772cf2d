"""systemd-analyze verify on the units as installed by install.sh into a throwaway root.

`verify` checks that ExecStart binaries exist, so the root gets the system's own unit
directory (for targets like multi-user.target) and small stand-ins at the paths the units
run (/opt/table-companion/venv/bin/companion, /usr/bin/cage, /bin/bash): the units are
checked exactly as written, with `systemd-analyze verify --man=no --root=ROOT`.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import cli
from tests.deploy.conftest import REPO, require, run_install

UNITS = ["table-companion.service", "table-companion-backup.service",
         "table-companion-backup.timer", "table-companion-kiosk.service"]


def stand_in(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)


@pytest.fixture(scope="module")
def verified_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("root")
    run_install("--root", str(root), "--kiosk", "--https")
    system_units = Path("/usr/lib/systemd/system")
    if not system_units.is_dir():
        pytest.skip("no systemd unit directory on this machine")
    shutil.copytree(system_units, root / "usr/lib/systemd/system", symlinks=True)
    for exe in ["opt/table-companion/venv/bin/companion", "usr/bin/cage", "usr/bin/bash"]:
        stand_in(root / exe)
    (root / "bin").symlink_to("usr/bin")
    return root


def verify(root: Path, unit: str) -> subprocess.CompletedProcess:
    analyze = require("systemd-analyze")
    return subprocess.run([analyze, "verify", "--man=no", f"--root={root}",
                           f"/etc/systemd/system/{unit}"], capture_output=True, text=True)


@pytest.mark.parametrize("unit", UNITS)
def test_unit_verifies_cleanly(verified_root, unit):
    result = verify(verified_root, unit)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr  # unknown keys are only warnings


def test_verify_would_catch_a_mistake(verified_root):
    """The check above can fail: a misspelt hardening key is reported."""
    units = verified_root / "etc/systemd/system"
    text = (units / "table-companion.service").read_text()
    (units / "misspelt.service").write_text(text.replace("NoNewPrivileges=", "NoNewPrivilege="))
    assert "Unknown key" in verify(verified_root, "misspelt.service").stderr


def exec_start_options(unit_text: str, subcommand: str) -> set[str]:
    line = next(x for x in unit_text.splitlines() if x.startswith("ExecStart=")
                and f"companion {subcommand}" in x)
    return set(re.findall(r"(--[a-z-]+)", line))


def command_options(name: str) -> set[str]:
    help_text = CliRunner().invoke(cli, [name, "--help"]).output
    assert "No such command" not in help_text, f"`companion {name}` is missing"
    return set(re.findall(r"(--[a-z-]+)", help_text))


def test_backup_unit_uses_options_backup_has():
    unit = (REPO / "deploy/systemd/table-companion-backup.service").read_text()
    assert exec_start_options(unit, "backup") <= command_options("backup")


def test_service_uses_options_serve_has():
    unit = (REPO / "deploy/systemd/table-companion.service").read_text()
    missing = exec_start_options(unit, "serve") - command_options("serve")
    assert not missing, f"companion serve lacks {sorted(missing)}"


def test_https_options_are_ones_serve_has(root):
    run_install("--root", str(root), "--https")
    env = (root / "etc/table-companion/companion.env").read_text()
    wanted = set(re.findall(r"(--[a-z-]+)", env))
    assert wanted == {"--certfile", "--keyfile"}
    missing = wanted - command_options("serve")
    assert not missing, f"companion serve lacks {sorted(missing)}"


@pytest.mark.parametrize("unit, limit", [("table-companion.service", 2.0),
                                         ("table-companion-backup.service", 1.0)])
def test_exposure_stays_low(verified_root, unit, limit):
    """`systemd-analyze security` (offline): the hardening does not quietly erode."""
    analyze = require("systemd-analyze")
    result = subprocess.run([analyze, "security", "--offline=true", f"--root={verified_root}",
                             "--no-pager", f"/etc/systemd/system/{unit}"],
                            capture_output=True, text=True)
    match = re.search(r"Overall exposure level for \S+: ([0-9.]+)", result.stdout)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= limit, result.stdout

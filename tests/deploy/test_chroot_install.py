"""install.sh for real on a clean Debian Bookworm root (debootstrap), in a chroot.

tests/deploy/chroot_install.sh makes (or takes from its cache, outside the checkout) a clean
Bookworm root with debootstrap from the Debian mirror, lays a throwaway overlay on it and,
in a private mount namespace, runs deploy/install.sh inside: apt-get, useradd, the virtualenv
from the lock with --require-hashes, the units enabled with systemctl --root (not booted).
With --kiosk: cage and Chromium are installed and the kiosk unit verifies; the
modules-load file and the kiosk's environment are checked. Then the installed unit's own
command runs as the service user with a demo table and
answers /healthz; backup and doctor work; a second install.sh run changes nothing; uninstall
keeps the games. It needs root, debootstrap, overlayfs and the network (the Debian mirror,
PyPI): a few minutes, about 6 more the first time (debootstrap). TC_DEPLOY_CHROOT=0 skips it.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from tests.deploy.conftest import REPO

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(1800),
    pytest.mark.skipif(os.environ.get("TC_DEPLOY_CHROOT") == "0",
                       reason="TC_DEPLOY_CHROOT=0"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_install_on_a_clean_bookworm_and_use_the_service(tmp_path):
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("debootstrap"):
        pytest.skip("needs root, unshare and debootstrap (tests/install-system-packages.sh)")
    port = free_port()
    script = REPO / "tests" / "deploy" / "chroot_install.sh"
    result = subprocess.run(["unshare", "-m", "bash", str(script), str(tmp_path), str(REPO),
                             str(port)], capture_output=True, text=True, timeout=1700)
    out = result.stdout
    assert result.returncode == 0, out[-6000:] + result.stderr[-4000:]
    assert "server answered: yes" in out
    health = json.loads((tmp_path / "healthz.json").read_text())
    assert health["ok"] is True and health["games"] >= 1  # the demo table(s)
    # the unit's own command ran (ExecStart with companion.env's values)
    assert "ExecStart: /opt/table-companion/venv/bin/companion serve" in out
    assert "--require-hashes -r /src/deploy/requirements-py311.txt" in out
    second = (tmp_path / "second.log").read_text()
    assert "wrote " not in second and "removed " not in second
    assert "unchanged: /etc/systemd/system/table-companion.service" in second
    report = json.loads((tmp_path / "doctor.json").read_text())
    status = {c["name"]: c["status"] for c in report["checks"]}
    assert status["data"] == "ok" and status["packages"] == "ok" and status["numpy"] == "ok"
    assert report["join_url"].endswith(f":{port}/")
    assert "kept: the games" in out
    # the USB-serial drivers load at boot, before the service resolves its DeviceAllow=
    modules = (tmp_path / "modules-load.conf").read_text().split()
    assert {"usbserial", "cdc_acm", "ch341", "cp210x", "ftdi_sio"} <= set(modules)
    # the kiosk (cage and Chromium installed for real) starts without an input device
    kiosk = (tmp_path / "kiosk.env").read_text().splitlines()
    assert "WLR_LIBINPUT_NO_DEVICES=1" in kiosk
    assert "KIOSK_BROWSER=/usr/bin/chromium" in kiosk
    backups = list((tmp_path / "upper" / "var" / "lib" / "table-companion" / "backups")
                   .glob("companion-*.sqlite3"))
    assert backups, "no backup was written"
    # the overlay and every bind mount are gone once the script has ended
    mounts = Path("/proc/self/mountinfo").read_text()
    assert str(tmp_path) not in mounts

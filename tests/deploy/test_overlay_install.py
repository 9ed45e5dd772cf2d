"""install.sh for real, in a copy-on-write overlay of this machine's root (opt-in, ~2 min).

The closest this machine gets to a fresh Pi without debootstrap: apt-get, useradd, the
virtualenv and pip, systemctl --root all really run, inside a private mount namespace whose
writes land in a temporary folder. Then the installed server runs as the service user and
answers, backup and doctor work, a second run changes no file, and uninstall keeps the
games. Where systemd-nspawn exists (Debian's systemd-container), the installed root is also
booted with systemd, private network, and a one-shot unit checks the hardened service from
inside: it runs as `companion` with no capabilities and NoNewPrivileges, / is read-only but
its StateDirectory, /tmp is private, the device policy is closed, the backup service works
and restore refuses while the service is active. It needs root, overlayfs and the network
(Debian mirror, PyPI), so it runs only with TC_DEPLOY_OVERLAY=1:

    TC_DEPLOY_OVERLAY=1 .venv/bin/python -m pytest tests/deploy/test_overlay_install.py
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess

import pytest

from tests.deploy.conftest import REPO

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("TC_DEPLOY_OVERLAY") != "1",
                       reason="opt-in: TC_DEPLOY_OVERLAY=1 (root, overlayfs, network, ~2 min)"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_real_install_upgrade_and_uninstall(tmp_path):
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("needs root and unshare")
    port = free_port()
    script = REPO / "tests" / "deploy" / "overlay_install.sh"
    result = subprocess.run(["unshare", "-m", "bash", str(script), str(tmp_path), str(REPO),
                             str(port)], capture_output=True, text=True, timeout=600)
    out = result.stdout
    assert result.returncode == 0, out[-4000:] + result.stderr[-4000:]
    assert "server answered: yes" in out
    second = (tmp_path / "second.log").read_text()
    assert "wrote " not in second and "unchanged: /etc/systemd/system/table-companion.service" \
        in second
    report = json.loads((tmp_path / "doctor.json").read_text())
    status = {c["name"]: c["status"] for c in report["checks"]}
    assert status["data"] == "ok" and status["service"] == "ok" and status["packages"] == "ok"
    assert report["join_url"].endswith(f":{port}/")
    assert "kept: the games" in out  # (the checkout was mounted read-only throughout)
    if shutil.which("systemd-nspawn"):
        check_booted_service(tmp_path)


def check_booted_service(work):
    """What tc-selftest saw inside the root booted with systemd-nspawn."""
    facts = {}
    for line in (work / "selftest.txt").read_text().splitlines():
        key, sep, value = line.partition("=")
        if sep and key.isidentifier():
            facts[key] = value
    assert json.loads(facts["healthz"])["ok"] is True
    assert facts["active"] == "active" and facts["timer"] == "active"
    assert facts["user"] == "companion" and facts["statedir_owner"] == "companion"
    assert facts["nonewprivs"] == "1" and int(facts["capeff"], 16) == 0
    assert facts["root_mount"].startswith("ro,")  # ProtectSystem=strict
    assert facts["state_mount"].startswith("rw,")  # ... except the StateDirectory
    assert facts["private_tmp"] == "1" and facts["devicepolicy"] == "closed"
    assert facts["backup_rc"] == "0" and facts["newest_backup"].endswith(".sqlite3")
    assert facts["restore_rc"] == "1"  # refused: the service is active
    doctor_report = json.loads((work / "doctor-systemd.json").read_text())
    service = next(c for c in doctor_report["checks"] if c["name"] == "service")
    assert service["status"] == "ok" and "table-companion.service active" in service["summary"]
    print(f"service start to /healthz: {facts['service_to_ready_ms']} ms, "
          f"container boot to /healthz: {facts['boot_to_ready_ms']} ms")

"""install.sh for real, in a copy-on-write overlay of this machine's root (opt-in, ~2 min).

The closest this machine gets to a fresh Pi without debootstrap: apt-get, useradd, the
virtualenv and pip, systemctl --root all really run, inside a private mount namespace whose
writes land in a temporary folder. Then the installed server runs as the service user and
answers, backup and doctor work, a second run changes no file, and uninstall keeps the
games. It needs root, overlayfs and the network (Debian mirror, PyPI), so it runs only with
TC_DEPLOY_OVERLAY=1:

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

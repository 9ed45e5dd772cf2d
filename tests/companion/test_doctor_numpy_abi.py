"""The NumPy ABI trap, reproduced on this Debian Bookworm machine: apt's python3-numpy (1.24)
and python3-bottleneck (a C extension Debian built against it, marked python3-numpy-abi9),
seen from a --system-site-packages virtualenv of Debian's /usr/bin/python3 that holds
NumPy 2 from PyPI: exactly what a Pi's virtualenv with apt's picamera2 and simplejpeg was.

`companion doctor` there names the module and gives the fix; the Camera Module's source
(RpicamSource, rpicam-vid as a child process) loads nothing of apt's and reads frames in
that same environment. tests/install-system-packages.sh installs python3-numpy and
python3-bottleneck; the virtualenv needs PyPI (NumPy 2 wheels, the app's dependencies).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import doctor
from companion.server import numpy_abi

REPO = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = Path("/usr/bin/python3")
DIST_PACKAGES = Path("/usr/lib/python3/dist-packages")

pytestmark = pytest.mark.slow


def apt_has(module: str) -> bool:
    return (DIST_PACKAGES / module).exists()


@pytest.fixture(scope="module")
def trap_venv(tmp_path_factory):
    """Debian's Python 3.11 in a virtualenv seeing apt's modules, with NumPy 2 and the app."""
    if not SYSTEM_PYTHON.exists() or not apt_has("numpy") or not apt_has("bottleneck"):
        pytest.skip("needs Debian's python3, python3-numpy and python3-bottleneck "
                    "(tests/install-system-packages.sh)")
    venv = tmp_path_factory.mktemp("trap") / "venv"
    subprocess.run([str(SYSTEM_PYTHON), "-m", "venv", "--system-site-packages", str(venv)],
                   check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
           "--disable-pip-version-check"]
    lock = REPO / "deploy" / "requirements-py311.txt"
    wanted = ["--require-hashes", "-r", str(lock)] if lock.exists() else ["numpy>=2", "."]
    subprocess.run([*pip, *wanted], check=True, cwd=REPO, timeout=900)
    subprocess.run([*pip, "--no-deps", "-e", str(REPO)], check=True,
                   timeout=300)
    return venv / "bin" / "python"


def run_in(python, code: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-c", code], capture_output=True, text=True, cwd=REPO,
                          env={**os.environ, **env}, timeout=300)


def test_the_trap_is_real_there(trap_venv):
    out = run_in(trap_venv, "import numpy; print(numpy.__version__); import bottleneck")
    assert out.stdout.startswith("2.")
    assert out.returncode != 0 and numpy_abi.is_abi_error(out.stderr)


def test_doctor_names_the_module_and_the_one_line_fix(trap_venv, tmp_path):
    out = subprocess.run([str(trap_venv.parent / "companion"), "doctor", "--json",
                          "--data", str(tmp_path)], capture_output=True, text=True, cwd=REPO,
                         timeout=600)
    report = json.loads(out.stdout)
    check = next(c for c in report["checks"] if c["name"] == "numpy")
    assert check["status"] == doctor.WARN
    assert "bottleneck" in check["details"]["trapped"]
    assert check["summary"].startswith("bottleneck: built for apt's NumPy 1.24")
    assert check["fix"] == numpy_abi.FIX and "\n" not in check["fix"]
    text = subprocess.run([str(trap_venv.parent / "companion"), "doctor", "--data",
                           str(tmp_path)], capture_output=True, text=True, cwd=REPO,
                          timeout=600).stdout
    assert "fix: " + numpy_abi.FIX in text


def test_rpicam_source_works_in_the_trapped_environment(trap_venv, tmp_path):
    program = tmp_path / "rpicam-vid"
    program.write_text(f"#!/bin/sh\nPYTHONPATH={REPO} exec {sys.executable} "
                       f"-m tests.hardware.standin.rpicam_vid \"$@\"\n")
    program.chmod(0o755)
    code = ("import sys\n"
            "from hardware.camera.sources import open_source\n"
            "source = open_source('rpicam'); source.open()\n"
            "frame = source.read(); source.close()\n"
            "print(frame.shape, frame.dtype)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('bottleneck', 'picamera2', 'simplejpeg')))\n")
    out = run_in(trap_venv, code, PATH=f"{tmp_path}:{os.environ['PATH']}",
                 STANDIN_RPICAM_FRAMES="40")  # 30 settling frames dropped, then one
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["(720, 1280) uint8", "[]"]


def test_no_trap_in_this_environment():
    """The project's own virtualenv sees no apt modules: doctor's check is ok."""
    result = doctor.check_numpy_abi(None)
    assert result.status == doctor.OK, result.summary

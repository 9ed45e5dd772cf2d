"""The appliance's locks (deploy/requirements-pyXY.txt, `make lock`): pinned, hashed, and each
resolvable to wheels only for the Pi (manylinux_2_28_aarch64) on its Python, so a Pi never
builds from source. Downloads from PyPI (about 70 MB a lock; pip's cache keeps them)."""
import re
import subprocess
import sys

import pytest

from tests.deploy.conftest import REPO

LOCKS = {"3.11": REPO / "deploy" / "requirements-py311.txt",
         "3.13": REPO / "deploy" / "requirements-py313.txt"}
# What pip on a Pi with glibc 2.28 or newer takes (Bookworm has 2.36, Trixie 2.41): pip
# download does not widen --platform to the older manylinux tags itself.
PI_PLATFORMS = [f"manylinux_2_{minor}_aarch64" for minor in range(28, 16, -1)] + [
    "manylinux2014_aarch64"]
PIN = re.compile(r"^([a-z0-9._-]+)==([^\s\\]+)", re.M)


def pins(path) -> dict[str, str]:
    return dict(PIN.findall(path.read_text()))


@pytest.mark.parametrize("python", LOCKS)
def test_every_requirement_is_pinned_with_hashes(python):
    text = LOCKS[python].read_text()
    requirements = [block for block in re.split(r"\n(?=[a-z])", text) if PIN.match(block)]
    assert len(requirements) >= 20
    for block in requirements:
        assert "--hash=sha256:" in block, block.splitlines()[0]
    for name in ("numpy", "opencv-python-headless", "flask", "zxing-cpp", "gunicorn"):
        assert name in pins(LOCKS[python])


@pytest.mark.parametrize("python", LOCKS)
def test_the_tests_run_on_the_appliance_pins(python):
    tests_lock = pins(REPO / "tests" / f"requirements-py{python.replace('.', '')}.txt")
    for name, version in pins(LOCKS[python]).items():
        assert tests_lock.get(name) == version, name


@pytest.mark.parametrize("python", LOCKS)
def test_the_tests_lock_holds_every_test_extra(python):
    """A tool added to pyproject's test extras but not to the lock is silently missing, and
    its tests skip (selenium did): `make lock` brings the locks up to date."""
    import tomllib

    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["test"]
    names = {re.match(r"[A-Za-z0-9._-]+", e).group(0).lower().replace("_", "-") for e in extras}
    tests_lock = pins(REPO / "tests" / f"requirements-py{python.replace('.', '')}.txt")
    assert names - set(tests_lock) == set()


def test_this_environment_has_the_pins_of_its_python():
    from importlib import metadata

    lock = LOCKS.get(f"{sys.version_info[0]}.{sys.version_info[1]}")
    if lock is None:
        pytest.skip("no lock for this Python")
    for name in ("numpy", "opencv-python-headless", "flask", "zxing-cpp"):
        assert metadata.version(name) == pins(lock)[name], name


@pytest.mark.slow
@pytest.mark.parametrize("python", LOCKS)
def test_each_lock_is_wheels_only_for_the_pi(python, tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
         "--only-binary=:all:", *(f"--platform={p}" for p in PI_PLATFORMS),
         "--python-version", python, "--implementation", "cp", "--no-deps",
         "--require-hashes", "-r", str(LOCKS[python]), "-d", str(tmp_path)],
        capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stderr[-3000:]
    wheels = sorted(p.name for p in tmp_path.iterdir())
    assert len(wheels) == len(pins(LOCKS[python]))
    assert all(name.endswith(".whl") for name in wheels)
    tag = "cp" + python.replace(".", "")
    compiled = [w for w in wheels if not w.endswith("-none-any.whl")]
    assert any(w.startswith("numpy-") for w in compiled)
    for wheel in compiled:
        assert "aarch64" in wheel and ("manylinux" in wheel), wheel
        assert f"-{tag}-" in wheel or "-abi3-" in wheel or f"{tag}-{tag}" in wheel, wheel

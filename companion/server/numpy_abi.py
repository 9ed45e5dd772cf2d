"""The NumPy ABI trap: a module compiled for NumPy 1.x seen from an environment with NumPy 2.

How it happens on a Pi: a virtualenv made with ``--system-site-packages`` sees apt's Python
modules (picamera2 and its compiled helper simplejpeg, built against Debian Bookworm's NumPy
1.24), while pip put NumPy 2 in the virtualenv (OpenCV >= 4.10 requires it). Importing such
a module then fails with "numpy.dtype size changed, may indicate binary incompatibility" or
"A module that was compiled using NumPy 1.x cannot be run in NumPy 2.x". Nothing can be
pinned to fix it inside the virtualenv (OpenCV needs NumPy 2); the fix is a virtualenv that
does not see apt's modules, with the Camera Module read through rpicam-vid.

`find_trapped()` lists the system modules this environment can see that were built for
NumPy 1.x and fail to import here. Each candidate is imported in a child process of this
same Python, so a broken binary cannot take doctor down with it.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

# Modules of the Camera Module's Python path that apt builds against its NumPy.
CAMERA_MODULES = ("picamera2", "simplejpeg")
# What NumPy 2 (and Cython's check) say when a NumPy 1.x extension is imported.
ABI_MESSAGES = ("numpy.dtype size changed", "compiled using NumPy 1.x",
                "_ARRAY_API not found", "numpy.core.multiarray failed to import",
                "binary incompatibility")
# Debian marks an extension module built against its NumPy with this dependency.
DEBIAN_ABI_DEPENDENCY = re.compile(r"\bpython3-numpy-abi\d+\b")
FIX = ("a virtualenv without apt's modules, the Camera Module read through rpicam-vid: "
       "sudo deploy/install.sh --no-picamera")


@dataclass
class Finding:
    numpy: str | None                 # NumPy of this environment
    system_numpy: str | None = None   # an apt NumPy this environment can see, if any
    system_dirs: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    trapped: dict[str, str] = field(default_factory=dict)  # module -> its import error


def major(version: str | None) -> int:
    try:
        return int((version or "0").split(".")[0])
    except ValueError:
        return 0


def numpy_version() -> str | None:
    from importlib import metadata

    try:
        return metadata.version("numpy")
    except metadata.PackageNotFoundError:
        return None


def system_dirs() -> list[Path]:
    """Folders on sys.path outside this environment (a --system-site-packages virtualenv
    sees apt's /usr/lib/python3/dist-packages), the standard library left out."""
    if sys.prefix == sys.base_prefix:
        return []  # not a virtualenv: what is installed here is this environment
    prefix = Path(sys.prefix).resolve()
    out = []
    for entry in sys.path:
        path = Path(entry or ".").resolve()
        if not path.is_dir() or path.is_relative_to(prefix):
            continue
        if path.name in ("site-packages", "dist-packages"):
            out.append(path)
    return out


def system_numpy(dirs: list[Path]) -> str | None:
    """The version of a NumPy installed in those folders (Debian: numpy-1.24.2.egg-info)."""
    for folder in dirs:
        for info in sorted(folder.glob("numpy-*.*-info")):
            return info.name.removeprefix("numpy-").split(".egg-info")[0].split(".dist-info")[0]
    return None


def debian_modules(dirs: list[Path]) -> list[str]:
    """Top-level modules in those folders of Debian packages built against apt's NumPy."""
    try:
        listed = subprocess.run(["dpkg-query", "-W", "-f", "${Package}\t${Depends}\n"],
                                capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    packages = [line.split("\t")[0] for line in listed.splitlines()
                if DEBIAN_ABI_DEPENDENCY.search(line)]
    if not packages:
        return []
    files = subprocess.run(["dpkg-query", "-L", *packages], capture_output=True, text=True,
                           timeout=30).stdout.splitlines()
    modules = set()
    for name in files:
        path = Path(name)
        for folder in dirs:
            if path.parent == folder or folder in path.parents:
                top = path.relative_to(folder).parts[0]
                if not top.endswith(("-info", ".pth")) and top != "__pycache__":
                    modules.add(top.split(".")[0])
    return sorted(modules)


PROBE = """
import importlib, json, sys
out = {}
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except BaseException as error:
        out[name] = f"{type(error).__name__}: {error}"
print(json.dumps(out))
"""


def import_errors(modules: list[str]) -> dict[str, str]:
    """module -> its import error (with NumPy's own explanation on stderr), for those that
    fail, each tried in a fresh child process of this Python."""
    out = {}
    for name in modules:
        run = subprocess.run([sys.executable, "-c", PROBE, name], capture_output=True,
                             text=True, timeout=60)
        try:
            errors = json.loads(run.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            errors = {name: f"the import crashed (exit code {run.returncode})"}
        if name in errors:
            out[name] = errors[name] + "\n" + run.stderr
    return out


def is_abi_error(message: str) -> bool:
    return any(text in message for text in ABI_MESSAGES)


def find_trapped() -> Finding:
    """What this environment's NumPy and the apt modules it sees make of each other."""
    finding = Finding(numpy=numpy_version())
    dirs = system_dirs()
    finding.system_dirs = [str(d) for d in dirs]
    if not dirs:
        return finding
    finding.system_numpy = system_numpy(dirs)
    if major(finding.numpy) < 2 or major(finding.system_numpy) >= 2:
        return finding  # the same NumPy generation on both sides: no trap
    present = [m for m in CAMERA_MODULES if any((d / m).exists() or list(d.glob(f"{m}.*"))
                                                for d in dirs)]
    finding.candidates = sorted(set(present) | set(debian_modules(dirs)))
    errors = import_errors(finding.candidates)
    finding.trapped = {name: message.strip() for name, message in errors.items()
                       if is_abi_error(message)}
    return finding

"""Every module of the app imports on the Python running the tests.

`make test313` runs a part of the suite on Python 3.13 (Trixie's); this is its floor: a
module no test of that part imports (a syntax or a standard library module the newer Python
dropped, a wheel built for one Python only) still fails there. Each module is imported in
a fresh interpreter, all of them in one, so nothing another test imported first hides it."""
from __future__ import annotations

import subprocess
import sys

from tests.imports import ROOT, modules

PACKAGES = ("engine", "companion", "hardware", "web")

IMPORT_ALL = """
import importlib, sys
failed = []
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except BaseException as exc:  # a module calling sys.exit at import is a failure too
        failed.append(f"{name}: {type(exc).__name__}: {exc}")
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


def import_all(root, names) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", IMPORT_ALL, *names], cwd=root,
                          capture_output=True, text=True, timeout=600)


def test_every_module_imports():
    names = sorted(modules(ROOT, PACKAGES))
    assert len(names) > 200 and "companion.app" in names and "engine.wwe" in names
    done = import_all(ROOT, names)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_module_that_cannot_import_is_named(tmp_path):
    """The planted case: one module of a package imports a module that does not exist."""
    package = tmp_path / "engine"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "fine.py").write_text("import json\n")
    (package / "gone.py").write_text("import imghdr_removed_in_a_newer_python\n")
    done = import_all(tmp_path, sorted(modules(tmp_path, ("engine",))))
    assert done.returncode == 1
    assert done.stdout.strip() == ("engine.gone: ModuleNotFoundError: No module named "
                                   "'imghdr_removed_in_a_newer_python'")

"""No project code reads or writes a private name of the web libraries, or replaces a part of
them (issue 65; tests/library_privates.py says what counts)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.library_privates import defined_privates, library_files, reaches

ROOT = Path(__file__).resolve().parents[1]
PROJECT = [p for part in ("companion", "engine", "hardware", "web", "bench", "deploy")
           for p in sorted((ROOT / part).rglob("*.py")) if ".venv" not in p.parts]


@pytest.fixture(scope="module")
def names():
    return defined_privates(library_files()), defined_privates(PROJECT)


def test_no_project_code_reaches_into_the_web_libraries(names):
    theirs, ours = names
    assert "_handle_eio_message" in theirs and "_handle_eio_message" not in ours
    found = []
    for path in PROJECT:
        found += reaches(path.read_text(encoding="utf-8"), theirs, ours,
                         str(path.relative_to(ROOT)))
    assert not found, found


def test_the_scan_finds_what_stop_60_did(names):
    """The planted cases: the two doors companion/server/frames.py used before issue 65."""
    theirs, ours = names
    planted = (
        "import engineio.socket\n"
        "from socketio.server import _x\n"
        "def guard(sio):\n"
        "    inner = sio._handle_eio_message\n"
        "    getattr(sio, '_handle_eio_message')\n"
        "    engineio.socket.packet = object()\n"
    )
    found = reaches(planted, theirs, ours | {"_x"})
    assert sorted(f.split(": ", 1)[1] for f in found) == [
        "._handle_eio_message", "assigns engineio.socket.packet",
        "getattr(..., '_handle_eio_message')", "import _x"], found


def test_a_private_name_of_ours_is_ours(names):
    theirs, ours = names
    assert "_lock" in theirs and "_lock" in ours
    assert reaches("def f(x):\n    return x._lock\n", theirs, ours) == []

"""companion/server/memory.py: glibc really takes the settings (seen through its own
malloc_info in a fresh interpreter), OpenBLAS really starts no threads, `companion serve`
makes them before it forks the worker, and the trimming thread really calls glibc and
stops when told."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.server import memory
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]

# In a fresh interpreter: a 1 MB block freed, then another one allocated and held: is it
# in a mapping of its own (malloc_info's "mmap" total, before and while it is held)?
HELD_MAPPED = """
import ctypes, json, re, sys
from companion.server import memory
taken = memory.configure() if sys.argv[1] == "configure" else {}
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.open_memstream.restype = ctypes.c_void_p
def mapped():
    buf, size = ctypes.c_char_p(), ctypes.c_size_t()
    stream = libc.open_memstream(ctypes.byref(buf), ctypes.byref(size))
    libc.malloc_info(0, ctypes.c_void_p(stream))
    libc.fclose(ctypes.c_void_p(stream))
    xml = ctypes.string_at(buf, size.value).decode()
    libc.free(buf)
    return int(re.findall(r'<total type="mmap" count="(\\d+)"', xml)[-1])
libc.free(ctypes.c_void_p(libc.malloc(1 << 20)))
before = mapped()
held = libc.malloc(1 << 20)
print(json.dumps({"taken": taken, "mapped": mapped() - before}))
"""


def held_mapped(how: str, **env) -> dict:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("MALLOC_") and k != "GLIBC_TUNABLES"}
    out = subprocess.run([sys.executable, "-c", HELD_MAPPED, how], cwd=ROOT, check=True,
                         capture_output=True, text=True, env=dict(clean, **env))
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture
def glibc():
    if memory._libc() is None or not hasattr(memory._libc(), "malloc_info"):
        pytest.skip("no glibc here")


def test_a_fixed_threshold_keeps_a_frame_sized_block_in_its_own_mapping(glibc):
    # glibc by default raises its threshold past a freed 1 MB block: the next one comes
    # out of the arena and stays there when freed; configured, it is mapped (and given
    # back at free)
    assert held_mapped("default")["mapped"] == 0
    configured = held_mapped("configure")
    assert configured["taken"] == {"arena_max": True, "mmap_threshold": True}
    assert configured["mapped"] == 1


def test_the_environment_wins(glibc):
    configured = held_mapped("configure", MALLOC_MMAP_THRESHOLD_="33554432",
                             MALLOC_ARENA_MAX="4")
    assert configured["taken"] == {"arena_max": False, "mmap_threshold": False}
    assert configured["mapped"] == 0  # the owner's 32 MB threshold, not ours


# In a fresh interpreter: one_blas_thread or not, then NumPy and OpenCV (each with its
# OpenBLAS) imported and a product made: how many threads the process runs
BLAS_THREADS = """
import json, os, sys
from companion.server import memory
taken = memory.one_blas_thread() if sys.argv[1] == "one" else None
import numpy, cv2
a = numpy.ones((300, 300), numpy.float32)
a @ a
print(json.dumps({"taken": taken, "threads": len(os.listdir("/proc/self/task"))}))
"""


def blas_threads(how: str, **env) -> dict:
    clean = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", BLAS_THREADS, how], cwd=ROOT, check=True,
                         capture_output=True, text=True, env=dict(clean, **env))
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_one_blas_thread_leaves_numpy_and_opencv_without_threads():
    if not Path("/proc/self/task").is_dir():
        pytest.skip("no /proc here")
    default = blas_threads("default")
    if default["threads"] == 1:
        pytest.skip("OpenBLAS starts no threads on one core")
    assert blas_threads("one") == {"taken": True, "threads": 1}
    owner = blas_threads("one", OPENBLAS_NUM_THREADS="2")  # the environment wins
    assert owner["taken"] is False and owner["threads"] > 1


def test_companion_serve_configures_malloc_before_it_forks_the_worker(monkeypatch, tmp_path):
    from companion.commands import serve

    calls = []
    monkeypatch.setattr(memory, "configure", lambda: calls.append("configure") or {})
    monkeypatch.setattr(memory, "one_blas_thread", lambda: calls.append("one BLAS thread"))
    monkeypatch.setattr(serve, "share_with_worker", lambda: None)  # no gc.freeze in pytest
    monkeypatch.setattr(serve.Server, "run", lambda self: calls.append("fork and run"))
    result = CliRunner().invoke(serve.command, ["--data", str(tmp_path), "--no-hardware",
                                                "--port", "0"])
    assert result.exit_code == 0, result.output
    assert calls == ["configure", "one BLAS thread", "fork and run"]


# `companion serve --demo` in a fresh interpreter, gunicorn's run (the fork) replaced by a
# look at what the master has imported by then
MASTER_IMPORTS = """
import json, sys
from companion.commands import serve
serve.Server.run = lambda self: print(json.dumps(sorted(m for m in sys.modules
    if m.split(".")[0] in ("flask", "flask_socketio", "cv2", "numpy", "engine")
    or m in ("companion.app", "companion.game.service"))))
serve.command(sys.argv[1:])
"""


def test_the_master_never_imports_the_app_even_for_the_demo(tmp_path):
    # the worker copies every page of the app it uses (reference counts, bytecode), so the
    # app imported before the fork is a second copy kept by the master (issue 37)
    run = subprocess.run([sys.executable, "-c", MASTER_IMPORTS, "--data", str(tmp_path),
                          "--no-hardware", "--port", "0", "--demo", "--demo-game", "monasterium"],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert any(line.strip().startswith("Join ") for line in lines), run.stdout  # demo made
    assert json.loads(lines[-1]) == []
    refused = subprocess.run([sys.executable, "-c", MASTER_IMPORTS, "--data", str(tmp_path),
                              "--no-hardware", "--demo", "--demo-game", "nosuchgame"],
                             cwd=ROOT, capture_output=True, text=True)
    assert refused.returncode == 2 and "no such game: nosuchgame" in refused.stderr


def test_the_trimming_thread_runs_and_stops():
    libc = memory._libc()
    if libc is None:
        pytest.skip("no glibc here")
    calls = []
    real = libc.malloc_trim

    class Counting:  # the real libc, its calls counted
        def __getattr__(self, name):
            return getattr(libc, name)

        def malloc_trim(self, pad):
            calls.append(pad)
            return real(pad)

    stop = threading.Event()
    original = memory._libc
    memory._libc = Counting
    try:
        thread = memory.start_trimming(every=0.01, stop=stop)
    finally:
        memory._libc = original
    assert thread is not None and thread.name == "malloc-trim" and thread.daemon
    wait_for(lambda: len(calls) >= 3, what="three trims")
    stop.set()
    thread.join(5)
    assert not thread.is_alive() and set(calls) == {0}

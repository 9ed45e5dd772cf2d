"""companion/server/memory.py: the worker's trimming thread really calls glibc and stops when
told."""
from __future__ import annotations

import threading

import pytest

from companion.server import memory
from tests.waiting import wait_for


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

"""Waiting in tests: poll a condition until it holds, within a generous bound.

CI runs the whole suite on a loaded 2-core machine, where a thread may wait seconds for a
core. So tests wait on a condition (or an event), never sleep a fixed time and expect
something to have happened by then, and never assert how long anything took (speed belongs
to bench/). A wait ends as soon as its condition holds: the bound costs nothing when all is
well, and only says how long to wait before calling the condition never met."""
from __future__ import annotations

import time

PATIENCE = 30.0
"""Seconds a wait may take before the test fails."""


def wait_for(predicate, timeout: float = PATIENCE, what: str = "condition"):
    """Poll until predicate() is truthy and return its value; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")

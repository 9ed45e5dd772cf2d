"""For every test:

- a view part shared between recipients that anybody changes in place fails the test where
  it is next given out (engine/viewparts.py, `Parts.checking`);
- Hypothesis has no deadline and no too-slow check: a property test's examples are not
  timed (speed is the benches' job); under a loaded machine its default 200 ms deadline
  failed a serial-protocol test at random (session 88);
- the app's locks are checked (companion/server/locks.py): a lock taken in an order the
  contract does not allow, or state touched without its owner's lock where the code says
  so, fails the test it happened in. The servers the tests start in a process of their own
  check too (``COMPANION_LOCK_CHECK``) and write to the same log; every order seen is
  listed at the end of the run (one log for all the workers of ``pytest -n``).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from engine import viewparts

settings.register_profile("untimed", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("untimed")

viewparts.Parts.checking = True

# one log for the run: the workers of `pytest -n` (pytest-xdist) start with the environment of
# the process that loaded this first, so they all write where its summary reads
if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("COMPANION_LOCK_LOG"):
    LOCK_LOG = Path(os.environ["COMPANION_LOCK_LOG"])
else:
    LOCK_LOG = Path(tempfile.mkdtemp(prefix="lock-order-")) / "locks.log"
LOCK_LOG.touch()
os.environ["COMPANION_LOCK_CHECK"] = "1"
os.environ["COMPANION_LOCK_LOG"] = str(LOCK_LOG)

from companion.server import locks  # noqa: E402 - after the environment that turns it on

locks.checking, locks.log_path = True, str(LOCK_LOG)

from tests.xdist_groups import Spread  # noqa: E402

SPREAD = Spread()


def _log_lines(start: int = 0) -> list[str]:
    with LOCK_LOG.open("rb") as f:
        f.seek(start)
        return f.read().decode("utf-8", "replace").splitlines()


@pytest.fixture(autouse=True)
def lock_order():
    """Fails the test in which a lock was taken against the contract (in this process or
    in a server it started)."""
    before, size = len(locks.violations), LOCK_LOG.stat().st_size
    yield
    found = list(locks.violations[before:])
    found += [line for line in _log_lines(size) if line.startswith("violation ")
              and not any(line[len("violation "):] in v for v in found)]
    if found:
        pytest.fail("lock order broken (companion/server/locks.py):\n" + "\n".join(found),
                    pytrace=False)


def pytest_runtest_logreport(report):
    SPREAD.note(report)


def pytest_terminal_summary(terminalreporter):
    """Every lock order seen in the run (this process and the servers it started); under
    ``pytest -n``, each process's share (tests/xdist_groups.py, `Spread`)."""
    spread = SPREAD.lines()
    if spread:
        terminalreporter.write_sep("-", "pytest -n: each process's share")
        for line in spread:
            terminalreporter.write_line(f"  {line}")
    orders = {f"{a} -> {b}" for a, b in locks.seen}
    orders |= {line[len("seen "):] for line in _log_lines() if line.startswith("seen ")}
    bad = [line for line in _log_lines() if line.startswith("violation ")]
    terminalreporter.write_sep("-", f"lock orders seen: {len(orders)}, "
                                    f"violations: {len(bad)}")
    for order in sorted(orders):
        terminalreporter.write_line(f"  {order}")


def pytest_sessionfinish(session, exitstatus):
    """A violation after the last test still fails the run."""
    if any(line.startswith("violation ") for line in _log_lines()) and exitstatus == 0:
        session.exitstatus = 1


@pytest.hookimpl(optionalhook=True)  # `pytest -p no:xdist` (no such hook then) still runs
def pytest_xdist_make_scheduler(config, log):
    """`make test`'s ``--dist loadgroup``: each test file one unit, the browser files one
    (tests/xdist_groups.py)."""
    if config.getoption("dist", "no") != "loadgroup":
        return None
    from tests.xdist_groups import BrowserGroupScheduling

    return BrowserGroupScheduling(config, log)


def pytest_collection_modifyitems(config, items):
    """A test that drives a browser lives in a ``*_browser.py`` file (its group's rule)."""
    from tests.xdist_groups import misplaced_browser_tests

    misplaced = misplaced_browser_tests(items)
    if misplaced:
        raise pytest.UsageError("a test that drives a browser belongs in a *_browser.py file "
                                "(tests/xdist_groups.py): " + ", ".join(misplaced))


def pytest_configure(config):
    """Each synthetic frame rendered once per run (hardware/synthetic/frame_cache.py): kept in
    memory and under pytest's cache folder, which the workers of `pytest -n` share.
    ``TC_FRAME_CACHE=0`` renders every frame each time it is asked for."""
    from hardware.synthetic import frame_cache

    if os.environ.get("TC_FRAME_CACHE", "1") != "0":
        cache = getattr(config, "cache", None)
        frame_cache.enable(cache.mkdir("synthetic-frames") if cache is not None else None)

"""How `make test` shares the suite between its two processes (pytest-xdist, `-n 2 --dist
loadgroup`): every test file is one unit of work, taken whole by one process (its module
fixtures made once), and the files named ``*_browser.py`` are one unit together: the tests
that drive a browser run one after another in one process, never two at once (each keeps
two cores busy with its browser and its server; two at once slow each other past their
timeouts). It is handed out first (`_TailLast`: by xdist's ``--loadscope-reorder`` alone, the
units with the most tests go first, and two files of many quick parametrised tests count more
tests than the browser group, 2026-11-27).

The groups are made here from the test ids, by a scheduler of our own, because
``xdist_group`` marks no longer group anything under pytest 9.2: xdist 3.8 writes the group
into ``item._nodeid``, which pytest 9.2 no longer reads (pytest-xdist issue #1386); nothing
fails, the tests are just spread. tests/test_xdist_groups.py runs a real ``pytest -n 2``.

The browser group's tail (`TAIL`, a few whole browser files, about 160 s in CI) is a unit of
its own, handed out last: the process that runs out of work first takes it. When that is the
browser group's own process (every other file still running elsewhere), nothing changes;
when the other process ran out first, it would have idled until the browser group ended, and
runs the tail instead, beside the rest of the browser group: two browsers at once, but only
while nothing else runs (a browser file keeps about 0.9 of a core busy, 2026-11-27).
``TC_BROWSER_TAIL`` names the tail's files (comma-separated file names; empty: no tail).

Files long for how few tests they have (`FIRST`) are handed out right after the browser
group: xdist hands out the files with the most tests first, so a file of one long test came
among the last and could end the run alone. ``TC_FIRST`` names them (comma-separated file
names or ends of paths, in order; empty: none).

The run ends with each process's share (`Spread`): the one that finished last is the critical
path. ``TC_BROWSER_GROUPS=2 make test TEST_WORKERS=3`` tries two browser groups at once.
"""
from __future__ import annotations

import os
import zlib
from collections import OrderedDict

from xdist.scheduler import LoadScopeScheduling

BROWSER = "browser"
BROWSER_TAIL = "browser-tail"
# whole browser files that play a whole evening through the pages, no tight timing
TAIL = ("test_evening_browser.py", "test_at_the_table_browser.py")
# whole files of other tests, long for how few tests they have (the end of their path),
# handed out right after the browser group, longest first: by the count of tests alone they
# come among the last, and the process that takes one may run it alone at the run's end
# while the other has run out of work (stop 78's CI: the non-browser process ended 95 s
# after the browser one, which had run the tail). Seconds: `pytest -n 2 --dist loadgroup
# --durations=40` over the non-browser files of 1-3 tests, 2026-11-27 23:08-23:16 UTC, load
# 9-14 (docs/pi-appliance.md, the CI figures).
FIRST = (
    "test_chroot_install.py",  # 1 test of minutes: install.sh in a debootstrapped Bookworm
    "engine/test_properties.py",  # 1 test, 185 s
    "monasterium/test_offered_brute.py",  # 3 tests, 107 s
    "companion/test_privacy.py",  # 2 tests, 70 s
    "companion/test_demo_faces.py",  # 1 test, 63 s
    "companion/test_demo_scene.py",  # 3 tests, 33 s
)


def is_browser_file(path: str) -> bool:
    return path.endswith("_browser.py")


def browser_groups() -> int:
    """How many browser groups (``TC_BROWSER_GROUPS``, 1 unless set): with 2, two browsers
    run at once, each group in its own process beside the other files (an experiment for a
    machine with cores to spare; on 2 cores they slow each other)."""
    return max(1, int(os.environ.get("TC_BROWSER_GROUPS", "1")))


def tail_files() -> set[str]:
    """The file names of the browser group's tail (``TC_BROWSER_TAIL``, else `TAIL`)."""
    names = os.environ.get("TC_BROWSER_TAIL")
    return set(TAIL) if names is None else {n.strip() for n in names.split(",") if n.strip()}


def first_files() -> list[str]:
    """The files handed out right after the browser group, in order, each by its name or
    the end of its path (``TC_FIRST``, comma-separated, else `FIRST`)."""
    names = os.environ.get("TC_FIRST")
    return list(FIRST) if names is None else [n.strip() for n in names.split(",") if n.strip()]


def scope_of(nodeid: str) -> str:
    """The unit of work of a test: its browser group (or the tail), else its file."""
    path = nodeid.split("::", 1)[0]
    if not is_browser_file(path):
        return path
    groups = browser_groups()
    if groups == 1:
        return BROWSER_TAIL if path.rsplit("/", 1)[-1] in tail_files() else BROWSER
    return f"{BROWSER}-{zlib.crc32(path.encode()) % groups}"


class _TailLast(OrderedDict):
    """xdist's queue of units (handed out from its front, the most tests first), but the
    browser group handed out first (a file of many quick parametrised tests may count more),
    then the files of `first_files` in their order, and the browser group's tail only when
    it is the last unit left."""

    def popitem(self, last: bool = True):
        if not last and BROWSER in self:
            self.move_to_end(BROWSER, last=False)
        elif not last and (first := self._first()) is not None:
            self.move_to_end(first, last=False)
        elif not last and len(self) > 1 and next(iter(self)) == BROWSER_TAIL:
            self.move_to_end(BROWSER_TAIL)
        return super().popitem(last)

    def _first(self) -> str | None:
        """The unit of the first of `first_files` still waiting, if any (none while a
        browser group waits: ``TC_BROWSER_GROUPS=2`` makes two, neither handed out later)."""
        if any(scope.startswith(BROWSER) and scope != BROWSER_TAIL for scope in self):
            return None
        for name in first_files():
            for scope in self:
                if scope == name or scope.endswith("/" + name):
                    return scope
        return None


class BrowserGroupScheduling(LoadScopeScheduling):
    """xdist's scope scheduling with `scope_of` for scopes, the browser tail handed out last."""

    def __init__(self, config, log=None) -> None:
        super().__init__(config, log)
        self.workqueue = _TailLast()

    def _split_scope(self, nodeid: str) -> str:
        return scope_of(nodeid)


def misplaced_browser_tests(items) -> list[str]:
    """Tests that drive a browser (the ``browser`` mark, the ``browser`` fixture or the run's
    ``chromium`` under it) outside a ``*_browser.py`` file: they would run beside the browser
    group."""
    return [item.nodeid for item in items
            if (item.get_closest_marker("browser") or {"browser", "chromium"} & set(getattr(
                item, "fixturenames", ()))) and not is_browser_file(item.path.name)]


class Spread:
    """Each process's share of a ``pytest -n`` run, written at its end: which one finished
    last is the run's critical path (the browser group's, or every other file's)."""

    def __init__(self) -> None:
        self.workers: dict[str, dict] = {}

    def note(self, report) -> None:
        node = getattr(report, "node", None)  # set by xdist on the reports of its workers
        if node is None:
            return
        share = self.workers.setdefault(node.gateway.id, {
            "tests": set(), "seconds": 0.0, "start": report.start, "stop": report.stop,
            "browser": 0})
        if report.nodeid not in share["tests"] and scope_of(report.nodeid).startswith(BROWSER):
            share["browser"] += 1
        share["tests"].add(report.nodeid)
        share["seconds"] += report.duration
        share["start"] = min(share["start"], report.start)
        share["stop"] = max(share["stop"], report.stop)

    def lines(self) -> list[str]:
        if not self.workers:
            return []
        began = min(s["start"] for s in self.workers.values())
        return [f"{worker}: {len(s['tests'])} tests ({s['browser']} in the browser group), "
                f"{s['seconds']:.0f} s in them, finished {s['stop'] - began:.0f} s after the "
                f"first test began" for worker, s in sorted(self.workers.items())]

"""How `make test` shares the suite between its two processes (pytest-xdist, `-n 2 --dist
loadgroup`): every test file is one unit of work, taken whole by one process (its module
fixtures made once), and the files named ``*_browser.py`` are one unit together: the tests
that drive a browser run one after another in one process, never two at once (each keeps
two cores busy with its browser and its server; two at once slow each other past their
timeouts). Being the largest unit it is handed out first (xdist's ``--loadscope-reorder``).

The groups are made here from the test ids, by a scheduler of our own, because
``xdist_group`` marks no longer group anything under pytest 9.2: xdist 3.8 writes the group
into ``item._nodeid``, which pytest 9.2 no longer reads (pytest-xdist issue #1386); nothing
fails, the tests are just spread. tests/test_xdist_groups.py runs a real ``pytest -n 2``.
"""
from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

BROWSER = "browser"


def is_browser_file(path: str) -> bool:
    return path.endswith("_browser.py")


def scope_of(nodeid: str) -> str:
    """The unit of work of a test: the browser group, else its file."""
    path = nodeid.split("::", 1)[0]
    return BROWSER if is_browser_file(path) else path


class BrowserGroupScheduling(LoadScopeScheduling):
    """xdist's scope scheduling with `scope_of` for scopes."""

    def _split_scope(self, nodeid: str) -> str:
        return scope_of(nodeid)


def misplaced_browser_tests(items) -> list[str]:
    """Tests that drive a browser (the ``browser`` mark, the ``browser`` fixture or the run's
    ``chromium`` under it) outside a ``*_browser.py`` file: they would run beside the browser
    group."""
    return [item.nodeid for item in items
            if (item.get_closest_marker("browser") or {"browser", "chromium"} & set(getattr(
                item, "fixturenames", ()))) and not is_browser_file(item.path.name)]

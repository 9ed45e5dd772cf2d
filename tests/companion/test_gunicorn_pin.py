"""companion/server/budget.py builds on gunicorn's gthread worker's own methods and
attributes (issue 67), which gunicorn documents nowhere and may change in any release: the
installed gunicorn must be the one they were read against, and each of them must still be
there (issue 65: where no supported door exists, a test pinned to the version)."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import gunicorn
from gunicorn.http import wsgi as gunicorn_wsgi
from gunicorn.workers import gthread

from companion.server import budget

ROOT = Path(__file__).resolve().parents[2]


def _attributes_set_in(cls) -> set[str]:
    """The ``self.x`` a class's own source assigns (instance attributes have no other trace)."""
    names = set()
    for klass in cls.__mro__:
        if klass is object:
            continue
        try:
            tree = ast.parse(inspect.getsource(klass).lstrip())
        except (OSError, TypeError):
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                    and isinstance(node.value, ast.Name) and node.value.id == "self"):
                names.add(node.attr)
    return names


def test_the_installed_gunicorn_is_the_one_the_budget_was_read_against():
    assert gunicorn.__version__ == budget.WRITTEN_FOR, (
        f"gunicorn {gunicorn.__version__} is installed; companion/server/budget.py was read "
        f"against {budget.WRITTEN_FOR}. Re-read ThreadWorker and TConn in gunicorn/workers/"
        f"gthread.py for {budget.OVERRIDDEN} and {budget.USED}, run test_availability.py, then "
        "move WRITTEN_FOR.")


def test_the_locks_pin_the_same_gunicorn():
    for lock in sorted((ROOT / "deploy").glob("requirements-py*.txt")):
        assert f"gunicorn=={budget.WRITTEN_FOR} " in lock.read_text(encoding="utf-8"), lock.name


def test_every_method_and_attribute_the_budget_uses_is_still_there():
    classes = {"ThreadWorker": gthread.ThreadWorker, "TConn": gthread.TConn}
    for name, methods in budget.OVERRIDDEN.items():
        for method in methods:
            assert callable(getattr(classes[name], method, None)), f"{name}.{method}"
    for name, used in budget.USED.items():
        if name in classes:
            have = _attributes_set_in(classes[name]) | set(dir(classes[name]))
        else:
            have = set(dir(gunicorn_wsgi))
        assert not set(used) - have, (name, set(used) - have)


def test_a_name_gunicorn_does_not_have_is_found_missing():
    """Planted: the check above would see a renamed attribute."""
    have = _attributes_set_in(gthread.ThreadWorker) | set(dir(gthread.ThreadWorker))
    assert "keepalived_conns" in have and "keepalived_connections" not in have

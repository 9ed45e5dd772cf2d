"""No import circles anywhere in the project (issue 23): engine, companion, hardware and web
read from the bottom up. The graph counts every import, including those inside functions."""
from __future__ import annotations

from tests.imports import circles, graph


def test_no_import_circles_in_the_project():
    assert circles(graph()) == []


def test_the_circle_finder_finds_a_circle_through_three_modules():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert circles(edges) == [["a", "b", "c"]]

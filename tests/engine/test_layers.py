"""Inside each game package the imports go one way (issue 23): every import, at module level
or inside a function, points down the order the package declares in its ``__init__.py``."""
from __future__ import annotations

import pytest

from tests.imports import ROOT, declared_layers, layer_violations

GAMES = ("wwe", "pillars", "monasterium")


@pytest.mark.parametrize("game", GAMES)
def test_every_import_points_down_the_declared_layers(game):
    package = ROOT / "engine" / game
    assert declared_layers(package / "__init__.py"), "LAYERS is empty"
    assert layer_violations(package) == []


def test_the_checker_sees_imports_inside_functions_and_unlisted_modules(tmp_path):
    package = tmp_path / "engine" / "toy"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('LAYERS = (("state",), ("rules",))\n')
    (package / "state.py").write_text("def f():\n    from engine.toy import rules\n")
    (package / "rules.py").write_text("from engine.toy import state\n")
    (package / "views.py").write_text("from . import rules\n")
    assert layer_violations(package, tmp_path) == [
        "views is in no layer",
        "engine/toy/state.py:2 imports engine.toy.rules, which is not below it in LAYERS"]


def test_no_engine_module_is_over_800_lines():
    """A reader finds each rule in a file named after it (issue 23): long files get split."""
    long = {str(p.relative_to(ROOT)): n for p in sorted((ROOT / "engine").rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 800}
    assert long == {}

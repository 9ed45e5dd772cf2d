"""The parts of companion/ import one way (issue 44), as the engine's games do (issue 23):
every import, at module level or inside a function, points down the order declared in
companion/__init__.py, and README's layout table lists the parts in that order, each
touching only parts below it."""
from __future__ import annotations

import re

from tests.imports import ROOT, declared_layers, layer_violations

COMPANION = ROOT / "companion"


def order() -> list[str]:
    return [part for layer in declared_layers(COMPANION / "__init__.py") for part in layer]


def test_every_import_in_companion_points_down_the_declared_layers():
    assert layer_violations(COMPANION) == []


def test_the_checker_sees_a_part_importing_a_part_above_it(tmp_path):
    package = tmp_path / "companion"
    for part in ("server", "game"):
        (package / part).mkdir(parents=True)
        (package / part / "__init__.py").write_text("")
    (package / "__init__.py").write_text('LAYERS = (("server",), ("game",), ("app",))\n')
    (package / "game" / "service.py").write_text("from companion.server import text\n")
    (package / "server" / "text.py").write_text("")
    (package / "server" / "i18n.py").write_text(
        "def games():\n    from companion.game import service\n")
    (package / "app.py").write_text("import companion.game.service\n")
    (package / "extra.py").write_text("")
    assert layer_violations(package, tmp_path) == [
        "extra is in no layer",
        "companion/server/i18n.py:2 imports companion.game.service, which is not below it "
        "in LAYERS"]


def readme_rows() -> list[tuple[str, str]]:
    """(part, may touch) of README's layout table rows for companion/'s parts."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `companion/([a-z_]+)(?:/|\.py)` \| [^|]+ \| ([^|]*) \|$", text,
                      re.MULTILINE)
    return rows


def test_readme_lists_the_parts_in_the_declared_order_each_touching_only_parts_below():
    rows = readme_rows()
    assert [part for part, _ in rows] == order()
    for i, (part, touches) in enumerate(rows):
        named = re.findall(r"`companion/([a-z_]+)(?:/|\.py)`", touches)
        below = order()[:i]
        assert named or "every part listed before it" in touches or i == 0, \
            f"README: the row of {part} names no part it may touch"
        assert set(named) <= set(below), f"README: {part} may touch {set(named) - set(below)}"

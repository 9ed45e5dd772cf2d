"""The contract kit fails every plug-in of its zoo (tests/engine/contract_zoo.py: Liar's dice
lite with one planted fault each), for that fault, and passes the game without one. Each is
a package in a folder of its own, run as `companion contract` runs an installed game: its
translations read from its own folder, then the kit's random games and probes."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.engine.contract_zoo import ZOO

GAME = Path(__file__).resolve().parents[1] / "plugins" / "liarsdice" / "tc_liarsdice"


def load(folder: Path):
    """The copy of Liar's dice lite in ``folder`` as a fresh package (and its web folder)."""
    for name in [m for m in sys.modules if m == "tc_liarsdice" or m.startswith("tc_liarsdice.")]:
        del sys.modules[name]
    sys.path.insert(0, str(folder))
    try:
        import tc_liarsdice

        return tc_liarsdice.GAME
    finally:
        sys.path.remove(str(folder))


@pytest.fixture
def planted(tmp_path):
    """A function planting a fault's edits in a fresh copy; the copy's module is returned."""
    def plant(edits):
        package = tmp_path / "tc_liarsdice"
        shutil.copytree(GAME, package, ignore=shutil.ignore_patterns("__pycache__"))
        for file, old, new in edits:
            path = package / file
            text = path.read_text(encoding="utf-8")
            assert text.count(old) == 1, f"the zoo's edit no longer fits {file}: {old!r}"
            path.write_text(text.replace(old, new), encoding="utf-8")
        return load(tmp_path)

    yield plant
    for name in [m for m in sys.modules if m == "tc_liarsdice" or m.startswith("tc_liarsdice.")]:
        del sys.modules[name]


def kit(module) -> list[str]:
    from companion.commands.contract import check_module

    return check_module(module, {}, games=1)


def test_the_game_without_a_fault_keeps_the_contract(planted):
    assert kit(planted([])) == []


@pytest.mark.slow
@pytest.mark.parametrize("fault", sorted(ZOO))
def test_the_kit_fails_a_plugin_with_a_planted_fault(planted, fault):
    edits, expected = ZOO[fault]
    problems = kit(planted(edits))
    assert problems, f"the kit passed {fault!r}"
    assert any(expected in p for p in problems), (fault, problems[:8])


def test_the_zoo_holds_issue_47s_table_and_more():
    assert len(ZOO) >= 30

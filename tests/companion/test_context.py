"""The app's parts meet through one typed context (issue 44): made in the factory, holding
each part once; no part finds another by a string key in ``app.extensions`` or imports one
of the app's own modules by name."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from companion import context
from companion.box.catalog import Kinds
from companion.game.recipients import Connections
from companion.game.sender import ViewSender
from companion.game.service import GameService
from companion.server.settings import Settings
from companion.wiring.hardware_manager import HardwareManager
from tests.imports import ROOT

# the modules that may touch Flask's extension state: the context's one key, and the
# languages' own state (read by no other module)
OWNERS = {"companion/context.py", "companion/app.py", "companion/server/i18n.py"}
# importing by name: the CLI's commands (imported only when run: `companion serve` must not
# pay for OpenCV) and the third-party packages doctor and the NumPy check try
BY_NAME = {"companion/cli.py", "companion/doctor.py", "companion/server/numpy_abi.py"}


def reaches_by_name(root: Path) -> list[str]:
    """Every use of ``<x>.extensions`` outside `OWNERS` and of ``import_module`` /
    ``__import__`` outside `BY_NAME`, as ``path:line``."""
    found = []
    for path in sorted((root / "companion").rglob("*.py")):
        rel = str(path.relative_to(root))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "extensions" \
                    and rel not in OWNERS:
                found.append(f"{rel}:{node.lineno} extensions")
            name = node.attr if isinstance(node, ast.Attribute) else (
                node.id if isinstance(node, ast.Name) else None)
            if name in ("import_module", "__import__") and rel not in BY_NAME:
                found.append(f"{rel}:{node.lineno} {name}")
    return found


def test_no_part_reaches_another_by_a_string_key_or_a_module_name():
    assert reaches_by_name(ROOT) == []


def test_the_scan_finds_a_planted_string_key_and_import_by_name(tmp_path):
    blueprints = tmp_path / "companion" / "blueprints"
    blueprints.mkdir(parents=True)
    (blueprints / "pages.py").write_text(
        "from flask import current_app\n"
        "def service():\n    return current_app.extensions['companion']\n")
    (tmp_path / "companion" / "wiring.py").write_text(
        "import importlib\npart = importlib.import_module('companion.wiring.camera')\n")
    assert reaches_by_name(tmp_path) == ["companion/blueprints/pages.py:3 extensions",
                                         "companion/wiring.py:2 import_module"]


def test_the_context_holds_every_part_once_typed_and_frozen(app):
    parts = context.of(app)
    assert isinstance(parts.settings, Settings) and isinstance(parts.service, GameService)
    assert isinstance(parts.kinds, Kinds) and isinstance(parts.connections, Connections)
    assert isinstance(parts.views, ViewSender) and isinstance(parts.hardware, HardwareManager)
    assert parts.hardware.camera is None and parts.hardware.dice is None  # not started
    assert parts.views.connections is parts.connections
    assert parts.hardware.service is parts.service and parts.hardware.kinds is parts.kinds
    with pytest.raises(dataclasses.FrozenInstanceError):
        parts.service = None
    ours = {k for k in app.extensions if k.startswith("companion")}
    assert ours == {context.KEY, "companion.i18n"}
    with app.test_request_context():
        assert context.current() is parts


def declared_fields() -> set[str]:
    """Every field of the dataclasses a game declares itself with (engine/api.py)."""
    from engine import api

    return {f.name for value in vars(api).values()
            if isinstance(value, type) and dataclasses.is_dataclass(value)
            for f in dataclasses.fields(value)}


def probes(root: Path) -> list[str]:
    """Every ``getattr(x, "name", ...)`` / ``hasattr(x, "name")`` in companion/ whose name is
    a declared field: it is read directly, so a field renamed in engine/api.py fails loudly
    instead of reading as absent (the game's optional functions, ``choices_of`` and
    ``private_view``, are no fields: a game may lack them)."""
    fields = declared_fields()
    found = []
    for path in sorted((root / "companion").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
                    and isinstance(node.args[1], ast.Constant)
                    and node.args[1].value in fields):
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.args[1].value}")
    return sorted(found)


def test_no_part_probes_what_a_game_declares():
    assert probes(ROOT) == []


def test_the_scan_finds_a_planted_probe_of_a_declared_field(tmp_path):
    (tmp_path / "companion").mkdir()
    (tmp_path / "companion" / "dice.py").write_text(
        "def owed(live, module):\n"
        "    private = getattr(module, 'private_view', None)\n"  # optional: not a field
        "    return getattr(live.kind.module.info.bindings, 'owed_dice', None)\n")
    assert probes(tmp_path) == ["companion/dice.py:3 owed_dice"]


def port_gaps(port: type, implementation: type) -> list[str]:
    """What ``port`` (a Protocol of companion/context.py) names that ``implementation``
    lacks or takes with other parameters."""
    import inspect

    gaps = []
    for name, member in vars(port).items():
        if name.startswith("_") or not callable(member):
            continue
        found = getattr(implementation, name, None)
        if found is None:
            gaps.append(f"{implementation.__name__}.{name} missing")
        elif list(inspect.signature(found).parameters) != list(
                inspect.signature(member).parameters):
            gaps.append(f"{implementation.__name__}.{name} takes other parameters")
    init = getattr(implementation.__init__, "__code__", None)
    set_up = init.co_names if init is not None else ()  # the attributes __init__ sets
    gaps += [f"{implementation.__name__}.{name} missing"
             for name in getattr(port, "__annotations__", {}) if name not in set_up
             and not hasattr(type(vars(implementation).get(name)), "__set__")]
    return gaps


def test_the_wiring_implements_every_port_as_declared():
    from companion.wiring.camera import CameraWiring
    from companion.wiring.dice import DiceWiring

    assert port_gaps(context.CameraPort, CameraWiring) == []
    assert port_gaps(context.DicePort, DiceWiring) == []
    assert port_gaps(context.HardwarePort, HardwareManager) == []


def test_a_port_method_renamed_in_the_wiring_is_seen():
    class Renamed:
        def status(self) -> dict: ...

        def snapshot_now(self): ...

        def set_acting(self, acting: bool) -> None: ...

    gaps = port_gaps(context.CameraPort, Renamed)
    assert "Renamed.snapshot missing" in gaps
    assert "Renamed.set_acting takes other parameters" in gaps

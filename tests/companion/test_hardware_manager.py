"""The hardware manager starts each wiring once and turns failures into a status."""
from __future__ import annotations

import sys
import types

from companion.wiring import hardware_manager
from tests.companion.conftest import make_app


def fake_wiring(name, start):
    module = types.ModuleType(f"companion.wiring.{name}")
    module.start = start
    return module


def test_start_once_status_and_failures(tmp_path, monkeypatch):
    calls = []

    class Handle:
        def status(self):
            return {"state": "ok", "detail": "test camera"}

    def start_camera(app, service, changed):
        calls.append((app, service, changed))
        return Handle()

    def start_dice(app, service, changed):
        raise OSError("no port")

    monkeypatch.setitem(sys.modules, "companion.wiring.camera",
                        fake_wiring("camera", start_camera))
    monkeypatch.setitem(sys.modules, "companion.wiring.dice", fake_wiring("dice", start_dice))
    app = make_app(tmp_path)
    assert hardware_manager.status(app) == {"camera": {"state": "absent"},
                                            "dice": {"state": "absent"}}  # not started
    hardware_manager.start(app)
    hardware_manager.start(app)  # a second start does nothing
    assert len(calls) == 1 and calls[0][1] is app.extensions["companion"]
    status = hardware_manager.status(app)
    assert status["camera"] == {"state": "ok", "detail": "test camera"}
    assert status["dice"]["state"] == "error" and "no port" in status["dice"]["detail"]

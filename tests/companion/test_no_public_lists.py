"""No service of the app keeps a public mutable collection that other parts change (issue
65): subscribers come through the typed bus (game/events_bus.py), state stays behind its
owner's methods. Before, `GameService.listeners`, `.revoked` and `.gates` were public lists
the socket layer and the dice wiring appended to."""
from __future__ import annotations

import collections
import dataclasses

from companion import context
from tests.companion.conftest import make_app

MUTABLE = (list, dict, set, collections.deque, bytearray)
LIBRARIES = {"socketio", "settings"}  # Flask-SocketIO's object; frozen settings (read only)


def public_mutables(obj) -> list[str]:
    return sorted(f"{type(obj).__name__}.{name}" for name, value in vars(obj).items()
                  if not name.startswith("_") and isinstance(value, MUTABLE))


def services(app) -> dict:
    """Every part the app factory made (the context), and the services they hold."""
    parts = context.of(app)
    out = {f.name: getattr(parts, f.name) for f in dataclasses.fields(parts)
           if f.name not in LIBRARIES}
    out.update(access=parts.service.access, rebuilder=parts.service.rebuilder,
               report=parts.hardware.report)
    return out


def test_no_service_has_a_public_mutable_collection(tmp_path):
    """Planted fault caught (by hand): `HardwareManager.errors` public again (it was,
    before this test)."""
    app = make_app(tmp_path)
    try:
        found = [name for part in services(app).values() for name in public_mutables(part)]
        assert found == []
        assert {"service", "access", "rebuilder", "views", "connections", "bus", "hardware",
                "report", "kinds"} <= set(services(app))
    finally:
        context.of(app).service.store.close()


def test_the_camera_wiring_has_no_public_mutable_collection(tmp_path):
    """The running camera's handle is not a part of the context but the dice wiring and the
    focus watch once appended to its public lists (`frame_listeners`, `every_frame`,
    `overlays`); they come through `listen` now, and what it shows stays behind its lock.
    Planted fault caught (by hand): `CameraWiring.warnings` public again."""
    from companion.wiring.camera import CameraWiring
    from hardware.camera.sources import FrameSource

    app = make_app(tmp_path)
    try:
        handle = CameraWiring(context.of(app).service, lambda: None, FrameSource(), None, 1.0)
        handle.listen(lambda *a: None, lambda: True, lambda *a: None)
        assert handle.wants_every_frame()
        assert public_mutables(handle) == []
    finally:
        context.of(app).service.store.close()


def test_the_scan_finds_a_public_list():
    class Service:
        def __init__(self) -> None:
            self.listeners: list = []
            self.name = "kept"
            self._own: list = []

    assert public_mutables(Service()) == ["Service.listeners"]

"""The hardware manager starts each wiring once and turns failures into a status."""
from __future__ import annotations

from companion import context
from companion.wiring import camera, dice
from tests.companion.conftest import make_app


def test_start_once_status_and_failures(tmp_path, monkeypatch):
    calls = []

    class Handle:
        def status(self):
            return {"state": "ok", "detail": "test camera"}

        def stop(self):
            calls.append("stopped")

    def start_camera(settings, service, changed, judge=None):
        calls.append((settings, service, changed, judge))
        return Handle()

    def start_dice(settings, service, changed, camera, kinds, reader_options):
        raise OSError("no port")

    monkeypatch.setattr(camera, "start", start_camera)
    monkeypatch.setattr(dice, "start", start_dice)
    app = make_app(tmp_path)
    hardware = context.of(app).hardware
    assert hardware.status() == {"camera": {"state": "absent"},
                                 "dice": {"state": "absent"}}  # not started
    hardware.start()
    hardware.start()  # a second start does nothing
    assert len(calls) == 1 and calls[0][1] is context.of(app).service
    assert calls[0][0] is context.of(app).settings
    assert calls[0][3] is hardware.judge  # one judge of faces, shared with the deck page
    status = hardware.status()
    assert status["camera"] == {"state": "ok", "detail": "test camera"}
    assert status["dice"]["state"] == "error" and "no port" in status["dice"]["detail"]
    assert hardware.camera is not None and hardware.dice is None
    hardware.stop()
    assert calls[-1] == "stopped"


def test_no_camera_configured_is_absent_with_the_reason(tmp_path, monkeypatch):
    monkeypatch.setattr(dice, "start", lambda *args: None)
    app = make_app(tmp_path)
    hardware = context.of(app).hardware
    hardware.start()
    assert hardware.camera is None
    assert hardware.status()["camera"] == camera.ABSENT
    assert "camera.source" in camera.ABSENT["detail"]


def test_the_face_reader_is_told_where_the_dice_tray_lies(tmp_path, monkeypatch):
    """No card is looked for in the dice tray: the manager tells the camera's face reader the
    dice camera's tray at start, and again at a change (a dice part that came later)."""
    told = []

    class Faces:
        def use_tray(self, tray):
            told.append(tray)

        def catalog_changed(self, *args):
            pass

    class Camera:
        faces = Faces()

        def status(self):
            return {"state": "ok"}

        def stop(self):
            pass

    class Dice:
        def __init__(self, tray_mm):
            self.camera = type("DiceCamera", (), {"tray_mm": staticmethod(tray_mm)})()

        def status(self):
            return {"state": "ok"}

        def stop(self):
            pass

    def tray_mm():
        return (0, 0, 50, 50)

    monkeypatch.setattr(camera, "start", lambda settings, service, changed, judge=None: Camera())
    monkeypatch.setattr(dice, "start", lambda *args: Dice(tray_mm))
    app = make_app(tmp_path)
    hardware = context.of(app).hardware
    hardware.start()
    assert told == [tray_mm]
    later = Dice(lambda: (10, 10, 40, 40))
    hardware.dice = later
    hardware.changed()
    assert told[-1] is later.camera.tray_mm
    hardware.stop()

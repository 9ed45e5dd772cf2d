"""The demo camera (`make run`: the synthetic scene) lays the die or card the host teaches in
its tray, and a picture taken once `lay_demo_die` / `lay_demo_card` return shows it: not
the tray as it was before (CI once kept one face's picture for the next face's, the camera's
latest frame being older than the lay). The real camera, scene and dice-tray reader run."""
from __future__ import annotations

import numpy as np
import pytest

from companion import context
from companion.app import create_app
from hardware.camera.dice_faces import lone_die
from tests.waiting import wait_for

PIN = "2468"


@pytest.fixture
def demo(tmp_path, monkeypatch):
    """World Without End at the table, no roll owed, `make run`'s camera and dice."""
    from companion.wiring import camera as camera_wiring

    for name, value in (("COMPANION_CAMERA_SIMULATE", "auto"), ("COMPANION_DICE_EMULATE", "auto"),
                        ("COMPANION_DICE_DEFAULT_SOURCE", "camera")):
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(camera_wiring, "camera_attached", lambda: False)
    data = tmp_path / "data"
    data.mkdir()
    made = create_app({"DATA_DIR": str(data), "TESTING": True})
    made_ctx = context.of(made)
    made_ctx.service.create("wwe", {"players": [{"seat": s, "name": s} for s in "NE"]}, PIN)
    made_ctx.service.store.close()
    app = create_app({"DATA_DIR": str(data), "TESTING": True, "START_HARDWARE": True})
    hardware = context.of(app).hardware
    try:
        assert hardware.camera is not None and hardware.dice is not None
        yield hardware
    finally:
        hardware.stop()
        context.of(app).service.store.close()


def test_each_face_laid_is_the_one_in_the_picture_taken_next(demo):
    wait_for(lambda: demo.dice.tray_image() is not None, what="the demo's empty tray")
    with pytest.raises(ValueError, match="no_die"):
        lone_die(demo.dice.tray_image())
    pictures = []
    for face in (2, 3, 2, 5):
        assert demo.camera.lay_demo_die("white", face) is True
        pictures.append(lone_die(demo.dice.tray_image()))  # raises: no die seen yet
    assert not np.array_equal(pictures[0], pictures[1])
    assert not np.array_equal(pictures[1], pictures[2])
    assert np.array_equal(pictures[0], pictures[2])  # the same face laid again: its picture

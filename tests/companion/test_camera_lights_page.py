"""The host's camera page says how sharp the table is and whether the room's lights flicker,
in the host's language, and keeps the mains frequency (issue 62): the real app with the
Camera Module through the stand-in rpicam-vid (its lights on 50 Hz mains)."""
from __future__ import annotations

import json

import cv2
import pytest

from companion import context
from hardware.synthetic import conditions
from tests.companion.test_host_hardware import csrf, login, make, stop
from tests.hardware.dice.support import wait_for
from tests.hardware.test_camera_rpicam import cache, rpicam_vid, starts  # noqa: F401

pytestmark = pytest.mark.usefixtures("rpicam_vid")


@pytest.fixture
def lit_app(tmp_path, monkeypatch):
    image, _ = conditions.frame("harsh_small", 0)
    cv2.imwrite(str(tmp_path / "table.png"), image)
    monkeypatch.setenv("STANDIN_RPICAM_SCENE", str(tmp_path / "table.png"))
    monkeypatch.setenv("STANDIN_RPICAM_RAMP", "0")
    monkeypatch.setenv("STANDIN_RPICAM_LIGHT", "50:1.0:15000")  # 50 Hz LEDs
    config = {"camera": {"lens_position": 1.667, "mains_hz": 60}, "owner": {"note": "kept"}}
    app, live = make(tmp_path, config, CAMERA_SOURCE="rpicam", START_HARDWARE=True)
    yield app, live
    stop(app)


def optics_line(client, game: str, lang: str, wanted: str) -> str:
    """The page once its lights line says ``wanted`` (the camera measures for a moment)."""
    def page():
        text = client.get(f"/host/{game}/camera?lang={lang}").get_data(as_text=True)
        return text if wanted in text else None
    return wait_for(page, timeout=240, what=f"{wanted!r} on the camera page")


@pytest.mark.heavy
def test_the_page_says_set_50_hz_and_keeps_the_setting(lit_app, tmp_path):
    """Set to 60 Hz under 50 Hz lights: bands, and the page says to set 50 Hz (Polish and
    German); saving 50 writes camera.mains_hz (other keys kept), restarts rpicam-vid with
    --flicker-period 10000us and the bands go. A bad value is refused, translated, nothing
    written. Planted fault: set_mains not restarting the child leaves the bands (the page
    never says the lights are steady)."""
    app, live = lit_app
    client = app.test_client()
    token = login(client, live.id)
    optics_line(client, live.id, "pl", "Światło w pokoju migocze: ustaw 50 Hz.")
    page = optics_line(client, live.id, "de", "Das Raumlicht flackert: stell 50 Hz ein.")
    assert "Schärfe: scharf." in page and 'id="mains-form"' in page
    url = f"/host/{live.id}/camera/mains"
    other = app.test_client()
    assert other.post(url, data={"csrf_token": csrf(other), "hz": "50"}).status_code == 401
    config = tmp_path / "data" / "config.json"
    before = config.read_text()
    bad = client.post(url + "?lang=es", data={"csrf_token": token, "hz": "55"})
    assert bad.status_code == 400 and "50 o 60 Hz" in bad.get_data(as_text=True)
    assert config.read_text() == before
    saved = client.post(url, data={"csrf_token": token, "hz": "50"})
    assert saved.status_code == 303
    kept = json.loads(config.read_text())
    assert kept["camera"]["mains_hz"] == 50 and kept["owner"] == {"note": "kept"}
    wait_for(lambda: "--flicker-period 10000us" in starts(tmp_path)[-1], timeout=60,
             what="rpicam-vid restarted with the 50 Hz period")
    optics_line(client, live.id, "pl", "Światło w pokoju nie migocze.")
    assert context.of(app).hardware.camera.status()["optics"]["mains_hz"] == 50

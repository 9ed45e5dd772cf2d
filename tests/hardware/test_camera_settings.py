"""Camera settings from config.json reach the recogniser (zones, debounce, calibration)."""
import json

from hardware.camera.calibration import Calibration, save
from hardware.camera.settings import CameraSettings, build_recognizer, load_settings


def test_settings_from_config_json(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"dice": {"port": "x"}, "camera": {
        "source": 0, "marker_mm": 40, "appear_frames": 3, "vanish_frames": 12,
        "zones": {"council": {"x0": 0, "y0": 0, "x1": 50, "y1": 50}}, "orient_commit_s": 1.5,
        "future_option": True}}))
    save(config, Calibration(((0.5, 0, -10), (0, 0.5, -20)), 90.0, 40))
    settings = load_settings(config)
    assert settings.source == "0" and settings.orient_commit_s == 1.5
    assert settings.extra == {"future_option": True}
    recognizer = build_recognizer(settings, config)
    assert recognizer.calibration_source == "stored"
    assert recognizer.calibration.north == 90.0
    assert recognizer.tracker.settings.appear_frames == 3
    assert recognizer.tracker.settings.vanish_frames == 12
    assert [z.name for z in recognizer.zones.zones] == ["council"]
    assert recognizer.marker_mm == 40


def test_missing_or_broken_config_gives_defaults(tmp_path):
    assert load_settings(tmp_path / "none.json") == CameraSettings()
    (tmp_path / "bad.json").write_text("[1, 2]")
    assert load_settings(tmp_path / "bad.json") == CameraSettings()
    recognizer = build_recognizer(CameraSettings(), None)
    assert recognizer.calibration_source == "none"
    assert recognizer.zones.zones == []  # no zones until the game in play declares its own


def test_the_calibrated_marker_size_is_used_while_the_marker_is_in_view(tmp_path):
    """`calibrate --marker-mm 40` stores 40; the live marker must not fall back to 30 mm."""
    from hardware.synthetic.scene import Camera, Placement
    from hardware.tags.format import BOARD_MARKER, card_payload

    card = card_payload("wwe", "E", "x")
    camera = Camera.create(2)
    image, _ = camera.render([Placement(BOARD_MARKER, 640, 200, 0.0, marker=True),
                              Placement(card, 640, 500, 0.0)], seed=2)
    config = tmp_path / "config.json"
    config.write_text("{}")
    from hardware.camera.recognizer import Recognizer

    live = Recognizer(marker_mm=40)
    live.process(image, 0.0)
    save(config, live.calibration)  # what `companion camera calibrate --marker-mm 40` writes
    recognizer = build_recognizer(load_settings(config), config)
    assert recognizer.marker_mm == 40
    result = recognizer.process(image, 0.0)
    assert result.marker_seen
    (sighting,) = result.sightings
    stored = live.calibration.to_board(next(d.centre for d in result.detections
                                            if d.payload == card))
    assert abs(sighting.position[1] - stored[1]) < 1.0

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

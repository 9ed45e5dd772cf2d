"""Camera settings from the data directory's config.json (section "camera"), all optional:

    {"camera": {"source": "0" | "/dev/video0" | "picamera2" | "synthetic" | "rtsp://..." |
                          "path/to/video.avi" | "folder:DIR" | null,
                "marker_mm": 30, "markers": {"NE": [x_mm, y_mm], ...},
                "appear_frames": 2, "vanish_frames": 8,
                "hysteresis_deg": 55, "zones": {"council": [[x, y], ...], ...},
                "calibration": {...written by `companion camera calibrate`...},
                "orient_commit_s": 2.0, "simulate": "off" | "auto", "still_stride": 2}}

``still_stride``: a table still for a few frames is looked at in every n-th frame only (the
camera's CPU on a long evening, issue 37; a card laid on it is seen up to n - 1 frames later);
1 looks at every frame.

``simulate: "auto"`` (`make run`): with no source set, or ``"auto"``, the attached camera
when there is one, else the synthetic table. The server resolves these settings with the
environment and command line over them (companion/server/settings.py); this module imports no
OpenCV until a recogniser is built, so reading settings stays cheap.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hardware import config_file
from hardware.camera import DEFAULT_MARKER_MM

if TYPE_CHECKING:
    from hardware.camera.recognizer import Recognizer


@dataclass(frozen=True)
class CameraSettings:
    source: str | None = None
    marker_mm: float = DEFAULT_MARKER_MM
    appear_frames: int = 2
    vanish_frames: int = 8
    hysteresis_deg: float = 55.0
    zones: dict | None = None
    markers: dict | None = None  # corner marker -> board mm of its centre
    orient_commit_s: float = 2.0
    simulate: str = "off"
    still_stride: int = 2
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict) -> CameraSettings:
        known = {k: data[k] for k in ("source", "marker_mm", "appear_frames", "vanish_frames",
                                      "hysteresis_deg", "zones", "markers", "orient_commit_s",
                                      "simulate", "still_stride") if k in data}
        if known.get("source") is not None:
            known["source"] = str(known["source"])
        extra = {k: v for k, v in data.items() if k not in known and k != "calibration"}
        return cls(**known, extra=extra)


def load_settings(config_path: Path) -> CameraSettings:
    data = config_file.read(config_path).get("camera") or {}
    return CameraSettings.from_json(data if isinstance(data, dict) else {})


def build_recognizer(settings: CameraSettings, config_path: Path | None = None) -> Recognizer:
    """A recogniser with the stored calibration (if any), the zones and the debounce.

    The marker size is the calibration's (`companion camera calibrate --marker-mm`) when one
    is stored, else camera.marker_mm: the live marker must give the same scale as the stored
    calibration, or positions jump whenever the marker comes into view."""
    from hardware.camera import calibration as calibration_file
    from hardware.camera.recognizer import ChangeSettings, Recognizer
    from hardware.camera.tracker import TrackerSettings
    from hardware.camera.zones import ZoneMap

    stored = calibration_file.load(config_path) if config_path else None
    return Recognizer(
        zones=ZoneMap(settings.zones), calibration=stored,
        tracker=TrackerSettings(appear_frames=settings.appear_frames,
                                vanish_frames=settings.vanish_frames,
                                hysteresis_deg=settings.hysteresis_deg),
        change=ChangeSettings(still_stride=max(1, settings.still_stride)),
        marker_mm=stored.marker_mm if stored else settings.marker_mm,
        marker_positions=calibration_file.marker_positions(settings.markers))

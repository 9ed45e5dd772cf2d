"""Camera settings from the data directory's config.json (section "camera"), all optional:

    {"camera": {"source": "0" | "/dev/video0" | "picamera2" | "synthetic" | "rtsp://..." |
                          "path/to/video.avi" | "folder:DIR" | null,
                "marker_mm": 30, "markers": {"NE": [x_mm, y_mm], ...},
                "appear_frames": 2, "vanish_frames": 8,
                "hysteresis_deg": 55, "zones": {"council": [[x, y], ...], ...},
                "calibration": {...written by `companion camera calibrate`...},
                "orient_commit_s": 2.0, "simulate": "off" | "auto", "still_stride": 3,
                "lens_position": 1.67, "mains_hz": 50 | 60}}

``lens_position`` (dioptres, 1 / metres): where a Camera Module 3's lens is held, found by
the focus scan at setup and kept here (issue 62); unset: the next start scans the table
once. ``mains_hz``: the room's mains frequency, passed to rpicam-vid as the lights' period
(``--flicker-period``); unset: the default for the owner's language (`mains_for`).

``still_stride``: a table still for a few frames is looked at in every n-th frame only (the
camera's CPU on a long evening, issues 37 and 71; a card laid on it is seen up to n - 1 frames
later; default `hardware.camera.STILL_STRIDE`); 1 looks at every frame.

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
from hardware.camera import DEFAULT_MARKER_MM, STILL_STRIDE

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
    still_stride: int = STILL_STRIDE
    lens_position: float | None = None
    mains_hz: int | None = None
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict) -> CameraSettings:
        known = {k: data[k] for k in ("source", "marker_mm", "appear_frames", "vanish_frames",
                                      "hysteresis_deg", "zones", "markers", "orient_commit_s",
                                      "simulate", "still_stride", "lens_position",
                                      "mains_hz") if k in data}
        if known.get("source") is not None:
            known["source"] = str(known["source"])
        lens = known.get("lens_position")
        if not isinstance(lens, (int, float)) or isinstance(lens, bool) or not 0 <= lens <= 15:
            known.pop("lens_position", None)
        if known.get("mains_hz") not in MAINS:
            known.pop("mains_hz", None)
        extra = {k: v for k, v in data.items() if k not in known and k != "calibration"}
        return cls(**known, extra=extra)


MAINS = (50, 60)
# Countries on 60 Hz mains (the Americas but Argentina, Chile, Uruguay, Paraguay, Bolivia;
# Korea, Taiwan, the Philippines, Saudi Arabia; Japan is split: 50 in the east). Our
# languages (it, pl, es, de, en) with no country are taken as Europe's: 50 Hz.
MAINS_60_COUNTRIES = frozenset({"US", "CA", "MX", "BR", "CO", "VE", "PE", "EC", "CR", "PA",
                                "GT", "HN", "SV", "NI", "DO", "PR", "CU", "KR", "TW", "PH",
                                "SA"})


def mains_for(settings: CameraSettings, locale: str | None) -> int:
    """The mains frequency to cancel: the setting, else by the owner's locale ("es-MX",
    "en_US": its country; a bare language: 50 Hz)."""
    if settings.mains_hz in MAINS:
        return settings.mains_hz
    country = (locale or "").replace("_", "-").partition("-")[2].upper()
    return 60 if country in MAINS_60_COUNTRIES else 50


def rpicam_options(settings: CameraSettings, config_path: Path | None,
                   locale: str | None = None) -> dict:
    """The Camera Module's focus and flicker options for `RpicamSource`: the kept lens
    position (a scan's result is written back to config.json), the mains to cancel."""
    def keep(dioptres: float) -> None:
        if config_path is not None:
            config_file.update(config_path, lambda data: data.setdefault("camera", {})
                               .__setitem__("lens_position", round(dioptres, 3)))

    return {"lens_position": settings.lens_position, "mains_hz": mains_for(settings, locale),
            "on_focus": keep}


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

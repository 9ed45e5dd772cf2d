"""A picture of what the camera understood, for the host's camera page (MJPEG preview).

Draws the zones (board polygons mapped back into the image), every decoded code (green:
a tag, red: not ours, blue: the board marker) with its label and quarter turn, and a line
with fps and decode time.
"""
from __future__ import annotations

import cv2
import numpy as np

from hardware.camera.calibration import Calibration
from hardware.camera.recognizer import FrameResult
from hardware.camera.rotation import nearest_quarter
from hardware.camera.zones import ZoneMap
from hardware.tags.format import BOARD_MARKER, BOARD_MARKERS

GREEN, RED, BLUE, YELLOW = (60, 200, 60), (40, 40, 230), (230, 120, 40), (0, 220, 240)


def draw_overlay(frame: np.ndarray, result: FrameResult, zones: ZoneMap,
                 calibration: Calibration, labels: dict[str, str] | None = None,
                 fps: float | None = None) -> np.ndarray:
    """A BGR copy of ``frame`` with the overlays; ``labels`` maps payloads to card names."""
    image = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR) if frame.ndim == 2 else frame.copy()
    labels = labels or {}
    if calibration.from_marker:
        for zone in zones.zones:
            points = calibration.to_image(zone.polygon).reshape(-1, 1, 2)
            cv2.polylines(image, [points.astype(np.int32)], True, YELLOW, 1, cv2.LINE_AA)
            h, w = image.shape[:2]  # label at the centre of the zone's visible part
            visible = np.clip(points.reshape(-1, 2), (0, 0), (w - 1, h - 1))
            x, y = visible.mean(axis=0)
            cv2.putText(image, zone.name, (int(x) - 20, int(y)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.6, YELLOW, 2, cv2.LINE_AA)
    sightings = {s.payload: s for s in result.sightings}
    for detection in result.detections:
        corners = np.int32(detection.corners).reshape(-1, 1, 2)
        sighting = sightings.get(detection.payload)
        if detection.payload in BOARD_MARKERS:
            name = "N" if detection.payload == BOARD_MARKER else detection.payload.rsplit(":")[-1]
            colour, text = BLUE, f"{name} marker"
        elif sighting is not None and sighting.tag is not None:
            colour = GREEN
            name = labels.get(detection.payload, sighting.tag.code)
            text = f"{name} r{nearest_quarter(sighting.angle)}"
        else:
            colour, text = RED, "unknown code"
        cv2.polylines(image, [corners], True, colour, 2, cv2.LINE_AA)
        tl = corners[0, 0]
        cv2.circle(image, (int(tl[0]), int(tl[1])), 5, colour, -1)  # the symbol's top-left
        cv2.putText(image, text, (int(tl[0]), int(tl[1]) - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.55,
                    colour, 2, cv2.LINE_AA)
    status = f"decode {result.decode_ms:.1f} ms"
    if fps is not None:
        status = f"{fps:.1f} fps  " + status
    cv2.putText(image, status, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 255, 255), 2,
                cv2.LINE_AA)
    return image


def jpeg(image: np.ndarray, quality: int = 70) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("cannot encode the frame")
    return data.tobytes()

"""One frame in, observations out: decode, find the board marker, map to board, track."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from hardware.camera.calibration import DEFAULT_MARKER_MM, Calibration
from hardware.camera.decode import Decoder, Detection
from hardware.camera.tracker import Observation, Sighting, Tracker, TrackerSettings
from hardware.camera.zones import ZoneMap
from hardware.tags.format import BOARD_MARKER, TagError, parse


@dataclass(frozen=True)
class FrameResult:
    observations: list[Observation]
    detections: list[Detection]
    sightings: list[Sighting]
    decode_ms: float
    marker_seen: bool


class Recognizer:
    """Holds the calibration (live from the marker, else stored, else identity) and tracker.

    ``calibration_source`` tells the status page where north comes from: "marker" (seen in
    the latest frame that had it), "stored" (a kept calibration) or "none" (image up is
    north and zones are not used).
    """

    def __init__(self, decoder: Decoder | None = None, zones: ZoneMap | None = None,
                 calibration: Calibration | None = None,
                 tracker: TrackerSettings | None = None,
                 marker_mm: float = DEFAULT_MARKER_MM) -> None:
        self.decoder = decoder or Decoder()
        self.zones = zones or ZoneMap()
        self.calibration = calibration or Calibration.identity()
        self.calibration_source = "stored" if calibration else "none"
        self.tracker = Tracker(tracker)
        self.marker_mm = marker_mm

    def sightings(self, detections: list[Detection]) -> list[Sighting]:
        calibration = self.calibration
        out = []
        for detection in detections:
            if detection.payload == BOARD_MARKER:
                continue
            try:
                tag, reason = parse(detection.payload), None
            except TagError as error:
                tag, reason = None, error.code
            position = calibration.to_board(detection.centre)
            zone = self.zones.zone_at(position) if calibration.from_marker else None
            out.append(Sighting(detection.payload, tag, position,
                                calibration.board_angle(detection.angle), zone, reason))
        return out

    def process(self, frame: np.ndarray, at: float | None = None) -> FrameResult:
        at = time.monotonic() if at is None else at
        start = time.perf_counter()
        detections = self.decoder.decode(frame)
        decode_ms = (time.perf_counter() - start) * 1000
        markers = [d for d in detections if d.payload == BOARD_MARKER]
        if markers:
            marker = max(markers, key=lambda d: d.side)
            try:
                self.calibration = Calibration.from_detection(marker, self.marker_mm)
                self.calibration_source = "marker"
            except ValueError:
                pass
        sightings = self.sightings(detections)
        observations = self.tracker.update(sightings, at)
        return FrameResult(observations, detections, sightings, decode_ms, bool(markers))

"""One frame in, observations out: decode, find the board marker, map to board, track.

Decoding is two passes (hardware.camera.rescue): zxing-cpp on the whole frame, then
upscaled, sharpened crops around where tracked cards should be and around sticker-like
patches nobody read. A tracked card that is still not read but whose sticker patch is found
near its predicted position (a slide under motion blur, glare) is reported *present* to the
tracker, which then keeps it instead of counting a miss.
"""
from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import cv2
import numpy as np

from hardware.camera.calibration import (
    AGREE_MM,
    DEFAULT_MARKER_MM,
    DEFAULT_MARKER_POSITIONS,
    Calibration,
)
from hardware.camera.decode import Decoder, Detection, to_gray
from hardware.camera.rescue import RescueSettings, TextureMap, around, second_pass
from hardware.camera.tracker import Observation, Sighting, Tracker, TrackerSettings
from hardware.camera.zones import ZoneMap
from hardware.tags.format import BOARD_MARKERS, TagError, parse


@dataclass(frozen=True)
class FrameResult:
    observations: list[Observation]
    detections: list[Detection]
    sightings: list[Sighting]
    decode_ms: float
    marker_seen: bool
    present: frozenset[str] = frozenset()  # tracked, not read, sticker patch still there
    rescue: dict = field(default_factory=dict)  # second-pass crops tried / read per reason


@dataclass
class _Follow:
    """Where a card's sticker is in the image, and how it moves (pixels, pixels per frame)."""

    centre: tuple[float, float]
    side: float
    signature: float  # sticker patch texture score when last read (0: unknown)
    bright: float  # how much lighter the sticker patch was than around it when last read
    frame: int  # frame index of the last position (read or present)
    velocity: tuple[float, float] = (0.0, 0.0)
    read_frame: int = 0

    def predict(self, frame: int) -> tuple[float, float]:
        n = frame - self.frame
        return self.centre[0] + self.velocity[0] * n, self.centre[1] + self.velocity[1] * n

    def radius(self, frame: int) -> float:
        """Search radius: a sticker side, plus the motion, growing while the card is unseen."""
        speed = math.hypot(*self.velocity)
        return self.side * (1.0 + 0.25 * min(frame - self.frame, 4)) + 1.5 * speed

    def move(self, centre, frame: int) -> None:
        n = max(1, frame - self.frame)
        vx, vy = (centre[0] - self.centre[0]) / n, (centre[1] - self.centre[1]) / n
        self.velocity = (0.5 * self.velocity[0] + 0.5 * vx, 0.5 * self.velocity[1] + 0.5 * vy)
        self.centre, self.frame = centre, frame


PRESENT_SHARE = 0.4  # of the sticker's texture when read, to count as still there
PRESENT_FLOOR = 18.0  # texture score; the wood table scores 5-25, a sticker 60-110
BRIGHT_MIN = 20.0  # a card this much lighter than the table around it can be followed by light
BRIGHT_SHARE = 0.5  # of that contrast, for a smeared card to count as still there


FAILED_FRAMES = 30  # how long an unreadable, unchanged texture region is not retried
# OpenCV's own worker threads (a process-wide setting, applied when a recogniser is made).
# Our images are small (a 1280x720 frame, crops of 300x300): splitting each call over a
# thread pool costs more than it earns, and its workers wait busily for each other. One
# thread: the still-frame step's median 6.8 -> 5.6 ms CPU (720p, 2 loaded cores, same run);
# 0 leaves OpenCV's default.
OPENCV_THREADS = 1

# zxing-cpp releases the interpreter lock while it decodes: the second pass's texture map
# (OpenCV, which releases it too) is built meanwhile on this worker, off the step's critical
# path (the first pass plus the map: 1.69 -> 1.18 ms median wall on the 720p stills, same
# CPU). One worker for the process: it is idle between frames.
_TEXTURE_WORKER = ThreadPoolExecutor(1, thread_name_prefix="texture-map")


class Recognizer:
    """Holds the calibration (live from the marker, else stored, else identity) and tracker.

    ``calibration_source`` tells the status page where north comes from: "marker" (seen in
    the latest frame that had it), "stored" (a kept calibration) or "none" (image up is
    north and zones are not used).
    """

    def __init__(self, decoder: Decoder | None = None, zones: ZoneMap | None = None,
                 calibration: Calibration | None = None,
                 tracker: TrackerSettings | None = None,
                 marker_mm: float | None = None,
                 rescue: RescueSettings | None = None,
                 marker_positions: dict[str, tuple[float, float]] | None = None) -> None:
        if OPENCV_THREADS > 0:
            cv2.setNumThreads(OPENCV_THREADS)  # process-wide: see OPENCV_THREADS
        self.decoder = decoder or Decoder()
        self.zones = zones or ZoneMap()
        self.calibration = calibration or Calibration.identity()
        self.calibration_source = "stored" if calibration else "none"
        self.tracker = Tracker(tracker)
        if marker_mm is None:
            marker_mm = calibration.marker_mm if calibration else DEFAULT_MARKER_MM
        self.marker_mm = marker_mm
        self.marker_positions = marker_positions or DEFAULT_MARKER_POSITIONS
        # the latest multi-marker homography (stored or live): a single marker that agrees
        # with it keeps it, since one small marker cannot see the perspective
        self.reference = calibration if calibration and calibration.homography else None
        self.rescue = rescue or RescueSettings()
        self.follow: dict[str, _Follow] = {}
        self.failed: list = []  # (texture region that read nothing, frame)
        self.frame = 0

    def sightings(self, detections: list[Detection]) -> list[Sighting]:
        calibration = self.calibration
        out = []
        for detection in detections:
            if detection.payload in BOARD_MARKERS:
                continue
            try:
                tag, reason = parse(detection.payload), None
            except TagError as error:
                tag, reason = None, error.code
            position = calibration.to_board(detection.centre)
            zone = self.zones.zone_at(position) if calibration.from_marker else None
            out.append(Sighting(detection.payload, tag, position,
                                calibration.board_angle(detection.angle, detection.centre),
                                zone, reason))
        return out

    def process(self, frame: np.ndarray, at: float | None = None) -> FrameResult:
        at = time.monotonic() if at is None else at
        self.frame += 1
        start = time.perf_counter()
        gray = to_gray(frame)
        building = _TEXTURE_WORKER.submit(TextureMap, gray) if self.rescue.enabled else None
        detections = self.decoder.decode(gray)
        texture, counts = None, {}
        if building is not None:
            texture = building.result()
            read = {d.payload for d in detections}
            wanted = [around(f.predict(self.frame), f.radius(self.frame), gray.shape)
                      for p, f in self.follow.items() if p not in read]
            extra, counts, failed = second_pass(self.decoder, gray, detections, wanted,
                                                self.rescue, texture, self._failed_before)
            detections = detections + extra
            self.failed = [f for f in self.failed if self.frame - f[1] < FAILED_FRAMES]
            self.failed += [(region, self.frame) for region in failed]
        decode_ms = (time.perf_counter() - start) * 1000
        markers = [d for d in detections if d.payload in self.marker_positions]
        if markers:
            self._calibrate(markers)
        sightings = self.sightings(detections)
        present = self._present(detections, texture)
        observations = self.tracker.update(sightings, at, present)
        self._remember(detections, texture)
        return FrameResult(observations, detections, sightings, decode_ms, bool(markers),
                           present, counts)

    def _failed_before(self, region) -> bool:
        """A texture region that read nothing lately and looks the same (card art, a foreign
        pattern): not worth another crop for `FAILED_FRAMES` frames."""
        return any(region.overlap(old) > 0.7 and abs(region.score - old.score)
                   <= 0.15 * old.score for old, _ in self.failed)

    def _calibrate(self, markers: list[Detection]) -> None:
        try:
            live = Calibration.from_markers(markers, self.marker_mm, self.marker_positions)
        except ValueError:
            return
        self.calibration_source = "marker"
        if live.homography is not None:
            self.calibration = self.reference = live
            return
        if self.reference is not None:
            marker = max(markers, key=lambda d: d.side)
            error = self.reference.error_mm(marker, self.marker_positions[marker.payload])
            if error <= AGREE_MM:
                self.calibration = self.reference
                return
        self.calibration = live

    def _present(self, detections: list[Detection], texture: TextureMap | None
                 ) -> frozenset[str]:
        """Tracked cards not read in this frame whose sticker patch is near where they should
        be (texture at least 40 % of what it was when last read); their positions follow."""
        if texture is None:
            return frozenset()
        read = {d.payload for d in detections}
        avoid = detections
        out = set()
        for payload, follow in self.follow.items():
            if payload in read or payload not in self.tracker.tracks or not follow.signature:
                continue
            centre, radius = follow.predict(self.frame), follow.radius(self.frame)
            score, where = texture.best_patch(centre, radius, follow.side, avoid)
            if score < max(PRESENT_SHARE * follow.signature, PRESENT_FLOOR):
                # a card smeared by a fast slide keeps no texture but stays a light patch
                if follow.bright < BRIGHT_MIN:
                    continue
                bright, where = texture.best_patch(centre, radius, follow.side, avoid,
                                                   "contrast")
                if bright < BRIGHT_SHARE * follow.bright:
                    continue
            out.add(payload)
            follow.move(where, self.frame)
        return frozenset(out)

    def _remember(self, detections: list[Detection], texture: TextureMap | None) -> None:
        for detection in detections:
            if detection.payload in BOARD_MARKERS:
                continue
            signature = texture.patch_score(detection.centre, detection.side) if texture else 0.0
            bright = texture.patch_score(detection.centre, detection.side, "contrast") \
                if texture else 0.0
            follow = self.follow.get(detection.payload)
            if follow is None:
                self.follow[detection.payload] = _Follow(detection.centre, detection.side,
                                                         signature, bright, self.frame,
                                                         read_frame=self.frame)
                continue
            follow.move(detection.centre, self.frame)
            follow.side, follow.read_frame = detection.side, self.frame
            if signature:
                follow.signature = 0.7 * follow.signature + 0.3 * signature \
                    if follow.signature else signature
                follow.bright = 0.7 * follow.bright + 0.3 * bright
        for payload in [p for p in self.follow if p not in self.tracker.tracks]:
            del self.follow[payload]

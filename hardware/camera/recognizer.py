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
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from hardware.camera import STILL_STRIDE
from hardware.camera.calibration import (
    AGREE_MM,
    DEFAULT_MARKER_MM,
    DEFAULT_MARKER_POSITIONS,
    Calibration,
)
from hardware.camera.decode import Decoder, Detection, to_gray
from hardware.camera.orientation import OUTLINE_STRONG, outline, turn_sure
from hardware.camera.presence import (
    CARD,
    CARD_REACH,
    CHANGE_CELL,
    CHANGE_LEVEL,
    HIDDEN,
    ChangeDetector,
    Presence,
    Small,
    Thumb,
    merge,
)
from hardware.camera.presence import _cells as cells
from hardware.camera.rescue import (
    Region,
    RescueSettings,
    TextureMap,
    around,
    second_pass,
)
from hardware.camera.tracker import Observation, StickerRead, Tracker, TrackerSettings
from hardware.camera.zones import ZoneMap
from hardware.tags.format import BOARD_MARKERS, TagError, parse


@dataclass(frozen=True)
class FrameResult:
    """One frame's outcome. ``detections`` and ``sightings`` are what the table shows:
    for a frame decoded only where it changed (or skipped) the last reads elsewhere are
    kept; ``mode`` says which."""

    observations: list[Observation]
    detections: list[Detection]
    sightings: list[StickerRead]
    decode_ms: float
    marker_seen: bool
    present: frozenset[str] = frozenset()  # tracked, not read, sticker patch still there
    rescue: dict = field(default_factory=dict)  # second-pass crops tried / read per reason
    mode: str = "full"  # "full" | "regions" (only what changed) | "skip" (nothing did)
    hidden: frozenset[str] = frozenset()  # tracked, not read, something over their place


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
    read_centre: tuple[float, float] | None = None  # where it was last read
    # which way the card's body lies from its sticker, in the sticker's terms (votes of
    # sure reads, -LAYOUT_VOTES..LAYOUT_VOTES: orientation.outline)
    layout: int = 0

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
# sticker sides between two cards' stickers: side by side they are 1.6 apart (63 mm
# cards, 40 mm stickers); closer, one card lies over the other
COVER_REACH = 1.4
FAST = 0.3  # sticker sides a frame: a card moving this fast must stay on its course
LAYOUT_VOTES = 5  # the card's outline learned from this many agreeing sure reads at most
LAYOUT_KNOWN = 3  # votes from which a read whose outline says the opposite is not sure
SAME_READ_PX = 1.0  # a read's corners this close to a checked read's, in order: the same read
LOOK_CELLS = 8  # the sticker's place compared as this many cells a side (`_Checked`)
CHECKED_MAX = 64  # payloads whose last checked read is kept


@dataclass
class _Checked:
    """A read whose turn was checked in the picture (`orientation.turn_sure`, `outline`)
    and what the checks said. On a still table the same sticker is read at the same
    corners frame after frame (the 3 s safety net, a change nearby): a read of the same
    text at the same corners, in the same order, over the same picture (each of the
    sticker's `LOOK_CELLS` x `LOOK_CELLS` cells within `CHANGE_LEVEL` of what it was) is
    given the same answers without checking again (1.5 ms a decoded frame, issue 71). A
    read named half round lists the corners in another order, and a sticker turned in
    place changes its cells: either is checked afresh."""

    corners: np.ndarray  # float32 4 x 2, in the read's order
    box: tuple[int, int, int, int]  # x0, y0, x1, y1: the corners' bounds in the frame
    look: np.ndarray | None  # the box's cell means when checked (None: too small to compare)
    sure: bool | None = None  # turn_sure, once asked
    side: float | None = None  # outline, once asked (``sided``)
    sided: bool = False


@dataclass(frozen=True)
class ChangeSettings:
    """The still table: decode only what changed (hardware.camera.presence.ChangeDetector).

    ``full_every`` frames a whole frame is decoded anyway (the safety net: 3 s at 30 fps);
    a change covering more than ``full_share`` of the frame is decoded whole; a frame
    where more than ``glitch_share`` changed at once (a corrupt frame, the light switched),
    or a blank one, is evidence of nothing: not decoded for ``glitch_frames`` frames, then
    decoded (codes are read) but no card counts a miss in it."""

    enabled: bool = True
    full_every: int = 90
    full_share: float = 0.4
    glitch_share: float = 0.7
    glitch_frames: int = 5
    regions_budget_ms: float = 2.0  # second-pass budget (estimated ms) for changed regions
    # a table still for `calm_frames` frames in a row is looked at in every `still_stride`-th
    # frame only (`Recognizer.still_skip`): the frames between are not even handed over
    # (the camera service's CPU, issue 37); the first change is seen at most
    # `still_stride` - 1 frames late, and from then on every frame until it is still again
    # (`hardware.camera.STILL_STRIDE`: the default, its figures and its price)
    still_stride: int = STILL_STRIDE
    calm_frames: int = 3


FLAT = 4.0  # gray levels of spread below which a frame shows nothing (blank, covered)
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
                 marker_positions: dict[str, tuple[float, float]] | None = None,
                 change: ChangeSettings | None = None) -> None:
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
        self.change = change or ChangeSettings()
        self.changes = ChangeDetector()
        self.presence = Presence()
        self.last_full = -10**9  # `seen` at the latest whole-frame decode
        self.seen = 0  # camera frames: processed, and passed over on a still table
        self.calm = 0  # frames in a row in which nothing changed
        self.glitch = 0  # frames in a row that changed almost everywhere
        # payload -> (Detection, StickerRead | None) the table shows (what a skipped frame or
        # a frame decoded only where it changed reports: the overlay, calibration)
        self.shown: dict = {}
        # what the tracked cards' zones were computed with: new zones (the game's) or a
        # first board marker re-zone every card at once (a card lying there since the start)
        self._zoned = (self.zones, self.calibration.from_marker)
        self.checked: dict[str, _Checked] = {}  # payload -> its last read checked

    def sightings(self, detections: list[Detection],
                  gray: np.ndarray | None = None) -> list[StickerRead]:
        """Each card's read in board terms; with ``gray`` each read's turn is checked in
        the picture (`orientation.turn_sure`)."""
        calibration = self.calibration
        out = []
        for detection in detections:
            if detection.payload in BOARD_MARKERS:
                continue
            sure = gray is None or self._turn_sure(gray, detection)
            try:
                tag, reason = parse(detection.payload), None
            except TagError as error:
                tag, reason = None, error.code
            position = calibration.to_board(detection.centre)
            zone = self.zones.zone_at(position) if calibration.from_marker else None
            out.append(StickerRead(detection.payload, tag, position,
                                calibration.board_angle(detection.angle, detection.centre),
                                zone, reason, sure))
        return out

    def _turn_sure(self, gray: np.ndarray, detection: Detection) -> bool:
        """The read's finder patterns are where it names them (`orientation.turn_sure`),
        and the card's outline agrees with what the card's sure reads showed before: a
        sticker never moves on its card, so its body lies on the same side of it in the
        sticker's terms at every turn; a read that sees it on the other side is not sure
        (a read named half round). The outline is learned from the sure reads."""
        checked = self._checked(gray, detection)
        if not self._sure(gray, detection, checked):
            return False
        follow = self.follow.get(detection.payload)
        if not checked.sided:
            checked.side, checked.sided = outline(gray, detection.corners), True
        side = checked.side
        if follow is None or side is None or abs(side) < OUTLINE_STRONG:
            return True
        vote = 1 if side > 0 else -1
        if follow.layout * vote <= -LAYOUT_KNOWN:
            return False
        follow.layout = max(-LAYOUT_VOTES, min(LAYOUT_VOTES, follow.layout + vote))
        return True

    def _sure(self, gray: np.ndarray, detection: Detection,
              checked: _Checked | None = None) -> bool:
        """`orientation.turn_sure` for this read, or what it said for the same read over
        the same picture (`_Checked`)."""
        checked = checked or self._checked(gray, detection)
        if checked.sure is None:
            checked.sure = turn_sure(gray, detection.corners, detection.payload)
        return checked.sure

    def _checked(self, gray: np.ndarray, detection: Detection) -> _Checked:
        """The last checked read of this payload if this read is the same one over the
        same picture, else a new, unchecked record kept in its place."""
        corners = np.float32(detection.corners)
        last = self.checked.get(detection.payload)
        if last is not None and last.look is not None and \
                last.corners.shape == corners.shape and \
                float(np.abs(corners - last.corners).max()) <= SAME_READ_PX:
            look = _look(gray, last.box)
            if look is not None and float(np.abs(look - last.look).max()) <= CHANGE_LEVEL:
                return last
        h, w = gray.shape[:2]
        x0, y0 = (max(0, int(v)) for v in corners.min(0))
        x1, y1 = min(w, int(corners[:, 0].max()) + 1), min(h, int(corners[:, 1].max()) + 1)
        checked = _Checked(corners, (x0, y0, x1, y1), _look(gray, (x0, y0, x1, y1)))
        self.checked.pop(detection.payload, None)
        self.checked[detection.payload] = checked
        while len(self.checked) > CHECKED_MAX:  # foreign codes come and go: the oldest out
            del self.checked[next(iter(self.checked))]
        return checked

    def process(self, frame: np.ndarray, at: float | None = None) -> FrameResult:
        at = time.monotonic() if at is None else at
        if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or \
                frame.shape[0] < 32 or frame.shape[1] < 32 or frame.dtype != np.uint8:
            return FrameResult([], [], [], 0.0, False, mode="skip")  # not a picture
        self.frame += 1
        self.seen += 1
        start = time.perf_counter()
        rezoned = self.rezone(at)  # the zones were replaced since the last frame
        gray = to_gray(frame)
        thumb = Thumb(gray)
        mode, boxes = self._plan(thumb)
        self.calm = self.calm + 1 if mode == "skip" else 0
        blind = mode == "blind"
        if mode in ("skip", "glitch"):
            if mode == "skip":
                self.presence.tick(self.changes.last_cells)
            shown = list(self.shown.values())
            return FrameResult(rezoned, [d for d, _ in shown],
                               [s for _, s in shown if s is not None],
                               (time.perf_counter() - start) * 1000,
                               any(d.payload in self.marker_positions for d, _ in shown),
                               mode="skip")
        occupied = [(c, f.side) for p, f in self.follow.items() if p in self.tracker.tracks
                    for c in (f.centre, f.read_centre) if c is not None]
        if not blind:  # a glitch is not the table
            self.presence.update(Small(gray), occupied)  # where it was read, and followed
        self.presence.cells, self.presence.cell_px = cells(thumb.image), CHANGE_CELL * thumb.f
        self.presence.watch()  # what reaches in from the frame's edge (a lift needs it)
        building = _TEXTURE_WORKER.submit(TextureMap, gray) if self.rescue.enabled else None
        if boxes is None:
            detections = self.decoder.decode(gray)
            self.last_full = self.seen
        else:
            detections = self._decode_boxes(gray, boxes)
        texture, counts = None, {}
        if building is not None:
            texture = building.result()
            read = {d.payload for d in detections}
            wanted = [around(f.predict(self.frame), f.radius(self.frame), gray.shape)
                      for p, f in self.follow.items() if p not in read]
            # while things move (only the changed parts decoded) a blurred sticker is
            # rarely readable: one cheap variant and a smaller budget; the whole-frame
            # decodes (the first, the safety net) get every variant
            rescue = self.rescue if boxes is None else replace(
                self.rescue, variants=self.rescue.variants[:1],
                budget_ms=min(self.rescue.budget_ms, self.change.regions_budget_ms))
            extra, counts, failed = second_pass(
                self.decoder, gray, detections, wanted, rescue, texture,
                self._failed_before, None if boxes is None else [
                    Region(*b, "change") for b in boxes])
            detections = detections + extra
            self.failed = [f for f in self.failed if self.frame - f[1] < FAILED_FRAMES]
            self.failed += [(region, self.frame) for region in failed]
        self.changes.accept(thumb, boxes)
        decode_ms = (time.perf_counter() - start) * 1000
        # a marker read half round would turn every card: only markers sure of their turn
        markers = [d for d in detections if d.payload in self.marker_positions
                   and self._sure(gray, d)]
        if markers:
            self._calibrate(markers)
            rezoned += self.rezone(at)  # the first marker: zones for the cards already there
        sightings = self.sightings(detections, gray)
        present, hidden, still = self._present(detections, texture, boxes)
        if blind:  # nothing that is not read counts a miss in a frame like this
            still = frozenset(self.tracker.tracks)
        observations = rezoned + self.tracker.update(sightings, at, present, hidden, still)
        self._remember(detections, texture)
        self._show(detections, sightings, boxes)
        shown = list(self.shown.values())
        return FrameResult(observations, [d for d, _ in shown],
                           [s for _, s in shown if s is not None], decode_ms,
                           any(d.payload in self.marker_positions for d, _ in shown),
                           present, counts, mode if boxes is None else "regions",
                           hidden)

    def still_skip(self) -> int:
        """How many camera frames the next one may come after: ``still_stride`` - 1 while
        the table has been still for ``calm_frames`` frames, else 0 (every frame)."""
        settings = self.change
        if settings.enabled and settings.still_stride > 1 and \
                self.calm >= settings.calm_frames:
            return settings.still_stride - 1
        return 0

    def skipped(self, count: int) -> None:
        """``count`` camera frames were passed over on the still table (`still_skip`):
        they count as frames in which nothing changed (the background model's stable
        run, the whole-frame safety net's period in camera frames); the next processed
        frame shows whether anything did."""
        self.seen += count
        self.presence.ticks += count

    def use_zones(self, zones: ZoneMap) -> None:
        """The zones cards are placed in from now on (the game's, or the owner's); the
        tracked cards are placed in them at the next `rezone`."""
        self.zones = zones

    def lying(self, at: float) -> list[Observation]:
        """An `Appeared` for every confirmed card on the table now (a game joining late)."""
        return self.tracker.lying(at)

    def rezone(self, at: float) -> list[Observation]:
        """`MovedZone`s for confirmed cards whose zone changed because the zones were
        replaced or the board marker was seen for the first time (nothing otherwise)."""
        key = (self.zones, self.calibration.from_marker)
        if key[0] is self._zoned[0] and key[1] == self._zoned[1]:
            return []
        self._zoned = key
        calibration = self.calibration

        def zone_of(payload: str):
            follow = self.follow.get(payload)
            if follow is None or follow.read_centre is None:
                return ...
            if not calibration.from_marker:
                return None
            return self.zones.zone_at(calibration.to_board(follow.read_centre))

        return self.tracker.rezone(zone_of, at)

    def _show(self, detections, sightings, boxes) -> None:
        """What the frame shows: a whole frame's reads, or the last ones with the changed
        regions' reads in place of what was there (a skipped frame shows the same)."""
        by_payload = {s.payload: s for s in sightings}
        if boxes is None:
            self.shown = {}
        else:
            for payload, (d, _) in list(self.shown.items()):
                if any(x0 <= d.centre[0] < x1 and y0 <= d.centre[1] < y1
                       for x0, y0, x1, y1 in boxes):
                    del self.shown[payload]
        for d in detections:
            self.shown[d.payload] = (d, by_payload.get(d.payload))

    def _plan(self, thumb: Thumb):
        """("full", None), ("regions", boxes), ("skip", None), ("glitch", None) (not
        decoded) or ("blind", None) (decoded whole, no misses)."""
        settings = self.change
        changed = self.changes.changed(thumb) if settings.enabled else None
        flat = _spread(thumb.image) < FLAT
        if flat or (
                changed is not None and changed.mean() > settings.glitch_share):
            # a blank or corrupt frame, a flash, the camera bumped or covered: evidence of
            # nothing; if it lasts, codes are read in it but no card counts a miss
            self.glitch += 1
            if self.glitch < settings.glitch_frames or flat:
                return "glitch", None
            return "blind", None
        self.glitch = 0
        if changed is None or self.seen - self.last_full >= settings.full_every:
            return "full", None
        sides = [f.side for f in self.follow.values()]
        fw, fh = thumb.size
        margin = max(sides) * 1.2 if sides else fw * 0.08
        boxes = self.changes.regions(changed, thumb, margin)
        for payload in self.tracker.unsettled():
            follow = self.follow.get(payload)
            if follow is not None:
                for centre in (follow.predict(self.frame), follow.read_centre):
                    if centre is None:
                        continue
                    r = around(centre, follow.radius(self.frame) + follow.side,
                               (int(fh), int(fw)))
                    if r.x1 - r.x0 >= 16 and r.y1 - r.y0 >= 16:  # (partly) in view
                        boxes.append((r.x0, r.y0, r.x1, r.y1))
                        break
        if not boxes:
            return "skip", None
        boxes = merge(boxes)
        area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)
        if area > settings.full_share * fw * fh:
            return "full", None
        return "regions", boxes

    def _decode_boxes(self, gray: np.ndarray, boxes) -> list[Detection]:
        """The first pass on the changed regions only; corners back in frame pixels."""
        out, seen = [], set()
        for x0, y0, x1, y1 in boxes:
            if x1 - x0 < 16 or y1 - y0 < 16:
                continue
            for d in self.decoder.decode(gray[y0:y1, x0:x1]):
                if d.payload in seen:
                    continue
                seen.add(d.payload)
                corners = tuple((x + x0, y + y0) for x, y in d.corners)
                out.append(Detection(d.payload, corners, d.angle))
        return out

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

    def _present(self, detections: list[Detection], texture: TextureMap | None,
                 boxes) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        """For each tracked card not read in this frame: (present, hidden, still).

        still: its place is outside every changed region, or still looks like the card did
        when it was read (hardware.camera.presence: not something wood can imitate);
        present: moving, found by its texture (>= 40 % of its signature) or light patch
        near where its motion puts it, on a spot that is not the table; hidden: something
        over its place that is neither the card nor the table. Anything else is a miss."""
        read = {d.payload for d in detections}
        present, hidden, still = set(), set(), set()
        verdicts = {}
        for payload, follow in self.follow.items():
            if payload in read or payload not in self.tracker.tracks:
                continue
            track = self.tracker.tracks[payload]
            waiting = track.misses or track.coasting or track.hiding  # judged every frame
            if boxes is not None and not waiting and not any(
                    x0 - follow.side / 2 < follow.centre[0] < x1 + follow.side / 2 and
                    y0 - follow.side / 2 < follow.centre[1] < y1 + follow.side / 2
                    for x0, y0, x1, y1 in boxes):
                still.add(payload)
                continue
            verdicts[payload] = verdict = self.presence.verdict(payload)
            if verdict == CARD:
                still.add(payload)
        for payload in still:  # in place now: a move from here is a move of this frame
            self.follow[payload].frame = self.frame
        # cards known to lie where they were read: a spot on one of them is that card
        # (a card lifted over another one is not followed onto it)
        lying = [(f.read_centre, f.side) for p, f in self.follow.items()
                 if (p in read or p in still) and f.read_centre is not None]
        for payload, verdict in verdicts.items():
            if verdict == CARD:
                continue
            follow = self.follow[payload]
            if self._covered_by_another(payload, follow, detections):
                hidden.add(payload)
                follow.frame = self.frame
                continue
            where = self._search(follow, texture, detections)
            if where is not None and any(
                    math.hypot(where[0] - c[0], where[1] - c[1]) < CARD_REACH * side
                    for c, side in lying):
                where = None
            if where is not None and not self._on_course(follow, where):
                where = None
            if where is not None and self.presence.not_table(where, follow.side, payload):
                present.add(payload)
                follow.move(where, self.frame)
            elif verdict == HIDDEN:
                hidden.add(payload)
                follow.frame = self.frame  # last known where it was: a move starts from now
        return frozenset(present), frozenset(hidden), frozenset(still)

    def _covered_by_another(self, payload: str, follow: _Follow, detections) -> bool:
        """Another card's sticker read closer to this card's sticker than two cards lying
        side by side can be: that card lies over this one (slid over it), which a lift
        never shows (issue 35). Only tracked cards: the board's markers lie where they
        lie, and a card may be laid beside one."""
        at = follow.read_centre
        if at is None:
            return False
        return any(d.payload != payload and d.payload in self.follow and
                   math.hypot(d.centre[0] - at[0], d.centre[1] - at[1])
                   < COVER_REACH * follow.side for d in detections)

    def _on_course(self, follow: _Follow, where) -> bool:
        """A card moving fast (carried away, slid) found where its motion puts it: within
        3/4 of a sticker side plus half its speed per frame since it was last found. A
        spot off that course is the table's art or another thing the search lit on (a
        card carried out of the picture was followed back onto the board for frames)."""
        speed = math.hypot(*follow.velocity)
        if speed <= FAST * follow.side:
            return True
        frames = max(1, self.frame - follow.frame)
        return _near(where, follow.predict(self.frame),
                     0.75 * follow.side + 0.5 * speed * frames)

    def _search(self, follow: _Follow, texture: TextureMap | None,
                detections: list[Detection]):
        """Where the card's texture (or, smeared by a fast slide, its light patch) is near
        its predicted position, or None."""
        if texture is None or not follow.signature:
            return None
        centre, radius = follow.predict(self.frame), follow.radius(self.frame)
        h, w = texture.shape
        if not (-follow.side < centre[0] < w + follow.side and
                -follow.side < centre[1] < h + follow.side):
            return None  # carried out of the picture: nothing in view is that card
        score, where = texture.best_patch(centre, radius, follow.side, detections)
        if score >= max(PRESENT_SHARE * follow.signature, PRESENT_FLOOR):
            return where
        if follow.bright < BRIGHT_MIN:
            return None
        bright, where = texture.best_patch(centre, radius, follow.side, detections,
                                           "contrast")
        return where if bright >= BRIGHT_SHARE * follow.bright else None

    def _remember(self, detections: list[Detection], texture: TextureMap | None) -> None:
        for detection in detections:
            if detection.payload in BOARD_MARKERS:
                continue
            signature = texture.patch_score(detection.centre, detection.side) if texture else 0.0
            bright = texture.patch_score(detection.centre, detection.side, "contrast") \
                if texture else 0.0
            self.presence.remember(detection.payload, detection.centre, detection.side)
            follow = self.follow.get(detection.payload)
            if follow is None:
                self.follow[detection.payload] = _Follow(detection.centre, detection.side,
                                                         signature, bright, self.frame,
                                                         read_frame=self.frame,
                                                         read_centre=detection.centre)
                continue
            follow.move(detection.centre, self.frame)
            follow.side, follow.read_frame = detection.side, self.frame
            follow.read_centre = detection.centre
            if signature:
                follow.signature = 0.7 * follow.signature + 0.3 * signature \
                    if follow.signature else signature
                follow.bright = 0.7 * follow.bright + 0.3 * bright
        for payload in [p for p in self.follow if p not in self.tracker.tracks]:
            del self.follow[payload]
            self.presence.forget(payload)


def _near(a, b, distance: float) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) < distance


def _look(gray: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray | None:
    """The box's mean gray level in `LOOK_CELLS` x `LOOK_CELLS` cells (None: a box too
    small for that)."""
    x0, y0, x1, y1 = box
    if x1 - x0 < LOOK_CELLS or y1 - y0 < LOOK_CELLS:
        return None
    return cv2.resize(gray[y0:y1, x0:x1], (LOOK_CELLS, LOOK_CELLS),
                      interpolation=cv2.INTER_AREA).astype(np.float32)


def _spread(image: np.ndarray) -> float:
    """The gray levels' standard deviation (OpenCV's: a twentieth of numpy's time, and
    it runs on every frame)."""
    return float(cv2.meanStdDev(image)[1][0, 0])

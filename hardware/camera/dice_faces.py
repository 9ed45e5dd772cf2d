"""Read ordinary pip dice in a tray image: where each die is, its colour group and its face.

Knows no game. The tray floor is dark felt (docs/table-kit.md): a die is a blob far from the
felt's colour; its silhouette is squared up (minimum-area rectangle) and the pips are read in
that square. A face counts only when the pips sit where a d6 puts them for that count, so a
cocked die, two dice seen as one or a pip lost in glare are reported unreadable (``face``
None) rather than guessed: a wrong face is worse than none. docs/camera.md says why.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

CANON = 48  # px of the squared-up die face
PIP_OFFSET = 0.27  # pip centres from the face's centre, in sides (a standard d6)
LAYOUTS = {
    1: [[(0, 0)]],
    2: [[(-1, -1), (1, 1)], [(1, -1), (-1, 1)]],
    3: [[(-1, -1), (0, 0), (1, 1)], [(1, -1), (0, 0), (-1, 1)]],
    4: [[(-1, -1), (1, -1), (-1, 1), (1, 1)]],
    5: [[(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]],
    6: [[(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
        [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)]],
}
_TARGETS = {count: [np.array(layout, np.float32) for layout in layouts]
            for count, layouts in LAYOUTS.items()}
MAX_PIP_ERROR = 0.4  # in pip offsets: how far a pip may sit from its place
FELT_DISTANCE = 45.0
ERODE = 2
MAX_HOLE = 0.0012  # of the image: a pip is smaller, a gap between dice larger


@dataclass(frozen=True)
class DieReading:
    """One die: ``face`` 1-6, or None when it cannot be read with confidence. ``die``: the
    name of a taught die (hardware/camera/taught_faces.py) this one is, its ``face`` then
    that die's label; ``square``: the die's top squared up (CANON px), when it lay flat."""

    face: int | None
    colour: str
    centre: tuple[float, float]
    side: float
    score: float
    die: str | None = None
    square: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        out = {"face": self.face, "colour": self.colour,
               "centre": [round(self.centre[0], 1), round(self.centre[1], 1)],
               "score": round(self.score, 3)}
        if self.die is not None:
            out["die"] = self.die
        return out


@dataclass(frozen=True)
class TrayReading:
    """Every die seen, and whether the tray was clear to read (no hand, nothing huge)."""

    dice: list[DieReading]
    clear: bool


def colour_name(bgr: np.ndarray) -> str:
    """The colour group of a die body: white, or a player's colour by hue."""
    hsv = cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0]
    h, s, v = int(hsv[0]), int(hsv[1]), int(hsv[2])
    if s < 70 and v > 140:
        return "white"
    if v < 60:
        return "black"
    if h < 10 or h >= 165:
        return "red"
    if h < 22:
        return "orange"
    if h < 36:
        return "yellow"
    if h < 88:
        return "green"
    if h < 135:
        return "blue"
    return "purple"


def floor_mask(image: np.ndarray) -> np.ndarray:
    """255 where the pixel is not the felt (dice, walls, hands)."""
    h, w = image.shape[:2]
    centre = image[h // 6: h - h // 6: 4, w // 6: w - w // 6: 4].reshape(-1, 3)
    felt = np.median(centre, axis=0).astype(np.uint8)
    # only what is brighter than the felt: shadows and dark pips are floor-like, not dice
    difference = cv2.subtract(image, (*(float(v) for v in felt), 0.0))
    distance = cv2.transform(difference, np.ones((1, 3), np.float32))
    return (distance > FELT_DISTANCE).astype(np.uint8) * 255


def _match_layout(points: np.ndarray) -> tuple[int | None, float]:
    """The face whose pip layout these points (in pip offsets) fit, and the worst error.

    Each pip is given its nearest place, which must be one to one. Places lie at least one
    offset apart, so a pip within MAX_PIP_ERROR of a place has no other place nearer: trying
    every assignment (as a first version did) finds no better fit that is accepted."""
    count = len(points)
    best = 9.0
    for target in _TARGETS.get(count, ()):
        d = np.sqrt(((points[:, None, :] - target[None, :, :]) ** 2).sum(axis=2))
        nearest = d.argmin(axis=1)
        if len(set(nearest.tolist())) == count:
            best = min(best, float(d[np.arange(count), nearest].max()))
    return (count, best) if best <= MAX_PIP_ERROR else (None, best)


_INNER = slice(CANON * 14 // 100, CANON - CANON * 14 // 100)  # inside the rounded edge
_EXPECTED_PIP = np.pi * (0.095 * CANON) ** 2  # px of a pip in the squared-up face


def _quantile(values: np.ndarray, q: float) -> np.ndarray:
    """``np.quantile(values, q, axis=0)`` (linear), by partial sort: numpy's general path
    costs several times more on a die's thousand pixels, read a dozen times a roll."""
    position = q * (len(values) - 1)
    low = int(position)
    high = min(low + 1, len(values) - 1)
    part = np.partition(values, [low, high], axis=0)
    return part[low] + (part[high] - part[low]) * (position - low)


def read_face(square: np.ndarray) -> tuple[int | None, float, np.ndarray]:
    """Pips of a squared-up die (CANON×CANON BGR): face or None, score 0-1, body colour."""
    gray = cv2.cvtColor(square, cv2.COLOR_BGR2GRAY).astype(np.float32)
    inner_gray = gray[_INNER, _INNER].ravel()
    body_gray = float(_quantile(inner_gray, 0.5))
    contrast = np.abs(gray[_INNER, _INNER] - body_gray)
    peak = float(_quantile(contrast.ravel(), 0.99))
    body = _quantile(square[_INNER, _INNER].reshape(-1, 3).astype(np.float64), 0.5)
    if peak < 40:  # no pips at all: not a die face we can read
        return None, 0.0, body
    # only inside the rounded, shaded edge: the edge is not a pip
    pips = np.zeros((CANON, CANON), np.uint8)
    pips[_INNER, _INNER] = contrast > max(30.0, 0.5 * peak)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(pips, connectivity=8)
    points = []
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA]
        w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if area < 0.25 * _EXPECTED_PIP or max(w, h) > 2.5 * min(w, h):
            continue  # noise speck, or the floor's edge showing along a side
        if area > 2.2 * _EXPECTED_PIP:
            return None, 0.0, body  # a blot no pip makes: glare, a shadow, two dice
        points.append(centroids[i])
    if not points:
        return None, 0.0, body
    units = (np.array(points, np.float32) - CANON / 2) / (PIP_OFFSET * CANON)
    face, error = _match_layout(units)
    return face, max(0.0, 1.0 - error / MAX_PIP_ERROR) if face else 0.0, body


def _square_up(image: np.ndarray, rect) -> np.ndarray:
    (cx, cy), (w, h), angle = rect
    side = (w + h) / 2
    m = cv2.getRotationMatrix2D((cx, cy), angle, CANON / side)
    m[:, 2] += (CANON / 2 - cx, CANON / 2 - cy)
    return cv2.warpAffine(image, m, (CANON, CANON), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def _read_square(image: np.ndarray, rect, taught: Sequence) -> DieReading:
    """A die lying flat in ``rect`` (a minimum-area rectangle): its pips, or, when it is a
    taught die sure of its face, that face. A die that looks taught but is unsure, and
    shows no pip face either, is that die unreadable (the phone asks for it by name)."""
    (cx, cy), (rw, rh), _ = rect
    square = _square_up(image, rect)
    face, score, body = read_face(square)
    centre, side = (float(cx), float(cy)), float((rw + rh) / 2)
    for die in taught:
        match = die.match(square)
        if match.ours and (match.face is not None or face is None):
            return DieReading(match.face, colour_name(body), centre, side,
                              match.score if match.face is not None else 0.0, die.name, square)
    return DieReading(face, colour_name(body), centre, side, score, None, square)


def _read_blob(image: np.ndarray, points: np.ndarray, grown: int, typical: float,
               pixels: float | None = None, taught: Sequence = ()) -> DieReading:
    """One die's blob (eroded by ``grown`` px; ``points`` its pixels or its outline, then
    ``pixels`` its pixel count): squared up and read, or unreadable when its shape is not a
    die lying flat (a cocked die shows a side: the wrong size or shape)."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
    area = (len(points) if pixels is None else pixels) if grown == ERODE else (rw * rh)
    rw, rh = rw + 2 * grown, rh + 2 * grown
    aspect = max(rw, rh) / max(1.0, min(rw, rh))
    wrong_size = grown == ERODE and not 0.6 * typical <= area <= 1.45 * typical
    if aspect > 1.2 or wrong_size:
        return DieReading(None, "unknown", (float(cx), float(cy)), float((rw + rh) / 2), 0.0)
    return _read_square(image, ((cx, cy), (rw, rh), angle), taught)


def _halves(points: np.ndarray) -> list | None:
    """Two dice side by side with no gap the camera can see: a 2:1 rectangle, cut in two."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
    rw, rh = rw + 2 * ERODE, rh + 2 * ERODE
    long_side, short_side = max(rw, rh), min(rw, rh)
    if not 1.8 <= long_side / short_side <= 2.25:
        return None
    theta = np.radians(angle if rw >= rh else angle + 90)
    dx, dy = np.cos(theta) * long_side / 4, np.sin(theta) * long_side / 4
    side = (short_side + long_side / 2) / 2
    return [((cx - dx, cy - dy), (side, side), angle), ((cx + dx, cy + dy), (side, side), angle)]


def _split(points: np.ndarray, typical: float, gray: np.ndarray
           ) -> list[tuple[np.ndarray, int]] | None:
    """Dice touching in one blob: their rounded, darker edges part them (the blob's bright
    cores), or else eroding it further until it falls into die-sized pieces."""
    pts = points.reshape(-1, 2)
    x0, y0 = pts.min(axis=0) - 2
    blob = np.zeros((int(pts[:, 1].max() - y0) + 3, int(pts[:, 0].max() - x0) + 3), np.uint8)
    blob[pts[:, 1] - y0, pts[:, 0] - x0] = 1
    side = np.sqrt(typical)
    values = gray[pts[:, 1], pts[:, 0]]
    light = np.zeros_like(blob)
    light[pts[:, 1] - y0, pts[:, 0] - x0] = values > 0.85 * np.median(values)
    holes, hole_labels, hole_stats, _ = cv2.connectedComponentsWithStats(1 - light,
                                                                          connectivity=4)
    small = hole_stats[:, cv2.CC_STAT_AREA] < 0.05 * typical
    small[0] = False
    light[small[hole_labels]] = 1  # pips back in
    light = cv2.erode(light, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(light, connectivity=4)
    big = [i for i in range(1, count) if 0.3 * typical <= stats[i, cv2.CC_STAT_AREA]]
    if len(big) >= 2 and all(stats[i, cv2.CC_STAT_AREA] <= 1.3 * typical for i in big):
        grow = ERODE + 1 + int(round(side * 0.06))
        return [(cv2.findNonZero((labels == i).astype(np.uint8)) + (x0, y0), grow) for i in big]
    for extra in range(1, int(side * 0.25) + 1):
        blob = cv2.erode(blob, np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(blob, connectivity=8)
        big = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 0.25 * typical]
        if len(big) >= 2:
            return [(cv2.findNonZero((labels == i).astype(np.uint8)) + (x0, y0), ERODE + extra)
                    for i in big]
    return None


@dataclass
class _Blob:
    """One connected part of the eroded mask: its outline, its filled pixels (holes left
    open) in its bounding box at (x, y), and their count."""

    outline: np.ndarray
    filled: np.ndarray
    x: int
    y: int
    area: float

    def pixels(self) -> np.ndarray:
        return cv2.findNonZero(self.filled) + (self.x, self.y)


def _fill_pips(mask: np.ndarray) -> np.ndarray:
    """Dark pips on a light die are holes in its blob: fill holes smaller than a pip can be
    (a gap enclosed by dice is larger). The image's edge counts as wall, so a pocket of felt
    between a die and the edge is filled too. Outlines, not labelled pixels: several times
    cheaper."""
    framed = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=255)
    outlines, hierarchy = cv2.findContours(framed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    limit = MAX_HOLE * mask.size
    holes = [outline for outline, (_, _, _, parent) in zip(outlines, hierarchy[0], strict=True)
             if parent >= 0 and cv2.contourArea(outline) < limit]
    cv2.drawContours(framed, holes, -1, 255, cv2.FILLED)
    return framed[1:-1, 1:-1]


def _blobs(mask: np.ndarray) -> tuple[list[_Blob], bool]:
    """The blobs off the walls, and whether the tray is clear: the walls are thin, so
    anything joined to them that reaches well inside is a hand."""
    h, w = mask.shape
    reach = int(min(h, w) * 0.15)
    outlines, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    blobs, clear = [], True
    for i, outline in enumerate(outlines):
        if hierarchy[0][i][3] >= 0:
            continue  # a hole's outline: drawn with its blob
        x, y, bw, bh = cv2.boundingRect(outline)
        if x == 0 or y == 0 or x + bw == w or y + bh == h:  # joined to the walls
            if clear:
                inside = np.zeros((h - 2 * reach, w - 2 * reach), np.uint8)
                cv2.drawContours(inside, outlines, i, 1, cv2.FILLED, hierarchy=hierarchy,
                                 maxLevel=1, offset=(-reach, -reach))
                clear = not inside.any()
            continue
        filled = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(filled, outlines, i, 1, cv2.FILLED, hierarchy=hierarchy, maxLevel=1,
                         offset=(-x, -y))
        area = cv2.countNonZero(filled)
        if area >= 40:
            blobs.append(_Blob(outline, filled, x, y, float(area)))
    return blobs, clear


def read_tray(image: np.ndarray, die_px: float | None = None, taught: Sequence = ()
              ) -> TrayReading:
    """Every die in a tray image (the whole image is the tray). ``die_px``: the dice's side
    in pixels if known (calibration); otherwise the typical blob size stands for it.
    ``taught``: dice read by their taught pictures (`taught_faces.TaughtDie`)."""
    mask = _fill_pips(floor_mask(image))
    # eroding parts dice that touch (their rounded edges leave a dark seam); the squares are
    # grown back by as much before reading
    mask = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=ERODE)
    blobs, clear = _blobs(mask)
    if not blobs:
        return TrayReading([], clear)
    # blobs are measured eroded: a known die size is eroded alike
    typical = (die_px - 2 * ERODE) ** 2 if die_px else float(np.median([b.area for b in blobs]))
    gray = None
    dice = []
    for blob in blobs:
        area = blob.area
        if area < 0.35 * typical:
            continue  # a crumb, a speck of glare
        if area > 6 * typical:
            clear = False  # far too big for dice: a hand, a cup
            continue
        many = int(round(area / typical))
        if many < 2:
            dice.append(_read_blob(image, blob.outline, ERODE, typical, area, taught))
            continue
        if gray is None:
            gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        parts = _split(blob.pixels(), typical, gray)
        if parts is None and many == 2:
            halves = _halves(blob.outline)
            if halves:
                dice += [_read_square(image, rect, taught) for rect in halves]
                continue
        if parts is None:  # dice pressed together: seen, not read
            cx, cy = blob.pixels().reshape(-1, 2).mean(axis=0)
            dice += [DieReading(None, "unknown", (float(cx), float(cy)),
                                float(np.sqrt(typical)), 0.0)] * many
            continue
        for part, grown in parts:
            dice.append(_read_blob(image, part, grown, typical, taught=taught))
    dice.sort(key=lambda d: (d.centre[1], d.centre[0]))
    return TrayReading(dice, clear)


def lone_die(image: np.ndarray) -> np.ndarray:
    """The top of the one die lying flat in a tray image, squared up (to teach its face).
    Raises ValueError("hand" | "no_die" | "several_dice" | "not_flat") otherwise."""
    reading = read_tray(image)
    if not reading.clear:
        raise ValueError("hand")
    if not reading.dice:
        raise ValueError("no_die")
    if len(reading.dice) > 1:
        raise ValueError("several_dice")
    if reading.dice[0].square is None:
        raise ValueError("not_flat")
    return reading.dice[0].square

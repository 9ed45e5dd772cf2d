"""What every stage of the dice reader shares: the squared-up die's size, the readings it
returns, small exact statistics, and this thread's reused buffers (`_scratch`).
"""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

CANON = 48  # px of the squared-up die face
ERODE = 2
EDGE_BLUR = 0.0  # px: a die's colour, blurred into the floor's, marks it this much wider
APART = 0.8  # of a die's side: no other die's centre lies nearer (dice touch face to face)
PATCH = 6.0  # dice's areas: a blob larger is a patch of floor, not dice pressed together


@dataclass(frozen=True)
class DieReading:
    """One die: ``face`` 1-6, or None when it cannot be read with confidence. ``die``: the
    name of a taught die (hardware/camera/taught_faces.py) this one is, its ``face`` then
    that die's label; ``square``: the die's top squared up (CANON px), when it lay flat;
    ``pitch``: how far its pips lie from its centre (px along a side; 0 for a one)."""

    face: int | None
    colour: str
    centre: tuple[float, float]
    side: float
    score: float
    die: str | None = None
    square: np.ndarray | None = field(default=None, repr=False, compare=False)
    pitch: float = field(default=0.0, repr=False, compare=False)

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


def _floats(values) -> list[float]:
    """A few numbers as plain floats (an array's elements at once, not one by one)."""
    return values.tolist() if isinstance(values, np.ndarray) else [float(c) for c in values]


_INNER = slice(CANON * 14 // 100, CANON - CANON * 14 // 100)  # inside the rounded edge
_YY, _XX = np.mgrid[0:CANON, 0:CANON].astype(np.float32)


def _median_colour(colours: np.ndarray) -> np.ndarray:
    """``np.median(colours, axis=0)`` of a top's pixels (rows of B, G, R bytes), in float64:
    the two middle ranks of a stable (radix) sort of each channel, interpolated in float64
    (a partition, as `_quantile` did before it was this function's twin, cost 1.25 of this
    on the 770 bodies of 385 squares read in 16 bench rolls: notes s80/i65b/body2.py,
    2026-11-28 03:14 UTC, load ~0); numpy's general median costs several times more."""
    position = 0.5 * (len(colours) - 1)
    low = int(position)
    high = min(low + 1, len(colours) - 1)
    ranked = np.sort(colours, axis=0, kind="stable")
    below, above = ranked[low].astype(np.float64), ranked[high].astype(np.float64)
    return below + (above - below) * (position - low)


def _median(values) -> float:
    """``np.median`` of a few values (a die's pips), exactly, at a fraction of its CPU."""
    ranked = np.sort(np.asarray(values))
    half = len(ranked) // 2
    return ranked[half] if len(ranked) % 2 else (ranked[half - 1] + ranked[half]) / 2


def _median_rows(values: np.ndarray, axis: int = 0) -> np.ndarray:
    """``np.median(values, axis=axis)`` (colours: rows of B, G, R), exactly, by partial sort:
    numpy's general path costs several times more. The two middle rows averaged as
    ``np.mean`` would: in float64 for whole levels, else in the values' own type."""
    count = values.shape[axis]
    half = count // 2
    at = (slice(None),) * axis  # the rows along ``axis``: views, not copies
    if count % 2:
        middle = np.partition(values, half, axis=axis)[(*at, half)]
        return middle.astype(np.float64) if values.dtype.kind in "iu" else middle
    part = np.partition(values, [half - 1, half], axis=axis)
    dtype = np.float64 if values.dtype.kind in "iu" else values.dtype
    return np.add(part[(*at, half - 1)], part[(*at, half)], dtype=dtype) / 2


class _Once:
    """A value made on first asking, kept after (``functools.cache`` costs more to wrap)."""

    __slots__ = ("make", "value")

    def __init__(self, make: Callable):
        self.make, self.value = make, None

    def __call__(self):
        if self.value is None:
            self.value = self.make()
        return self.value


_INNER_COUNT = len(range(CANON)[_INNER]) ** 2


def _medians(counts: np.ndarray, parts) -> list[float]:
    """The medians (as `np.median` of the pixels: the two middle values' mean) of runs of
    whole grey levels, each given as (pixels below it, pixels in it), from the levels'
    cumulative counts: every rank looked up at once."""
    ranks = []
    for before, many in parts:
        low = (many - 1) // 2
        ranks += [before + low + 1, before + min(low + 1, many - 1) + 1]
    levels = np.searchsorted(counts, ranks).tolist()
    return [levels[k] + (levels[k + 1] - levels[k]) * ((many - 1) / 2 - (many - 1) // 2)
            for k, (_, many) in zip(range(0, len(levels), 2), parts, strict=True)]


def _square_components(mask: np.ndarray):
    """``cv2.connectedComponentsWithStats(mask, connectivity=8)`` of a CANON square, its
    labels (unused) in 16 bits written over this thread's one buffer: half the CPU."""
    return cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_16U, cv2.CCL_SPAGHETTI,
        labels=_scratch("square labels", (CANON, CANON), np.uint16))


def _square_buffer(name: str) -> np.ndarray:
    """This thread's one CANON×CANON bool buffer of that name, its rim (`_EDGE`) clear."""
    buffer = getattr(_SCRATCH, name, None)
    if buffer is None:
        buffer = np.zeros((CANON, CANON), bool)
        setattr(_SCRATCH, name, buffer)
    return buffer


def _median_of(values: list) -> float:
    """`_median` of a few plain numbers, in plain floats: the same as `_median` of float64
    ones, and of float32 ones in half levels (their sums exact in float32 too)."""
    ranked = sorted(values)
    half = len(ranked) // 2
    return float(ranked[half] if len(ranked) % 2 else (ranked[half - 1] + ranked[half]) / 2)


_SUM = np.ones((1, 3), np.float32)
_SCRATCH = threading.local()  # this thread's reused buffers (`_scratch`, labels, squares)


def _scratch(name: str, shape: tuple[int, ...], dtype=np.uint8) -> np.ndarray:
    """This thread's buffer ``name`` seen as ``shape`` (its old contents left in it), valid
    until the thread asks for ``name`` again. Why: the app maps every block over 128 KiB
    anew and trims the heap's top back after every free (companion/server/memory.py), so a
    roll's whole-tray temporaries were ~1,640 fresh pages to fault in (bench's flow).
    One flat buffer a name and type, grown when a larger view is asked for; the views made
    are kept too (a band's buffers are asked for a dozen times a band: 6 us each to make)."""
    views = getattr(_SCRATCH, "views", None)
    if views is None:
        views = _SCRATCH.views = {}
        _SCRATCH.pool = {}
    key = (name, shape, dtype)
    view = views.get(key)
    if view is not None:
        return view
    pool, size = _SCRATCH.pool, math.prod(shape)
    flat = pool.get((name, dtype))
    if flat is None or flat.size < size:
        flat = pool[(name, dtype)] = np.empty(max(size, 1), dtype)
        views.clear()  # none of them is of the old buffer any more
    if len(views) > 256:  # a patch's bands of every width: no growing all evening
        views.clear()
    view = views[key] = flat[:size].reshape(shape)
    return view


def release_buffers() -> None:
    """Let this thread's reused buffers go (5.9 MB for a 480x360 tray): for a thread that
    reads a tray now and then (a web request teaching a die), not the camera's, which
    reads one every throw."""
    _SCRATCH.__dict__.clear()


def _fresh(name: str, shape: tuple[int, ...], dtype=np.uint8) -> np.ndarray:
    """A new array, where `_scratch` would hand back one that may still be in use."""
    return np.empty(shape, dtype)


def _channel_sum(planes: Sequence[np.ndarray], out: np.ndarray) -> np.ndarray:
    """B+G+R of each pixel (its split ``planes``) into ``out``, float32 (whole levels or
    halves: exact). OpenCV's adds on split planes: half numpy's on strided channels."""
    cv2.add(planes[0], planes[1], dst=out, dtype=cv2.CV_32F)
    return cv2.add(out, planes[2], dst=out, dtype=cv2.CV_32F)


def _components(mask: np.ndarray, scratch: bool = False):
    """``cv2.connectedComponentsWithStats(mask, connectivity=8)`` in 16-bit labels where they
    fit (a 2x2 block holds one component at most): half the fresh pages of 32, a third of
    the default call's CPU. By Spaghetti (Bolelli's), not BBDT: the same labels and stats
    on 504 masks of the bench's trays, 0.42 against 0.47 ms a mask (2.3 % of read_tray).
    Only the box round the mask's pixels is labelled (a median 0.6 of the tray; the
    statistics pass reads every pixel it is given): from an even row and column, so the
    2x2 blocks Spaghetti scans are the whole image's and the labels come in the same order;
    the boxes and centroids moved back exactly (a centroid is a whole sum over an area).
    Row 0, the background, is the box's: no caller reads it.
    ``scratch``: the labels are written over this thread's one buffer, valid until the
    next such call (no fresh pages at all), for a caller done with them first."""
    h, w = mask.shape
    ltype = cv2.CV_16U if ((h + 1) // 2) * ((w + 1) // 2) < 65535 else cv2.CV_32S
    dtype = np.uint16 if ltype == cv2.CV_16U else np.int32
    labels = _scratch("labels", (h, w), dtype) if scratch else np.empty((h, w), dtype)
    x, y, bw, bh = cv2.boundingRect(mask)
    x0, y0 = x - x % 2, y - y % 2
    x1, y1 = max(x + bw, x0 + 2), max(y + bh, y0 + 2)  # an empty mask: one 2x2 block
    if (x0, y0, x1, y1) != (0, 0, w, h):
        labels.fill(0)
    box = (slice(y0, y1), slice(x0, x1))
    count, got, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask[box], 8, ltype, cv2.CCL_SPAGHETTI, labels=labels[box])
    if not np.shares_memory(got, labels):
        labels[box] = got
    if x0 or y0:
        stats[:, 0] += x0
        stats[:, 1] += y0
        area = stats[1:, cv2.CC_STAT_AREA, None].astype(np.float64)
        # the whole sum each centroid is (exact in float64), moved, over the area again
        centroids[1:] = (np.rint(centroids[1:] * area) + (x0, y0) * area) / area
    return count, labels, stats, centroids


_SQUARE = np.ones((3, 3), np.uint8)
_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def _erode(mask: np.ndarray, dst: np.ndarray | None = None) -> np.ndarray:
    """``mask`` eroded by `ERODE` (2) px (into ``dst``)."""
    return cv2.erode(mask, _SQUARE, dst=dst, iterations=ERODE)

"""Stage: pips. A squared-up die's top (CANON px) read: its two tones, its pips, the face whose
layout they fit, nothing where that face has none.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from .common import (
    _INNER,
    _INNER_COUNT,
    _XX,
    _YY,
    CANON,
    _median_colour,
    _median_of,
    _medians,
    _Once,
    _square_buffer,
    _square_components,
)

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
_STACKED = {count: np.array(layouts, np.float32)  # layouts × places × 2: tried at once
            for count, layouts in LAYOUTS.items()}
MAX_PIP_ERROR = 0.4  # in pip offsets: how far a pip may sit from its place
SCALES = (0.23, 0.25, 0.27, 0.29, 0.31, 0.33)  # pip offsets (of the side) real dice have
_SCALES_PX = np.array([scale * CANON for scale in SCALES], np.float32)
_SCALES_COLUMN = _SCALES_PX[:, None, None]
SHRINK = 0.84  # the square tried again this much smaller when its pips made no face
MARKED = 45.0  # grey levels between a die's body and its pips or print


def _match_layout(points: np.ndarray) -> tuple[int | None, float]:
    """The face whose pip layout these points (in pip offsets) fit, and the worst error.

    Each pip is given its nearest place, which must be one to one. Places lie at least one
    offset apart, so a pip within MAX_PIP_ERROR of a place has no other place nearer: trying
    every assignment (as a first version did) finds no better fit that is accepted."""
    best = float(_layout_errors(points[None])[0])
    return (len(points), best) if best <= MAX_PIP_ERROR else (None, best)


def _layout_errors(scaled: np.ndarray) -> np.ndarray:
    """`_match_layout`'s worst error (9.0: no one-to-one fit) for each of several scalings
    of the same points at once (``scaled``: scalings × points × 2): one pass for every
    pip offset, a fifth of the CPU of one pass each; and every layout of the count in the
    same pass (scalings × layouts × points × places). The two axes apart (the same float32
    figures as a sum over them); a lone pip fits its one place one to one."""
    targets = _PLACES_XY.get(scaled.shape[1])
    if targets is None:
        return np.full(len(scaled), 9.0)
    dx = scaled[:, None, :, None, 0] - targets[0]
    dy = scaled[:, None, :, None, 1] - targets[1]
    dx *= dx
    dy *= dy
    d = np.sqrt(np.add(dx, dy, out=dx), out=dx)
    worst = d.min(axis=3).max(axis=2)  # each pip's distance to its nearest place
    if scaled.shape[1] > 1:
        ranked = np.sort(d.argmin(axis=3), axis=2)
        worst[(ranked[:, :, 1:] == ranked[:, :, :-1]).any(axis=2)] = np.inf
    return worst.min(axis=1, initial=9.0)


_PLACES_XY = {count: tuple(np.ascontiguousarray(stacked[..., axis])[None, :, None, :]
                           for axis in (0, 1))
              for count, stacked in _STACKED.items()}  # 1 × layouts × 1 × places, x and y
_RING = np.zeros((CANON, CANON), bool)  # just inside the rounded edge: mostly body
_OUTER, _INSIDE = slice(CANON * 6 // 100, -(CANON * 6 // 100)), slice(CANON * 9 // 100,
                                                                      -(CANON * 9 // 100))
_RING[_OUTER, _OUTER] = True
_RING[_INSIDE, _INSIDE] = False
_GRID = np.array([(x, y) for y in (-1, 0, 1) for x in (-1, 0, 1)], np.float32)


def _fit_layout(points: np.ndarray) -> tuple[int | None, float, float, np.ndarray]:
    """The face these pip centres (px from the square's centre) fit at some pip offset a real
    die has (`SCALES`), centred on the pips themselves when there are several (every d6
    layout is symmetric about the centre: a square found a little large or off still
    fits). Returns face, error (in pip offsets), the offset in px, and the centre."""
    centre = np.zeros(2, np.float32)
    if len(points) > 1:
        centre = np.add.reduce(points, axis=0) / len(points)  # points.mean(axis=0)
        if np.hypot(*centre) > 0.15 * CANON:
            return None, 9.0, 0.0, centre
    errors = _layout_errors((points - centre)[None] / _SCALES_COLUMN)
    k = int(errors.argmin())  # the first of the best
    error = float(errors[k])
    if error >= 9.0:
        return None, 9.0, 0.0, centre
    return (len(points) if error <= MAX_PIP_ERROR else None), error, SCALES[k] * CANON, centre


def _absent_elsewhere(local: np.ndarray, offsets: Sequence[float], centre: np.ndarray,
                      at: np.ndarray, pip_level: float, one: bool = False) -> bool:
    """No pip, faint or partly hidden, where this face has none, at any of the pips'
    ``offsets`` (px) tried: two pips of a three, four of a five or of a six are no two or
    four (a pip lost in glare, under a shadow). ``local``: the pips' contrast averaged over a
    small window (5×5); ``at``: the pips' centres in the square. Every offset in one pass.
    ``one``: a lone middle pip, which a three's or five's is too: their other pips lie in
    pairs through the middle, so a faint spot counts only with a fainter one opposite it (or
    its opposite place off the square); a glint on the top lies alone."""
    step = np.asarray(offsets, np.float32)[:, None, None]
    places = _GRID[None] * step + centre + CANON / 2  # offsets × places × 2
    gaps = at[None, None, :, :] - places[:, :, None, :]
    near = np.hypot(gaps[..., 0], gaps[..., 1])
    free = near.min(axis=2) >= 0.5 * step[:, :, 0]  # no pip of the face there
    spots = np.rint(places).astype(int)
    inside = ((spots >= 2) & (spots < CANON - 2)).all(axis=2)
    free &= inside
    least = 0.35 * pip_level  # float32 contrast compared in plain floats: the same
    if one:
        clipped = np.clip(spots, 0, CANON - 1)
        values = local[clipped[..., 1], clipped[..., 0]].astype(np.float64)
        seen = free & (values > least)
        # _GRID's places reversed are their opposites through the middle
        paired = (values[:, ::-1] > 0.5 * least) | ~inside[:, ::-1]
        return not (seen & paired).any()
    spots = spots[free]
    return not any(value > least for value in local[spots[:, 1], spots[:, 0]].tolist())


def _tones(square: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    """A squared-up top's grey (the square's, and its part inside the rounded edge), the
    divide between its two tones (Otsu's: a whole level) and the cumulative counts of the
    inner part's grey levels: what `read_face` and `_marked` both judge a square by, made
    once a square (``tones=``) where both look at it (`squares._read_square`)."""
    gray8 = cv2.cvtColor(square, cv2.COLOR_BGR2GRAY)
    inner8 = gray8[_INNER, _INNER]
    split, _ = cv2.threshold(inner8, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return gray8, inner8, split, np.bincount(inner8.ravel(), minlength=256).cumsum()


def read_face(square: np.ndarray, light_body: bool | None = None,
              whole: np.ndarray | None = None, tones: tuple | None = None
              ) -> tuple[int | None, float, Callable[[], np.ndarray], float]:
    """Pips of a squared-up die (CANON×CANON BGR): face or None, score 0-1, body colour
    (the median of the top inside its rounded edge, pips left out; a function giving it:
    most squares tried are no die read, and need none), and the pips' offset
    from the centre (CANON px; 0 for a one or none). ``light_body``: the
    pips are known to be darker than the body (True) or lighter (False). ``whole``: when
    ``square`` is the middle `SHRINK` of the die's square, that whole square (no pip of
    the die may lie in it beyond the face's). ``tones``: the square's `_tones`, if made."""
    # body and pips: the two tones of the top (Otsu); the body is the one that holds the
    # ring just inside the rounded edge (large pips may cover near half the top); both
    # tones' medians from one cumulative histogram of the top's grey levels (whole levels:
    # the same figures as sorting the pixels, for a fifth of the numpy calls)
    gray8, inner8, split, counts = tones or _tones(square)
    if light_body is None:
        light_body = 2 * np.count_nonzero(gray8.take(_RING_AT_FLAT) > split) >= _RING_COUNT
    below = int(split)  # Otsu's divide is a whole level
    dark = int(counts[below])
    light = _INNER_COUNT - dark
    bodies = light if light_body else dark
    if bodies < 20:  # too little body: the whole top, no pips
        return None, 0.0, _body(square, inner8, below, light_body, True), 0.0
    body = _body(square, inner8, below, light_body, False)
    if _INNER_COUNT - bodies <= 8:
        return None, 0.0, body, 0.0
    # the light tone's pixels lie above the dark one's
    body_gray, pip_gray = _medians(counts, ((dark, light), (0, dark)) if light_body
                                   else ((0, dark), (dark, light)))
    peak = abs(pip_gray - body_gray)
    if peak < 40:  # no pips at all: not a die face we can read
        return None, 0.0, body, 0.0
    gray = gray8.astype(np.float32)
    contrast = (body_gray - gray) if light_body else (gray - body_gray)
    # the 5×5 average (once for every level tried) and the whole square's contrast: made
    # only when a level's pips fit a face
    local = _Once(lambda: cv2.blur(contrast, (5, 5)))
    if whole is None:
        around = _Once(lambda: (contrast, 1.0))
    else:
        def whole_contrast() -> tuple[np.ndarray, float]:
            whole_gray = cv2.cvtColor(whole, cv2.COLOR_BGR2GRAY).astype(np.float32)
            return ((body_gray - whole_gray) if light_body else (whole_gray - body_gray)), SHRINK
        around = _Once(whole_contrast)
    # pips set apart from the body at the tones' divide; where large pips run together (a
    # six seen small), again nearer the pips' own tone
    for level in (max(30.0, 0.5 * peak, abs(body_gray - split)),
                  abs(body_gray - (split + pip_gray) / 2), peak):
        face, score, offset = _pips_face(contrast, level, around, local)
        if face is not None:
            return face, score, body, offset if face > 1 else 0.0
    return None, 0.0, body, 0.0
_RING_AT_FLAT = np.flatnonzero(_RING)  # the ring's pixels, taken at once
_RING_COUNT = len(_RING_AT_FLAT)


def _body(square: np.ndarray, inner8: np.ndarray, below: int, light_body: bool,
          whole_top: bool) -> Callable[[], np.ndarray]:
    """The body's colour, when asked: the median of the top's pixels on the body's side of
    the divide (``whole_top``: every pixel)."""
    def body() -> np.ndarray:
        top = square[_INNER, _INNER]
        if whole_top:
            return _median_colour(top.reshape(-1, 3))
        return _median_colour(top[(inner8 > below) if light_body else (inner8 <= below)])
    return body


_SMALLEST_PIP = np.pi * (0.06 * CANON) ** 2
_LARGEST_PIP = np.pi * (0.19 * CANON) ** 2
_EDGE = slice(CANON * 8 // 100, CANON - CANON * 8 // 100)  # the rounded edge is no pip
_INSIDE_EDGE = np.zeros((CANON, CANON), bool)
_INSIDE_EDGE[_EDGE, _EDGE] = True


def _pips_face(contrast: np.ndarray, level: float,
               around: Callable[[], tuple[np.ndarray, float]],
               local: Callable[[], np.ndarray]) -> tuple[int | None, float, float]:
    """The face the pips (``contrast`` above ``level``) show, with nothing where it has
    none, nor more pips on the die (``around``: the contrast of the die's whole square and
    its scale to this one; ``local``: ``contrast`` averaged over 5×5); or None."""
    # the whole square compared (a strided middle costs four times as much), then its rim,
    # the rounded edge, cleared: no pip
    pips = np.greater(contrast, level, out=_square_buffer("pips"))
    np.logical_and(pips, _INSIDE_EDGE, out=pips)
    _, _, stats, centroids = _square_components(pips.view(np.uint8))
    # a few pieces: plain ints, numpy's per-call overhead would cost more than the work
    kept, areas, specks = [], [], []
    pieces = stats.tolist()
    for k, (_, _, w, h, area) in enumerate(pieces):
        # a noise speck, or the floor's edge showing along a side, is left out
        if k and area >= _SMALLEST_PIP and max(w, h) <= 2.2 * min(w, h):
            if area > _LARGEST_PIP or area < 0.45 * w * h:
                return None, 0.0, 0.0  # a blot no pip makes: glare, a shadow, two dice
            kept.append(k)
            areas.append(area)
        elif k and max(w, h) <= 2.2 * min(w, h):
            specks.append(area)
    if not 1 <= len(areas) <= 6 or max(areas) > 2.6 * min(areas):
        return None, 0.0, 0.0
    if len(areas) == 2 and max(areas) > TWO_ALIKE * min(areas):
        return None, 0.0, 0.0  # a one's pip and its side's drawn-out one: no two
    if len(areas) == 1 and any(speck >= LONE_PIP_TWIN * areas[0] for speck in specks):
        return None, 0.0, 0.0  # a one's pip with a twin just under a pip's size: a two
    points = np.subtract(centroids[kept], CANON / 2, dtype=np.float32)  # cast, then less
    face, error, offset, centre = _fit_layout(points)
    if face is None or (face in (3, 5) and not _middle_between(points, centre, offset)):
        return None, 0.0, 0.0
    whole, scale = around()
    pip_area = _median_of(areas) * scale ** 2
    if whole is contrast and _all_within(pieces):
        # every piece lies in the top's inner circle: they are the pieces the circle holds
        # (`_more_pips_within` labels them again only when some piece reaches out of it)
        least = 0.4 * pip_area
        if sum(area >= least for *_, area in pieces[1:]) > len(points):
            return None, 0.0, 0.0
    elif _more_pips_within(whole, level, len(points), pip_area):
        return None, 0.0, 0.0
    at = points + CANON / 2
    spots = at.astype(int)
    # the contrast is in half levels (the body's median less whole ones): its median the
    # same in plain floats
    pip_level = _median_of(contrast[spots[:, 1], spots[:, 0]].tolist())
    # a lone pip has no spacing of its own: nothing may lie at any spacing a die has (the
    # corner pips of a die squared up too small are not where a one's would be)
    offsets = [offset] if face > 1 else [share * CANON for share in SCALES + (0.36,)]
    if not _absent_elsewhere(local(), offsets, centre, at, pip_level, face == 1):
        return None, 0.0, 0.0
    return face, max(0.0, 1.0 - error / MAX_PIP_ERROR), _pitch(points - centre, face)


TWO_ALIKE = 2.0  # a two's larger pip at most this many times its smaller's area: both lie
# on one flat top (twelfth session: black ones seen with a side, seeds 1240 at 28 px and 1258
# at the renderer's sizes, read as twos of the one's pip and a side's thin pip, 2.56 and 2.47
# times smaller; of the 823 twos `_pips_face` reads on the 528 cached trays, 99 % are within
# 1.71, and 6 are over 2.0)


LONE_PIP_TWIN = 0.6  # of a lone pip's area: a round spot this large beside it, though under
# a pip's least size (`_SMALLEST_PIP`), makes the top no one (independent seed 53: a small
# two seen with its sides, squared up whole, kept one pip of 27 px and dropped its twin of 23)


MIDDLE_OFF = 0.3  # of the pips' offset: how far a three's or five's middle pip may lie from
# its corner pips' midpoint (766 read right: at most 0.15; a glint between a two's pips: 0.5)


def _middle_between(points: np.ndarray, centre: np.ndarray, offset: float) -> bool:
    """A three's or five's middle pip lies halfway between its corner pips (`MIDDLE_OFF`):
    a glint on a two's top between its pips, off that midpoint, is no three."""
    middle = int(np.argmin(np.hypot(*(points - centre).T)))
    corners = (points.sum(axis=0) - points[middle]) / (len(points) - 1)
    return float(np.hypot(*(points[middle] - corners))) <= MIDDLE_OFF * offset


def _pitch(points: np.ndarray, face: int) -> float:
    """How far the pips lie from the centre along the die's sides (px), as measured: the
    median of the pips off the middle (a six's rows, spread by large pips, the larger)."""
    reach = np.abs(points).max(axis=1).tolist()  # float32 in plain floats: the same figures
    outer = [r for r in reach if r > 0.5 * max(reach)]  # not a middle pip
    return _median_of(outer) if outer else 0.0


_WITHIN = (np.hypot(_XX - CANON / 2 + 0.5, _YY - CANON / 2 + 0.5) <= 0.42 * CANON
           )  # the top's inner circle: no rounded edge, no floor
_WITHIN_ROWS = _WITHIN.tolist()  # looked up pixel by pixel in plain lists


def _all_within(pieces: list) -> bool:
    """Every piece (a labelling's stats as lists, the background first) lies wholly in the
    top's inner circle (`_WITHIN`): its box's four corners do (the circle's rows are runs
    of pixels, longer towards its middle, so a box whose corners it holds it holds whole)."""
    return all(_WITHIN_ROWS[y][x] and _WITHIN_ROWS[y][x + w - 1] and _WITHIN_ROWS[y + h - 1][x]
               and _WITHIN_ROWS[y + h - 1][x + w - 1] for x, y, w, h, _ in pieces[1:])


def _more_pips_within(contrast: np.ndarray, level: float, count: int, pip_area: float) -> bool:
    """More pieces of pip (``contrast`` above ``level``), of a sizeable part of a pip, inside
    the top's inner circle than the face has pips. That circle holds every pip of a die
    however the square is turned: a square found turned (large pips bite a six's outline
    into a cross) sees two of its pips as a two, and the others, cut by the square's edge,
    passed for the floor's edge."""
    pips = np.greater(contrast, level, out=_square_buffer("within"))
    np.logical_and(pips, _WITHIN, out=pips)
    pieces, _, stats, _ = _square_components(pips.view(np.uint8))
    least = 0.4 * pip_area
    return sum(area >= least for area in stats[1:, cv2.CC_STAT_AREA].tolist()) > count


def _square_up(image: np.ndarray, rect) -> np.ndarray:
    (cx, cy), (w, h), angle = rect
    side = (w + h) / 2
    m = cv2.getRotationMatrix2D((cx, cy), angle, CANON / side)
    m[0, 2] += CANON / 2 - cx  # element by element: no array made of the shift
    m[1, 2] += CANON / 2 - cy
    return cv2.warpAffine(image, m, (CANON, CANON), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def _marked(square: np.ndarray, tones: tuple | None = None) -> bool:
    """Something of another tone lies on the top (pips, a numeral), sharp and sizeable: a
    die, if one not read; a glint on the floor or wood's grain fades, and shows none.
    ``tones``: the square's `_tones`, if `read_face` made them (not made again)."""
    _, _, split, counts = tones or _tones(square)
    # the two tones' shares and medians from the levels' cumulative counts (np.median's
    # figures: whole levels, or the mean of two)
    dark = int(counts[int(split)])
    light = _INNER_COUNT - dark
    if not 0.03 <= light / _INNER_COUNT <= 0.97:
        return False
    light_gray, dark_gray = _medians(counts, ((dark, light), (0, dark)))
    return light_gray - dark_gray >= MARKED

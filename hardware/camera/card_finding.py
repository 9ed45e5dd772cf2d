"""Where the cards lie in a frame, before any is named: card-sized quadrilaterals. Knows no game.

``find_cards`` finds them from what changed on the empty table when it is given, from pale
paper, and from rings of edges: contours whose hull is a card's rectangle with rounded
corners, each side then snapped onto the card's edge. Cards touching are taken apart; a dark
gap between cards is not a card. ``card_faces`` names what it finds.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from hardware.camera.percentile import median, percentile

MIN_CARD_PX = 40  # the shortest side of a card find_cards looks for
ASPECT = (0.4, 0.95)  # short side over long side of what find_cards takes for a card (a
# card at the far edge of a table seen from its near edge: foreshortened to 0.45)
FILL_RECT = 0.7  # of its smallest rectangle: what a card's outline fills at least (a
# trapezoid of a card far off, 0.8 or more; a printed diamond on a card, 0.5)
SEAM_EDGES = 0.2  # of the seam between two outlines split apart: on an edge, at least (two
# cards touching; a card's paper traced in two halves, cut by a faint line across, has none)
SPLIT_COVER = 0.8  # an outline this much covered by two or more card outlines inside it:
# cards touching, taken together for one (a dark seam between them), not a card
WORK_PX = 1080  # px: the shorter side find_cards works at (a bigger frame is brought down)
GAP_DARKER = 40  # grey levels: an outline darker than all round it by this: a gap between cards
GAP_INNER = 0.6  # of the outline (about its centre): where a gap shows the table unchanged since
# it was seen empty (median change under ``CHANGED``); a card changed it (session 88: the 10 of
# hearts on the printed board, seed 5000, its pips' columns darker than the pale board just
# outside its long sides, was dropped as a gap: changed there, median 127 grey levels)
MAX_SHARE = 0.6  # the longest card find_cards takes, of the frame's shorter side
SNAP_PX = 5  # px either side of an outline where find_cards looks for the card's edge
SNAP_TURN = 0.05  # sine of the most a snapped side may turn from the outline's (3 degrees) ...
SNAP_ALONG = 0.05  # ... unless it lies within this (sine) of the opposite side as snapped (a
# card's opposite sides lie along each other): an outline traced turned on a pale board, its
# side's line turned 3.1 degrees from it (session 91, board 7025 card13 at 120 px: found 7.7
# px off, unknown, with ``PUSH_ROUNDS`` 0.8 px off and named; 0: the outline's turn only)
SNAP_BOTH = True  # ... or of the opposite side's line turned too: both taken together, else
# (a corner then moved over the snap's bound) as before. An outline traced as a trapezoid,
# both short sides turned 3-4 degrees the opposite ways (session 92, board 7027 card07 at 120
# px: each fitted line 0.055-0.064 from its side, 0.022 from the other; found 5.3 px off ->
# 1.1; notes s92/i63 outlines.py at 120 and 160 px: no other outline of any family changed)
SNAP_DIFF_SHARE = 0.3  # against the empty table: a step this share of the strongest is an edge
PUSH_SHARE = 0.1  # of the card's short side: how far out a side inside the card is pushed
PUSH_ROUNDS = 3  # pushes out and snaps again (``_snap``) while a side moves: a side 9-13 px
# inside a pale card on a pale board (its printed frame) is snapped 5 px out by the first,
# where the change's end is in the next push's reach (session 91: the board renders' outlines
# over 2 px off 15 -> 8 of 120 at 120 px, with ``SNAP_TURN``'s opposite side; none worse)
RESNAP = 3  # snaps onto the change, again while a corner moves ``RESNAP_MOVE`` px or more: a
RESNAP_MOVE = 0.5  # side snapped turned, its far end out of ``SNAP_PX``'s reach the first time
# (session 91, notes s91/i63 outlines.py: board outlines over 2 px 8 -> 3 of 120 at 120 px,
# 7012 card00 4.7 -> 1.1 px). A repeat that moves a side's middle in by more than
# ``RESNAP_MOVE`` is not kept (``_moved_in``): the mask's outline lies inside the card, so a
# repeat is for a side still inside; moving in, it follows a line printed inside the card
# (board 7010 card19 at 160 px: the short side's second snap turned 4 degrees onto one, an
# end 8.3 px in; the patch, which also repeated the snaps after each push, left it 7.75 px
# off; here the push rounds' single snaps bring it back either way: 1.98 px with this, 1.66
# without; no other render outline differs, notes s91/i63 cmp_v2_*/outl_v3_*. The repeats
# kept moved an end in 1.6 px at most, the middle none, notes s91/i63 resnap_trace.txt)
CHANGED = 30  # grey levels (any channel) a card changes the empty table by
CHANGED_FAINT = 12  # ... at least (pale paper on a pale part of a board; noise: about 3)
LAID_SHARE = 0.25  # of a card's outline that changed, at least (a board's own print: none)
WHOLE_OUTSIDE = 8  # median change just outside the outline of a whole card, at most
WHOLE_STEP = 10  # ... and how much more it changed just inside, at least
PALE = 70  # HSV saturation (of 255) of card paper under tinted light
BRIGHTER = 12  # grey levels card paper is brighter than the table around it
WEDGE_TURN = 6.0  # degrees: one side of an outline turned this much from the card inside it,
# the other three along the card's (``PARALLEL_TURN``): the card and a wedge of table beside
# it (a ring of edges running on through the wood's grain to the next card: the licensed SET
# photo's two cards 45 px apart were taken with a side turned 13-15 degrees; issue 63)
PARALLEL_TURN = 3.0  # degrees: sides this close in direction are the same card's side
WEDGE_AREA = 0.75  # of the wedged outline: what the card inside it covers, at least
HALF_ASPECT = 0.6  # short side over long side of one of two outlines, at most, for halves
# of a card: a game card's text block (its art block beside it: 0.75-0.82), found where its
# pale paper on a pale printed board gives no outline of its own (the board renders' 15
# such: 0.44-0.50, notes board_false.py, halves.py; whole cards 0.64-0.75, the farthest
# foreshortened ones 0.45: two cards side by side must also lie along each other,
# ``HALF_ALONG``, and close, ``HALF_GAP``: two far SET cards 0.44-0.61)
HALF_ALONG = 0.85  # of the shorter of their long sides: how far two halves lie along each other
HALF_GAP = 0.1  # of the narrower's short side: the most paper between two halves (the board
# renders' blocks: up to 0.05; two far SET cards of the dev photos side by side: 0.2-0.3 of
# table between them, notes halves_dev.py) ...
HALF_OVERLAP = 0.25  # ... and the most they overlap (the blocks' outlines: up to 0.19)


def clockwise(corners) -> np.ndarray:
    """Four corners, any order, put in clockwise order (as the frame shows them)."""
    quad = np.float32(corners).reshape(4, 2)
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    return quad[np.argsort(angles)]  # y down: increasing angle runs clockwise


def _refined(contour: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The quad's corners where lines fitted to its four sides meet (a rounded corner's
    vertex lies inside the card's true corner)."""
    points = contour.reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        t = ((points - a) @ ab) / (length ** 2)
        rel = points - a
        dist = np.abs(ab[0] * rel[:, 1] - ab[1] * rel[:, 0]) / length
        near = points[(t > 0.15) & (t < 0.85) & (dist < max(3.0, 0.04 * length))]
        if len(near) < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.float32([x0, y0]), np.float32([vx, vy])))
    out = _crossings(lines)
    if out is None:
        return quad
    if np.abs(out - quad).max() > 0.15 * math.sqrt(abs(cv2.contourArea(quad))):
        return quad
    return out


def _card_quad(contour: np.ndarray, min_px: float, max_px: float, near: list | None = None
               ) -> np.ndarray | None:
    x, y, w, h = cv2.boundingRect(contour)
    if w * h < min_px * min_px / ASPECT[1]:  # its hull (inside this box) is smaller still:
        return None  # most contours are specks; the hull is taken of none of them (issue 71)
    if near is not None and not meets((x, y, w, h), near):
        return None  # away from what changed (`find_cards`' ``near``)
    hull = cv2.convexHull(contour)
    area = cv2.contourArea(hull)
    if area < min_px * min_px / ASPECT[1]:
        return None
    (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
    short, long_ = min(rw, rh), max(rw, rh)
    if not (short >= min_px and long_ <= max_px and ASPECT[0] <= short / long_ <= ASPECT[1]):
        return None
    if cv2.contourArea(contour) < 0.85 * area:  # a ring of edges, or something not a card
        return None
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.03, 0.045, 0.06):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            break
    else:
        return None
    quad = clockwise(approx)
    if not cv2.isContourConvex(quad):
        return None
    # its area judged at the corners where its sides meet (fitted to the contour: the hull
    # keeps a straight side's two ends only), not at the vertices on the rounding: a card
    # whose corners are rounded wide (a tenth of its width) loses a tenth of its area there
    met = max(cv2.contourArea(quad), cv2.contourArea(_refined(contour, quad)))
    if met < 0.9 * area or met < FILL_RECT * rw * rh:
        return None  # not the hull's four sides; or a diamond (half its rectangle)
    return _refined(hull, quad)


def _paper(frame: np.ndarray, window: int) -> np.ndarray:
    """Where the frame is card paper: pale (low saturation, once the light's colour is taken
    out: the brightest pixels are taken for white) and brighter than the table around it (a
    shadow darkens both)."""
    value = _channel_max(frame)
    top = frame[value >= percentile(value, 98)].reshape(-1, 3).astype(np.float32)
    light = np.maximum(top.mean(axis=0), 1.0)
    balanced = np.clip(frame * (light.max() / light), 0, 255).astype(np.uint8)
    hsv = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV)
    return _brighter(hsv[..., 2], window, hsv[..., 1] < PALE)


def _paper_grey(grey: np.ndarray, window: int, smooth: np.ndarray | None = None
                ) -> np.ndarray:
    """`_paper` of a grey frame (what the Pi's camera and the evening's hand over): every
    pixel is pale (no saturation) and the light has no colour to take out (its balance is
    1), so the brightness alone makes the same mask, without a colour frame's conversions
    (~40 % of a look's CPU; issue 71). ``smooth``: `_smooth` of ``grey``, if made already."""
    return _brighter(grey, window, smooth=smooth)


def _smooth(value: np.ndarray) -> np.ndarray:
    """The little blur (noise) `find_cards` takes its edges, paper and changes from: one
    5×5 Gaussian of the grey frame, made once a look for the three (each made its own, the
    same, before: ~6 % of a look's CPU; issue 71, session 86)."""
    return cv2.GaussianBlur(value, (5, 5), 0)


def _brighter(value: np.ndarray, window: int, pale: np.ndarray | None = None,
              smooth: np.ndarray | None = None) -> np.ndarray:
    """Where ``value`` (smoothed: ``smooth`` if given) is brighter than around it by
    `BRIGHTER`, and ``pale``."""
    value = _smooth(value) if smooth is None else smooth
    around = cv2.blur(value, (window, window))
    # value - around > BRIGHTER; the subtraction saturates at 0, which is not over it (the
    # same mask as numpy's int16 sums, in OpenCV's uint8 without them)
    mask = cv2.compare(cv2.subtract(value, around), BRIGHTER, cv2.CMP_GT)
    if pale is not None:
        mask[~pale] = 0
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))


# px round the points `_Gradients.sample` is asked for that its crop takes in: a 3×3
# Sobel on the crop's own edge reflects the crop instead of reading the frame, so a
# sample must read no pixel on that edge: 1 px is enough (a bilinear sample reads the
# pixel at or left of its point and the next, that one at weight 0 when the point rounds
# up to it); 2 does not lean on that weight (planted 0: the test's values differ)
SOBEL_MARGIN = 2


class _Gradients:
    """An image's Sobel gradients across x and y (3×3), worked out only round the points
    `_snapped` samples (the sides of the few outlines found), not over the whole frame:
    the same values (see `SOBEL_MARGIN`; a point off the frame reads 0 as before), at a
    fraction of the cost (the whole frame's two Sobels were ~16 % of a look's CPU on the
    evening's frames; issue 71, thirteenth round)."""

    def __init__(self, image: np.ndarray):
        self.image = image

    def sample(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The x and y gradients at the float32 points (xs, ys), bilinear (``cv2.remap``)."""
        height, width = self.image.shape[:2]
        x0 = max(0, int(np.floor(xs.min())) - SOBEL_MARGIN)
        y0 = max(0, int(np.floor(ys.min())) - SOBEL_MARGIN)
        x1 = min(width, int(np.ceil(xs.max())) + SOBEL_MARGIN + 1)
        y1 = min(height, int(np.ceil(ys.max())) + SOBEL_MARGIN + 1)
        if x0 >= x1 or y0 >= y1:  # every point off the frame
            return np.zeros_like(xs), np.zeros_like(xs)
        crop = self.image[y0:y1, x0:x1]
        # an integer taken from a float32 coordinate is exact: the same remap of the same
        # pixels, only counted from the crop's corner
        xs, ys = xs - np.float32(x0), ys - np.float32(y0)
        return (cv2.remap(cv2.Sobel(crop, cv2.CV_32F, 1, 0, ksize=3), xs, ys, cv2.INTER_LINEAR),
                cv2.remap(cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3), xs, ys, cv2.INTER_LINEAR))


def _snapped(gradients: _Gradients, quad: np.ndarray,
             reach: int = SNAP_PX, strong_share: float = 0.6) -> np.ndarray:
    """The quad's sides moved onto the card's edge in the image: along each side, the
    outermost strong step across it (``strong_share`` of the side's strongest or more) within
    ``reach`` px, a line fitted through those (Huber: a token over the edge is an outlier;
    a side with too few, or whose line turns from it by more than ``SNAP_TURN`` and from
    the opposite side's snapped line by more than ``SNAP_ALONG``, stays, `_along`) and the
    corners where the lines meet. A mask's outline can be pixels off (closed, cut and grown back);
    the card's edge is not."""
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)
    lines, turned, snapped = [], [], []
    centre = quad.mean(axis=0)
    for i in range(4):
        a, along, length, normal = _side(quad, i, centre)
        if length < 8:
            return quad
        t = np.linspace(0.12, 0.88, 24, dtype=np.float32)
        base = a[None] + t[:, None] * along[None]
        xs = base[:, 0:1] + offsets[None] * normal[0]
        ys = base[:, 1:2] + offsets[None] * normal[1]
        gx, gy = gradients.sample(xs, ys)  # of the image (`_Gradients`)
        step = np.abs(gx * normal[0] + gy * normal[1])
        # the outermost strong step: a printed frame just inside the edge is no edge
        strong_enough = step >= strong_share * step.max(axis=1, keepdims=True)
        best = step.shape[1] - 1 - strong_enough[:, ::-1].argmax(axis=1)
        rows = np.arange(len(t))
        for _ in range(2 * reach):  # inwards to the step's peak (a blurred edge is a ramp)
            inner = np.maximum(best - 1, 0)
            climb = step[rows, inner] > step[rows, best]
            if not climb.any():
                break
            best = np.where(climb, inner, best)
        strong = step[np.arange(len(t)), best] > 0.5 * median(step.max(axis=1))
        kept = (a, along / length)  # a side with no clear edge stays where it was
        fitted = None
        if strong.sum() >= 6:
            points = np.stack([xs[rows, best], ys[rows, best]], axis=1)
            vx, vy, x0, y0 = cv2.fitLine(points[strong], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            fitted = (np.float32([x0, y0]), np.float32([vx, vy]))
            if abs(float(vx * along[1] - vy * along[0])) / length <= SNAP_TURN:
                kept, fitted = fitted, None
        lines.append(kept)
        snapped.append(fitted is None and kept[0] is not a)
        turned.append(fitted)
    for both in (True, False) if SNAP_BOTH else (False,):
        out = _crossings(_along(lines, turned, snapped, both))
        if out is not None and np.abs(out - quad).max() <= 1.5 * reach:
            return out
    return quad


def _along(lines: list, turned: list, snapped: list, both: bool) -> list:
    """The sides' lines with each side's turned line (``turned``: fitted, turned over
    ``SNAP_TURN`` from the outline) taken when it lies within ``SNAP_ALONG`` of the opposite
    side's line as snapped, or, ``both``, of the opposite side's turned line (the two then
    taken together: an outline traced as a trapezoid, both its short sides turned)."""
    out = list(lines)
    for i in range(4):
        j = (i + 2) % 4
        other = lines[j] if snapped[j] else turned[j] if both else None
        if turned[i] is not None and other is not None:
            r, v = turned[i][1], other[1]
            if abs(float(r[0] * v[1] - r[1] * v[0])) <= SNAP_ALONG:
                out[i] = turned[i]
    return out


def _crossings(lines: list) -> np.ndarray | None:
    """The four corners where each side's line (a point, a direction) meets the one before
    it; None when two neighbours are (nearly) parallel."""
    out = []
    for i in range(4):
        (p, r), (q, v) = lines[i - 1], lines[i]
        denom = float(r[0] * v[1] - r[1] * v[0])
        if abs(denom) < 1e-3:
            return None
        d = q - p
        out.append(p + float(d[0] * v[1] - d[1] * v[0]) / denom * r)
    return np.float32(out)


def _grown(quad: np.ndarray, by: float) -> np.ndarray:
    """The quad with each side moved out by ``by`` px (each corner along its bisector)."""
    out = []
    for i in range(4):
        p = quad[i]
        a = p - quad[i - 1]
        b = p - quad[(i + 1) % 4]
        bisector = a / np.linalg.norm(a) + b / np.linalg.norm(b)
        out.append(p + bisector / np.linalg.norm(bisector) * by * math.sqrt(2))
    return np.float32(out)


def _difference(frame: np.ndarray, empty: np.ndarray, smooth: np.ndarray | None = None
                ) -> np.ndarray:
    """How much the frame differs from the empty table (as the camera saw it before), per
    pixel: the largest of the three channels, after a little blur (noise). Two grey frames
    (the Pi's and the evening's): their one channel, the same answer at a third of the
    cost (issue 71). ``smooth``: `_smooth` of a grey ``frame``, if made already."""
    if empty.shape[:2] != frame.shape[:2]:
        raise ValueError("the empty table's frame is not the frame's size")
    if frame.ndim == 2 and empty.ndim == 2:
        return cv2.absdiff(_smooth(frame) if smooth is None else smooth, _smooth(empty))
    if empty.ndim == 2:
        empty = cv2.cvtColor(empty, cv2.COLOR_GRAY2BGR)
    return _channel_max(cv2.absdiff(cv2.GaussianBlur(frame, (5, 5), 0),
                                    cv2.GaussianBlur(empty[..., :3], (5, 5), 0)))


def _channel_max(image: np.ndarray) -> np.ndarray:
    """The largest of the channels, per pixel (numpy's ``max(axis=2)`` is far slower)."""
    b, g, r = cv2.split(image)
    return cv2.max(cv2.max(b, g), r)


def _changed(diff: np.ndarray, level: float = CHANGED) -> np.ndarray:
    """Where the frame differs from the empty table (``_difference``) by over ``level``."""
    # over ``level``: OpenCV's threshold of a uint8 image is ``diff > floor(level)``, the
    # same pixels as numpy's ``diff > level`` (an integer diff), without its bool and casts
    mask = cv2.threshold(diff, level, 255, cv2.THRESH_BINARY)[1]
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def find_cards(frame: np.ndarray, min_px: float = MIN_CARD_PX, max_share: float = MAX_SHARE,
               empty: np.ndarray | None = None, near: list | None = None) -> list[np.ndarray]:
    """``_find_cards`` on the frame brought down to ``WORK_PX`` on its shorter side when it
    is bigger (a phone's 12-megapixel photo: a card there is hundreds of pixels wide, far
    more than finding its outline needs), the outlines scaled back to the frame's pixels.
    ``near``: (x0, y0, x1, y1) frame px; only outlines whose bounding box meets one of them
    are traced (the camera's look at what changed, issue 71), None: all."""
    if frame is None or getattr(frame, "ndim", 0) not in (2, 3) or frame.size == 0:
        raise ValueError("no camera frame")
    scale = WORK_PX / min(frame.shape[:2])
    if scale >= 1.0:
        return _find_cards(frame, min_px, max_share, empty, near)
    if near is not None:
        near = [tuple(v * scale for v in rect) for rect in near]
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    if empty is not None:
        if empty.shape[:2] != frame.shape[:2]:
            raise ValueError("the empty table's frame is not the frame's size")
        empty = cv2.resize(empty, small.shape[1::-1], interpolation=cv2.INTER_AREA)
    return [np.float32((quad + 0.5) / scale - 0.5) for quad in _find_cards(
        small, max(8.0, min_px * scale), max_share, empty, near)]


def meets(box: tuple, rects: list) -> bool:
    """The (x, y, w, h) box meets one of the (x0, y0, x1, y1) rects."""
    x, y, w, h = box
    return any(x <= r[2] and r[0] <= x + w and y <= r[3] and r[1] <= y + h for r in rects)


def _find_cards(frame: np.ndarray, min_px: float = MIN_CARD_PX, max_share: float = MAX_SHARE,
                empty: np.ndarray | None = None, near: list | None = None
                ) -> list[np.ndarray]:
    """Card-sized quadrilaterals in ``frame`` (each 4×2 float32, clockwise from any corner):
    outlines of pale paper brighter than the table round it, and closed rings of edges,
    whose hull is a rectangle of a card's aspect with rounded corners, its long side at
    least ``min_px`` / 0.95 and at most ``max_share`` of the frame's shorter side. Given
    ``empty``, the same view with no card on it, what changed is traced first: that finds a
    card on any table, a busy printed board as well."""
    if frame is None or getattr(frame, "ndim", 0) not in (2, 3) or frame.size == 0:
        raise ValueError("no camera frame")
    grey_frame = frame.ndim == 2
    if grey_frame:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    frame = frame[..., :3]
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    max_px = min(grey.shape) * max_share
    window = int(max(31, min(grey.shape) // 3)) | 1
    smooth = _smooth(grey)
    edges = cv2.dilate(cv2.Canny(smooth, 30, 90), np.ones((3, 3), np.uint8))
    paper = _paper_grey(grey, window, smooth) if grey_frame else _paper(frame, window)
    k = int(min_px / 3) | 1  # the print on a card closed over: a solid card
    solid = cv2.morphologyEx(paper, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    e = max(2, int(min_px / 10))  # a card touching pale table: cut the thin joins, grow back
    cut = cv2.erode(solid, np.ones((2 * e + 1, 2 * e + 1), np.uint8))
    masks = []
    diff = None
    if empty is not None:
        diff = _difference(grey, empty, smooth) if grey_frame and empty.ndim == 2 else \
            _difference(frame, empty)
        changed = cv2.morphologyEx(_changed(diff), cv2.MORPH_CLOSE,
                                   np.ones((k, k), np.uint8))
        faint = cv2.morphologyEx(_changed(diff, CHANGED_FAINT), cv2.MORPH_CLOSE,
                                 np.ones((k, k), np.uint8))
        masks = [(0, changed, cv2.RETR_EXTERNAL, 0),
                 (1, cv2.erode(changed, np.ones((2 * e + 1, 2 * e + 1), np.uint8)),
                  cv2.RETR_EXTERNAL, e), (1, faint, cv2.RETR_EXTERNAL, 0)]
    found: list[tuple[int, np.ndarray]] = []
    for rank, mask, mode, grow in (*masks, (2, paper, cv2.RETR_EXTERNAL, 0),
                                   (2, solid, cv2.RETR_EXTERNAL, 0),
                                   (2, edges, cv2.RETR_LIST, 0), (3, cut, cv2.RETR_EXTERNAL, e)):
        contours, _ = cv2.findContours(mask, mode, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            quad = _card_quad(contour, max(8.0, min_px - 2 * grow), max_px, near)
            if quad is None:
                continue
            found.append((rank, _grown(quad, grow) if grow else quad))

    if diff is not None:  # the table's own print, unchanged since it was seen empty: no card
        found = [(rank, quad) for rank, quad in found if _laid(diff, quad)]
    found = _split_touching(found, edges)
    found = [(rank, quad) for rank, quad in found
             if not _gap(grey, quad) or _changed_inside(diff, quad)]
    # a card's printed frames and art blocks are card-shaped too: keep the outermost
    # outline; what changed on the empty table first, then traced before grown back; and
    # before all, a whole thing laid there: nothing changed just outside its outline,
    # something just inside (an art block's outside is its card's changed paper)
    found.sort(key=lambda f: (not _whole(diff, f[1]), f[0], -abs(cv2.contourArea(f[1]))))
    # ... unless the outermost is the card and a wedge of table beside it (``_wedged``)
    kept: list[np.ndarray] = []
    for _, quad in found:
        centre = tuple(float(v) for v in quad.mean(axis=0))
        met = [n for n, k in enumerate(kept) if cv2.pointPolygonTest(k, centre, False) >= 0
               or cv2.pointPolygonTest(quad, tuple(float(v) for v in k.mean(axis=0)),
                                       False) >= 0]
        if not met:
            kept.append(quad)
        elif len(met) == 1 and _wedged(kept[met[0]], quad):
            kept[met[0]] = quad
    kept = _halves_joined(kept)
    edges_of = (_Gradients(grey), None if diff is None else _Gradients(diff))
    return [_snap(edges_of, quad, diff) for quad in kept]


def _halves_joined(kept: list[np.ndarray]) -> list[np.ndarray]:
    """``kept`` with each two outlines that are halves of one card (``_halves``) taken
    together for that card: the smallest rectangle round both."""
    used: set[int] = set()
    joined = []
    for i, a in enumerate(kept):
        for j in range(i + 1, len(kept)):
            if i in used or j in used or not _halves(a, kept[j]):
                continue
            rect = cv2.minAreaRect(np.concatenate([a, kept[j]]))
            w, h = rect[1]
            if ASPECT[0] <= min(w, h) / max(w, h, 1e-6) <= ASPECT[1]:
                joined.append(clockwise(cv2.boxPoints(rect)))
                used |= {i, j}
    return [q for n, q in enumerate(kept) if n not in used] + joined


def _halves(a: np.ndarray, b: np.ndarray) -> bool:
    """Outlines a and b lie side by side as two halves of one card (its art block and its
    text block): one a long thin block (``HALF_ASPECT``), their long sides along the same
    way (``PARALLEL_TURN``), facing and along each other (``HALF_ALONG``), no farther
    apart than ``HALF_GAP`` (two cards side by side have table between them) nor
    overlapping more than ``HALF_OVERLAP``."""
    axes = []
    for q in (a, b):
        sides = [q[(i + 1) % 4] - q[i] for i in range(4)]
        lengths = [float(np.linalg.norm(v)) for v in sides]
        k = int(np.argmax([lengths[0] + lengths[2], lengths[1] + lengths[3]]))
        long_, short = (lengths[k] + lengths[k + 2]) / 2, (lengths[1 - k] + lengths[3 - k]) / 2
        axes.append((sides[k], long_, short))
    (ua, la, sa), (ub, lb, sb) = axes
    if min(sa / la, sb / lb) > HALF_ASPECT or _turn(ua, ub) > PARALLEL_TURN:
        return False
    u = ua / max(float(np.linalg.norm(ua)), 1e-6)
    n = np.float32([-u[1], u[0]])
    pa, pb, qa, qb = a @ u, b @ u, a @ n, b @ n
    along = min(pa.max(), pb.max()) - max(pa.min(), pb.min())
    apart = max(qb.min() - qa.max(), qa.min() - qb.max())  # < 0: they overlap
    return bool(along >= HALF_ALONG * min(la, lb) and
                -HALF_OVERLAP * min(sa, sb) <= apart <= HALF_GAP * min(sa, sb))


def _split_touching(found: list[tuple[int, np.ndarray]], edges: np.ndarray
                    ) -> list[tuple[int, np.ndarray]]:
    """``found`` without the outlines that hold two or more others which cover them
    (``SPLIT_COVER``) without overlapping each other, with an edge between them
    (``_seamed``): cards laid touching, traced first as one card of about a card's shape
    (two cards side by side), then apart once the seam between them was cut
    (``find_cards``' eroded masks). A card's own printed frame is one outline inside it,
    never two side by side; a card whose paper was traced in two halves (a faint line
    across it, issue 63: a SET card on carpet) has no edge between them."""
    areas = [abs(cv2.contourArea(q)) for _, q in found]
    drop = set()
    for i, (_, outer) in enumerate(found):
        inside = []
        for j, (_, inner) in enumerate(found):
            if j == i or areas[j] > 0.7 * areas[i] or areas[j] < 0.25 * areas[i]:
                continue
            centre = tuple(float(v) for v in inner.mean(axis=0))
            if cv2.pointPolygonTest(outer, centre, False) < 0:
                continue
            if all(cv2.pointPolygonTest(found[k][1], centre, False) < 0 and
                   cv2.pointPolygonTest(inner, tuple(float(v) for v in found[k][1].mean(
                       axis=0)), False) < 0 for k in inside):
                inside.append(j)
        if len(inside) >= 2 and sum(areas[j] for j in inside) >= SPLIT_COVER * areas[i] \
                and any(_seamed(edges, found[a][1], found[b][1])
                        for n, a in enumerate(inside) for b in inside[n + 1:]):
            drop.add(i)
    return [f for i, f in enumerate(found) if i not in drop]


def _seamed(edges: np.ndarray, a: np.ndarray, b: np.ndarray, samples: int = 24) -> bool:
    """Whether the seam between outlines a and b (half way between the side of each that
    faces the other) lies on an edge (``edges``: Canny's, dilated) for ``SEAM_EDGES`` of
    its length, looked for up to 3 px across it."""
    sides = []
    for quad, other in ((a, b), (b, a)):
        toward = other.mean(axis=0)
        i = min(range(4), key=lambda i: float(np.linalg.norm(
            (quad[i] + quad[(i + 1) % 4]) / 2 - toward)))
        sides.append((quad[i], quad[(i + 1) % 4]))
    (p0, p1), (q0, q1) = sides
    if np.linalg.norm(p0 - q0) > np.linalg.norm(p0 - q1):
        q0, q1 = q1, q0
    start, end = (p0 + q0) / 2, (p1 + q1) / 2
    along = end - start
    length = float(np.linalg.norm(along))
    if length < 1:
        return False
    normal = np.float32([-along[1], along[0]]) / length
    h, w = edges.shape[:2]
    hits = 0
    for t in np.linspace(0.1, 0.9, samples):
        for d in range(-3, 4):
            x, y = (start + t * along + d * normal).round().astype(int)
            if 0 <= x < w and 0 <= y < h and edges[y, x]:
                hits += 1
                break
    return hits >= SEAM_EDGES * samples


def _turn(u: np.ndarray, v: np.ndarray) -> float:
    """Degrees between two lines' directions (0 to 90: a line has no way round)."""
    d = abs(math.degrees(math.atan2(float(u[1]), float(u[0]))
                         - math.atan2(float(v[1]), float(v[0])))) % 180
    return min(d, 180 - d)


def _wedged(outer: np.ndarray, inner: np.ndarray) -> bool:
    """``outer`` is the card ``inner`` outlines and a wedge of what lies beside it: inner
    covers `WEDGE_AREA` of it or more, and of outer's sides, each set against inner's side
    nearest it, one is turned `WEDGE_TURN` or more and the other three lie along inner's
    (`PARALLEL_TURN`), and that side is off its opposite one more than inner's is (inner
    is the card, not its print cut across a corner: a game card on the wood renders). A
    card's printed frame inside it lies along all four of its sides; two cards traced as
    one are each far smaller than the outline round both."""
    area = abs(cv2.contourArea(outer))
    if not WEDGE_AREA * area <= abs(cv2.contourArea(inner)) <= area:
        return False
    turns, pairs = [], []
    for i in range(4):
        middle = (outer[i] + outer[(i + 1) % 4]) / 2
        j = min(range(4), key=lambda j: float(np.linalg.norm(
            (inner[j] + inner[(j + 1) % 4]) / 2 - middle)))
        turns.append(_turn(outer[(i + 1) % 4] - outer[i], inner[(j + 1) % 4] - inner[j]))
        pairs.append((_opposite_turn(outer, i), _opposite_turn(inner, j)))
    worst = int(np.argmax(turns))
    turns.sort()
    # the wedge is outer's: its turned side is off its opposite one, inner's lies along
    # its own (else inner is the cut one: a card's print cut across a corner)
    return turns[3] >= WEDGE_TURN and turns[2] <= PARALLEL_TURN and \
        pairs[worst][1] < pairs[worst][0]


def _opposite_turn(quad: np.ndarray, i: int) -> float:
    """Degrees between side ``i`` of the quad and the side opposite it."""
    return _turn(quad[(i + 1) % 4] - quad[i], quad[(i + 3) % 4] - quad[(i + 2) % 4])


def _side(quad: np.ndarray, i: int, centre: np.ndarray):
    """Side ``i`` of a quad: its start, its vector, its length and its unit normal pointing
    away from ``centre`` (the card's edges are looked for outside it)."""
    a, b = quad[i], quad[(i + 1) % 4]
    along = b - a
    length = float(np.linalg.norm(along))
    normal = np.float32([-along[1], along[0]]) / max(length, 1e-6)
    if float(np.dot(normal, (a + b) / 2 - centre)) < 0:
        normal = -normal
    return a, along, length, normal


def _gap(grey: np.ndarray, quad: np.ndarray) -> bool:
    """The outline is darker than just outside two opposite sides by ``GAP_DARKER``: the
    dark table showing between two cards laid close, bounded by their pale edges."""
    centre = quad.mean(axis=0)
    t = np.linspace(0.2, 0.8, 8, dtype=np.float32)[:, None]
    brighter = []
    for i in range(4):
        a, along, length, normal = _side(quad, i, centre)
        if length < 1:
            return False
        reach = max(4.0, 0.08 * length)
        base = a[None] + t * along[None]
        levels = []
        for sign in (1, -1):
            pts = (base + sign * reach * normal[None]).astype(np.float32)
            levels.append(float(median(cv2.remap(
                grey, pts[:, 0:1], pts[:, 1:2], cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE))))
        brighter.append(levels[0] >= levels[1] + GAP_DARKER)
    return (brighter[0] and brighter[2]) or (brighter[1] and brighter[3])


def _changed_inside(diff: np.ndarray | None, quad: np.ndarray) -> bool:
    """The middle ``GAP_INNER`` of the outline changed since the table was seen empty (by
    ``CHANGED``, median): something laid there, not the table between two cards."""
    if diff is None:
        return False
    centre = quad.mean(axis=0)
    inside = _inside(diff, centre + GAP_INNER * (quad - centre), np.trunc)
    return inside.size > 0 and float(np.median(inside)) >= CHANGED


def _strips(diff: np.ndarray, quad: np.ndarray, near: float = 2.0, far: float = 5.0
            ) -> tuple[float, float]:
    """Median change against the empty table just outside the quad's sides and just inside
    them (``near`` to ``far`` px away, the corners left out)."""
    centre = quad.mean(axis=0)
    t = np.linspace(0.1, 0.9, 16, dtype=np.float32)[:, None]
    depth = np.linspace(near, far, 4, dtype=np.float32)
    outer, inner = [], []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        along = b - a
        length = float(np.linalg.norm(along))
        if length < 1:
            return math.inf, 0.0
        normal = np.float32([-along[1], along[0]]) / length
        if float(np.dot(normal, (a + b) / 2 - centre)) < 0:
            normal = -normal
        base = a[None] + t * along[None]
        for sign, out in ((1, outer), (-1, inner)):
            pts = base[:, None, :] + sign * depth[None, :, None] * normal[None, None, :]
            out.append(cv2.remap(diff, pts[..., 0].astype(np.float32),
                                 pts[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE).ravel())
    return float(median(np.concatenate(outer))), float(median(np.concatenate(inner)))


def _laid(diff: np.ndarray, quad: np.ndarray) -> bool:
    """Something was laid inside the quad since the table was seen empty: ``LAID_SHARE`` of
    it or more changed (``CHANGED_FAINT``)."""
    inside = _inside(diff, quad, np.round)
    return inside.size > 0 and float((inside > CHANGED_FAINT).mean()) >= LAID_SHARE


def _inside(diff: np.ndarray, quad: np.ndarray, snap) -> np.ndarray:
    """The change (``diff``) at the pixels inside the convex ``quad``, its corners made
    whole px by ``snap`` (`np.round`, `np.trunc`), read within its bounding box: not a
    mask of the whole frame per outline."""
    x, y, w, h = cv2.boundingRect(np.int32(snap(quad)))
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(diff.shape[1], x + w), min(diff.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return diff[:0, :0].ravel()
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.int32(snap(quad - np.float32([x0, y0]))), 1)
    return diff[y0:y1, x0:x1][mask > 0]


def _whole(diff: np.ndarray | None, quad: np.ndarray) -> bool:
    """The quad outlines a whole thing laid on the empty table: just outside it nothing
    changed (a few px out: an outline found a few px inside the card's edge), just inside
    something did."""
    if diff is None:
        return False
    # outside: beyond the reach of an outline a few px inside the card (not snapped yet)
    outer, _ = _strips(diff, quad, SNAP_PX + 1.0, SNAP_PX + 4.0)
    _, inner = _strips(diff, quad)
    return outer <= WHOLE_OUTSIDE and inner >= outer + WHOLE_STEP


def _snap(gradients: tuple, quad: np.ndarray, diff: np.ndarray | None = None
          ) -> np.ndarray:
    """``_snapped`` onto the edge of what changed against the empty table, when known: the
    table's own print (a board's lines and text) is gone there, so the card's edge is its
    outermost step even when its paper is close to the table's colour and a printed frame
    just inside is the stronger step (the first snap repeated while it moves a corner,
    ``_resnapped``; then pushed out and snapped again, up to ``PUSH_ROUNDS`` times, while a
    push moves a side); else, or if that finds no edge, onto the frame's.
    ``gradients``: (the frame's, the change's or None), each a `_Gradients`; ``diff``: the
    change itself (``_difference``), to push out a side left on a printed frame
    (``_pushed``)."""
    of_frame, of_change = gradients
    if of_change is not None:
        snapped = _resnapped(of_change, quad)
        if diff is not None:
            pushed = _pushed(diff, snapped)
            if pushed is not snapped:
                for round_ in range(PUSH_ROUNDS):  # again while a push moves a side
                    # once: a push lays a side along the change's end, a repeat there
                    # walked board 7025 card13's turned (0.8 -> 1.9 px, session 91)
                    snapped = _snapped(of_change, pushed, strong_share=SNAP_DIFF_SHARE)
                    if round_ + 1 < PUSH_ROUNDS:
                        pushed = _pushed(diff, snapped)
                        if pushed is snapped:
                            break
                return snapped
        if snapped is not quad:
            return snapped
    return _snapped(of_frame, quad)


def _resnapped(of_change: _Gradients, quad: np.ndarray) -> np.ndarray:
    """``_snapped`` onto the change, again while a corner moves ``RESNAP_MOVE`` px or more
    (up to ``RESNAP`` snaps); the quad itself when the first does not move it."""
    out = _snapped(of_change, quad, strong_share=SNAP_DIFF_SHARE)
    for _ in range(RESNAP - 1):
        if out is quad or np.abs(out - quad).max() < RESNAP_MOVE:
            break
        again = _snapped(of_change, out, strong_share=SNAP_DIFF_SHARE)
        if _moved_in(out, again) > RESNAP_MOVE:  # onto a line inside the card: not its edge
            break
        quad, out = out, again
    return out


def _moved_in(quad: np.ndarray, moved: np.ndarray) -> float:
    """The most any side's middle lies further in (towards the centre) in ``moved`` than in
    ``quad``, px (0 when none does)."""
    centre = quad.mean(axis=0)
    most = 0.0
    for i in range(4):
        a, along, _, normal = _side(quad, i, centre)
        middle = (moved[i] + moved[(i + 1) % 4]) / 2
        most = max(most, -float(np.dot(middle - (a + along / 2), normal)))
    return most


def _pushed(diff: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The quad with each side that lies inside the card moved out to where the change
    against the empty table ends: a card's printed frame, a dark line a few px inside its
    edge, is a stronger step than pale paper on a pale board, and a mask cut and grown
    back can leave a side on it, further in than ``_snapped`` reaches. A side is moved
    only when, just outside it, the table changed (``CHANGED_FAINT``, median along the
    side) and, within ``PUSH_SHARE`` of the card's short side, it is unchanged
    (``WHOLE_OUTSIDE``): a neighbour or a shadow changed beyond that, the side stays.
    The quad itself when no side moves."""
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    reach = int(math.ceil(PUSH_SHARE * min(sides)))
    if reach <= SNAP_PX:
        return quad
    offsets = np.arange(1, reach + 1, dtype=np.float32)
    t = np.linspace(0.15, 0.85, 24, dtype=np.float32)
    centre = quad.mean(axis=0)
    lines, moved = [], False
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        along = b - a
        normal = np.float32([-along[1], along[0]]) / sides[i]
        if float(np.dot(normal, (a + b) / 2 - centre)) < 0:
            normal = -normal  # outwards
        base = a[None] + t[:, None] * along[None]
        xs = base[:, 0:1] + offsets[None] * normal[0]
        ys = base[:, 1:2] + offsets[None] * normal[1]
        level = np.median(cv2.remap(diff, xs, ys, cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE), axis=0)
        out = np.nonzero(level <= WHOLE_OUTSIDE)[0]
        by = 0.0
        if level[0] >= CHANGED_FAINT and len(out) and out[0] > SNAP_PX // 2:
            by = float(offsets[out[0]]) - 2.0  # where it ends, less the blur's ramp
            moved = True
        lines.append((a + by * normal, along / sides[i]))
    out = _crossings(lines) if moved else None
    return quad if out is None else out

"""Stage: floor. The floor's colour round every pixel, and the masks of what stands out from it
(lighter, tinted, far darker): where dice may be.
"""
from __future__ import annotations

import cv2
import numpy as np

from .common import _SQUARE, _channel_sum, _fresh, _median_rows, _Once, _scratch

WINDOW = 0.6  # of the image's shorter side: the neighbourhood the floor is judged in
LIGHTER = 45.0  # B+G+R levels above the floor: a light die (or glare, told apart by shape)
TINTED = 40.0  # levels of colour the floor, brightened or darkened alike, does not have
FAINT_SHARE = 0.1  # of a pixel's B+G+R: a channel this far off the floor's colour as lit
FAINT_LEAST = 20.0  # there (at least these levels) is a faint tint (`die_masks`' ``faint``)
# (issue 64, fifth session): a saturated green or purple die 0.4-0.6 as bright as a pale
# table or lid is 27-43 levels off the floor's colour as lit there (under `TINTED` 40),
# 0.13-0.19 of its own B+G+R; the floor's grain and a shadow, far less. At 0.1 and 20, on
# the cached independent seeds 0-59 and 1000-1029: +21 dice read at 28 px, +23 at the
# renderer's sizes (with the size from the faint mask, tray._read_floor), no answer worse
# there, on the tuned families or the photos. Before that sizing: 0.1 and 20 gave +15 and
# +19; 0.08, 0.13, least 15 or 26 moved those by -10 to +2, least 15 made one answer worse.
# The first mask keeps `TINTED`: lowered there alone (0.1, 20), 59 answers got worse (a
# die's shadow or edge joined its blob).
# The faint tint at its limit is a sieve: a saturated purple die 0.6 as bright as a pale table
# (issue 64, session 92: seed 1763 at 28 px, its five purple dice) is 24-43 levels off the
# table's colour as lit, against `FAINT_SHARE` of its own light, 30-37: 70-90 % of its
# body's pixels pass, scattered; the 3x3 opening keeps a pixel only where its 9 neighbours
# all passed, and the blob falls to crumbs (eroded: none, or 23 x 22 of 29 px dice). Closed
# by a 3x3 square first, the holes go: 30 x 29, read. Not the faint mask itself (closed
# there, 1665's black dice on wood, read from solid faint blobs, joined their shadows and
# were lost; the dice's size moved with it): a second mask (`die_masks`' fourth item,
# `tray.FAINT_CLOSED`), read only where the faint pass left dice unread.
DARKER = 0.5  # of the floor's B+G+R, and below: a black die (a shadow only darkens)
# A black die on a dark saturated felt is not that much darker (seed 1108 at 28 px: body
# 42,40,39 on felt 118,50,82, 0.48 of its B+G+R, above DARKER's 0.5 less 20 levels) nor
# tinted (~34 levels, under `TINTED`): it is grey where the felt is coloured. A shadow keeps
# the felt's colour as it darkens it (its max-min share of B+G+R), a black body has none:
# a pixel dimmer than `DIM` of a `SATURATED_FLOOR`, `DARK_FLOOR` floor whose share is under
# `GREY` of the floor's is in the grey mask (`grey_mask`), read by a last pass (issue 64,
# eleventh session). On the 528 cached stills against 046bb4bf: +1 read (seed 1108's black
# one), 0 worse; `DIM` 0.85: +2 (seed 28's black one at 38 px), 1.0: that one read 2, a
# wrong face; 0.6: nothing gained. In the darker mask itself (0.75): 1 gained, 2 lost.
DIM = 0.75  # of the floor's B+G+R, and below
SATURATED_FLOOR = 0.15  # the floor's max-min share of its B+G+R, and above (felt: 0.27-0.5)
DARK_FLOOR = 300.0  # the floor's B+G+R, and below: a dark felt (a wood tray's 320 and more)
GREY = 0.35  # of the floor's share, and below
MIN_FILL = 0.8  # of its minimum-area rectangle a rounded square covers (a disc: 0.785)


def _fill_pips(mask: np.ndarray) -> np.ndarray:
    """Pips that do not stand out from the floor (dark pips on a light die on dark felt) are
    holes in its blob: fill every hole smaller than a fifth of its blob (a gap enclosed by
    dice is larger). Outlines, not labelled pixels: several times cheaper."""
    return _filled(mask, cv2.RETR_CCOMP)[0]


def _fill_pips_and_squares(mask: np.ndarray) -> np.ndarray:
    """`_fill_squares` of `_fill_pips` (the same pixels), the mask's outlines traced once for
    both: the outer outlines of the mask before its holes are filled are those after (a
    hole filled lies inside its blob's outer outline), so `_fill_squares` needs no second
    tracing (0.46 ms of a 480x360 wood tray's 0.59 + 0.88 ms, docs/camera.md issue 64
    part B, eighth session)."""
    mask, outer = _filled(mask, cv2.RETR_TREE)
    return _fill_squares(mask, outer)


def _filled(mask: np.ndarray, mode: int) -> tuple[np.ndarray, list]:
    """`_fill_pips`' mask, and with ``mode`` RETR_TREE the outer outlines of the filled mask
    as RETR_EXTERNAL finds them, in its order (the outlines of depth 0: a blob inside a
    hole, filled or not, is no outer one)."""
    outlines, hierarchy = cv2.findContours(mask, mode, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return mask, []
    parents = hierarchy[0][:, 3].tolist()
    if mode == cv2.RETR_TREE:  # a hole's depth is odd (a blob's outline, its parent: even)
        depth = [0] * len(parents)
        for i in range(len(parents)):
            k, d = parents[i], 0
            while k >= 0:
                k, d = parents[k], d + 1
            depth[i] = d
        hole = [d % 2 == 1 for d in depth]
    else:  # RETR_CCOMP: two levels, every outline with a parent is a hole
        hole = [parent >= 0 for parent in parents]
    # only holes and their blobs measured (grain leaves hundreds of specks without holes)
    holes = [outlines[i] for i, parent in enumerate(parents) if hole[i]
             and cv2.contourArea(outlines[i]) < 0.2 * cv2.contourArea(outlines[parent])]
    cv2.drawContours(mask, holes, -1, 255, cv2.FILLED)
    if mode != cv2.RETR_TREE:
        return mask, []
    return mask, [outlines[i] for i, parent in enumerate(parents) if parent < 0]


def floor_colour(image: np.ndarray, window: float | None = None,
                 dst: np.ndarray | None = None) -> np.ndarray:
    """The floor's colour around each pixel (BGR): the median of a neighbourhood ``window`` px
    across (`WINDOW` of the shorter side), dice being few and small in it (uint8); with
    ``window`` 0, the median of the image's outer ring, one colour for the whole tray (a die
    seen close fills the middle of its picture; float32, a median may fall between levels).
    ``dst``: where to write the neighbourhoods' colours (the image's shape, uint8)."""
    h, w = image.shape[:2]
    if window == 0:
        ring = np.concatenate([image[:h // 10].reshape(-1, 3), image[h - h // 10:].reshape(-1, 3),
                               image[:, :w // 10].reshape(-1, 3),
                               image[:, w - w // 10:].reshape(-1, 3)])
        colour = _median_rows(ring).astype(np.float32)
        return np.full((h, w, 3), colour, np.float32)
    window = window or WINDOW * min(h, w)
    step = max(1, int(window / 9))
    small = _area_mean(image, step) if step > 2 and not (h % step or w % step) and min(
        h, w) >= 3 * step else cv2.resize(image, (max(3, w // step), max(3, h // step)),
                                          interpolation=cv2.INTER_AREA)
    k = 4 if min(small.shape[:2]) >= 5 else 1
    # reflected, not replicated, at the image's edge: the tray's rim is a thin band there,
    # not the floor of a whole neighbourhood
    padded = cv2.copyMakeBorder(small, k, k, k, k, cv2.BORDER_REFLECT_101)
    small = cv2.medianBlur(padded, 2 * k + 1)[k:-k, k:-k]
    return cv2.resize(small, (w, h), dst=dst, interpolation=cv2.INTER_LINEAR)


def _area_mean(image: np.ndarray, step: int) -> np.ndarray:
    """``cv2.resize(image, ..., INTER_AREA)`` by a whole ``step`` (3 or more: OpenCV halves
    by its own integer rounding) the image's sides divide by: each block's exact sum times
    1/step² in float32, rounded half to even, as OpenCV's area resize gives it (the same
    figures on every cached tray of the bench), in half its CPU. The sums from an integral
    image of each band of ``step`` rows (its last row's corners), in this thread's buffer
    (144 KB at 480 px across: a whole tray's would be 2 MB more kept, a new one fresh pages
    at every roll under the app's malloc)."""
    h, w, channels = image.shape
    whole = _scratch("floor integral", (step + 1, w + 1, channels), np.int32)
    sums = np.empty((h // step, w // step, channels), np.int32)
    for k in range(h // step):
        band = cv2.integral(image[k * step:(k + 1) * step], sum=whole, sdepth=cv2.CV_32S)
        corners = band[step, ::step]
        np.subtract(corners[1:], corners[:-1], out=sums[k])
    return np.rint(sums.astype(np.float32) * np.float32(1 / (step * step))).astype(np.uint8)


def die_masks(image: np.ndarray, floor: np.ndarray, scratch: bool = False,
              faint: bool | str = False) -> tuple:
    """Where a pixel is not the floor as a die is not (255): lighter than it (`LIGHTER`) or
    of a colour it has not however lit (`TINTED`: a shadow only darkens the floor's colour,
    the grain of wood only shades it); and apart, far darker than it (`DARKER`: a black die,
    and shadows, which are kept out of the first mask so they never join a die's blob).
    ``scratch``: both masks and every step in this thread's buffers (`_scratch`), valid
    until its next such call (the tray's one reading; a patch's masks are fresh arrays).
    ``faint``: a third mask, of what stands out by a fainter tint too (`_faint_tint`);
    ``faint="later"``: that mask's band levels now, its opening and filling when first
    asked (the third item is a `_Once`: a reader that stops before the faint mask's pass,
    or never sizes the dice by it, skips them; the same pixels either way, its buffers
    are its own), and a fourth item, a `_Once` too: the faint pixels closed by a 3x3
    square before that opening (`FAINT_CLOSED`)."""
    h, w = image.shape[:2]
    buffer = _scratch if scratch else _fresh
    lighter, darker, tinted = (buffer(name, (h, w)) for name in ("lighter", "darker", "tinted"))
    weak = buffer("faint", (h, w)) if faint else None
    rows = max(1, BAND // w)
    for y in range(0, h, rows):
        band = slice(y, y + rows)
        _band_masks(image[band], floor[band], lighter[band], darker[band], tinted[band],
                    None if weak is None else weak[band])
    if weak is not None:  # before ``lighter`` is written over
        cv2.bitwise_or(lighter, weak, dst=weak)
    # each opening as its erosion then dilation (the same pixels as MORPH_OPEN) into the
    # buffers: OpenCV's own takes a whole-tray temporary of its own
    standing = _open(cv2.bitwise_or(lighter, tinted, dst=lighter), tinted,
                     buffer("standing", (h, w)))
    darker = _open(darker, lighter, buffer("dark", (h, w)))
    pips = _pips_of(standing, darker, tinted, buffer("pips", (h, w)))
    standing = cv2.bitwise_or(standing, pips, dst=standing)
    # the darker mask's rounded squares filled to their hull too: a small black die's light
    # pips, blurred into its edge, open its blob to the floor, and eroded it fell apart
    # (issue 64, tenth session: 28 px black dice on pale floors, seeds 3, 1006)
    masks = _fill_pips_and_squares(standing), _fill_pips_and_squares(darker)
    if weak is None:
        return masks
    faint_mask = _Once(lambda: _fill_pips_and_squares(_open(
        weak, buffer("faint between", (h, w)), buffer("faint open", (h, w)))))
    if faint != "later":
        return (*masks, faint_mask())
    # and a fourth, made when first asked: the faint pixels closed (3x3) before the opening
    # (`tray._read_floor`'s second faint pass, `FAINT_CLOSED`)
    closed = _Once(lambda: _fill_pips_and_squares(_open(
        _close(weak, buffer("faint closing", (h, w)), buffer("faint closed", (h, w))),
        buffer("faint between", (h, w)), buffer("faint closed open", (h, w)))))
    return (*masks, faint_mask, closed)


def dark_saturated(floor: np.ndarray) -> bool:
    """Whether any of the floor (`floor_colour`'s, smooth: every 16th pixel each way
    looked at) is `SATURATED_FLOOR` and `DARK_FLOOR`: elsewhere `grey_mask` is the darker
    mask, and its pass is not run (a band pass of a whole tray)."""
    sample = floor[::16, ::16].astype(np.float32)
    total = sample.sum(axis=2)
    chroma = sample.max(axis=2) - sample.min(axis=2)
    return bool(((total <= DARK_FLOOR) & (chroma >= SATURATED_FLOOR * np.maximum(total, 1.0))
                 ).any())


def grey_mask(image: np.ndarray, floor: np.ndarray) -> np.ndarray:
    """`die_masks`' darker mask with the pixels grey and dim on a saturated dark floor
    (`_grey_on_colour`): a black die on dark felt. A mask of its own, for a last pass
    (`tray._read_floor`): a black die's sides are as grey as its top and join its blob,
    and one die's grey side may join it to the next (in the darker mask itself, 2 dice
    read on the cached stills were lost). Fresh arrays."""
    h, w = image.shape[:2]
    lighter, darker, tinted = (_fresh(name, (h, w)) for name in ("lighter", "darker", "tinted"))
    rows = max(1, BAND // w)
    for y in range(0, h, rows):
        band = slice(y, y + rows)
        _band_masks(image[band], floor[band], lighter[band], darker[band], tinted[band],
                    grey=True)
    return _fill_pips_and_squares(_open(darker, lighter, _fresh("grey", (h, w))))


def _close(mask: np.ndarray, between: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``mask`` closed by a 3x3 square into ``out`` (``between``: a buffer for the step)."""
    cv2.dilate(mask, _SQUARE, dst=between)
    return cv2.erode(between, _SQUARE, dst=out)


def _open(mask: np.ndarray, between: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``mask`` opened by a 3x3 square into ``out`` (``between``: a buffer for the step)."""
    cv2.erode(mask, _SQUARE, dst=between)
    return cv2.dilate(between, _SQUARE, dst=out)


BAND = 96 * 1024  # pixels of a band of rows read at a time (a 480x360 tray in two): its float
# planes are this thread's buffers, and fewer bands make fewer calls: 0.9 of 24K px's CPU


def _band_masks(image: np.ndarray, floor: np.ndarray, lighter: np.ndarray,
                darker: np.ndarray, tinted: np.ndarray, faint: np.ndarray | None = None,
                grey: bool = False) -> None:
    """`die_masks`' lighter, darker and tinted pixels in a band of the image's rows (`BAND`),
    written into the band's rows of the three masks; its float planes are this thread's
    buffers (`_scratch`: reused, not faulted in anew under the app's malloc). The same
    float32 figures as whole planes: sums are of whole levels (or halves: the ring's
    median), exact; the division and the floor's lit colour as before."""
    shape = image.shape[:2]
    # OpenCV's calls on split planes, not numpy's on strided ones: the same float32 figures,
    # half the CPU
    planes = cv2.split(image, [_scratch(f"band plane {c}", shape) for c in range(3)])
    floor_planes = cv2.split(floor, [_scratch(f"band floor {c}", shape, floor.dtype)
                                     for c in range(3)])
    total = _channel_sum(planes, _scratch("band total", shape, np.float32))
    floor_total = _channel_sum(floor_planes, _scratch("band floor", shape, np.float32))
    # OpenCV's max, not numpy's: the same figures (no NaN in a sum of levels), a third of
    # the CPU (numpy's checks every element for NaN)
    cv2.max(floor_total, 1.0, dst=floor_total)
    # OpenCV's subtraction and weighted sum, not numpy's: the same figures (a float32
    # difference is correctly rounded anywhere; levels and halves below 766 times 0.5, less
    # 20, are exact in float32, on arm64 too), 0.76-0.79 of the CPU: ~40 us a band
    # (docs/camera.md, issue 64 part B, ninth session: 475 bands the same, 07:05 UTC 2026-11-28)
    off = cv2.subtract(total, floor_total, dst=_scratch("band off", shape, np.float32))
    cv2.compare(off, LIGHTER, cv2.CMP_GT, dst=lighter)
    cv2.addWeighted(floor_total, DARKER, floor_total, 0.0, -20.0, dst=off)
    cv2.compare(total, off, cv2.CMP_LT, dst=darker)
    if grey:  # `grey_mask`'s: the darker mask and the grey pixels, no tinted mask made
        _grey_on_colour(planes, floor_planes, total, floor_total, darker)
        return
    # numpy's division, not cv2.divide: OpenCV's on arm64 (the Pi) is not correctly rounded
    # (130/130 gave 0.99999994 there), and a pixel exactly TINTED off the floor's colour
    # then counted as tinted on the Pi only (issue 66, tests/arm64/check.py)
    scale = np.divide(total, floor_total, out=floor_total)
    # any channel far off the floor's as lit here
    level, side = _scratch("band level", shape, np.float32), _scratch("band side", shape)
    most = _scratch("band most", shape, np.float32)  # the farthest channel's levels
    for c, (plane, floor_plane) in enumerate(zip(planes, floor_planes, strict=True)):
        cv2.multiply(floor_plane, scale, dst=off, dtype=cv2.CV_32F)
        np.copyto(level, plane)
        cv2.absdiff(level, off, dst=most if c == 0 else off)
        if c:
            cv2.max(most, off, dst=most)
    cv2.compare(most, TINTED, cv2.CMP_GT, dst=tinted)
    cv2.compare(total, 90, cv2.CMP_GT, dst=side)
    cv2.bitwise_and(tinted, side, dst=tinted)
    if faint is not None:  # the faint tint's levels: a share of the pixel's own light
        least = np.multiply(total, FAINT_SHARE, out=off)
        np.clip(least, FAINT_LEAST, TINTED, out=least)
        cv2.compare(most, least, cv2.CMP_GT, dst=faint)
        cv2.bitwise_and(faint, side, dst=faint)


def _grey_on_colour(planes: list, floor_planes: list, total: np.ndarray,
                    floor_total: np.ndarray, darker: np.ndarray) -> None:
    """Add to ``darker`` the pixels grey and dim on a saturated floor (`DIM`,
    `SATURATED_FLOOR`, `GREY`): a black die's body where a shadow would keep the floor's
    colour."""
    shape = total.shape
    chroma = _chroma(planes, _scratch("band chroma", shape, np.float32))
    floor_chroma = _chroma(floor_planes, _scratch("band floor chroma", shape, np.float32))
    # grey: chroma/total < GREY * floor_chroma/floor_total, without a division
    left = cv2.multiply(chroma, floor_total, dst=chroma)
    right = cv2.multiply(floor_chroma, total, scale=GREY,
                         dst=_scratch("band grey", shape, np.float32))
    grey = cv2.compare(left, right, cv2.CMP_LT)
    dim = cv2.compare(total, cv2.multiply(floor_total, DIM, dst=right), cv2.CMP_LT)
    saturated = cv2.compare(floor_chroma, cv2.multiply(floor_total, SATURATED_FLOOR, dst=right),
                            cv2.CMP_GE)
    dark = cv2.compare(floor_total, DARK_FLOOR, cv2.CMP_LE)
    cv2.bitwise_or(darker, grey & dim & saturated & dark, dst=darker)


def _chroma(planes: list, out: np.ndarray) -> np.ndarray:
    """Max less min of the three planes, float32 into ``out``."""
    most = cv2.max(cv2.max(planes[0], planes[1]), planes[2])
    least = cv2.min(cv2.min(planes[0], planes[1]), planes[2])
    return cv2.subtract(most, least, dst=out, dtype=cv2.CV_32F)


def _fill_squares(mask: np.ndarray, outlines: list | None = None) -> np.ndarray:
    """A die's print (a numeral in a ring, a large pip on its edge) may cut into its blob,
    or through it, down to the floor's colour: a blob that is a rounded square but for
    that is filled to its hull. ``outlines``: the mask's outer outlines, if traced already
    (`_fill_pips_and_squares`)."""
    if outlines is None:
        outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    h, w = mask.shape
    for outline in outlines:
        x, y, bw, bh = cv2.boundingRect(outline)
        if len(outline) < 8 or x == 0 or y == 0 or x + bw == w or y + bh == h:
            continue  # the walls
        area = cv2.contourArea(outline)
        if area < 100:
            continue  # a speck: its rectangle not wanted
        (_, _), (rw, rh), _ = cv2.minAreaRect(outline)
        if max(rw, rh) <= 1.3 * min(rw, rh) and _square_enough(outline, area):
            hull = cv2.convexHull(outline)
            pixels = cv2.countNonZero(mask[y:y + bh, x:x + bw])  # holes left out
            if pixels < 0.92 * cv2.contourArea(hull):  # a bite, not the blur of its edge
                cv2.fillConvexPoly(mask, hull, 255)
    return mask


def _pips_of(standing: np.ndarray, darker: np.ndarray, parts: np.ndarray, out: np.ndarray
             ) -> np.ndarray:
    """The dark pips of light dice (255): what of the darker mask lies inside the hull of the
    light parts it touches. Large pips cut a die's light body apart, and are inside it; a
    shadow beside a die lies outside its hull and stays out.
    Only the parts with a dark pixel are wanted (grain has none): each is flood-filled from
    a dark pixel (8-connected, as labelling the whole mask would find it; a few dice's
    pixels, not the whole tray's), one of every dark spot: an outline's first point (every
    outline, a spot inside another's hole too), not every dark pixel in turn (a shadow's
    thousands). The parts are apart, so the order they are filled in changes nothing.
    Each part is filled with a value of its own (1-254, then those cleared and counted
    again), so its pixels are told from an earlier part's in its box without clearing it,
    and a part too small is never looked at (half of them): 0.63 against 0.72 ms a tray.
    Into ``out``; ``parts``: a buffer for the parts."""
    cv2.bitwise_or(standing, darker, dst=parts)
    out.fill(0)
    outlines, _ = cv2.findContours(darker, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    value = 0  # the last part's
    for sx, sy in [outline[0, 0].tolist() for outline in outlines]:
        if parts[sy, sx] != 255:
            continue  # in a part filled already
        if value == 254:  # every value used: the parts filled so far cleared (all done)
            parts[parts != 255] = 0
            value = 0
        value += 1
        area, _, _, (x, y, w, h) = cv2.floodFill(parts, None, (sx, sy), value, flags=8)
        if area < 40:
            continue
        part = parts[y:y + h, x:x + w] == value
        dark = part & (darker[y:y + h, x:x + w] > 0)
        light = part & (standing[y:y + h, x:x + w] > 0)
        if not dark.any() or light.sum() < 20:
            continue
        inside = np.zeros((h, w), np.uint8)
        # the hull of the light pixels is their outlines' (a few points, not thousands)
        edges, _ = cv2.findContours(light.view(np.uint8), cv2.RETR_EXTERNAL,
                                    cv2.CHAIN_APPROX_SIMPLE)
        cv2.fillConvexPoly(inside, cv2.convexHull(np.concatenate(edges)), 1)
        out[y:y + h, x:x + w][dark & (inside > 0)] = 255
    return out


def _square_enough(outline: np.ndarray, area: float) -> bool:
    """A rounded square, its pips or print maybe biting its edge: its hull fills its
    minimum-area rectangle (`MIN_FILL`; a disc or an ellipse of glare does not) and it fills
    half its hull at least."""
    return _hull_fill(outline, area)[1]


def _hull_fill(outline: np.ndarray, area: float) -> tuple[float, bool]:
    """The outline's hull's area, and `_square_enough`'s verdict."""
    hull = cv2.convexHull(outline)
    (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
    hull_area = cv2.contourArea(hull)
    return hull_area, hull_area >= MIN_FILL * (rw + 1) * (rh + 1) and area >= 0.5 * hull_area

"""The whole tray: the stages in order, and the two public readings (`read_tray`, `lone_die`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from .blobs import _Blob, _blobs, _shaped, _typical
from .clusters import _local_pips, _ones, _pip_clusters
from .common import (
    _SQUARE,
    APART,
    ERODE,
    PATCH,
    DieReading,
    TrayReading,
    _components,
    _erode,
    _median_rows,
    _Once,
    _scratch,
    release_buffers,
)
from .floor import dark_saturated, die_masks, floor_colour, grey_mask
from .hand import _hand
from .squares import _faint_dice, _read_mask

GUESSED_SIZES = (28.0, 36.0, 44.0)  # px: dice sizes tried when nothing tells the size
SIZE_FROM_DARK = True  # the darker mask tells the dice's size when it shows more rounded
# squares than the first (and the faint) mask, which shows fewer than 3 (thirteenth session:
# seed 1302 at 28 px, ten black dice on a lid, the size taken from one 69 px square of the
# lid's print in the first mask, and every die dropped as a crumb). Not where the faint mask
# shows 3 or more: seed 1382 at 28 px, green dice on a lid, sized by the faint mask's 4 (30.4
# px, the dice 29.7) and not by the darker's 5 (32.4 px), or a green one is lost

DARK_OVER_UNREAD = True  # a face the darker mask reads where the first mask's dice there are
# all unread is taken in their place (it was dropped: a die seen already). Issue 64, session
# 92: seed 1715 at 28 px, a red one on a pale table, its first-mask blob top and two sides
# (1.13 of the side) unread, its darker-mask blob read 1 at 0.26: read. Per die on 1660-1719
# (trial.py, docs/camera.md): +1, none lost.
FAINT_CLOSED = True  # a second faint pass, on the faint mask closed first, where the first
# pass left dice unread (`floor`'s note at `DARKER`; issue 64, session 92: seeds 1763, 1695,
# 1719 at 28 px, coloured dice on pale tables; per die on seeds 1540-1779 at both sizes +23
# read, none lost; 1441's wrong one, `LIKE_BOX`; figures in docs/camera.md)
FAINT_SIZING_SHARE = 0.5  # the faint mask sizes the dice too where the first shows fewer
# rounded squares than this share of the dice thrown (when told) and the faint more: session
# 89, seed 1623 at 28 px (table, eight green dice of 28-31 px): the first mask showed three
# green tops in part (20-26 px), the side taken 22.4 px and 7 of 8 dice unread; the faint
# mask's four give 30.0 (notes s89/i64/sizing1600.py, masks1600.py)


def _read_floor(image: np.ndarray, floor: np.ndarray, die_px: float | None, taught: Sequence,
                thrown: int | None = None) -> TrayReading:
    # eroding parts dice that touch (their rounded edges leave a dark seam); the squares are
    # grown back by as much before reading
    shape = image.shape[:2]
    # the faint mask made when first asked: for the dice's size where the first mask shows
    # few rounded squares, and for its own pass, the last (none when the first read every die)
    masks = die_masks(image, floor, scratch=True, faint="later")
    standing = _erode(masks[0], _scratch("standing eroded", shape))
    # the darker mask is not closed first (session 89 tried 3x3 once: dev seed 1594's black
    # dice, their light pips biting their edge, read whole, but seed 1382's green two lost its
    # pips' holes and was counted as two dice, no roll: test_dice_heldout_1540.py)
    dark = _erode(masks[1], _scratch("dark eroded", shape))
    blobs, clear = _blobs(standing)
    dark_blobs, dark_clear = _blobs(dark)
    faint_blobs = _Once(lambda: _blobs(_erode(masks[2](), _scratch("faint eroded", shape)))[0])
    # the dice's size from the mask that shows more of them as rounded squares (coloured
    # dice on a pale floor: the faint one; black dice on a lid whose print stands out as a
    # square or two: the darker one, `SIZE_FROM_DARK`)
    sizing, shaped = blobs, _shaped(blobs)
    few = shaped < 3 or bool(thrown) and shaped < FAINT_SIZING_SHARE * thrown
    if few and (faint := _shaped(faint_blobs())) > shaped:
        sizing, shaped = faint_blobs(), faint
    if SIZE_FROM_DARK and shaped < 3 and _shaped(dark_blobs) > shaped:
        sizing = dark_blobs
    typical = _typical(sizing, die_px, image) or _typical(dark_blobs, die_px, image)
    if typical is None:
        dice = _pip_clusters(image, masks[1])
        return TrayReading(sorted(dice, key=lambda d: (d.centre[1], d.centre[0])), clear)
    # the tray in grey, made once when first asked (the blobs' reading, the local pips)
    gray = _Once(lambda: cv2.cvtColor(image, cv2.COLOR_BGR2GRAY, dst=_scratch("gray", shape)))
    # dice against a rim lighter than the floor join the rim's blob: cut from it (no hand)
    first = blobs + (_off_the_rim(standing, blobs) if clear else [])
    dice = _read_mask(image, first, typical, taught, gray)
    seen, replaced = list(dice), set()  # the first mask's dice; those a face was read over
    for d in _read_mask(image, dark_blobs, typical, taught, gray):
        same = [e for e in seen if np.hypot(d.centre[0] - e.centre[0],
                                            d.centre[1] - e.centre[1]) <= 0.6 * e.side]
        if not same:
            dice.append(d)  # a black die (not one seen already, with its shadow)
        elif DARK_OVER_UNREAD and d.face is not None and all(
                e.face is None and e.die is None and id(e) not in replaced for e in same):
            replaced |= {id(e) for e in same}
            dice = [e for e in dice if all(e is not f for f in same)] + [d]
    known = None if die_px is None and len(blobs) < 3 else typical
    # a patch is a blob off the walls (its pixels those its outline fills, its area at least
    # those): none near `PATCH` dice (a tenth to spare), no patch to label the mask for
    if known and any(b.area > 0.9 * PATCH * known for b in blobs):
        dice += [d for d in _on_patches(image, standing, known, taught) if all(
            np.hypot(d.centre[0] - e.centre[0], d.centre[1] - e.centre[1]) > 0.6 * e.side
            for e in dice)]
    if _all_read(dice, thrown):
        # as many dice read as were thrown (`read_tray`'s ``thrown``): the later passes
        # find dice the first ones missed, and there is none to find
        return _kept(dice, clear)
    # dark pips of a light die, found in the darker-than-floor mask; where the dice's size
    # is known the local dark passes below find them (darker than the body around them)
    clusters = [] if known else _pip_clusters(image, masks[1], dice, known)
    if known:  # light pips on a die the floor's colour: only where the dice's size is known
        local = _local_pips(gray(), known)
        spotted = []  # labelled once, for both uses (the ones below need no labels)
        for k, (spots, dark) in enumerate(local):
            part = _components(spots, scratch=True)
            spotted.append((part[0], None, *part[2:]))
            # at the higher level pips run together stand apart by their cores already: no
            # runs parted there
            clusters += _pip_clusters(image, spots, dice + clusters, known, light_body=dark,
                                      runs=k < 2, components=part)
            merged = _merged(dice, clusters)
            if _all_read(merged, thrown):
                # the rest read at this level: no later level, no ones, no faint mask
                return _kept(merged, clear)
        clusters += _pip_clusters(image, masks[0], dice + clusters, known, light_body=False,
                                  runs=False)
        for (spots, dark), part in zip(local[:2], spotted[:2], strict=True):
            clusters += _ones(image, spots, dice + clusters, known, dark, part)
    dice = _merged(dice, clusters)
    if _all_read(dice, thrown):
        return _kept(dice, clear)  # the pip clusters read the rest: no faint mask's pass
    # a faint blob the very blob of the first mask reads as that one did: every die it
    # holds is in ``dice`` already, so it adds none (`_faint_dice`), and is not read again
    read = {_same(b) for b in first}
    dice = _faint_dice(image, [b for b in faint_blobs() if _same(b) not in read], dice,
                       typical, taught, gray)
    if FAINT_CLOSED and not _all_read(dice, thrown):
        # the faint mask closed first (`floor`'s note at `DARKER`): its blobs not read
        # already (the first mask's, the faint one's), read as the faint mask's are
        read |= {_same(b) for b in faint_blobs()}
        closed = _blobs(_erode(masks[3](), _scratch("faint closed eroded", shape)))[0]
        seen = first + faint_blobs()
        dice = _faint_dice(image, [b for b in closed if _same(b) not in read and not any(
            _like(b, c) for c in seen)], dice, typical, taught, gray)
    if _all_read(dice, thrown) or not dark_saturated(floor):
        return _kept(dice, clear)
    # black dice on a dark saturated felt, grey where it is coloured (`grey_mask`): its
    # blobs not the darker mask's already read, read as the faint mask's are
    read = {_same(b) for b in dark_blobs}
    grey = _blobs(_erode(grey_mask(image, floor), _scratch("grey eroded", shape)))[0]
    return _kept(_faint_dice(image, [b for b in grey if _same(b) not in read], dice,
                             typical, taught, gray), clear)


LIKE_BOX = 2  # px: a closed faint blob whose box is within this of a blob read already, on
LIKE_AREA = 1.05  # every edge, and no larger than it by this share, is that blob
# (`FAINT_CLOSED`): not read again. Issue 64, session 92: dev seed 1441 at the renderer's
# sizes (wood), a white two's first-mask blob 51 x 44 (top and side), unread; closed, the
# same box and 1.6 % larger, its corner read a one at 0.75: a wrong face. The box alone
# lost three dice the closing read (1763's crumbs of 185 px, closed 488, in the same box).


def _like(blob: _Blob, seen: _Blob) -> bool:
    """``blob`` is ``seen`` but for a few pixels (`LIKE_BOX`, `LIKE_AREA`)."""
    (h, w), (sh, sw) = blob.filled.shape, seen.filled.shape
    return (blob.area <= LIKE_AREA * seen.area and abs(blob.x - seen.x) <= LIKE_BOX
            and abs(blob.y - seen.y) <= LIKE_BOX and abs(blob.x + w - seen.x - sw) <= LIKE_BOX
            and abs(blob.y + h - seen.y - sh) <= LIKE_BOX)


def _all_read(dice: list[DieReading], thrown: int | None) -> bool:
    """As many faces read as were thrown (`read_tray`'s ``thrown``; None: not told)."""
    return bool(thrown) and sum(d.face is not None for d in dice) >= thrown


def _apart(d: DieReading, e: DieReading) -> bool:
    """Whether ``d``'s centre lies far enough from ``e``'s (`APART` of ``e``'s side) for
    both to be dice: dice touch face to face at the nearest."""
    return np.hypot(d.centre[0] - e.centre[0], d.centre[1] - e.centre[1]) >= APART * e.side


def _merged(dice: list[DieReading], clusters: list[DieReading]) -> list[DieReading]:
    """``dice`` and the dice the pip clusters found (a new list)."""
    dice = list(dice)
    for die in clusters:
        # a light die told by its pips alone; it stands for a die seen there already only
        # when it reads a face where that one read none
        same = [k for k, d in enumerate(dice) if np.hypot(die.centre[0] - d.centre[0],
                                                          die.centre[1] - d.centre[1])
                <= 0.6 * d.side]
        if not same:
            if all(_apart(die, d) for d in dice if d.face is not None):
                dice.append(die)
            # else: pips within `APART` of a die read are that die's side's, no other die
            # (twelfth session: seed 1272 at the renderer's sizes, a green one read at 0.77
            # of its side from a false three of its side's pips, read by their clusters)
        elif die.face is not None and all(dice[k].face is None and dice[k].die is None
                                          for k in same):
            # every reading there unread (seeds 1121, 1148: two, pieces of one die)
            dice[same[0]] = die
            dice = [d for k, d in enumerate(dice) if k not in same[1:]]
    return dice


def _same(blob: _Blob) -> tuple:
    """What a blob's reading depends on (with the image, the dice's size and the taught
    dice): equal for a blob of the same pixels in two masks."""
    return blob.x, blob.y, blob.filled.shape, blob.filled.tobytes(), blob.outline.tobytes()


def _kept(dice: list[DieReading], clear: bool) -> TrayReading:
    """The tray's reading of ``dice``: no die lies within another (an unread one within
    `APART` of a die read is a glint or shadow cut off it), in reading order."""
    read = [d for d in dice if d.face is not None]
    dice = [d for d in dice if d.face is not None or d.die is not None or all(
        _apart(d, e) for e in read)]
    dice.sort(key=lambda d: (d.centre[1], d.centre[0]))
    return TrayReading(dice, clear)


RIM = 0.9  # of a row (a column) along a wall the mask covers: the tray's rim, lighter than
# its floor (independent seed 33: the wood rim's rows 1.0, a die's rows beside it 0.13)
RIM_EDGE = 0.3  # of a row, and more: the rim's blurred inner edge, cut with it (seed 33: the
# rows after the rim cover 0.76, 0.48, then 0.13, the two dice against it)


def _off_the_rim(standing: np.ndarray, read: list[_Blob]) -> list[_Blob]:
    """The blobs that lay against a wall of rows (or columns) the mask covers nearly whole
    (`RIM`: a rim lighter than the floor, wood round felt), once that rim and its blurred
    inner edge (`RIM_EDGE`) are cut off: a die touching the rim joins the rim's blob, which
    `_blobs` leaves out with the walls. Only blobs along a cut, and none of those ``read``
    already (off the walls before the cut): every other blob is the same either way."""
    h, w = standing.shape
    cuts = [_rim_width(standing, True, False), _rim_width(standing, True, True),
            _rim_width(standing, False, False), _rim_width(standing, False, True)]
    top, bottom, left, right = cuts
    if not any(cuts) or top + bottom >= h // 2 or left + right >= w // 2:
        return []
    # only what the rim joins, flood-filled from its first row: not the tray's every blob
    # outlined again (1.2 ms a felt tray, where a rim is seen and holds no die)
    joined = _scratch("rim joined", (h + 2, w + 2))
    joined.fill(0)
    walls = ((top, standing[0], lambda k: (k, 0)),
             (bottom, standing[-1], lambda k: (k, h - 1)),
             (left, standing[:, 0], lambda k: (0, k)),
             (right, standing[:, -1], lambda k: (w - 1, k)))
    for many, edge, place in walls:
        if not many:
            continue
        on = edge > 0
        for k in np.flatnonzero(on & ~np.concatenate(([False], on[:-1]))).tolist():
            x, y = place(k)  # each run of the rim's first row: its pieces, if it has several
            if not joined[y + 1, x + 1]:
                cv2.floodFill(standing, joined, (x, y), 255,
                              flags=8 | cv2.FLOODFILL_MASK_ONLY | (255 << 8))
    cut = np.zeros_like(standing)
    inner = (slice(top, h - bottom), slice(left, w - right))
    cut[inner] = joined[1:-1, 1:-1][inner]
    blobs, _ = _blobs(cut)
    seen = {(b.x, b.y, b.filled.shape) for b in read}
    return [b for b in blobs if (b.x, b.y, b.filled.shape) not in seen and (
        b.y <= top or b.x <= left or b.y + b.filled.shape[0] >= h - bottom
        or b.x + b.filled.shape[1] >= w - right)]


def _rim_width(standing: np.ndarray, rows: bool, far: bool) -> int:
    """How many of the mask's rows (``rows``, else columns) from a wall inwards (the top or
    left one; ``far``: the bottom or right one) are a rim (`RIM` of a row covered) and its
    blurred edge (`RIM_EDGE`); 0 where no rim lies along that wall (its first row alone
    looked at: most trays, no rim). At most half the rows, summed by OpenCV (numpy's
    count along a strided axis cost as much as the rest of the cut)."""
    lines = standing if rows else standing.T
    many, width = lines.shape
    if np.count_nonzero(lines[-1 if far else 0]) < RIM * width:
        return 0
    half = many // 2
    part = (standing[many - half:] if far else standing[:half]) if rows else (
        standing[:, many - half:] if far else standing[:, :half])
    fill = cv2.reduce(part, 1 if rows else 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel()
    if far:
        fill = fill[::-1]
    inside = np.flatnonzero(fill < RIM_EDGE * width * 255)
    return int(inside[0]) if len(inside) else half


def _on_patches(image: np.ndarray, standing: np.ndarray, typical: float, taught: Sequence
                ) -> list[DieReading]:
    """Dice lying on a patch of floor lighter than the floor judged round it (a pale plank
    of wood, a lamp's light), which joins them into one blob far larger than a die: against
    the patch's own colour (the median of its pixels) they stand out again. Kept only when
    read: grain left in the patch makes no die."""
    count, labels, stats, _ = _components(standing)
    h, w = standing.shape
    x, y, bw, bh, area = stats.T
    walls = (x == 0) | (y == 0) | (x + bw == w) | (y + bh == h)  # the rim: no patch
    patches = np.flatnonzero((area > PATCH * typical) & ~walls)
    margin = int(np.sqrt(typical)) + 2 * ERODE
    dice = []
    for i in patches[patches > 0][:4]:
        x, y, bw, bh = stats[i, :4]
        x0, y0 = max(0, x - margin), max(0, y - margin)
        x1, y1 = min(w, x + bw + margin), min(h, y + bh + margin)
        crop = image[y0:y1, x0:x1]
        region = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
        colour = _median_rows(crop[region > 0]).astype(np.float32)
        region = cv2.dilate(region, _SQUARE, iterations=2 * ERODE)
        inside = die_masks(crop, np.full(crop.shape, colour, np.float32))[0] & (region * 255)
        blobs, _ = _blobs(_erode(inside))
        dice += [replace(d, centre=(d.centre[0] + x0, d.centre[1] + y0))
                 for d in _read_mask(crop, blobs, typical, taught) if d.face is not None]
    return dice


def read_tray(image: np.ndarray, die_px: float | None = None, taught: Sequence = (),
              thrown: int | None = None) -> TrayReading:
    """Every die in a tray image (the whole image is the tray). ``die_px``: the dice's side
    in pixels if known (calibration); otherwise the typical blob size stands for it.
    ``taught``: dice read by their taught pictures (`taught_faces.TaughtDie`).
    ``thrown``: how many dice were thrown, if known (the game says, through the app: the
    reader knows no game): once the first passes (the blobs of the standing and
    dark masks) read that many faces, the later ones (pip clusters, local pips, ones, the
    faint mask's dice), which find dice those missed, are not run (measured: 6.8-8.3 ms a
    tray where they run for nothing, docs/camera.md); likewise once a level of the local
    pips' clusters reads the rest, no later level, no ones, no faint mask. Dice beyond it
    are still reported when a pass that ran finds them: whether such a tray is a roll is
    the caller's to say.

    A die is found by what it is, not by the floor it lies on: a rounded square standing out
    from the floor around it (`die_masks`), read by its pips. When the floor around is
    mostly die (a die seen close), the tray's outer ring is the floor instead."""
    if _hand(image):
        return TrayReading([], False)
    floor = floor_colour(image, dst=_scratch("floor", image.shape))
    reading = _read_floor(image, floor, die_px, taught, thrown)
    if reading.dice or not reading.clear:
        return reading
    reading = _read_floor(image, floor_colour(image, 0), die_px, taught, thrown)
    if reading.dice or die_px is not None:
        return reading
    # no blob told the dice's size (small dice crowded on a pale floor under dark shadows,
    # the floor between them judged too dark joins them): the sizes the reader reads
    tries = [_read_floor(image, floor, size, taught, thrown) for size in GUESSED_SIZES]
    return max(tries, key=lambda tried: sum(d.face is not None for d in tried.dice))


def lone_die(image: np.ndarray) -> np.ndarray:
    """The top of the one die lying flat in a tray image, squared up (to teach its face).
    Raises ValueError("hand" | "no_die" | "several_dice" | "not_flat") otherwise.
    Read on a web request's thread, one of hundreds kept all evening: its buffers
    (`release_buffers`) are not kept for a next reading that may never come there."""
    try:
        reading = read_tray(image)
    finally:
        release_buffers()
    if not reading.clear:
        raise ValueError("hand")
    if not reading.dice:
        raise ValueError("no_die")
    if len(reading.dice) > 1:
        raise ValueError("several_dice")
    if reading.dice[0].square is None:
        raise ValueError("not_flat")
    return reading.dice[0].square

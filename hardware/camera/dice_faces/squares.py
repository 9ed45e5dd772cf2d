"""Stage: squares. A blob made a die's square (or several: dice side by side, a top beside a
side seen obliquely) and read by `pips`.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import cv2
import numpy as np

from .blobs import _Blob, _halves, _solid, _split, _trimmed
from .colour import (
    MIXED,
    _black_by_its_pips,
    _coloured_share,
    _light_pips,
    _surroundings,
    _tinted_shade,
    _white_throughout,
    colour_name,
)
from .common import _SQUARE, CANON, EDGE_BLUR, ERODE, PATCH, DieReading, _Once
from .pips import SHRINK, _marked, _square_up, _tones, read_face


def _read_square(image: np.ndarray, rect, taught: Sequence, light_body: bool | None = None,
                 retry: bool = True, wanted: Callable[[int | None], bool] | None = None,
                 around: tuple[tuple[float, float], float] | None = None
                 ) -> DieReading | None:
    """A die lying flat in ``rect`` (a minimum-area rectangle): its pips, or, when it is a
    taught die sure of its face, that face. A die that looks taught but is unsure, and
    shows no pip face either, is that die unreadable (the phone asks for it by name). None:
    nothing on it at all, no die. ``wanted`` (no ``taught`` dice then): None too when the
    face read fails this test, as the caller would drop that reading; its colour, the
    costly part, is then never taken. ``around``: the centre and size whose surroundings
    are the floor (`_surroundings`; None: the square's own)."""
    (cx, cy), (rw, rh), angle = rect
    square = _square_up(image, rect)
    centre, side = (float(cx), float(cy)), float((rw + rh) / 2)
    ring = around or (centre, side)
    tones = _tones(square)  # made once: `_marked` judges the same square by them below
    face, score, body, offset = read_face(square, light_body, tones=tones)
    pitch = offset * side / CANON
    if face is None and retry:  # the blob took in a shadow or a glint: the top is smaller
        smaller = _square_up(image, ((cx, cy), (rw * SHRINK, rh * SHRINK), angle))
        # a one read so is kept (issue 64, seed 33: a one seen with its side's pips, which
        # lie outside the top): a five's or three's corner pips, cut off here, lie in the
        # whole square's inner circle, where `read_face` counts them (`_more_pips_within`)
        face, score, small_body, offset = read_face(smaller, light_body, square)
        if face is not None and face > 1 and _spots_on(
                image, ((cx, cy), (rw / 0.8, rh / 0.8), angle), (side - 2 * ERODE) ** 2) > face:
            # more pip spots on the whole square (`_spots_in` counts in its middle 0.8) than
            # the face read on its smaller middle: a blob smaller than the top, off its
            # middle, cut the die's other pips off (seventh session: seed 1122 at the
            # renderer's sizes, a black five's blob 35 px of 39, read as a two, 5 spots);
            # no face read so on the 528 cached trays lost
            face = None
        if face is not None:
            body, pitch = small_body, offset * side * SHRINK / CANON
    if face is None and retry and side < SMALL_DIE:
        # a small die's pips blurred into its body (a 28 px die's pips, 5 px across, keep
        # half their contrast): read again with the blur taken back
        sharp = _sharpened(square)
        face, score, sharp_body, offset = read_face(sharp, light_body)
        if face is not None:
            body, pitch = sharp_body, offset * side / CANON
    if wanted is not None and not wanted(face):
        return None
    for die in taught:  # matched as it was taught: the whole blob squared up
        match = die.match(square)
        if match.ours and (match.face is not None or face is None):
            return DieReading(match.face, colour_name(body(), _surroundings(image, *ring)),
                              centre, side, match.score if match.face is not None else 0.0,
                              die.name, square)
    if face is None and not _marked(square, tones):
        return None  # no pips, no print: a glint, a patch of floor, no die
    body_colour, floor = body(), _surroundings(image, *ring)
    colour = colour_name(body_colour, floor)
    if face is None and colour == "white" and _coloured_share(square) > MIXED:
        colour = "unknown"  # no top read: the square may hold a coloured die and the floor
    if colour == "white" and not _white_throughout(square, body_colour, floor, tones,
                                                   face is not None):
        colour = "unknown"  # light pips, or a coloured die paled by the lamp's glint
    if colour == "white" and face is not None and _light_pips(body_colour, tones):
        # white pips on a grey body: a black die lit grey, never a white die (session 88:
        # dev seed 1484 at the renderer's sizes, a black three on green felt, body 122, 125,
        # 125, just over `WHITE_LEVEL`, its pips 235, 0.14 of the top: named white)
        colour = "unknown"
    if colour == "white" and face is None and _tinted_shade(square, tones):
        colour = "unknown"  # a coloured die under a glint, its colour in its shade
    if colour == "unknown" and face is not None and _black_by_its_pips(body_colour, floor,
                                                                      tones):
        colour = "black"  # a grey body under white pips: a lit black die
    return DieReading(face, colour, centre, side, score, None, square, pitch)


SMALL_DIE = 34.0  # px across: a die this small has its pips' contrast taken back (`_sharpened`)
SHARPEN = 1.0  # how much of the blur taken back: the square plus this much of its detail


def _sharpened(square: np.ndarray) -> np.ndarray:
    """A squared-up top (CANON px) with its detail (the square less its blur, sigma 2 of
    CANON px: a small die's pip, squared up, is 8-10) made stronger by `SHARPEN`."""
    blurred = cv2.GaussianBlur(square, (0, 0), 2.0)
    return cv2.addWeighted(square, 1.0 + SHARPEN, blurred, -SHARPEN, 0.0)


def _read_blob(image: np.ndarray, points: np.ndarray, grown: int, typical: float,
               pixels: float | None = None, taught: Sequence = (), square: bool = True
               ) -> DieReading | None:
    """One die's blob (eroded by ``grown`` px; ``points`` its pixels or its outline, then
    ``pixels`` its pixel count and ``square`` whether it is a rounded square, `_Blob.square`):
    squared up and read, or unreadable when its shape is not a die lying flat (a cocked die
    shows a side: the wrong size or shape); None when it is no rounded square at all."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
    area = (len(points) if pixels is None else pixels) if grown == ERODE else (rw * rh)
    rw, rh = rw + 2 * grown - EDGE_BLUR, rh + 2 * grown - EDGE_BLUR
    aspect = max(rw, rh) / max(1.0, min(rw, rh))
    if aspect > 1.45 or (pixels is not None and not square):
        if pixels is not None and aspect <= 1.15 and 0.9 <= (rw + rh) / 2 / (
                np.sqrt(typical) + 2 * ERODE) <= 1.15:
            # large pips as dark as the floor bite a die's outline into a star: a die
            # if its square reads a face. A one too (seventh session: a purple one on a
            # pale table, seed 18, its faint blob dented by its side's shade), unless a
            # three's or five's middle (`_middle_of_more`, as below)
            reading = _read_square(image, ((cx, cy), (rw, rh), angle), (), retry=False,
                                   wanted=lambda face: face is not None)
            if reading is not None and _sure_or_counted(
                    image, reading, ((cx, cy), (rw, rh), angle),
                    np.sqrt(typical) + 2 * ERODE) and not (
                    reading.face == 1 and _middle_of_more(
                        image, (cx, cy), np.sqrt(typical) + 2 * ERODE, rw, rh, angle)):
                return reading
        return None  # no square at all: grain, glare, a shadow's edge
    wrong_size = grown == ERODE and not 0.6 * typical <= area <= 1.45 * typical
    side = np.sqrt(typical) + 2 * ERODE  # the dice's side, px
    if aspect > 1.2 or wrong_size:  # a die on edge, cocked: seen, not read, if marked
        if max(rw, rh) > 1.45 * side:
            return None  # longer than a die's diagonal: a patch of floor, grain
        top = _top_beside_a_side(image, (cx, cy), (rw, rh), angle, side)
        if top is None and max(rw, rh) < SMALL_BLOB * side:
            top = _one_on_a_small_blob(image, (cx, cy), angle, side)
        if top is None and (rw + rh) / 2 >= CORNER_ALONE * side:
            top = _alone_corner(image, (cx, cy), (rw, rh), angle, side)
        if top is not None:
            return top
        if not _marked(_square_up(image, ((cx, cy), (rw, rh), angle))):
            return None
        return DieReading(None, "unknown", (float(cx), float(cy)), float((rw + rh) / 2), 0.0)
    reading = _read_square(image, ((cx, cy), (rw, rh), angle), taught)
    if reading is not None and reading.face == 6 and reading.die is None and (
            aspect > SIDE_ASPECT and reading.score < BESIDE_SIX_SURE):
        reading = replace(reading, face=None, score=0.0)  # a four and its side's two pips
    if reading is not None and reading.face is not None and reading.die is None and (
            aspect > SIDE_ASPECT and not _sure_or_counted(
                image, reading, ((cx, cy), (rw, rh), angle), side)):
        reading = replace(reading, face=None, score=0.0)  # a top's pips and its side's read as one
    if reading is not None and reading.face is not None and reading.die is None and (
            (rw + rh) / 2 > OVER_SIDE * side and reading.score < OVER_SURE):
        # a square this much larger than a die holds its top and a side: its face, read
        # unsure, is not the top's as read; a square of the dice's side at its end or
        # corner may be
        top = _top_beside_a_side(image, (cx, cy), (rw, rh), angle, side)
        reading = top if top is not None else replace(reading, face=None, score=0.0)
    elif reading is not None and reading.face is not None and reading.die is None and (
            (rw + rh) / 2 > OVER_SIDE * side and _outread(
                reading, _corner_reads(image, (cx, cy), (rw, rh), angle), OVER_AHEAD)):
        # read sure on such a square, but a corner's square reads another face nearly as sure
        # (`OVER_AHEAD`): neither taken (the corner's a side's pip), the blob left unread
        return replace(reading, face=None, score=0.0)
    if reading is not None and reading.face is not None and reading.die is None and (
            reading.score < OUTREAD_UNDER and _outread(
                reading, _corner_reads(image, (cx, cy), (rw, rh), angle))):
        # a square read unsure, its surest corner's square surer of another face: the blob
        # holds a top and two sides seen at a corner, a die smaller than its neighbours
        # (`OUTREAD_UNDER`); its corners are then read as any unread blob's
        reading = replace(reading, face=None, score=0.0)
    if reading is None or (reading.face is None and reading.die is None):
        top = _lit_top(image, points, grown, rw, rh) if reading is not None else None
        if top is None:  # a one seen with its side: its top at a corner of the blob
            top = _corner_top(image, (cx, cy), (rw, rh), angle, side)
        if top is not None:
            reading = top
    if reading is not None and reading.face == 1 and reading.die is None and (
            _middle_of_more(image, (cx, cy), side, rw, rh, angle)):
        return replace(reading, face=None, score=0.0)
    return reading


OVER_SIDE = 1.15  # of the dice's side: a blob's square this much larger is a top and a side
# seen together, its face as read not taken (thirteenth session: 28 px seed 1323, a white four
# seen with a side, its square 1.19 of the dice's side, read 6 at 0.005; seed 1359 at the
# renderer's sizes, a red two seen with a side, 1.19, read 1 at 0.06). A large die among smaller
# ones is as large against their size: seed 1303 at the renderer's sizes, a blue six of 43 px
# among dice of 38, its square 1.17 of that, read right at 0.76 (`OVER_SURE`)
OVER_SURE = 0.3  # the score under which a face read on such a square is not taken

OUTREAD_UNDER = 0.3  # the score under which a face read on a blob's square is not taken when
# a square at one of the blob's corners (`_corner_reads`) reads another face, scoring more
# (session 88: dev seeds 1540-1599 at the renderer's sizes, dice smaller than their tray's
# others seen at a corner, top and two sides in a blob of the dice's side: seed 1593's yellow
# one read a two at 0.14, its corner a one at 0.95; seed 1590's green two read a one at 0.21,
# its corners a two at 0.74 and a one at 0.35. Of the 59 faces read under 0.35 so on
# 1420-1599 at the renderer's sizes, those two alone had a corner reading another face:
# notes s88/i64b/lowblob2.py; at 28 px on 1540-1599 one more, a four kept by `_outread`)


OVER_AHEAD = 0.25  # a face read at `OVER_SURE` or more on a square `OVER_SIDE` larger than a die
# is not taken when its surest corner reads another face scoring less by under this (session 89:
# held-out 1600-1659 at 28 px, seed 1623's table, the dice's side taken as 22.4 px for dice of
# 28: a green four's faint blob with its side, 1.28 of that side, read a two at 0.51, its corner
# a one at 0.47: notes s89/i64/trace1623.py)


def _outread(reading: DieReading, corners: list[DieReading], ahead: float = 0.0) -> bool:
    """The surest of ``corners`` reads another face than ``reading``, scoring more (less by
    under ``ahead``) (the surest: seed 1589 at 28 px, a purple four read 4 unsure, its
    corners 1 at 0.5 and 4 at 0.6, stays read)."""
    surest = max(corners, key=lambda die: die.score, default=None)
    return surest is not None and surest.face != reading.face and (
        surest.score > reading.score - ahead)


SIDE_ASPECT = 1.1  # a blob this much longer than wide may hold a side beside its top: a six
# read on it must score `BESIDE_SIX_SURE` (tenth session: 28 px black fours with a side,
# seeds 1065 and 1135, their hull-filled blobs 1.19 long read sixes at 0.01 and 0.05; on the
# 528 cached trays no face read right was lost by it)

SIDE_SURE = 0.12  # the score a face read on a blob's whole square must reach when the blob
# holds a side (longer than `SIDE_ASPECT`, or no rounded square: the star path) (session 91:
# dev seeds 1720-1779, seed 1727 at 28 px, a blue four beside its side read 2 at 0.10 (now read
# 4 by another pass); seed 1751 at the renderer's sizes, a green four and its side read 1 at
# 0.06 (4 pip spots on its blob), now unread. The floor alone lost three ones read right
# under it (1430 and 1483 at the renderer's sizes, long blobs, 0.04 and 0.08; 1594 at 28 px, a
# star, 0.015), each blob showing one pip spot: `_sure_or_counted` keeps a face whose blob shows
# as many spots as its pips. notes s91/i64/trial.py, lowside.py, onespots.py, out/t4-t6/)


def _sure_or_counted(image: np.ndarray, reading: DieReading, rect, side: float) -> bool:
    """A face read on a blob's whole square ``rect`` that holds a side is taken at
    `SIDE_SURE` or more, or, less sure, when the blob's square (at least the dice's ``side``;
    `_spots_in`'s middle 0.8) shows as many pip spots as the face has pips."""
    if reading.score >= SIDE_SURE:
        return True
    (cx, cy), (rw, rh), angle = rect
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    whole = ((cx, cy), (max(rw, side) / 0.8, max(rh, side) / 0.8), angle)
    return _spots_in(gray, whole, side * side) == reading.face


TOP_SHARE = (0.55, 0.92)  # of the blob's square's area the lit top's square covers: a side
# beside the top takes a tenth to two fifths of a blob seen obliquely (independent renderer)


def _lit_top(image: np.ndarray, points: np.ndarray, grown: int, rw: float, rh: float
             ) -> DieReading | None:
    """A die seen obliquely, its blob of a die's shape but its top and a side together
    (unread: the pips lie off the square's middle): the top is lit brighter than the side
    beside it (or darker, the light behind). The blob's pixels split in two tones (Otsu),
    each tone's largest piece (pips filled) a square of `TOP_SHARE` of the blob's, read;
    kept only when one tone reads a face."""
    pts = points.reshape(-1, 2)
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0) + 1
    h, w = image.shape[:2]
    x0, y0 = max(0, int(x0) - grown), max(0, int(y0) - grown)
    x1, y1 = min(w, int(x1) + grown), min(h, int(y1) + grown)
    blob = np.zeros((y1 - y0, x1 - x0), np.uint8)
    if len(pts) > 4 and cv2.contourArea(points) > 0:
        cv2.drawContours(blob, [points - (x0, y0)], -1, 1, cv2.FILLED)
    else:
        blob[pts[:, 1] - y0, pts[:, 0] - x0] = 1
    # the pips smoothed away (a small die's are 3-5 px): the two tones are the top and side
    gray = cv2.medianBlur(cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY), 5)
    values = gray[blob > 0]
    if len(values) < 30:
        return None
    split, _ = cv2.threshold(values.reshape(1, -1), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    whole = rw * rh
    read = []
    for lit in (gray > split, gray <= split):
        tone = (lit & (blob > 0)).astype(np.uint8)
        tone = cv2.morphologyEx(tone, cv2.MORPH_CLOSE, _SQUARE, iterations=2)  # pips in
        count, labels, stats, _ = cv2.connectedComponentsWithStats(tone, connectivity=4)
        if count < 2:
            continue
        main = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        (tx, ty), (tw, th), turn = cv2.minAreaRect(cv2.findNonZero(
            (labels == main).astype(np.uint8)))
        # grown back by half the erosion: eroded along the blob's outline, not against the side
        size = (tw + grown - EDGE_BLUR, th + grown - EDGE_BLUR)
        if not TOP_SHARE[0] * whole <= size[0] * size[1] <= TOP_SHARE[1] * whole or (
                max(tw, th) > 1.2 * min(tw, th)):
            continue
        die = _read_square(image, ((tx + x0, ty + y0), size, turn), ())
        if die is not None and die.face is not None:
            read.append(die)
    return read[0] if len(read) == 1 else None


CORNER_TOP = 0.8  # of the blob's shorter side: the top's side, sought at the blob's corners
CORNER_AROUND = 1.3  # of the top: the square round a one read there whose pip spots are
# counted (`_spots_in`, its middle 0.8): a one's top holds one, a four's corner pip has its
# neighbours 0.5 of the top away (sixth session: seed 24 at 28 px, a white four whose
# corner square read a one counted 2; the 18 oblique ones read so, 1 each)


def _corner_top(image: np.ndarray, centre: tuple[float, float], size: tuple[float, float],
                angle: float, side: float = 0.0) -> DieReading | None:
    """A one seen obliquely (issue 64, sixth session): its blob is a die's size and shape,
    but the top and a side together, and the side's pips in its square leave it unread
    (independent renderer at 28 px: 12 of the 30 dev dice unread were such squares, 7
    of them ones). Its top is a square `CORNER_TOP` of the blob's at one of its corners:
    every corner is read, and a one kept only when no corner reads another face and no
    other pip lies round it (`CORNER_AROUND`). Another face (seventh session) is kept only
    when the corners that read agree and the whole blob shows as many pip spots
    (`_spots_in`) as it has pips: a five's corner read as a two or a four (seed 37 at 28
    px and at the renderer's sizes, the light lid's throw 9 at 28 px) shows more or fewer
    (1, 5, 7), about half the faces read right there show their count (docs/camera.md,
    seventh session); a face read at `CORNER_SURE` or more is taken without the count
    (session 87). The dice read so were unread before on the renderer's sizes and the
    tuned families; none at 28 px, where the other passes read them already."""
    (cx, cy), (rw, rh) = centre, size
    top = CORNER_TOP * min(rw, rh)
    read = _corner_reads(image, centre, size, angle)
    faces = {die.face for die in read}
    if len(faces) != 1:
        return _sure_corner(read, size, side)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if faces != {1}:  # another face: as many pip spots on the whole blob as it has pips,
        # or on the dice's ``side`` round it, when the blob is smaller (`_spots_in` counts in
        # its middle 0.8): a blob smaller than a die is a part of its top, whose other pips
        # lie beyond it (twelfth session: seed 1270 at 28 px, a blue four's blob 0.86 of the
        # dice's side, its corner square 0.69 of it read as a two, 2 spots on the blob, 4 on
        # the die's square)
        whole = ((cx, cy), (max(rw, side) / 0.8, max(rh, side) / 0.8), angle)
        sure = max(read, key=lambda die: die.score)
        if sure.score < CORNER_LEAST:
            return None  # read unsure at every corner: the count alone is not trusted
        if _sure_corner(read, size, side) is not None:
            return sure  # a top and its side: the side's pips add spots
        if _spots_in(gray, whole, top * top) != read[0].face:
            return None
        return read[0]
    # only spots as dark (or light) as the one's pip: a die's pips are all one or the other,
    # and a black one's side shows shade as dark spots beside it (eighth session)
    middle = (read[0].centre, (ONE_PIP * top, ONE_PIP * top), angle)
    pip = [hat for hat in HATS if _spots_in(gray, middle, top * top, (hat,))]
    around = (read[0].centre, (CORNER_AROUND * top, CORNER_AROUND * top), angle)
    if _spots_in(gray, around, top * top, pip if len(pip) == 1 else HATS) > 1:
        return None  # a pip of more beside it: a four's or a six's corner
    return read[0]


def _sure_corner(read: list[DieReading], size: tuple[float, float], side: float
                 ) -> DieReading | None:
    """The surest of the faces ``read`` at a blob's corners, taken without its pip spots
    counted: read at `CORNER_SURE` or more, not a one, on a blob the dice's ``side`` or more
    both ways and `CORNER_OVER` larger (a top and its side), or at one corner alone
    (`_alone`, session 90; at `ALONE_SURE`, session 91), every other face read there
    `CORNER_AHEAD` less sure; else None."""
    sure = max(read, key=lambda die: die.score, default=None)
    alone = _alone(read, size, side)
    if sure is None or sure.face == 1 or sure.score < (ALONE_SURE if alone else CORNER_SURE):
        return None
    if (min(size) < side or sum(size) / 2 <= CORNER_OVER * side) and not alone:
        return None
    if any(die.face != sure.face and die.score > sure.score - CORNER_AHEAD for die in read):
        return None
    if sum(size) / 2 <= OVER_SIDE * side and sum(die.face == sure.face for die in read) > 1:
        return None  # a top seen straight, the blob hardly larger: a four's corners read twos
    return sure


def _alone(read: list[DieReading], size: tuple[float, float], side: float) -> bool:
    """One corner alone of a blob at least the dice's ``side`` (`CORNER_ALONE`) reads a face
    (``read``: `_corner_reads`'), the other three none: a top seen at that corner, its sides
    beside it in the rest of the blob."""
    return len(read) == 1 and sum(size) / 2 >= CORNER_ALONE * side


def _alone_corner(image: np.ndarray, centre: tuple[float, float], size: tuple[float, float],
                  angle: float, side: float) -> DieReading | None:
    """The face read at one corner alone (`_alone`) of a blob too long for a die's top, at
    `ALONE_SURE` or more and not a one (`_corner_top` counts a one's neighbours; here none):
    `_sure_corner`'s rule, whose other checks a lone reading passes."""
    read = _corner_reads(image, centre, size, angle)
    return _sure_corner(read, size, side) if _alone(read, size, side) else None


CORNER_OVER = 1.05  # of the dice's side: a blob's square larger than this may hold a top and a
# side for `_sure_corner` (session 89: dev dice at 28 px whose blobs held top and side, the
# dice's side itself taken from such blobs: seed 1554's black six 1.13, seed 1578's black three
# 1.08, 1559, 1567, 1569 at 1.09-1.13, read right at one corner at 0.78-0.94, unread before
# under `OVER_SIDE`; photo_r2_c2 of the 24 photographs, a four seen close, 1.026, three corners
# read a two at 0.86-0.88: notes s89/i64/cornersure.py, photos_c.py). Between `OVER_SIDE` and
# it, the face must be read at one corner only (the top lies at one)
CORNER_ALONE = 0.95  # of the dice's side: a blob's square this large or more, under `CORNER_OVER`
# or too long for a top (`_alone_corner`), whose corners read a face at one corner alone, the
# others none, takes that face at `CORNER_SURE` (session 90: dev seeds 1600-1659, the dice's
# side taken from blobs holding top and sides, 1.3-1.5 of the tops: seed 1624's white two at
# the renderer's sizes 1.028, its corner 2 at 0.78; 1652's six 1.036, 6 at 0.71; 1641's two at
# 28 px 1.024, 2 at 0.91: notes s90/i64/trace_blob.py, corner_reads.py. photo_r2_c2's four
# seen close, 1.026, reads a two at three corners: not alone). 0.95 since session 91: seed
# 1669's green three at the renderer's sizes (wood), blob 41.5 x 35.9, 0.97 of the side (39.9),
# one corner alone 3 at 0.88, and seed 1386's orange five (1360-1419, lid); no other die
# changed on the dev seeds 1360-1779 at 28 px and the renderer's sizes, none read wrong
# (bench/dice_independent.py --against 6207e1d3: notes s91/i64/out/b2/; per die out/t3/).
# Seed 1270's four at 0.86 of the side read a two at a corner: keep it over 0.9
ALONE_SURE = 0.6  # the score a face read at one corner alone (`_alone`) must reach, under
# `CORNER_SURE`: no other corner reads a face to be told from (session 91: dev seed 1628's white
# six at the renderer's sizes read so at 0.61-0.64, 1649's white four at 28 px, 1650's yellow
# five, 1624's blue six at 28 px; none read wrong at 0.6 on the dev seeds 1360-1719 at 28 px
# and the renderer's sizes: notes s91/i64/trial.py, out/t1/)
CORNER_AHEAD = 0.25  # another face read at a corner of the blob less sure than the surest by
# less than this leaves the blob unread (session 89: seed 1554's black four, its corners 4 at
# 0.71 and 1 at 0.43; seed 1598's black two, 2 at 0.87 and 1 at 0.69, stays unread)


def _corner_reads(image: np.ndarray, centre: tuple[float, float], size: tuple[float, float],
                  angle: float) -> list[DieReading]:
    """The faces read on squares `CORNER_TOP` of a blob's shorter side at its corners."""
    (cx, cy), (rw, rh) = centre, size
    top = CORNER_TOP * min(rw, rh)
    ex, ey = (rw - top) / 2, (rh - top) / 2
    turn = np.radians(angle)
    u, v = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    read = []
    for dx, dy in {(sx * ex, sy * ey) for sx in (-1, 1) for sy in (-1, 1)}:
        x, y = np.array([cx, cy]) + dx * u + dy * v
        # the floor round the whole blob: round the corner's square lie the die's own sides
        # (session 90: dev seed 1453 at the renderer's sizes, an orange four on wood, its
        # corner's ring the orange side in shade, 33, 62, 117 (BGR), its colour "unknown")
        die = _read_square(image, ((float(x), float(y)), (top, top), angle), (), retry=False,
                           wanted=lambda face: face is not None,
                           around=((float(cx), float(cy)), float(max(rw, rh))))
        if die is not None and die.face is not None:
            read.append(die)
    return read


CORNER_LEAST = 0.2  # the score a face other than a one read at a corner must reach at one
# corner at least, its spots counted or not (session 88: dev seed 1484 at the renderer's
# sizes, a white five seen with a side, its pips 3-4 px, under `_spots_in`'s smallest spot:
# its corners read a two at 0.04-0.13, 2 spots counted, and the two was taken; seed 37's five
# read a two at 0.05 and 0.13. Read right so: the tuned held_out family's cocked five at
# (152, 265) at 0.27, unread at 0.3 (bench/dice_camera.py --throws 6: 58 -> 57 dice read
# there); on dev seeds 0-59, 1420-1479 and 1480-1539 at the renderer's sizes and 1480-1539
# at 28 px, 77 faces, best 0.49-0.98, notes s88/i64/corners2.py. Between 0.13 and 0.27)
CORNER_SURE = 0.7  # the score at which a face read at a corner (the corners that read
# agreeing) is taken without its pip spots counted on the blob: a side's pips beside the top
# add spots (session 87, notes s87/i64/corners.py on dev seeds 1420-1462 and 0-8 at the
# renderer's sizes: 12 dice whose corners read their right face, best 0.73-0.97, refused
# so, the blob showing 3 spots for a two, 4 for a three, 5 or 7 for a four, 6 for a five, 5
# for a six; no corner read a wrong face alone there; seed 37's white five at 28 px, a case
# the count was for, reads a two at 0.05 and 0.13). Only on a blob the dice's side or more
# both ways and `OVER_SIDE` larger (a top and a side): seed 1270 at 28 px, a blue four's
# blob 0.86 of the side, its corner read a two at 0.87 (tests/hardware/test_dice_heldout_1240
# .py); photo_r2_c2 of the 24 photographs, a four seen close (its blob the dice's size), a
# corner read a two at 0.88 (bench/dice_camera.py)


ONE_PIP = 0.5  # of the top: the square round a one's middle (its middle 0.8 counted) whose
# spot, dark or light, is the one's pip: its neighbours in a four lie 0.5 of the top away


SMALL_BLOB = 0.9  # of the dice's side: a blob this small, unread, may be a black one's lit middle


def _one_on_a_small_blob(image: np.ndarray, centre: tuple[float, float], angle: float,
                         side: float) -> DieReading | None:
    """A one on a blob smaller than the dice: a square of the dice's side round the blob,
    kept when it reads a one with no pip like its own round it (as `_corner_top`)."""
    one = _read_square(image, (centre, (side, side), angle), (), retry=False,
                       wanted=lambda face: face == 1)
    if one is None or one.face != 1:
        return None
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    top = side
    middle = (one.centre, (ONE_PIP * top, ONE_PIP * top), angle)
    pip = [hat for hat in HATS if _spots_in(gray, middle, top * top, (hat,))]
    around = (one.centre, (CORNER_AROUND * top, CORNER_AROUND * top), angle)
    if _spots_in(gray, around, top * top, pip if len(pip) == 1 else HATS) > 1:
        return None
    if _middle_of_more(image, centre, side, side * SMALL_BLOB, side * SMALL_BLOB, angle):
        return None
    return one


THIN_SIDE = 0.08  # of the top's side: how far its square lies from the blob's middle, at
# least, where a side shows beside it (nearer, the blob is the top)


def _top_beside_a_side(image: np.ndarray, centre: tuple[float, float], size: tuple[float, float],
                       angle: float, side: float) -> DieReading | None:
    """`_beside`; where it reads nothing and the blob is narrower than a die (`SHORT_TOP`),
    `_beside` again with the blob's shorter side for the dice's: the dice's side was taken
    from blobs holding sides too, and the top is as wide as the blob."""
    top = _beside(image, centre, size, angle, side)
    short = min(size)
    if top is None and SHORT_TOP * side <= short < 0.85 * side:
        top = _beside(image, centre, size, angle, short)
    return top


def _beside(image: np.ndarray, centre: tuple[float, float], size: tuple[float, float],
            angle: float, side: float) -> DieReading | None:
    """A die seen obliquely (off the camera's axis, or under a tilted camera) shows one or
    two of its sides beside its top: its blob is longer than a die, or larger. Its top is a
    square of the die's side at one end or corner of the blob: every such square is read,
    and the face is kept only when those that read one agree (a square over a side and
    half the top must not win over the top)."""
    (cx, cy), (rw, rh) = centre, size
    short = min(rw, rh)
    top = short if 0.85 * side <= short <= 1.15 * side else side
    ex, ey = max(0.0, (rw - top) / 2), max(0.0, (rh - top) / 2)
    if ex < THIN_SIDE * top and ey < THIN_SIDE * top:
        return None  # no side beside it: the blob is the top
    turn = np.radians(angle)
    u, v = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    read = []
    for dx, dy in {(sx * ex, sy * ey) for sx in (-1, 1) for sy in (-1, 1)}:
        x, y = np.array([cx, cy]) + dx * u + dy * v
        die = _read_square(image, ((float(x), float(y)), (top, top), angle), (),
                           wanted=lambda face: face is not None)
        if die is not None and die.face is not None:
            read.append(die)
    if not read or len({die.face for die in read}) > 1:
        return None
    if read[0].face == 6 and read[0].score < BESIDE_SIX_SURE:
        return None  # a square over two sides' pips: their rows unequal, a poor six
    return read[0]


SHORT_TOP = 0.7  # of the dice's side: a blob's shorter side this long and under 0.85 of it
# is its top's, where no square of the dice's side at its ends reads a face (session 89: dev
# seed 1484 at 28 px on felt, dice seen obliquely, the dice's side taken as 35.7 from blobs
# holding sides, tops 28-31; a black two's grey-mask blob 34 x 26 read right so, unread
# before; notes s89/i64/beside_short.py)


BESIDE_SIX_SURE = 0.4  # the score a six read beside a side must reach (eighth session: seed
# 1126 at the renderer's sizes, a square over an orange five's two sides read a six at 0.33;
# the sixes read right so on the 528 cached trays score 0.47 and more, the other faces 0.40)


TURNS = (0.0, 15.0, 30.0, 45.0, 60.0, 75.0)  # degrees: a square tried at each, no side known


def _middle_of_more(image: np.ndarray, centre: tuple[float, float], side: float,
                    rw: float, rh: float, angle: float = 0.0) -> bool:
    """A one read on a blob smaller than the dice (``rw`` by ``rh`` against their ``side``:
    a white die on a light lid standing out only in its middle) may be a three's or five's
    middle pip, its corners beyond the blob: a square of the dice's side round it, at any
    turn (`TURNS`: the blob's own may be off), reads that three or five. On a blob of the
    dice's size too: a blob rounder than a die's top (held-out independent seed 1026, a red
    five on a lid, its blob 31 px of 37) gives its square any turn, and one turned 45
    degrees sees a five's corner pips at its sides' middles, beyond the pips' circle (read
    as a one): a square of the blob's size turned 45 degrees off the blob's (``angle``)
    reads the five. Only a five there: a one seen obliquely shows its sides' pips beyond
    its top, and a square round it takes one of them and a corner's for a three's (seeds
    1007, 1021 at 28 px: two ones lost); a five's four corners no side gives."""
    faces, least, turns = (3, 5), 0.0, TURNS
    if (rw + rh) / 2 >= 0.9 * side:  # only the turn 45 degrees off the blob's: with every
        # turn tried a roll cost 1.14-1.20 of 77bc3e8's, with this one 0.97-1.03
        # (bench/dice_camera.py --cpu-against 77bc3e8 --throws 8, load 10-15)
        side, faces, least, turns = (rw + rh) / 2, (5,), FIVE_SURE, (angle + 45.0,)
    for turn in turns:
        more = _read_square(image, (centre, (side, side), turn), (), retry=False,
                            wanted=lambda face: face in faces)
        if more is not None and more.score >= least:
            return True
    return False


FIVE_SURE = 0.7  # the score a five read round a one on a blob of the dice's size must reach:
# seed 1026's five 0.83; fives read round true ones 0.45-0.50 (tuned families at 28 and 44
# px, dark felt throw 3 at 44 px a yellow one left unread by it)


def _pip_spots(gray: np.ndarray, blob: _Blob, typical: float) -> int:
    """How many pip-like spots (dark or light, round, smaller than a pip can be; as
    `_local_pips` finds them) lie on the blob: a block of dice pressed together shows one
    at least a die, a brighter patch of floor none."""
    h, w = blob.filled.shape
    return _spots(gray[blob.y:blob.y + h, blob.x:blob.x + w], blob.filled, typical)


def _spots_in(gray: np.ndarray, rect, typical: float, hats: Sequence[int] = ()) -> int:
    """`_pip_spots` in a die's square (a minimum-area rectangle) seen with its surroundings,
    counting the spots centred in its middle 0.8, where a die has its pips (a neighbour's
    pip near its side is not one)."""
    (cx, cy), (w, h), angle = rect
    box = cv2.boxPoints(rect)
    margin = int(np.sqrt(typical) * 0.5) + 2
    x0, y0 = np.maximum(np.floor(box.min(axis=0)).astype(int) - margin, 0)
    x1, y1 = np.ceil(box.max(axis=0)).astype(int) + margin
    middle = cv2.boxPoints(((cx - x0, cy - y0), (0.8 * w, 0.8 * h), angle))
    return _spots(gray[y0:y1, x0:x1], None, typical, middle, hats or HATS)


def _spots_on(image: np.ndarray, rect, typical: float) -> int:
    """`_spots_in` in a die's square of the colour ``image``, only its surroundings made grey."""
    box = cv2.boxPoints(rect)
    margin = int(np.sqrt(typical) * 0.5) + 2
    x0, y0 = np.maximum(np.floor(box.min(axis=0)).astype(int) - margin, 0)
    x1, y1 = np.ceil(box.max(axis=0)).astype(int) + margin
    gray = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    (cx, cy), size, angle = rect
    return _spots_in(gray, ((cx - x0, cy - y0), size, angle), typical)


HATS = (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT)  # spots darker, lighter than round them


def _spots(crop: np.ndarray, inside: np.ndarray | None, typical: float,
           middle: np.ndarray | None = None, hats: Sequence[int] = HATS) -> int:
    """Round spots (`_pip_spots`) in ``crop``: on its ``inside`` pixels, or centred in the
    polygon ``middle``; dark ones, light ones or both (``hats``)."""
    size = max(5, int(0.4 * (np.sqrt(typical) + 2 * ERODE)) | 1)
    kernel = np.ones((size, size), np.uint8)
    smallest = 8 if middle is None else max(8.0, 0.015 * typical)  # 2/3 of a small pip
    found = 0
    for hat in hats:
        spots = cv2.compare(cv2.morphologyEx(crop, hat, kernel), LOCAL_PIP[0], cv2.CMP_GT)
        if inside is not None:
            spots &= inside * 255
        count, _, stats, centres = cv2.connectedComponentsWithStats(spots, connectivity=8)
        w_, h_, area = (stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT],
                        stats[1:, cv2.CC_STAT_AREA])
        round_ = ((area >= smallest) & (area <= 0.15 * typical) & (area >= 0.5 * w_ * h_)
                  & (np.maximum(w_, h_) <= 1.6 * np.minimum(w_, h_)))
        if middle is not None:  # a die's own pips, not a speck
            round_ &= np.array([cv2.pointPolygonTest(middle, (float(x), float(y)), False) >= 0
                                for x, y in centres[1:]], bool).reshape(-1)
        found += int(round_.sum())
    return found


def _read_mask(image: np.ndarray, blobs: list[_Blob], typical: float, taught: Sequence,
               gray: Callable[[], np.ndarray] | None = None) -> list[DieReading]:
    """The dice of these blobs. ``gray``: the image in grey, when asked (made here if not
    given: most trays need none here)."""
    gray = gray or _Once(lambda: cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    dice = []
    for blob in blobs:
        area = blob.area
        if not 0.5 * typical <= area <= PATCH * typical:
            continue  # a crumb, a speck of glare; a cup (a hand reaches from the wall)
        many = int(round(area / typical))
        if many < 2:
            trimmed = _trimmed(blob, typical)
            if trimmed is not None:  # a neighbour's corner joined by a thin bridge
                dice.append(_read_blob(image, *trimmed, typical, taught=taught))
                continue
            dice.append(_read_blob(image, blob.outline, ERODE, typical, area, taught,
                                   blob.square))
            continue
        if not _solid(blob):
            # dice touching at an angle (or a shadow, grain joined on) fill no hull: their
            # parts, kept only when read, as grain and shadows read no face
            dice += [d for part, grown in _split(blob.pixels(), typical, gray()) or ()
                     for d in _read_part(image, part, grown, typical, taught)
                     if d is not None and (d.face is not None or d.die is not None)]
            continue
        halves = _halves(blob.outline, many) if many <= 3 else None
        if halves:  # dice side by side, a clean 2:1 (3:1) rectangle: cut in squares
            side = np.sqrt(typical) + 2 * ERODE
            for rect in halves:
                # a half much larger than a die (`HALF_OVER`) holds a top and its side: its
                # smaller square (`SHRINK`) may take the side's drawn-out pips for a top's
                die = _read_square(image, rect, taught,
                                   retry=sum(rect[1]) / 2 <= HALF_OVER * side)
                # unread, it must show pips: the floor between a wall and a shadow, lit
                # brighter than the floor judged there (rim and shadow in it), shows none
                if die is not None and (die.face is not None or die.die is not None
                                        or _spots_in(gray(), rect, typical)):
                    dice.append(die)
            continue
        cut = []
        (_, _), (rw, rh), _ = cv2.minAreaRect(blob.outline)
        row = int(round((max(rw, rh) + 2 * ERODE) / (min(rw, rh) + 2 * ERODE)))
        if row != many and 2 <= row <= 3 and area <= 1.4 * row * typical:
            # dice in a row keep less seam, so more area, than lying apart: cut by shape
            cut = [d for d in (_read_square(image, rect, taught)
                               for rect in _halves(blob.outline, row) or ())
                   if d is not None and d.face is not None]
        parts = _split(blob.pixels(), typical, gray())
        if parts is None and cut:
            dice += cut
            continue
        if parts is None:  # dice pressed together: seen, not read
            if blob.area < 0.85 * (rw + 1) * (rh + 1):
                continue  # no block of dice: glare, a shadow's edge
            if _pip_spots(gray(), blob, typical) < many:
                continue  # no die's pips on it: a lamp's light on the floor
            cx, cy = blob.pixels().reshape(-1, 2).mean(axis=0)
            dice += [DieReading(None, "unknown", (float(cx), float(cy)),
                                float(np.sqrt(typical)), 0.0)] * many
            continue
        dice += _agreed([d for part, grown in parts
                         for d in _read_part(image, part, grown, typical, taught)], cut)
    return [d for d in dice if d is not None]


HALF_OVER = 1.23  # of the dice's side: a half of a blob of dice side by side this much larger
# is read without the SHRINK retry (eighth session: seed 1148 at the renderer's sizes, a
# yellow four seen with its side and joined to a red die, its half 1.29 of the dice's side,
# read as a five; the halves read on the 528 cached trays are 1.17 of it at most otherwise)


def _read_part(image: np.ndarray, part: np.ndarray, grown: int, typical: float,
               taught: Sequence) -> list[DieReading | None]:
    """A part `_split` made of a blob of dice, read as a die; unread, and two dice long
    (two dice in a row whose seam the split did not find: of one colour, or lit alike),
    cut in two squares, those read with a face kept."""
    die = _read_blob(image, part, grown, typical, taught=taught)
    if die is None or (die.face is None and die.die is None):
        cut = [d for d in (_read_square(image, rect, taught)
                           for rect in _halves(part, 2, grown) or ())
               if d is not None and d.face is not None]
        if cut:
            return cut
    return [die]


def _agreed(parted: list[DieReading | None], cut: list[DieReading]) -> list[DieReading | None]:
    """Dice of one blob read two ways (``parted`` by its bright cores, ``cut`` into squares
    by its shape): a die read only one way, or unread the other, is kept; read as two
    faces, it is unreadable (a wrong face is worse than none)."""
    parted = list(parted)
    for die in cut:
        same = [k for k, d in enumerate(parted) if d is not None and np.hypot(
            die.centre[0] - d.centre[0], die.centre[1] - d.centre[1]) <= 0.6 * d.side]
        if not same:
            parted.append(die)
        elif len(same) == 1 and parted[same[0]].face is None:
            parted[same[0]] = die
        elif any(parted[k].face not in (None, die.face) for k in same):
            for k in same:
                parted[k] = replace(parted[k], face=None, score=0.0)
    return parted


LOCAL_PIP = (50.0, 85.0)  # grey levels a pip lies below (or above) the die's body around it


SPARE = 0.75  # of a die: a faint blob larger than the dice read in its box by this much may
# hold another (dice touching join in the faint mask, 2.5-2.8 dice in size for two: those are
# read again at 0.75, a few ms a tray; at 0.9 a green one on a pale table, seed 15, was lost)


def _faint_dice(image: np.ndarray, blobs: list[_Blob], dice: list[DieReading], typical: float,
                taught: Sequence, gray) -> list[DieReading]:
    """``dice`` and the dice the faint mask adds (`die_masks`' ``faint``: a coloured die
    darker than a pale floor is tinted by a share of its own light, fewer levels than
    `TINTED`): each read with a face, where no die was seen, or where only unread ones
    were (its blob, whole in the faint mask, a part of it in the others). ``blobs``: the
    faint mask's: one holding a die read already, and no larger than it by `SPARE`, is
    that die, not read again (most are; all read again cost a third of a roll's CPU). Run
    after every other pass: where any of them read a die, the faint mask adds none."""
    read = [d for d in dice if d.face is not None or d.die is not None]
    blobs = [b for b in blobs if (on := _on(b, read)) == 0 or b.area >= (on + SPARE) * typical]
    dice = list(dice)
    for die in _read_mask(image, blobs, typical, taught, gray):
        if die is None or die.face is None:
            continue
        same = [d for d in dice if np.hypot(die.centre[0] - d.centre[0],
                                            die.centre[1] - d.centre[1]) <= 0.6 * d.side]
        if all(d.face is None and d.die is None for d in same):
            dice = [d for d in dice if all(d is not e for e in same)] + [die]
    return dice


def _on(blob: _Blob, dice: list[DieReading]) -> int:
    """How many of ``dice`` have their centre in the blob's box (a one's pip, a hole in
    its pixels, may lie at its centre)."""
    h, w = blob.filled.shape
    return sum(0 <= d.centre[0] - blob.x < w and 0 <= d.centre[1] - blob.y < h for d in dice)

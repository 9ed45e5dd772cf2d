"""Stage: pips on the tray. Dice found by their pips alone, where a die's body hardly stands
out from its floor: round spots of one size close together, squared up and read.
"""
from __future__ import annotations

import functools
import math
import operator
from collections.abc import Sequence

import cv2
import numpy as np

from .common import _CROSS, _SQUARE, ERODE, DieReading, _components, _median, _median_rows, _scratch
from .pips import PIP_OFFSET
from .squares import LOCAL_PIP, _read_square


def _pip_clusters(image: np.ndarray, dark: np.ndarray, read: Sequence[DieReading] = (),
                  typical: float | None = None, light_body: bool = True, runs: bool = True,
                  components: tuple | None = None) -> list[DieReading]:
    """Dice whose body hardly stands out from their floor (a white die on a light lid, a
    purple one on purple felt), found by their pips (``dark`` ones on a light body, else
    light ones on a dark body: ``light_body``):
    two to six round spots of one size close together make a square (their spread is
    the pips' part of the side), read as any die is; kept only when that square reads as a
    face with nothing where that face has no pip, no other dark spot near (a cocked six
    shows a row of three), and of the dice's size where that is known (``typical``, the
    eroded blob's area). Spots on dice ``read`` already are left. ``runs``: pips run
    together are parted (`_parted_runs`), not where the spots are a die's body cut up by
    its pips (``masks[0]``: its many pieces cost much, and part into no pips).
    ``components``: ``dark``'s, labelled already."""
    count, labels, stats, centroids = components or _components(dark, scratch=True)
    largest = 0.15 * typical if typical else 900  # a pip, not a die
    if runs:
        stats, centroids = _parted_runs(labels, stats, centroids, largest,
                                        max(24.0, 0.03 * typical) if typical else 24.0)
    w, h, area = (stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT],
                  stats[:, cv2.CC_STAT_AREA])
    round_spot = ((area >= 8) & (area <= largest) & (area >= 0.5 * w * h)
                  & (np.maximum(w, h) <= 1.6 * np.minimum(w, h)))
    round_spot[0] = False
    # before those on dice read are left out; with the pieces runs part into, of any size (a
    # six's row of large pips parted in two is no three's company)
    pip_like = round_spot | (np.arange(len(stats)) >= count)
    faced = [d for d in read if d.face is not None]
    pitch = float(_median([d.pitch for d in faced if d.face < 6 and d.pitch > 0] or [0.0]))
    if faced and round_spot.any():
        centres = np.array([d.centre for d in faced], np.float32)
        sides = np.array([d.side for d in faced], np.float32)
        apart = np.hypot(*(centroids[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
        round_spot &= ~(apart < 0.6 * sides).any(axis=1)
    spots = np.flatnonzero(round_spot).tolist()
    if len(spots) < 2 or len(spots) > 60:
        return []
    size = {i: float(np.sqrt(area[i])) for i in spots}
    group = {i: i for i in spots}

    def root(i):
        while group[i] != i:
            i = group[i]
        return i

    # neighbouring pips of a die lie 0.54 of its side apart: small pips, far for their size
    near = 0.58 * (np.sqrt(typical) + 2 * ERODE) if typical else 0.0
    sizes = np.array([size[i] for i in spots])
    at = centroids[spots]
    ratio = sizes[:, None] / sizes[None, :]
    step = at[:, None] - at[None, :]
    reach = np.maximum(near, 3.4 * (sizes[:, None] + sizes[None, :]) / 2)
    linked = (ratio >= 0.5) & (ratio <= 2.0) & (np.hypot(step[..., 0], step[..., 1]) <= reach)
    for a, b in zip(*np.nonzero(np.triu(linked, 1)), strict=True):
        group[root(spots[a])] = root(spots[b])
    clusters: dict[int, list[int]] = {}
    for i in spots:
        clusters.setdefault(root(i), []).append(i)
    groups = list(clusters.values())
    parted, centred = [], []  # centred: groups round a die's middle, parted no further
    if typical:  # pips of dice lying close, linked into one group: parted die by die
        side = np.sqrt(typical) + 2 * ERODE
        for members in [m for m in groups if len(m) > 6]:
            # a six whose large pips spread its rows is wider than a standard six (0.76)
            for reach in (0.8, 0.95):
                parted += [g for g in _part(members, centroids, reach * side)
                           if sorted(g) not in map(sorted, parted)]
            centred += [g for g in _centred(members, centroids, side)
                        if sorted(g) not in map(sorted, parted + centred)]
        parted += centred
        groups += parted
    if typical:  # a two's pips lie a diagonal apart, too far for the link above
        groups += _twos([m[0] for m in groups if len(m) == 1], centroids, size,
                        np.sqrt(typical) + 2 * ERODE)
    dice = []
    tried = [sorted(m) for m in groups]
    for members in groups:  # grows as groups unread are parted
        if not 2 <= len(members) <= 6:
            continue
        before = len(dice)
        points = centroids[members].astype(np.float32)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
        if members in centred and not _die_sized(min(rw, rh), typical):
            continue  # (tested first: grain's spots make many such groups)
        if len(members) in (4, 5) and _rows_of_a_six(dark, points):
            continue  # four pips of a six (two of its rows, the rest hidden), not a four
        spread = min(rw, rh)  # a six's rows may spread further than its columns
        if len(members) <= 3:  # pips on a diagonal: the die's sides lie at 45 degrees
            spread = max(rw, rh) / np.sqrt(2)
            angle += 45
        other = pip_like.copy()  # a blot of another shape is no pip: a neighbour's edge
        other[members] = False
        others = np.flatnonzero(other)
        # nor a spot under half its pips' size (as spots link): a die's edge cut into specks
        others = others[np.sqrt(area[others]) >= 0.5 * _median([size[i] for i in members])]
        # a side's pips, seen obliquely beside the top: drawn out, of the pips' size
        beside = _side_pips(w, h, area, members, area[members].mean()) if len(
            members) <= 3 else np.empty(0, int)
        for offset in (0.25, 0.29, 0.22):  # the pips' part of the side varies between dice
            side = spread / (2 * offset)
            if side < 12:
                break
            low = 0.9 if members in parted else 0.8  # spots of two dice square up small
            if typical and not low <= side / (np.sqrt(typical) + 2 * ERODE) <= 1.3:
                continue
            # a neighbour's pips lie beyond the die's side: only spots within its reach count
            if len(others) and (_reach(centroids[others] - (cx, cy), angle)
                                < 0.62 * side).any():
                break  # more dark spots than its pips: part of another die
            if len(beside) and _side_pip_among(
                    _reach(centroids[beside] - (cx, cy), angle) / side, area[members]):
                break  # a top's pip and a side's, seen obliquely: no two, no three
            reading = _read_square(image, ((cx, cy), (side, side), angle), (), light_body,
                                   False, wanted=functools.partial(operator.eq, len(members)))
            if reading is not None and (
                    not typical or _pitch_fits(reading, typical, pitch)):
                if reading.face == 2 and _side_of_more(image, points, light_body):
                    break
                if reading.face == 6 and reading.score < SIX_SURE:
                    break  # a four's pips and its side's two, foreshortened: rows unequal
                if reading.face is not None and reading.face < 6 and not _one_body(
                        image, points, _median([size[i] for i in members])):
                    break  # spots of two dice: a one's pip and a cocked neighbour's top
                dice.append(reading)
                break
        if typical and len(members) >= 4 and len(dice) == before and members not in centred:
            # unread: a neighbour's pip linked in (dice touching); parted as larger groups
            side = np.sqrt(typical) + 2 * ERODE
            round_middles = _centred(members, centroids, side) if members not in parted else []
            centred += round_middles
            for g in [*_part(members, centroids, 0.8 * side),
                      *_part(members, centroids, 0.95 * side), *round_middles]:
                if sorted(g) not in tried:
                    tried.append(sorted(g))
                    parted.append(g)
                    groups.append(g)
    return dice


SIX_SURE = 0.25  # the score a six read by its pips alone must reach: a four seen with its
# side, the side's two pips foreshortened beside its top's row, fits a six's even rows at
# 0.05-0.16 (independent seeds 1065, 1094, 1135 at 28 px; 1135's black four on a table was
# read as a six); real photographs' white sixes with large pips read so at 0.34-0.46
# (dice-photos r0-r3 c0; at 0.35 r1 c0's was lost), the 165 sixes read so on true sixes of
# the 528 cached trays at 0.48 and more (seventh session, notes s79/i64/wrong/six_scores.txt)


BODY_ONE_COLOUR = 150.0  # B+G+R levels: most the body round one corner pip of a die may
# differ from that round another (dice read by their pips, two to five: at most 80 on 154
# read right, all their pips; a blue one's pip and a spot on an orange die beside it: 300)


def _one_body(image: np.ndarray, points: np.ndarray, size: float) -> bool:
    """The pips (``points``, ``size`` px across) lie on one body: the median colour of a
    thin ring round each corner pip (`BODY_ONE_COLOUR`). Not the middle pip's: on real dice
    (../shared/data/dice-photos) a five's is shaded, 150-280 levels off its corners'."""
    corners = points[np.argsort(-np.hypot(*(points - points.mean(axis=0)).T))[
        :2 if len(points) <= 3 else 4]]
    inner = 0.6 * size + 1.5
    reach = int(np.ceil(inner + 2.5))
    yy, xx = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    apart = np.hypot(xx, yy)
    ring = (apart >= inner) & (apart <= inner + 2.5)
    h, w = image.shape[:2]
    xs = np.clip(np.rint(corners[:, 0, None] + xx[ring]).astype(int), 0, w - 1)
    ys = np.clip(np.rint(corners[:, 1, None] + yy[ring]).astype(int), 0, h - 1)
    colours = _median_rows(image[ys, xs].astype(np.float32), axis=1)  # corners x BGR
    if float(np.abs(colours[:, None] - colours[None]).sum(axis=2).max()) > BODY_ONE_COLOUR:
        return False
    # and the pips themselves of one colour (issue 64: two dice on a pale table, a red and a
    # green, taken for a 102 px two's pips, the table round both its body: a false die)
    core = apart <= max(1.0, 0.3 * size)
    xs = np.clip(np.rint(points[:, 0, None] + xx[core]).astype(int), 0, w - 1)
    ys = np.clip(np.rint(points[:, 1, None] + yy[core]).astype(int), 0, h - 1)
    pips = _median_rows(image[ys, xs].astype(np.float32), axis=1)
    hues = pips / (pips.sum(axis=1, keepdims=True) + 60.0)  # dark pips' noise damped
    return float(np.abs(hues[:, None] - hues[None]).sum(axis=2).max()) <= PIPS_ONE_COLOUR


PIPS_ONE_COLOUR = 0.5  # B, G, R each of their sum (and 60): most a die's pips may differ
# (white pips lit and shaded 0.03, black ones 0.15; a red die and a green one taken for
# pips, independent seed 39 at 28 px, 1.0)


SIDE_PIPS = 0.66  # of the die's side: a side's pips, drawn out, lie this near its centre
# (independent seed 28: 0.63-0.66 beside a black one read as a two with a side's pip;
# a touching neighbour's pips lie 0.67 away at least, `_centred`)


ON_TOP = 0.45  # of the die's side: a side's pip drawn out this near the square's centre lies
# on the top itself, a pip the few did not count (colour felt throw 310: a green four's shaded
# column at 0.34 beside its other column read as a two; the held-out seeds' true twos and
# threes: their sides' pips at 0.50 or more)
UNEQUAL_PIPS = 1.35  # the most a top's few pips differ in area, largest over smallest: more,
# and one is a side's pip, foreshortened (independent seed 28: a one's pip of 93 px and a
# side's of 63, 1.48; held-out seeds 1001, 1025, 1053, 1055: true twos and threes at 1.25 at
# most, read again)


def _side_pip_among(reach: np.ndarray, pip_areas: np.ndarray) -> bool:
    """Whether the few pips squared up are a top's and a side's, from the spots drawn out as
    a side's pips (`_side_pips`, ``reach``: in sides from the square's centre): one on the
    top itself (a pip left out), or one beside it while the pips differ in size as a top's
    and a side's do. A true two or three seen obliquely shows its sides' pips too (the
    held-out seeds' five dice lost when any such spot within `SIDE_PIPS` left it unread)."""
    if (reach < ON_TOP).any():
        return True
    return bool((reach < SIDE_PIPS).any()) and pip_areas.max() >= UNEQUAL_PIPS * pip_areas.min()


def _side_pips(w: np.ndarray, h: np.ndarray, area: np.ndarray, members: list[int],
               pip_area: float) -> np.ndarray:
    """Spots drawn out as a pip is on a die's side seen obliquely (1.6-3 times as long as
    wide, filling half their box, a third to one and a half of the pips' area): beside a
    few pips, they tell a top's pip and a side's, which no round spot test would."""
    long_, short = np.maximum(w, h), np.maximum(np.minimum(w, h), 1)
    drawn = ((long_ > 1.6 * short) & (long_ <= 3 * short) & (area >= 0.5 * w * h)
             & (area >= pip_area / 3) & (area <= 1.5 * pip_area))
    drawn[0] = False
    drawn[members] = False
    return np.flatnonzero(drawn)


def _die_sized(spread: float, typical: float) -> bool:
    """Whether pips spread so far across (four to six of them) square up as a die of the
    dice's size at some pip offset `_pip_clusters` tries, as a parted group must."""
    for offset in (0.25, 0.29, 0.22):
        side = spread / (2 * offset)
        if side < 12:
            return False
        if 0.9 <= side / (np.sqrt(typical) + 2 * ERODE) <= 1.3:
            return True
    return False


FOUR_SQUARE = 1.3  # how much longer than wide a four's or five's corners may lie


def _rows_of_a_six(dark: np.ndarray, points: np.ndarray) -> bool:
    """Four pips making an oblong (longer than `FOUR_SQUARE` times its width; a cocked
    four's is too) with two more dark spots a row further on along its short side: two
    rows of two of a six whose third row is not a spot of its own (joined to its shadow,
    a blot), read as a four on a square too small, off the six's middle."""
    middle = points.mean(axis=0)
    centred = points - middle
    spread, axes = np.linalg.eigh(centred.T @ centred)  # the layout's short axis first
    if spread[1] <= FOUR_SQUARE ** 2 * spread[0]:
        return False
    corners = np.abs(centred @ axes)  # a five's middle pip at 0, its corners as a four's
    short, long = _median_rows(corners[corners[:, 1] > 0.5 * corners[:, 1].max()])
    # both ends' two places at once (ends x sides x 2), in float32 as one by one
    places = (middle + (_ENDS * short) * axes[:, 0]) + (_SIDES * long) * axes[:, 1]
    spots = np.trunc(places).astype(int)  # as int() of each: toward zero
    h, w = dark.shape
    inside = ((spots[..., 0] >= 0) & (spots[..., 0] < w) & (spots[..., 1] >= 0)
              & (spots[..., 1] < h))
    spots[~inside] = 0
    return bool((inside & (dark[spots[..., 1], spots[..., 0]] > 0)).all(axis=1).any())


_ENDS = np.array([3, -3], np.float32)[:, None, None]  # three pip rows on, either end
_SIDES = np.array([1, -1], np.float32)[None, :, None]


def _side_of_more(image: np.ndarray, pair: np.ndarray, light_body: bool) -> bool:
    """Two pips that are a side of a four, five or six (two more pips complete a square
    with them), not a two's diagonal: the square they would be a side of reads 4-6."""
    step = pair[1] - pair[0]
    apart = float(np.hypot(*step))
    across = np.array([-step[1], step[0]]) / 2
    angle = float(np.degrees(np.arctan2(step[1], step[0])))
    side = apart / (2 * PIP_OFFSET)
    for sign in (1, -1):
        cx, cy = pair.mean(axis=0) + sign * across
        beside = _read_square(image, ((float(cx), float(cy)), (side, side), angle), (),
                              light_body, False, wanted=lambda face: face is not None and face >= 4)
        if beside is not None:
            return True
    return False


PITCH = (0.215, 0.38)  # of the dice's side: how far a die's pips lie from its centre
PITCH_READ = (0.75, 1.35)  # of the pitch of the dice read already


def _pitch_fits(reading: DieReading, typical: float, pitch: float) -> bool:
    """The pips of a die found by its pips lie as far apart as on the dice read already
    (``pitch``, their median; `PITCH_READ`), or, before any, as a die of the dice's size
    has them (`PITCH`: the spacings of `SCALES`, with room for the dice's spread in size):
    two neighbouring pips of a four (0.7 of its pitch), or a five's corner and middle pip
    (0.5), squared up small and read as a two, are not."""
    if reading.face == 1:
        return True
    if pitch > 0:
        return PITCH_READ[0] <= reading.pitch / pitch <= PITCH_READ[1]
    return PITCH[0] <= reading.pitch / (np.sqrt(typical) + 2 * ERODE) <= PITCH[1]


def _parted_runs(labels: np.ndarray, stats: np.ndarray, centroids: np.ndarray, largest: float,
                 smallest: float = 24.0) -> tuple[np.ndarray, np.ndarray]:
    """Large pips lying close run together into one spot (a six's column of three): such a
    run (``smallest`` to three ``largest`` pips' area), eroded at its necks, falls into two
    or three round pieces of one size; those are added as spots (each of an equal share of
    the run's area), the run itself kept."""
    w, h, area = (stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT],
                  stats[:, cv2.CC_STAT_AREA])
    runs = np.flatnonzero((area >= smallest) & (area <= 3 * largest)
                          & (area >= 0.3 * w * h)
                          & ((np.maximum(w, h) > 1.6 * np.minimum(w, h)) | (area < 0.5 * w * h))
                          & (np.maximum(w, h) <= 3.6 * np.minimum(w, h)))
    runs = runs[runs > 0]
    if not len(runs) or len(runs) > 40:
        return stats, centroids
    extra_stats, extra_centres = [], []
    for i in runs:
        x, y, bw, bh = stats[i, :4]
        run = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        for _ in range(4):
            run = cv2.erode(run, _CROSS)
            count, _, part_stats, part_centres = cv2.connectedComponentsWithStats(run)
            if count - 1 == 0:
                break  # eroded away: no run of pips
            if count - 1 not in (2, 3):
                continue
            # two or three pieces: plain ints (numpy's per-call cost is the work's ten times)
            pieces = part_stats[1:, 2:].tolist()  # width, height, area
            areas = [piece for _, _, piece in pieces]
            # round within a pixel: a small six's pieces are a few pixels (3 by 5)
            if min(areas) >= 0.4 * max(areas) and all(
                    max(pw, ph) <= 1.6 * min(pw, ph) + 1 and piece >= 0.5 * pw * ph
                    for pw, ph, piece in pieces):
                share = area[i] / (count - 1)
                side = int(round(np.sqrt(share)))
                for centre in part_centres[1:]:
                    extra_stats.append((0, 0, side, side, int(share)))
                    extra_centres.append(centre + (x, y))
                break
    if not extra_stats:
        return stats, centroids
    return (np.vstack([stats, np.array(extra_stats, stats.dtype)]),
            np.vstack([centroids, np.array(extra_centres, centroids.dtype)]))


BODY_APART = 45.0  # B+G+R levels between a one's body and the floor round it, at least (a purple
# one on greyish purple felt: 53)
BODY_LARGEST = 1.3  # of the dice's side: a one's body square (its shadow may join it)
ONE_ALONE = 0.7  # of the dice's side: no spot of a pip's size nearer a one's pip


def _ones(image: np.ndarray, spots: np.ndarray, read: Sequence[DieReading], typical: float,
          light_body: bool, components: tuple | None = None) -> list[DieReading]:
    """Ones whose body hardly stands out from the floor's colour (a purple one on a lavender
    lid): a lone round spot, no other spot of its size within `ONE_ALONE` of a die's side,
    in the middle of a rounded square of the body's colour (`_body_square`) of the dice's
    size; kept when that square reads a one (nothing at any spacing a die has pips).
    ``components``: ``spots``' labelled already."""
    side = np.sqrt(typical) + 2 * ERODE
    count, _, stats, centroids = components or _components(spots)
    w, h, area = (stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT],
                  stats[:, cv2.CC_STAT_AREA])
    round_spot = ((area >= 8) & (area <= 0.15 * typical) & (area >= 0.5 * w * h)
                  & (np.maximum(w, h) <= 1.6 * np.minimum(w, h)))
    round_spot[0] = False
    found = np.flatnonzero(round_spot)
    if not len(found) or len(found) > 60:
        return []
    dice = []
    read = [d for d in read if d.face is not None]  # a die seen unread may be this one
    centres = np.array([d.centre for d in read], np.float64).reshape(-1, 2)
    reach = 0.8 * np.array([d.side for d in read], np.float64)
    # a spot on a die read, or beside it, is none (all spots measured at once)
    on_read = (np.hypot(centroids[found, 0, None] - centres[:, 0],
                        centroids[found, 1, None] - centres[:, 1]) < reach).any(axis=1)
    for i in found[~on_read]:
        x, y = centroids[i]
        # a pip of a die with more: a spot of its size near it (a glint is smaller, and a
        # neighbour's pips lie further off)
        others = found[found != i]
        alike = others[np.abs(np.log(area[others] / area[i])) <= 2 * np.log(1.6)]
        if len(alike) and (np.hypot(*(centroids[alike] - (x, y)).T) < ONE_ALONE * side).any():
            continue
        rect = _body_square(image, (float(x), float(y)), side)
        if rect is None:
            continue
        reading = _read_square(image, rect, (), light_body, False, wanted=lambda face: face == 1)
        if reading is not None:
            dice.append(reading)
    return dice


def _body_square(image: np.ndarray, pip: tuple[float, float], side: float):
    """The rounded square of one colour around a pip, about ``side`` across and centred on
    it (a minimum-area rectangle), or None: the body's colour is that of a ring round the
    pip, the floor's that of a window's rim; a pixel is body within a third of their
    difference (B+G+R levels apart) of the first (a shadow, darker still, and the floor stay
    out). By colour, not grey: a purple die on blue felt or a blue one on wood is as grey as
    its floor, and lighter or darker than it whatever its pips."""
    x, y = pip
    reach = int(side)
    x0, y0 = int(x) - reach, int(y) - reach
    if x0 < 0 or y0 < 0 or x0 + 2 * reach >= image.shape[1] or y0 + 2 * reach >= image.shape[0]:
        return None
    window = image[y0:y0 + 2 * reach + 1, x0:x0 + 2 * reach + 1].astype(np.float32)
    yy, xx = np.mgrid[0:window.shape[0], 0:window.shape[1]]
    far = np.hypot(xx - (x - x0), yy - (y - y0))
    body = _median_rows(window[(far >= 0.22 * side) & (far <= 0.35 * side)])
    floor = _median_rows(window[far >= 0.95 * side])
    apart = float(np.abs(body - floor).sum())
    if apart < BODY_APART:
        return None
    mask = (np.abs(window - body).sum(axis=2) < 0.35 * apart).astype(np.uint8)
    mask[far <= 0.22 * side] = 1  # the pip itself
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _SQUARE)
    count, labels, _, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    own = labels[reach, reach]
    if own == 0:
        return None
    points = cv2.findNonZero((labels == own).astype(np.uint8))
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
    if not (0.85 * side <= min(rw, rh) and max(rw, rh) <= BODY_LARGEST * side
            and np.hypot(cx - reach, cy - reach) <= 0.1 * side
            and len(points) >= 0.85 * rw * rh):
        return None
    return (float(cx + x0), float(cy + y0)), (float(rw), float(rh)), float(angle)


def _reach(offsets: np.ndarray, angle: float) -> np.ndarray:
    """How far spots lie from a die's centre along its square's axes (the larger): a
    neighbour's pips lie beyond its side, out of its reach however it is turned; a cocked
    die's side showing pips just beyond its top, and the rest of a six whose column was
    taken for a three's diagonal, within it."""
    theta = np.radians(angle)
    along = offsets[:, 0] * np.cos(theta) + offsets[:, 1] * np.sin(theta)
    across = offsets[:, 1] * np.cos(theta) - offsets[:, 0] * np.sin(theta)
    return np.maximum(np.abs(along), np.abs(across))


def _local_pips(gray: np.ndarray, typical: float) -> list[tuple[np.ndarray, bool]]:
    """Pips by their contrast with what is around them, whatever the floor (255), as masks
    and whether they are dark (on a light body): dark spots (black hat) and light ones (top
    hat) smaller than 0.4 of a die, at each level of `LOCAL_PIP`. A die whose body joins a
    glint or its neighbours, or hardly stands out from its floor, still shows its pips; large
    pips a blurred camera runs together stand apart at the higher level, by their cores.
    ``gray``: the tray image in grey."""
    size = max(5, int(0.4 * (np.sqrt(typical) + 2 * ERODE)) | 1)
    kernel = np.ones((size, size), np.uint8)  # a square: five times cheaper than a disc
    # black and top hat step by step (the same pixels as MORPH_BLACKHAT and MORPH_TOPHAT)
    # in this thread's buffers (`_scratch`), as are the masks (valid until the next call)
    step, shape = _scratch("hat step", gray.shape), gray.shape
    dark = cv2.erode(cv2.dilate(gray, kernel, dst=step), kernel, dst=_scratch("dark hat", shape))
    cv2.subtract(dark, gray, dst=dark)
    light = cv2.dilate(cv2.erode(gray, kernel, dst=step), kernel, dst=_scratch("light hat", shape))
    cv2.subtract(gray, light, dst=light)
    levels = [(level, hat, is_dark) for level in LOCAL_PIP
              for hat, is_dark in ((dark, True), (light, False))]
    return [(cv2.compare(hat, level, cv2.CMP_GT, dst=_scratch(f"spots {k}", shape)), is_dark)
            for k, (level, hat, is_dark) in enumerate(levels)]


def _part(members: list[int], centroids: np.ndarray, reach: float) -> list[list[int]]:
    """Spots parted into groups no wider than ``reach`` (complete linkage: the nearest two
    groups joined first while the joined group stays that narrow), for the pips of dice
    lying close together."""
    groups = [[i] for i in members]
    points = centroids[members]
    # the width of every two groups joined, kept as groups join (the larger of two widths):
    # no pair of groups measured again pip by pip
    # In plain floats: a few spots (mostly 4-6), where numpy's calls cost ten times the work
    width = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1)).tolist()
    while len(groups) > 1:
        # the last pair of the narrowest, in the order pairs were once tried one by one
        best, pair = math.inf, (0, 1)
        for a, row in enumerate(width):
            for b in range(a + 1, len(row)):
                if row[b] <= best:
                    best, pair = row[b], (a, b)
        if not best <= reach:
            break
        a, b = pair
        groups[a] += groups.pop(b)
        joined = [max(x, y) for x, y in zip(width[a], width[b], strict=True)]
        width[a] = joined
        for row, value in zip(width, joined, strict=True):
            row[a] = value
        del width[b]
        for row in width:
            del row[b]
    return [g for g in groups if 3 <= len(g) <= 6]  # two spots of two dice make a "two"


def _centred(members: list[int], centroids: np.ndarray, side: float) -> list[list[int]]:
    """Spots of dice touching parted by the die each lies on: round every place a die's
    middle may be (halfway between two spots a die's diagonal apart: a three's or five's
    middle pip lies there too), the spots within half a side of it. A die's own pips lie
    within 0.47 of its side of its middle, a touching neighbour's 0.67 away at least;
    `_part` joins the nearest spots first, which may be two dice's."""
    points = centroids[members]
    apart = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1))
    a, b = np.nonzero(np.triu((apart >= 0.6 * side) & (apart <= side), 1))
    middles = (points[a] + points[b]) / 2
    within = np.hypot(*(middles[:, None, :] - points[None, :, :]).transpose(2, 0, 1)) <= side / 2
    groups: list[list[int]] = []
    for row in within:
        group = [members[i] for i in np.flatnonzero(row)]
        if 4 <= len(group) <= 6 and group not in groups:  # a three: a large six's column
            groups.append(group)
    return groups


def _twos(lone: list[int], centroids: np.ndarray, size: dict, side: float) -> list[list[int]]:
    """Pairs of lone spots of one size as far apart as a two's pips on a die ``side`` px
    across (0.76 of the side, a standard d6), each spot in one pair at most."""
    pairs, used = [], set()
    for a in lone:
        for b in lone:
            if a < b and a not in used and b not in used and 0.6 <= size[a] / size[b] <= 1.6 \
                    and 0.6 * side <= np.hypot(*(centroids[a] - centroids[b])) <= 0.9 * side:
                pairs.append([a, b])
                used.update((a, b))
    return pairs

"""Reading a QR symbol from its finder patterns when zxing's own detector gives up.

Used by the second pass on crops that neither cleaned variant read. On a binarised crop the
finder patterns are found as contours nested three deep (dark ring, light ring, dark
centre) of finder-like proportions. From three of them, or from two plus a guess of the
third (a fingertip on one finder pattern), the module grid follows: the symbol is resampled
upright at 4 px per module with a quiet zone, its three finder patterns are redrawn (they
carry no data), and zxing decodes that clean picture. Reed-Solomon and the format
information's BCH code still check every result, so a wrong guess reads no wrong text; but
a guess turned half round (the diagonal pair of finders taken the wrong way about, when
glare hides the top-left one) still shows zxing the real symbol, which it finds by the real
finders and reads: such a read is refused unless zxing found the symbol upright where the
guess put it (`_as_placed`), or the card would be committed turned 180 degrees.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import cv2
import numpy as np
import zxingcpp

from hardware.camera.decode import printed_as_ours

PX = 4  # pixels per module in the resampled symbol
QUIET = 4  # modules


@dataclass(frozen=True)
class Finder:
    x: float
    y: float
    module: float  # module size in crop pixels
    # second central moments (xx, xy, yy) of the dark square, per pixel of it: how a square
    # is stretched and sheared in the image (perspective), used to place a hidden finder
    shape: tuple[float, float, float] = (1.0, 0.0, 1.0)


def find_finders(binary: np.ndarray) -> list[Finder]:
    """Finder-pattern candidates in a binarised image (dark = 0)."""
    contours, hierarchy = cv2.findContours(255 - binary, cv2.RETR_TREE,
                                           cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    hierarchy = hierarchy[0]
    # only contours nested three deep (dark ring, light ring, dark centre) are candidates:
    # select them on the hierarchy array, not in a Python loop over every contour
    child = hierarchy[:, 2]
    grandchild = np.where(child >= 0, hierarchy[np.maximum(child, 0), 2], -1)
    out = []
    for index in np.flatnonzero(grandchild >= 0):
        contour, inner_contour = contours[index], contours[grandchild[index]]
        outer = cv2.contourArea(contour)
        inner = cv2.contourArea(inner_contour)
        if outer < 36 or inner <= 0:
            continue
        ratio = outer / inner  # 49 / 9 = 5.4 for a perfect finder
        if not 2.5 < ratio < 12:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        if not 0.5 < w / h < 2.0:
            continue
        m = cv2.moments(inner_contour)
        if m["m00"] <= 0:
            continue
        o = cv2.moments(contour)
        # blur and thresholding widen the dark ring's outer edge (7 modules) by as much as
        # they narrow its inner edge (5 modules): their mean side cancels that out
        ring = cv2.contourArea(contours[child[index]])
        module = (math.sqrt(outer) + math.sqrt(ring)) / 12 if ring > 0 else math.sqrt(outer) / 7
        out.append(Finder(m["m10"] / m["m00"], m["m01"] / m["m00"], module,
                          (o["mu20"] / outer, o["mu11"] / outer, o["mu02"] / outer)))
    # nested duplicates (a contour and its own ring both qualify): keep one per place
    unique: list[Finder] = []
    for f in sorted(out, key=lambda f: -f.module):
        if all(math.hypot(f.x - g.x, f.y - g.y) > 2 * g.module for g in unique):
            unique.append(f)
    return unique


def _size(distance_modules: float) -> int | None:
    """Symbol size (21, 25, 29, ...) from the distance between adjacent finder centres."""
    n = distance_modules + 7
    version = round((n - 17) / 4)
    if not 1 <= version <= 10:
        return None
    return 17 + 4 * version


_QUARTER = np.float64([[0, -1], [1, 0]])  # a quarter turn clockwise, y down


def _turn(a: Finder, b: Finder) -> np.ndarray:
    """The image of a quarter turn on the symbol's plane, S R S^-1 with S the square root
    of the two finders' mean second-moment matrix (a square's moments are isotropic, so an
    affine image A of it has moments proportional to A A^T)."""
    xx, xy, yy = ((u + v) / 2 for u, v in zip(a.shape, b.shape, strict=True))
    values, vectors = np.linalg.eigh(np.float64([[xx, xy], [xy, yy]]))
    if values[0] <= 0:
        return _QUARTER
    root = np.sqrt(values)
    s = (vectors * root) @ vectors.T
    s_inv = (vectors / root) @ vectors.T
    return s @ _QUARTER @ s_inv


def _triples(finders: list[Finder]):
    """(top-left, top-right, bottom-left) centre hypotheses from 2 or 3 finders."""
    pts = [np.float64([f.x, f.y]) for f in finders]
    if len(pts) >= 3:
        for i in range(len(pts)):
            for j in range(len(pts)):
                for k in range(len(pts)):
                    if len({i, j, k}) < 3:
                        continue
                    tl, tr, bl = pts[i], pts[j], pts[k]
                    a, b = tr - tl, bl - tl
                    cross = a[0] * b[1] - a[1] * b[0]
                    na, nb = np.linalg.norm(a), np.linalg.norm(b)
                    if cross <= 0 or not 0.8 < na / nb < 1.25:
                        continue
                    if abs(np.dot(a, b)) / (na * nb) < 0.3:  # about a right angle
                        yield tl, tr, bl
    for i in range(len(pts)):
        for j in range(len(pts)):
            if i == j:
                continue
            p, q = pts[i], pts[j]
            # d turned 90 degrees clockwise (y down) on the symbol's plane: the finders' own
            # squares tell how the image stretches that plane (under a tilt the side from a
            # hidden finder is not as long as the side between the two seen)
            perp = _turn(finders[i], finders[j]) @ (q - p)
            mid = (p + q) / 2  # p top-right, q bottom-left: top-left off the diagonal
            for guess in ((p, q, p + perp),  # p top-left, q top-right
                          (p, p - perp, q),  # p top-left, q bottom-left
                          (mid - perp / 2, p, q), (mid + perp / 2, p, q)):
                if _right_handed(*guess):  # a mirrored guess reads a mirrored symbol
                    yield guess


def _right_handed(tl, tr, bl) -> bool:
    """tl -> tr -> bl turn clockwise on the image (y down), as a printed symbol's do: zxing
    also reads a mirrored symbol, so a mirrored guess would read the right text with the
    top edge along the symbol's left one."""
    a, b = tr - tl, bl - tl
    return a[0] * b[1] - a[1] * b[0] > 0


def _finder_block() -> np.ndarray:
    block = np.full((9, 9), 255, np.uint8)  # with the white separator
    block[1:8, 1:8] = 0
    block[2:7, 2:7] = 255
    block[3:6, 3:6] = 0
    return block


FINDER = _finder_block()
_FINDER_PX = cv2.resize(FINDER, None, fx=PX, fy=PX, interpolation=cv2.INTER_NEAREST)


def resample(gray: np.ndarray, tl, tr, bl, module: float) -> np.ndarray | None:
    """The symbol upright at `PX` px per module with a quiet zone and clean finders."""
    size = _size(float(np.linalg.norm(tr - tl)) / module)
    if size is None:
        return None
    ex, ey = (tr - tl) / (size - 7), (bl - tl) / (size - 7)
    origin = tl - 3.5 * ex - 3.5 * ey  # the symbol's outer top-left corner
    side = (size + 2 * QUIET) * PX
    # canonical pixel (u, v) -> module ((u + 0.5) / PX - QUIET, ...) -> crop pixel
    a = np.column_stack([ex / PX, ey / PX])
    offset = origin + (0.5 / PX - QUIET) * (ex + ey)
    matrix = np.column_stack([a, offset])
    upright = cv2.warpAffine(gray, matrix, (side, side), flags=cv2.INTER_LINEAR
                             | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    upright = cv2.adaptiveThreshold(upright, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C,
                                    cv2.THRESH_BINARY, 4 * PX + 1, 0)
    q = QUIET * PX
    upright[:q, :] = upright[-q:, :] = 255
    upright[:, :q] = upright[:, -q:] = 255
    big = _FINDER_PX
    for mx, my in ((0, 0), (size - 7, 0), (0, size - 7)):
        x0, y0 = q + (mx - 1) * PX, q + (my - 1) * PX
        x1, y1 = x0 + 9 * PX, y0 + 9 * PX
        bx0, by0 = max(0, -x0), max(0, -y0)
        upright[max(0, y0):y1, max(0, x0):x1] = big[by0:by0 + y1 - max(0, y0),
                                                     bx0:bx0 + x1 - max(0, x0)]
    return upright


def corners(centres: np.ndarray, size: int) -> list[tuple[float, float]]:
    """The symbol's outer corners (TL, TR, BR, BL) from its finder centres (tl, tr, bl)."""
    tl, tr, bl = centres
    ex, ey = (tr - tl) / (size - 7), (bl - tl) / (size - 7)
    origin = tl - 3.5 * ex - 3.5 * ey
    return [tuple(float(v) for v in p) for p in (
        origin, origin + size * ex, origin + size * (ex + ey), origin + size * ey)]


def read(gray: np.ndarray, binary: np.ndarray, limit: int = 12,
         work: dict | None = None, finders: list[Finder] | None = None
         ) -> tuple[str, np.ndarray, int] | None:
    """Decode the symbol in an (upscaled) crop from its finder patterns. ``binary`` is the
    crop binarised (``finders``: its finder patterns, when already found); returns (text,
    the finder centres tl/tr/bl in crop px, modules per side) or None. ``work["tries"]``
    counts the symbols resampled and given to zxing (the second pass charges its budget
    by it)."""
    if finders is None:
        finders = find_finders(binary)
    if len(finders) < 2 or len(finders) > 6:
        return None
    module = statistics.median(f.module for f in finders)
    for count, (tl, tr, bl) in enumerate(_triples(finders)):
        if count >= limit:
            break
        if work is not None:
            work["tries"] = work.get("tries", 0) + 1
        text = read_at(gray, tl, tr, bl, module)
        if text is not None:
            size = _size(float(np.linalg.norm(tr - tl)) / module)
            return text, np.float64([tl, tr, bl]), size
    return None


def read_at(gray: np.ndarray, tl, tr, bl, module: float) -> str | None:
    """The text of the symbol whose finder centres are ``tl``, ``tr``, ``bl`` (crop px),
    resampled upright and read by zxing as placed (`_as_placed`), or None."""
    upright = resample(gray, tl, tr, bl, module)
    if upright is None:
        return None
    for result in zxingcpp.read_barcodes(
            upright, formats=zxingcpp.BarcodeFormat.QRCode, try_rotate=False,
            try_downscale=False, try_invert=False,
            binarizer=zxingcpp.Binarizer.FixedThreshold):
        if result.valid and _as_placed(result) and printed_as_ours(result):
            return result.text
    return None


def _as_placed(result) -> bool:
    """zxing read the resampled symbol upright, its top-left corner where the guess put
    it: the guessed finder centres are then the symbol's own tl/tr/bl (a guess turned a
    quarter or half round reads the same text with another orientation)."""
    turn = result.orientation % 360
    corner = result.position.top_left
    q = QUIET * PX
    return min(turn, 360 - turn) <= 20 and abs(corner.x - q) <= 2 * PX \
        and abs(corner.y - q) <= 2 * PX

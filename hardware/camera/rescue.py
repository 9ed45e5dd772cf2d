"""The second decode pass: upscaled, cleaned crops where a code should be but was not read.

The first pass (zxing-cpp on the whole gray frame) misses small modules (2-3 px), defocus,
glare and motion. Two kinds of regions get a second look, each crop tried with these
variants, in rounds (every crop gets the first before any gets the second: the cheap reads
first), until one reads (docs/camera.md measures what each earns):

- ``adaptive``: upscaled 2x (cubic), then a Gaussian adaptive threshold (21 px): recovers
  mild defocus, whose modules are mush to zxing's own binarizer;
- ``grid`` (issue 50): the crop Wiener-deblurred for a disc (a lens out of focus, radius
  2 px at 1280 px wide), its finder patterns found (upscaled and binarised as above), and
  on the finder grid that best fits the symbol's known modules the symbol first resampled
  upright and handed to zxing (hardware.camera.geometry: a mild blur, or glare whose known
  modules the blur model cannot fit), then its data modules read by hardware.camera.modules
  from a model of the blur fitted on those known modules: defocus of 0.6-0.8 module on
  small modules, any lens (the model is learned, not assumed);
- ``grown`` (last: only what budget the others left): a crop whose deblurred picture shows
  finder patterns of a symbol reaching past the crop's edge, cut again from the frame
  around every symbol those finders can belong to (with a quiet zone) and read as
  ``grid``, ``deblur_geometry`` and ``deblur`` do: a texture window placed on a turned,
  blurred sticker cut off its corner and a finder with it (issue 50);
- not used by default (each reads nothing the ones above miss on the tuned stills):
  ``deblur_geometry`` (the deblurred crop's finder patterns, up to 12 of their triples
  resampled and handed to zxing: since ``grid`` resamples its best grid first it read
  nothing more),
  ``geometry`` (the ``adaptive`` picture read from its finder patterns), ``deblur`` (the
  deblurred crop binarised and handed to zxing; both read stickers before ``grid``
  existed), ``wide`` (a wider threshold neighbourhood, offset 6), ``sharp`` (unsharp mask,
  2.5x), ``plain``.

The regions:

- ``track`` regions: around where a tracked card was last seen, widened along its motion;
- ``texture`` regions: sticker-like patches (dense black/white edges) found by a cheap
  gradient-energy map at 1/16 resolution that no first-pass detection explains.

Decoding a crop gives a Reed-Solomon-checked result like the first pass: a crop cannot
produce a false decode that the whole frame would not. A budget caps the pass; it counts
work (pixels processed per variant and symbols tried, calibrated to CPU ms), not the
clock, so the same frame reads the same crops however loaded the machine is.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace

import cv2
import numpy as np
import zxingcpp

from hardware.camera import geometry, modules
from hardware.camera.decode import Decoder, Detection, printed_as_ours, symbol_angle

# a pixel is dark only when this much darker than its neighbourhood: C = 0 turns flat card
# and wood into salt and pepper, whose thousands of specks made the finder search's contour
# pass 3x slower (bench: same codes read)
OFFSET = 3
DENSITY_CELL, SPREAD_CELL = 1.4, 10.0  # a cell of edges (washed-out stickers too)
SPREAD_MIN = 12.0  # gray levels (std) for a cell's edge density to count
CELL = 8  # texture map cell, in pixels of the 640-wide analysis image
_KERNEL = np.ones((3, 3), np.uint8)
WINDOWS_TRIED = 6  # sticker-sized windows looked at in one large textured patch
# a large patch gives one window per this many textured cells (an 8 x 8 window's), at
# least two: a board's print joins a row of stickers into one patch (issue 50: the third
# of four blurred stickers in a band got no crop)
WINDOW_CELLS = 64


@dataclass(frozen=True)
class Region:
    x0: int
    y0: int
    x1: int
    y1: int
    reason: str  # "track" | "texture"
    score: float = 0.0  # texture regions: summed texture score (to recognise it again)

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def contains(self, point) -> bool:
        return self.x0 <= point[0] < self.x1 and self.y0 <= point[1] < self.y1

    def overlap(self, other: Region) -> float:
        """Intersection over the smaller region's area."""
        w = min(self.x1, other.x1) - max(self.x0, other.x0)
        h = min(self.y1, other.y1) - max(self.y0, other.y0)
        if w <= 0 or h <= 0:
            return 0.0
        small = min((self.x1 - self.x0) * (self.y1 - self.y0),
                    (other.x1 - other.x0) * (other.y1 - other.y0))
        return w * h / max(small, 1)


def around(centre, half: float, shape, reason: str = "track") -> Region:
    h, w = shape[:2]
    x, y = centre
    return Region(max(0, int(x - half)), max(0, int(y - half)), min(w, int(x + half) + 1),
                  min(h, int(y + half) + 1), reason)


@dataclass(frozen=True)
class RescueSettings:
    enabled: bool = True
    # tried in rounds, in this order (every crop gets the first before any gets the
    # second): what each reads that the ones before it missed is measured in docs/camera.md
    # (issue 20); "sharp" and "plain" read nothing more and are off by default, and so is
    # "deblur_geometry" since "grid" resamples its best grid first (issue 50)
    variants: tuple[str, ...] = ("adaptive", "grid", "grown")
    # estimated CPU ms (work counted, `COST_MS_PER_KPX`) a whole frame's second pass may
    # spend; a frame decoded only where it changed gets ChangeSettings.regions_budget_ms
    budget_ms: float = 28.0
    max_texture_regions: int = 10
    energy_threshold: float = 42.0  # mean 3x3 gradient per cell, at mid-gray
    # edge density (TextureMap.density, 3x3 cells) a patch needs somewhere to be cropped;
    # 0 crops every textured patch
    density_min: float = 1.5
    textures: bool = True


class TextureMap:
    """Gradient energy per cell of a 640-wide copy of the frame, normalised by the local
    light: QR stickers score high, wood, skin and card art low. Built once per frame."""

    def __init__(self, gray: np.ndarray) -> None:
        h, w = gray.shape
        self.shape = gray.shape
        self.f = w / 640  # frame pixels per analysis pixel (2 at 1280x720, 3 at 1080p)
        small = cv2.resize(gray, (640, round(h / self.f)), interpolation=cv2.INTER_AREA)
        grad = cv2.morphologyEx(small, cv2.MORPH_GRADIENT, _KERNEL)
        size = (640 // CELL, small.shape[0] // CELL)
        energy = cv2.resize(grad, size, interpolation=cv2.INTER_AREA).astype(np.float32)
        # per cell mean and spread (std) of the gray levels (a summed-area table of the
        # squares cost half as much again)
        light = small.astype(np.float32)
        mean = cv2.resize(light, size, interpolation=cv2.INTER_AREA)
        squares = cv2.resize(cv2.multiply(light, light), size, interpolation=cv2.INTER_AREA)
        spread = np.sqrt(np.maximum(squares - mean * mean, 0))
        self.score = energy * (128.0 / (mean + 24.0))
        self.bright = mean
        # edge density: gradient energy over the cell's own spread of gray levels. A QR
        # symbol is all edges at any contrast (1.7-2.3, also washed out by glare), a card's
        # blobs and the wood have few edges for their contrast (at most 1.35 on the bench's
        # frames); the spread keeps flat noisy patches out
        self.spread = spread
        self.density = energy / (spread + 4.0)
        self.block = CELL * self.f  # frame pixels per cell
        self._integrals: dict[str, np.ndarray] = {}

    def cell(self, point) -> tuple[int, int]:
        return int(point[0] / self.block), int(point[1] / self.block)

    def pooled(self, side: float, which: str = "score") -> np.ndarray:
        """Per cell: the mean texture score over a sticker-sized square around it, or (which
        = "contrast") how much lighter a card-sized square (2 sides) is than the square of 5
        sides around it: a card smeared by motion has lost its texture, not its light."""
        k = max(1, int(round(side / self.block)))
        if which == "contrast":
            return cv2.blur(self.bright, (2 * k, 2 * k)) - cv2.blur(self.bright, (5 * k, 5 * k))
        return cv2.blur(self.score, (k, k))

    def _mean(self, which: str, centre, cells: int) -> float:
        """Mean of ``which`` ("score" or "bright") over ``cells`` x ``cells`` around
        ``centre``, from a summed-area table: four lookups, not a NumPy reduction per
        window (a frame asks for dozens of them)."""
        t = self._integrals.get(which)
        if t is None:
            t = self._integrals[which] = cv2.integral(getattr(self, which),
                                                      sdepth=cv2.CV_64F)
        cx, cy = self.cell(centre)
        ch, cw = self.score.shape
        half = cells / 2
        x0, x1 = max(0, int(cx - half + 0.5)), min(cw, int(cx + half + 0.5))
        y0, y1 = max(0, int(cy - half + 0.5)), min(ch, int(cy + half + 0.5))
        if x1 <= x0 or y1 <= y0:
            return 0.0
        total = t[y1, x1] - t[y0, x1] - t[y1, x0] + t[y0, x0]
        return float(total) / ((x1 - x0) * (y1 - y0))

    def patch_score(self, centre, side: float, which: str = "score") -> float:
        """`pooled` at ``centre`` (frame pixels), from the cells around it only."""
        k = max(1, int(round(side / self.block)))
        if which == "contrast":
            return self._mean("bright", centre, 2 * k) - self._mean("bright", centre, 5 * k)
        return self._mean("score", centre, k)

    def best_patch(self, centre, radius: float, side: float, avoid: list[Detection],
                   which: str = "score") -> tuple[float, tuple[float, float]]:
        """The highest `pooled` value (texture or light contrast) within ``radius`` of
        ``centre`` (frame px), where its patch would not overlap a sticker read this frame
        (``avoid``, with the white border around it)."""
        pooled = self.pooled(side, which)
        ch, cw = pooled.shape
        cx, cy = centre[0] / self.block - 0.5, centre[1] / self.block - 0.5
        r = radius / self.block
        x0, x1 = max(0, int(cx - r)), min(cw, int(cx + r) + 1)
        y0, y1 = max(0, int(cy - r)), min(ch, int(cy + r) + 1)
        if x1 <= x0 or y1 <= y0:
            return 0.0, centre
        window = pooled[y0:y1, x0:x1].copy()
        ys, xs = np.mgrid[y0:y1, x0:x1]
        window[(xs - cx) ** 2 + (ys - cy) ** 2 > r * r] = 0
        for other in avoid:
            ax, ay = other.centre
            near = (xs - ax / self.block + 0.5) ** 2 + (ys - ay / self.block + 0.5) ** 2
            window[near < ((side / 2 + other.side) / self.block) ** 2] = 0
        index = np.unravel_index(int(np.argmax(window)), window.shape)
        best = float(window[index])
        return best, ((index[1] + x0 + 0.5) * self.block, (index[0] + y0 + 0.5) * self.block)


def _box(detection: Detection) -> Region:
    xs, ys = zip(*detection.corners, strict=True)
    return Region(int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1, "read")


def texture_regions(texture: TextureMap, known: list[Detection], settings: RescueSettings,
                    ) -> list[Region]:
    """Sticker-like patches not explained by a decoded symbol, strongest first: connected
    cells of high texture, at least 3x3 cells (a 2 px module symbol), not overlapping a
    symbol read in this frame; a large or sparse patch (a sticker merged with card art,
    overlapping cards) gives its densest sticker-sized windows instead."""
    h, w = texture.shape
    score, block = texture.score, texture.block
    edges = (texture.density >= DENSITY_CELL) & (texture.spread >= SPREAD_CELL)
    mask = ((score > settings.energy_threshold) | edges).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _KERNEL)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    boxes = [_box(d) for d in known]
    found = []
    # a patch is cropped only if somewhere in it a symbol-sized spot is all edges
    dense = cv2.blur(np.where(texture.spread >= SPREAD_MIN, texture.density, 0), (3, 3))

    def add(x0: float, y0: float, x1: float, y1: float) -> bool:
        region = Region(max(0, int((x0 - 0.7) * block)), max(0, int((y0 - 0.7) * block)),
                        min(w, int((x1 + 0.7) * block)), min(h, int((y1 + 0.7) * block)),
                        "texture")
        if any(region.overlap(b) > 0.3 for b in boxes):  # most patches: stickers read
            return False
        if any(region.overlap(f) > 0.6 for f in found):  # the same patch twice
            return False
        cells = (slice(max(0, int(y0)), int(y1)), slice(max(0, int(x0)), int(x1)))
        if settings.density_min and dense[cells].max(initial=0) < settings.density_min:
            return False
        found.append(replace(region, score=float(score[cells].sum())))
        return True

    pooled = None
    # smaller than a symbol of 2 px modules: not a patch
    big = (stats[:, 2] >= 3) & (stats[:, 3] >= 3) & (stats[:, 4] >= 6)
    for label in np.flatnonzero(big[1:]) + 1:
        x, y, cw, ch, area = stats[label].tolist()
        if area >= 0.45 * cw * ch and cw <= 10 and ch <= 10:
            add(x, y, x + cw, y + ch)
            continue
        # a sticker merged with card art, or two stickers (or a sticker joined to read
        # ones by the board's print): the densest sticker-sized windows inside, 8x8 cells
        # each, at most two (one per `WINDOW_CELLS` of a larger patch) that no read symbol
        # explains (windows on read symbols used to count towards them: an unread sticker
        # beside two read ones got no crop)
        if pooled is None:
            pooled = cv2.blur(score, (4, 4))
        inside = pooled[y:y + ch, x:x + cw].copy()
        added, allowed = 0, max(2, min(WINDOWS_TRIED, area // WINDOW_CELLS))
        for _ in range(WINDOWS_TRIED):
            iy, ix = np.unravel_index(int(np.argmax(inside)), inside.shape)
            if inside[iy, ix] < settings.energy_threshold:
                break
            added += add(x + ix - 3.5, y + iy - 3.5, x + ix + 4.5, y + iy + 4.5)
            inside[max(0, iy - 6):iy + 7, max(0, ix - 6):ix + 7] = 0
            if added == allowed:
                break
    found.sort(key=lambda r: -r.score)
    return found[:settings.max_texture_regions]


def _detection(text: str, corners, region: Region, k: float) -> Detection:
    """A detection from corners in crop pixels upscaled ``k`` times."""
    corners = tuple((region.x0 + (x + 0.5) / k - 0.5, region.y0 + (y + 0.5) / k - 0.5)
                    for x, y in corners)
    return Detection(text, corners, symbol_angle(corners))


def _zxing(image: np.ndarray, binarizer, region: Region, k: float) -> list[Detection]:
    out = []
    for result in zxingcpp.read_barcodes(
            image, formats=zxingcpp.BarcodeFormat.QRCode, try_rotate=False,
            try_downscale=False, try_invert=False, binarizer=binarizer):
        if result.valid and printed_as_ours(result):
            p = result.position
            out.append(_detection(result.text, [(q.x, q.y) for q in (
                p.top_left, p.top_right, p.bottom_right, p.bottom_left)], region, k))
    return out


def _binarise(crop: np.ndarray, k: float, sigma: float = 3.5,
              offset: int = OFFSET) -> tuple[np.ndarray, np.ndarray]:
    """The crop upscaled ``k`` times (cubic) and its Gaussian adaptive threshold (dark = 0
    where a pixel is more than `OFFSET` darker than its neighbourhood, sigma 3.5 px of the
    upscaled crop). The neighbourhood mean is blurred before upscaling (sigma 3.5 / k) and
    upscaled linearly: the same binary picture (bench: the same crops read) for half the
    cost of thresholding the upscaled crop with a 21 px kernel."""
    if k == 1 and sigma == 3.5:
        return crop, cv2.adaptiveThreshold(crop, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C,
                                           cv2.THRESH_BINARY, 13, offset)
    up = cv2.resize(crop, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC) if k != 1 \
        else crop
    level = cv2.subtract(cv2.GaussianBlur(crop, (0, 0), sigma / k), offset)
    level = cv2.resize(level, (up.shape[1], up.shape[0]), interpolation=cv2.INTER_LINEAR)
    return up, cv2.compare(up, level, cv2.CMP_GT)


DEBLUR_RADIUS = 2.0  # px: the disc the Wiener filter undoes (defocus of 1-2 px at 720p)
DEBLUR_NOISE = 0.1  # noise-to-signal power: how much the filter may amplify


def _disc_otf(shape, radius: float) -> np.ndarray:
    """The optical transfer function (cv2.dft layout) of a disc of ``radius`` px, drawn
    anti-aliased at 8x and area-averaged, so a radius of 1.6 px is not rounded to 2."""
    r = max(radius, 0.5)
    size = 2 * int(np.ceil(r)) + 1
    fine = np.zeros((8 * size, 8 * size), np.float32)
    cv2.circle(fine, (4 * size, 4 * size), int(round(8 * r)), 1.0, -1, cv2.LINE_AA)
    disc = cv2.resize(fine, (size, size), interpolation=cv2.INTER_AREA)
    psf = np.zeros(shape, np.float32)
    psf[:size, :size] = disc / disc.sum()
    psf = np.roll(psf, (-(size // 2), -(size // 2)), (0, 1))
    return cv2.dft(psf, flags=cv2.DFT_COMPLEX_OUTPUT)


# Wiener filters kept, in bytes: each is the padded crop's size x 8 bytes, 0.3-1.5 MB (a
# Pillars card's crop pads to 432x432: 1.5 MB, kept alone as the newest). A count (8) let
# them hold 12 MB, filled one new crop size at a time over an evening (issue 37); 3 MB
# made as many over the evening's 12 minutes as 1 MB does (17: the crops' sizes change
# from one deblur to the next), and held 2.8 MB all evening where 1 MB holds 0.3 (issue 71).
WIENER_BYTES = 1 << 20


class _Filters:
    """The Wiener filters made last, least recently used dropped past ``budget`` bytes
    (the newest always kept). A deblur is rare (a sticker the other variants did not
    read: a few a minute, in bursts of one crop size), so a filter made again costs
    little, and each one kept is a crop-sized spectrum held all evening."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.made = 0
        self._kept: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, shape: tuple[int, int], radius: float, noise: float) -> np.ndarray:
        key = (shape, radius, noise)
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        made = _wiener(shape, radius, noise)
        with self._lock:
            self.made += 1
            self._kept[key] = made
            while self.nbytes() > self.budget and len(self._kept) > 1:
                self._kept.popitem(last=False)
        return made

    def nbytes(self) -> int:
        return sum(f.nbytes for f in self._kept.values())

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.made = 0


def _wiener(shape: tuple[int, int], radius: float, noise: float) -> np.ndarray:
    """The Wiener filter conj(H) / (|H|^2 + noise) for a disc of ``radius`` px, in
    cv2.dft's complex layout; the mean light (H(0) = 1) passes unchanged. Crops come in a
    few padded sizes, so it is made once per size (kept in `FILTERS`) and each crop costs
    one forward and one inverse DFT."""
    otf = _disc_otf(shape, radius)
    hr, hi = otf[..., 0], otf[..., 1]
    power = hr * hr + hi * hi + noise
    power[0, 0] -= noise  # the mean light has no noise to hold back
    return np.dstack([hr / power, -hi / power])


FILTERS = _Filters(WIENER_BYTES)


def deblur(crop: np.ndarray, radius: float = DEBLUR_RADIUS,
           noise: float = DEBLUR_NOISE) -> np.ndarray:
    """A Wiener filter for a lens out of focus (a disc blur): modules smeared into their
    neighbours by up to 0.8 of their size get their edges back (bench: defocused stickers
    on the real table that no other variant reads). The crop is padded (mirrored) to a
    size the DFT is fast at (a 151 px side is prime: 9 ms, padded to 160: 1 ms) and so
    its edges do not wrap around into each other."""
    h, w = crop.shape
    pad = int(np.ceil(radius)) * 2 + 2
    H0, W0 = cv2.getOptimalDFTSize(h + 2 * pad), cv2.getOptimalDFTSize(w + 2 * pad)
    big = cv2.copyMakeBorder(crop, pad, H0 - h - pad, pad, W0 - w - pad,
                             cv2.BORDER_REFLECT_101)
    spectrum = cv2.dft(big.astype(np.float32), flags=cv2.DFT_COMPLEX_OUTPUT)
    out = cv2.mulSpectrums(spectrum, FILTERS.get((H0, W0), round(radius, 2), noise), 0)
    image = cv2.idft(out, flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)
    return np.clip(image[pad:pad + h, pad:pad + w], 0, 255).astype(np.uint8)


# A crop's cost in CPU ms per 1000 pixels of the picture a variant works on (the crop
# upscaled k times: k = 2, or 1 for big crops; ``wide`` and ``deblur`` always 2), median
# over the stills' crops on this machine (bench/camera.py --costs measures them).
# The budget counts these estimates, not the clock, so a frame reads the same whatever
# else the machine is doing (the neighbours' load made a clock budget cut different crops
# each run); the real CPU time of the pass is reported beside it (``cpu_ms``).
# ``deblurred_finders``: the crop deblurred, upscaled, binarised and searched for finder
# patterns, made once per crop for ``grid`` and ``deblur_geometry`` (whichever comes first
# is charged it).
COST_MS_PER_KPX = {"adaptive": 0.006, "wide": 0.006, "deblur": 0.016,
                   "deblurred_finders": 0.03, "geometry": 0.012, "sharp": 0.01,
                   "plain": 0.01, "grown": 0.015}
GEOMETRY_TRY_MS = 0.5  # each symbol the finder reader resamples and hands to zxing
GRID_TRY_MS = 2.2  # each grid the module reader models and solves (hardware.camera.modules)
# finder triples the module reader tries on a crop: its reads come from the first (tuned
# stills: 220 of 230), a crop it cannot read costs a grid a try
GRID_TRIES = 1
GRID_CANDIDATES = 8  # finder triples whose grids are compared before the best is read
GRID_CANDIDATE_MS = 0.05  # comparing one (modules.agreement)
TRY_MS = {"deblur_geometry": GEOMETRY_TRY_MS, "grid": GRID_TRY_MS}
SHARED = tuple(TRY_MS)  # the variants that read the deblurred crop's finder patterns
# finder triples the reader tries on a deblurred crop (12 on the plain one): its reads come
# from the first few, and a patch that is no symbol costs 0.5 ms a try
DEBLUR_TRIES = 3
UPSCALED = {"wide": 2.0, "deblur": 2.0, "sharp": 2.5, "plain": 2.0}
GROWN_READS = ("grid", "deblur_geometry", "deblur")  # what reads the crop cut again
GROWN_HYPOTHESES = 8  # finder triples whose symbols the grown crop must hold
GROWN_MARGIN = 2.0  # modules around them (zxing wants some quiet zone)
WIDE_SIGMA, WIDE_OFFSET = 3.0, 6  # the ``wide`` threshold: neighbourhood (crop px), offset


class _Crop:
    """One region's crop and the pictures its variants share (built on first use)."""

    def __init__(self, gray: np.ndarray, region: Region) -> None:
        self.region = region
        self.gray = gray
        self.crop = gray[region.y0:region.y1, region.x0:region.x1]
        # a lens's defocus in pixels grows with the resolution (the same scene at 1080p)
        self.scale = gray.shape[1] / 1280
        # a big crop holds big modules (a symbol and its quiet zone are about 33
        # modules): from 4 px per module on, the adaptive picture needs no upscaling
        self.k = 1.0 if min(self.crop.shape) / 33 >= 4 * 1.4 else 2.0
        self.up = self.binary = self.deblurred = None
        self._sharp_finders: tuple | None = None
        self.work: dict = {}  # the finder reader's tries

    @property
    def usable(self) -> bool:
        return self.crop.shape[0] >= 16 and self.crop.shape[1] >= 16

    def sharp(self) -> np.ndarray:
        """The crop Wiener-deblurred (made once, shared by the deblur variants)."""
        if self.deblurred is None:
            self.deblurred = deblur(self.crop, DEBLUR_RADIUS * self.scale)
        return self.deblurred

    def sharp_finders(self) -> tuple[np.ndarray, np.ndarray, list]:
        """The deblurred crop upscaled and binarised, and its finder patterns (found once,
        shared by ``deblur_geometry``, ``grid`` and ``grown``)."""
        if self._sharp_finders is None:
            up, binary = _binarise(self.sharp(), self.k)
            self._sharp_finders = up, binary, geometry.find_finders(binary)
            self.work["made"] = True
        return self._sharp_finders

    def _read_grid(self) -> list[Detection]:
        """The data modules read from a model of the blur learned on the symbol's known
        modules (hardware.camera.modules), on the grid of each of the first `GRID_TRIES`
        finder triples of the deblurred crop."""
        _, _, finders = self.sharp_finders()
        if not 2 <= len(finders) <= 6:
            return []
        module = float(np.median([f.module for f in finders]))
        k, image = self.k, self.sharp().astype(np.float32)
        grids = []  # (agreement, finder centres in crop px, size, in the upscaled crop)
        for count, (tl, tr, bl) in enumerate(geometry._triples(finders)):
            if count == GRID_CANDIDATES:
                break
            size = geometry._size(float(np.linalg.norm(tr - tl)) / module)
            if size is not None:
                centres = [(p + 0.5) / k - 0.5 for p in (tl, tr, bl)]
                grids.append((modules.agreement(image, *centres, size), count, centres,
                              size, (tl, tr, bl)))
        grids.sort(key=lambda g: -g[0])
        self.work["grids"] = len(grids)
        up = self.sharp_finders()[0]
        for tries, (_, _, centres, size, upscaled) in enumerate(grids[:GRID_TRIES], 1):
            # the symbol resampled and read by zxing first (a mild blur: as the finder
            # reader reads it, a fraction of the model's cost), then the module model
            self.work["resampled"] = tries
            text = geometry.read_at(up, *upscaled, module)
            if text is None:
                self.work["tries"] = tries
                text = modules.read(image, *centres, size)
            if text is not None:
                return [_detection(text, geometry.corners(np.float64(upscaled), size),
                                   self.region, k)]
        return []

    def cost(self, name: str, tries: int = 1) -> float:
        """Estimated CPU ms of trying variant ``name`` (see COST_MS_PER_KPX); the finder
        and module readers' by the symbols they tried (``tries``: 1 before, the count
        after), plus the deblurred crop's finders if this try made them (`work["made"]`;
        before the try: if nobody has)."""
        k = UPSCALED.get(name, self.k)
        h, w = self.crop.shape
        kpx = h * w * k * k / 1000
        if name in SHARED:
            made = self.work.get("made", self._sharp_finders is None)
            base = COST_MS_PER_KPX["deblurred_finders"] * kpx if made else 0.0
            return base + TRY_MS[name] * tries + GRID_CANDIDATE_MS * self.work.get(
                "grids", 0) + GEOMETRY_TRY_MS * self.work.get("resampled", 0)
        ms = COST_MS_PER_KPX.get(name, 0.02) * kpx
        if name == "grown":  # the crop cut again, once read (its size then known)
            return self.work.get("grown_ms", ms)
        return ms + GEOMETRY_TRY_MS * tries if name == "geometry" else ms

    def _read_grown(self) -> list[Detection]:
        """The crop cut again round the symbols its finders belong to (`grown`), read by
        the finder reader and zxing on it deblurred; its estimated cost is kept in
        ``work["grown_ms"]`` (charged with this crop's)."""
        grown = self.grown()
        if grown is None:  # the finder search only (charged here if this made it)
            self.work["grown_ms"] = self.cost("grid", 0) if self.work.get("made") else 0.0
            return []
        again = _Crop(self.gray, grown)
        found, ms = [], 0.0
        for name in GROWN_READS:
            again.work = {}
            found = again.read(name)
            ms += again.cost(name, again.work.get("tries", 0))
            if found:
                break
        self.work["grown_ms"] = ms
        return found

    def grown(self) -> Region | None:
        """The region holding every symbol the finder patterns seen in the deblurred crop
        can belong to (`geometry` triples: three finders, or two and a guess of the third),
        with `GROWN_MARGIN` modules round it; None when there are none or it adds nothing
        to this crop."""
        _, _, finders = self.sharp_finders()
        if not 2 <= len(finders) <= 6:
            return None
        module = float(np.median([f.module for f in finders]))
        points = []
        for count, (tl, tr, bl) in enumerate(geometry._triples(finders)):
            if count >= GROWN_HYPOTHESES:
                break
            size = geometry._size(float(np.linalg.norm(tr - tl)) / module)
            if size is not None:
                points += geometry.corners(np.float64([tl, tr, bl]), size)
        if not points:
            return None
        k, r, margin = self.k, self.region, GROWN_MARGIN * module
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        h, w = self.gray.shape[:2]
        grown = Region(max(0, int(r.x0 + (min(xs) - margin) / k)),
                       max(0, int(r.y0 + (min(ys) - margin) / k)),
                       min(w, int(r.x0 + (max(xs) + margin) / k) + 1),
                       min(h, int(r.y0 + (max(ys) + margin) / k) + 1), r.reason)
        if grown.x0 >= r.x0 and grown.y0 >= r.y0 and grown.x1 <= r.x1 and grown.y1 <= r.y1:
            return None  # the symbols lie inside: the crop already held them
        return Region(min(grown.x0, r.x0), min(grown.y0, r.y0), max(grown.x1, r.x1),
                      max(grown.y1, r.y1), r.reason)

    def read(self, name: str) -> list[Detection]:
        crop, region, k = self.crop, self.region, self.k
        if name in ("adaptive", "geometry") and self.binary is None:
            self.up, self.binary = _binarise(crop, k)
        if name == "adaptive":
            return _zxing(self.binary, zxingcpp.Binarizer.FixedThreshold, region, k)
        if name == "geometry":
            found = geometry.read(self.up, self.binary, work=self.work)
            return [] if found is None else [
                _detection(found[0], geometry.corners(found[1], found[2]), region, k)]
        if name == "wide":  # a wider neighbourhood and a deeper offset: heavy defocus
            _, binary = _binarise(crop, 2.0, WIDE_SIGMA * 2.0, WIDE_OFFSET)
            return _zxing(binary, zxingcpp.Binarizer.FixedThreshold, region, 2.0)
        if name == "deblur_geometry":  # the finder reader on the Wiener-deblurred crop
            up, binary, finders = self.sharp_finders()
            found = geometry.read(up, binary, DEBLUR_TRIES, work=self.work, finders=finders)
            if found is not None:
                return [_detection(found[0], geometry.corners(found[1], found[2]), region, k)]
            return []
        if name == "deblur":
            _, binary = _binarise(self.sharp(), 2.0)
            return _zxing(binary, zxingcpp.Binarizer.FixedThreshold, region, 2.0)
        if name == "grown":
            return self._read_grown()
        if name == "grid":
            return self._read_grid()
        if name == "sharp":
            soft = cv2.GaussianBlur(crop, (0, 0), 1.0)
            image = cv2.addWeighted(crop, 2.0, soft, -1.0, 0)
            image = cv2.resize(image, None, fx=2.5, fy=2.5, interpolation=cv2.INTER_CUBIC)
            return _zxing(image, zxingcpp.Binarizer.LocalAverage, region, 2.5)
        if name == "plain":
            image = cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
            return _zxing(image, zxingcpp.Binarizer.LocalAverage, region, 2.0)
        raise ValueError(f"unknown crop variant {name}")


def second_pass(decoder: Decoder, gray: np.ndarray, detections: list[Detection],
                wanted: list[Region], settings: RescueSettings,
                texture: TextureMap | None = None, skip=None,
                within: list[Region] | None = None
                ) -> tuple[list[Detection], dict[str, int], list[Region]]:
    """New detections from the track regions (first) and texture regions (then), within the
    budget. The variants are tried in rounds, cheapest first: every region gets the first
    variant before any gets the second, so one expensive crop (the finder reader failing
    on a defocused patch costs 5 ms) no longer spends the budget the other regions' cheap
    reads need. The budget counts estimated ms (`_Crop.cost`): deterministic.

    ``skip(region)`` drops texture regions known to fail; ``within`` (the changed parts of
    a still table's frame) keeps only regions overlapping them. Returns the new
    detections, counters (crops tried / read per reason and variant, ``budget_cut``:
    variant tries left out for the budget, ``cost_ms`` estimated and ``cpu_ms`` measured)
    and the texture regions that were tried and read nothing."""
    start = time.thread_time()  # CPU time of this thread: other processes do not count
    counts = {"track": 0, "track_read": 0, "texture": 0, "texture_read": 0,
              "budget_cut": 0}
    counts.update({f"{name}_read": 0 for name in settings.variants})
    regions = [r for r in wanted if not any(r.contains(d.centre) for d in detections)]
    if settings.textures:
        texture = texture or TextureMap(gray)
        for region in texture_regions(texture, detections, settings):
            if skip is not None and skip(region):
                counts["texture_skipped"] = counts.get("texture_skipped", 0) + 1
                continue
            if not any(region.overlap(r) > 0.6 for r in regions):
                regions.append(region)
    if within is not None:
        regions = [r for r in regions if any(r.overlap(w) > 0 for w in within)]
    seen = {d.payload for d in detections}
    found: list[Detection] = []
    crops = [_Crop(gray, r) for r in regions]
    crops = [c for c in crops if c.usable]
    done: set[int] = set()  # crops that read (or lie on a symbol read meanwhile)
    tried = [0] * len(crops)  # variants tried per crop
    spent = 0.0
    for round_, name in enumerate(settings.variants):
        for index, crop in enumerate(crops):
            if index in done:
                continue
            region = crop.region
            if any(region.contains(d.centre) for d in found):
                done.add(index)
                continue
            crop.work = {}
            if spent + crop.cost(name) > settings.budget_ms:
                counts["budget_cut"] += 1
                continue
            tried[index] += 1
            if round_ == 0:
                counts[region.reason] += 1
            read = crop.read(name)
            spent += crop.cost(name, crop.work.get("tries", 0))
            if read:
                done.add(index)
            for detection in read:
                if detection.payload not in seen:
                    seen.add(detection.payload)
                    found.append(detection)
                    counts[region.reason + "_read"] += 1
                    counts[f"{name}_read"] += 1
    # a patch every variant was tried on and none read (one the budget cut stays eligible)
    failed = [c.region for i, c in enumerate(crops) if i not in done and
              c.region.reason == "texture" and tried[i] == len(settings.variants)]
    counts["cost_ms"] = round(spent, 3)
    counts["cpu_ms"] = round((time.thread_time() - start) * 1000, 3)
    return found, counts, failed

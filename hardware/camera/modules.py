"""Reading a blurred symbol's data modules from a model of the blur learned on the symbol itself.

The finder reader (hardware.camera.geometry) resamples a crop upright and hands it to zxing,
which thresholds every module on its own: past about 0.6 module of defocus on small modules
(2.5-3 px at 1280x720) each module's light is as much its neighbours' as its own, and one
module in ten comes out wrong, too many for error correction (bench: `grid`, issue 50).

A QR symbol carries modules whose colour is known: its three finder patterns with their
separators, the timing rows, the alignment pattern, the dark module, and the quiet zone around
it. Sampled at module centres on the grid the finder patterns give, those known modules show
what the blur does on the grid whatever the lens: each sample is a light level plus a weighted
sum of the 3 x 3 modules around it, the weights fitted by least squares on the known modules
(so a lens's asymmetry, colour fringes and the sensor's own blur are in the model, not assumed).
The unknown modules are then the values in [0, 1] that best explain the samples under that
model (accelerated projected gradient), the sure ones fixed as known and the model fitted
again. The symbol is drawn clean from the decisions and read by zxing: Reed-Solomon and the
format's BCH code check every read as before, and the finders are drawn where the guess put
them, so a guess turned from the symbol reads nothing (`geometry._as_placed` as well).
"""
from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np
import zxingcpp

from hardware.camera.decode import printed_as_ours
from hardware.camera.geometry import PX, QUIET, _as_placed

RING = 3  # modules of quiet zone around the symbol sampled as known light
SURE = 0.3  # a module this far from 0.5 after a round is taken as known in the next
# solver steps in each round: the model fitted on the known modules, then again with the
# sure decisions of the first round held as known too (fewer left to solve)
ITERATIONS = (20, 10)
DAMPING = 0.02  # pulls an unexplained module towards 0.5 (undecided) rather than a colour


@lru_cache(maxsize=8)
def known(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(mask of known modules, their darkness 0/1) over the symbol of ``n`` modules and its
    sampled quiet ring (`RING`)."""
    size = n + 2 * RING
    mask = np.ones((size, size), bool)
    dark = np.zeros((size, size), np.float32)
    inner = np.zeros((n, n), bool)
    value = np.zeros((n, n), np.float32)
    for r0, c0 in ((0, 0), (0, n - 7), (n - 7, 0)):  # finders and their separators
        for r in range(-1, 8):
            for c in range(-1, 8):
                if 0 <= r0 + r < n and 0 <= c0 + c < n:
                    ring = max(abs(r - 3), abs(c - 3))
                    inner[r0 + r, c0 + c] = True
                    value[r0 + r, c0 + c] = 1.0 if ring <= 1 or ring == 3 else 0.0
    for i in range(8, n - 8):  # timing patterns
        inner[6, i] = inner[i, 6] = True
        value[6, i] = value[i, 6] = 1.0 if i % 2 == 0 else 0.0
    if n >= 25:  # one alignment pattern (versions 2-6), centred 7 modules from the corner
        a = n - 7
        for r in range(-2, 3):
            for c in range(-2, 3):
                inner[a + r, a + c] = True
                value[a + r, a + c] = 0.0 if max(abs(r), abs(c)) == 1 else 1.0
    inner[n - 8, 8], value[n - 8, 8] = True, 1.0  # the dark module
    mask[RING:RING + n, RING:RING + n] = inner
    dark[RING:RING + n, RING:RING + n] = value
    mask.flags.writeable = dark.flags.writeable = False
    return mask, dark


@lru_cache(maxsize=8)
def _grid(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Module centres (u, v) of the symbol and its quiet ring, in modules from its corner."""
    j = np.arange(n + 2 * RING, dtype=np.float32) - RING + 0.5
    u, v = np.meshgrid(j, j)
    u.flags.writeable = v.flags.writeable = False
    return u, v


def sample(image: np.ndarray, tl, tr, bl, n: int) -> np.ndarray:
    """The image's light at each module centre of the symbol (and its quiet ring) whose
    finder centres are ``tl``, ``tr``, ``bl`` (image px), bilinear."""
    ex, ey = (tr - tl) / (n - 7), (bl - tl) / (n - 7)
    origin = tl - 3.5 * ex - 3.5 * ey
    u, v = _grid(n)
    x = u * np.float32(ex[0]) + v * np.float32(ey[0]) + np.float32(origin[0])
    y = u * np.float32(ex[1]) + v * np.float32(ey[1]) + np.float32(origin[1])
    if image.dtype != np.float32:
        image = image.astype(np.float32)
    return cv2.remap(image, x, y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def agreement(image: np.ndarray, tl, tr, bl, n: int) -> float:
    """How well the symbol's known modules on this grid match the picture: the correlation
    of their darkness with the light sampled there, sign turned (about 0.8 on the right
    grid; a grid guessed from the wrong finders, or of the wrong size, scores far less)."""
    mask, dark = known(n)
    light = sample(image, tl, tr, bl, n)[mask]
    light -= light.mean()
    darkness = dark[mask] - dark[mask].mean()
    norm = float(np.sqrt((light * light).sum() * (darkness * darkness).sum()))
    return -float((light * darkness).sum()) / norm if norm > 0 else 0.0


def fit(samples: np.ndarray, mask: np.ndarray, dark: np.ndarray):
    """Least squares on the modules whose 3 x 3 neighbourhood is known: sample = light (a
    plane over the symbol) + 3 x 3 weights applied to the darkness. Returns the weights
    and the light per module."""
    size = samples.shape[0]
    full = cv2.erode(mask.astype(np.uint8), _BOX, borderType=cv2.BORDER_CONSTANT,
                     borderValue=0).astype(bool)
    rows, cols = np.nonzero(full)
    padded = np.pad(dark, 1)
    a = np.empty((len(rows), 12), np.float64)
    for i, (dr, dc) in enumerate(_NEIGHBOURS):
        a[:, i] = padded[rows + dr, cols + dc]
    a[:, 9] = 1.0
    a[:, 10] = (cols - size / 2) / size
    a[:, 11] = (rows - size / 2) / size
    b = samples[rows, cols].astype(np.float64)
    w = np.linalg.solve(a.T @ a + _RIDGE * len(b), a.T @ b)
    ramp = (np.arange(size, dtype=np.float32) - size / 2) / size
    light = np.float32(w[9]) + np.float32(w[10]) * ramp[None, :] \
        + np.float32(w[11]) * ramp[:, None]
    return w[:9].reshape(3, 3).astype(np.float32), light


_BOX = np.ones((3, 3), np.uint8)
_NEIGHBOURS = [(dr, dc) for dr in range(3) for dc in range(3)]  # padded offsets, row-major
_RIDGE = np.diag([1e-3] * 9 + [0.0] * 3)  # the weights held back a little, the light not


def solve(samples, mask, dark, weights, light, start=None, iterations: int = 20
          ) -> np.ndarray:
    """The darkness in [0, 1] of every module that best explains the samples under the
    model, the known ones held (FISTA on the normal equations: one filter a step with the
    weights' autocorrelation; its step from their largest gain)."""
    flipped = np.ascontiguousarray(weights[::-1, ::-1])
    gram = cv2.filter2D(np.pad(weights, 2), -1, weights,
                        borderType=cv2.BORDER_CONSTANT)  # 7 x 7, the 5 x 5 inside
    gram = np.ascontiguousarray(gram[1:6, 1:6])
    gain = float((np.abs(np.fft.fft2(weights, (32, 32))) ** 2).max()) + DAMPING
    step = 1.0 / gain
    # gradient = gram * x - flipped * (samples - light) + DAMPING (x - 0.5)
    offset = cv2.filter2D(samples - light, -1, flipped, borderType=cv2.BORDER_REPLICATE)
    offset += DAMPING * 0.5
    x = np.where(mask, dark, 0.5 if start is None else start).astype(np.float32)
    offset *= step
    z, t = x.copy(), 1.0
    keep = 1 - step * DAMPING
    for _ in range(iterations):
        new = cv2.addWeighted(z, keep, cv2.filter2D(z, -1, gram, borderType=cv2.BORDER_REPLICATE),
                              -step, 0)
        new += offset
        np.clip(new, 0, 1, out=new)
        np.copyto(new, dark, where=mask)
        t_next = (1 + math.sqrt(1 + 4 * t * t)) / 2
        z = cv2.addWeighted(new, 1 + (t - 1) / t_next, x, -(t - 1) / t_next, 0)
        x, t = new, t_next
    return x


def modules(image: np.ndarray, tl, tr, bl, n: int) -> np.ndarray:
    """Each module dark (True) or light, the symbol's own grid order."""
    mask, dark = known(n)
    samples = sample(image, tl, tr, bl, n)
    held, values, x = mask, dark, None
    for round_, iterations in enumerate(ITERATIONS):
        weights, light = fit(samples, held, values)
        x = solve(samples, held, values, weights, light, x, iterations)
        if round_ + 1 < len(ITERATIONS):  # the sure modules are known in the next round
            sure = ~held & (np.abs(x - 0.5) > SURE)
            held = held | sure
            values = np.where(sure, (x > 0.5).astype(np.float32), values)
    return x[RING:RING + n, RING:RING + n] > 0.5


def drawn(bits: np.ndarray) -> np.ndarray:
    """The symbol drawn clean (dark 0) with a quiet zone, as the finder reader draws its
    resampled symbol (`geometry.PX` px per module, `geometry.QUIET` modules round it)."""
    n = bits.shape[0]
    side = (n + 2 * QUIET) * PX
    out = np.full((side, side), 255, np.uint8)
    symbol = np.where(bits, 0, 255).astype(np.uint8)
    out[QUIET * PX:(QUIET + n) * PX, QUIET * PX:(QUIET + n) * PX] = cv2.resize(
        symbol, (n * PX, n * PX), interpolation=cv2.INTER_NEAREST)
    return out


def read(image: np.ndarray, tl, tr, bl, n: int) -> str | None:
    """The text of the symbol of ``n`` modules whose finder centres are ``tl``, ``tr``,
    ``bl`` in ``image`` (a deblurred gray crop), or None."""
    for result in zxingcpp.read_barcodes(
            drawn(modules(image, tl, tr, bl, n)), formats=zxingcpp.BarcodeFormat.QRCode,
            try_rotate=False, try_downscale=False, try_invert=False,
            binarizer=zxingcpp.Binarizer.FixedThreshold):
        if result.valid and _as_placed(result) and printed_as_ours(result):
            return result.text
    return None

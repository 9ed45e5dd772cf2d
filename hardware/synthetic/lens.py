"""How real lenses blur (issue 35): point-spread functions that vary across the frame.

A fixed-focus webcam or a Camera Module v2 at the wrong distance does not blur like a
perfect disc: its point-spread function (PSF) is part disc (the aperture's image), part
Gaussian (aberrations, the sensor's own spread), stretched along one axis towards the
corners (astigmatism: the tangential and sagittal foci differ) and stronger there (field
curvature), often with a little motion of the camera or the table on top. `Lens` describes
such a lens; `blur` applies it to a frame, `equivalent_radius` says how strong it is at a
point as the radius of the disc of the same spread along its worst axis (twice the PSF's
standard deviation there: a disc of radius r has r / 2), which is what `Truth.decodable`
compares with the module size.

Tuned families:

- `TUNING`: discs, Gaussians, their mixtures, elliptical, stronger towards the corners,
  with motion. The bench's `harsh_lens` stills; the reader may be tuned on these;
- `fringed` (issue 50, the bench's `harsh_fringe`): the same blur with a bright rim
  (spherical aberration), chromatic fringes (the red and blue images magnified apart
  towards the corners), vignetting and a rolling shutter's skew (rows read later shifted
  sideways while the camera moves);
- `HELD_OUT`: what no tuning uses (the bench's `lens_heldout`, reported on its own as
  `defocus_heldout_found`): a polygonal aperture (five or six blades) with a bright rim
  (spherical aberration: a "soap bubble" bokeh), a focal plane tilted against the table
  (the blur grows from one side of the frame to the other, not from the centre), and the
  astigmatism's long axis radial instead of tangential. It shares this module's code with
  the tuned families; `hardware.synthetic.ray_optics` is the held-out lens that shares
  none (issue 50).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

GRID = (5, 3)  # PSF samples across the frame (x, y); blended bilinearly between them


@dataclass(frozen=True)
class Lens:
    """A lens's blur in 1280x720 output px (scaled with the frame like everything else).

    At the frame's centre the PSF is ``mix`` x a disc of radius ``disc_px`` plus
    (1 - ``mix``) x a Gaussian of sigma ``gauss_px``; towards the corners both grow by up to
    ``corner_gain`` (field curvature) and stretch by up to 1 + ``astigmatism`` along the
    tangential direction (radial when ``radial_astigmatism``); ``motion`` (px during the
    exposure) smears the whole frame. Held-out shapes: ``blades`` (0: a round aperture),
    ``rim`` (0..1 of the disc's light in a bright ring at its edge), ``focus_tilt``
    (-1..1: the blur grows along x instead of with the distance from the centre)."""

    disc_px: float = 0.0
    gauss_px: float = 0.0
    mix: float = 1.0
    corner_gain: float = 1.0
    astigmatism: float = 0.0
    motion: tuple[float, float] = (0.0, 0.0)
    blades: int = 0
    rim: float = 0.0
    focus_tilt: float = 0.0
    radial_astigmatism: bool = False
    # issue 50: what a lens does besides blur
    fringe_px: float = 0.0  # red and blue images this far apart at the frame's corner
    falloff: float = 0.0  # light lost at the corner (vignetting), 0..1
    skew_px: float = 0.0  # rolling shutter: the bottom row shifted this far from the top

    def _field(self, u: float, v: float) -> tuple[float, float, float]:
        """(growth, stretch, angle of the long axis in radians) at normalised frame
        coordinates ``u``, ``v`` in -1..1 (the centre 0, 0)."""
        r2 = min(1.0, (u * u + v * v) / 2)
        if self.focus_tilt:
            growth = 1 + (self.corner_gain - 1) * (0.5 + 0.5 * self.focus_tilt * u)
        else:
            growth = 1 + (self.corner_gain - 1) * r2
        stretch = 1 + self.astigmatism * r2
        radial = math.atan2(v * 9, u * 16)  # the frame's aspect
        angle = radial if self.radial_astigmatism else radial + math.pi / 2
        return growth, stretch, angle

    def psf(self, u: float, v: float, scale: float = 1.0) -> np.ndarray:
        """The normalised PSF at normalised frame coordinates (``u``, ``v``)."""
        growth, stretch, angle = self._field(u, v)
        disc = self.disc_px * growth * scale
        sigma = self.gauss_px * growth * scale
        reach = max(disc * stretch, 3 * sigma * stretch, 0.5)
        half = int(math.ceil(reach)) + 1
        size = 2 * half + 1
        # sample 4x finer, then area-average: an anti-aliased aperture
        n = 4
        coords = (np.arange(size * n, dtype=np.float32) + 0.5) / n - size / 2
        xs, ys = np.meshgrid(coords, coords)
        c, s = math.cos(angle), math.sin(angle)
        along = (xs * c + ys * s) / stretch  # the long axis squeezed back to a circle
        across = -xs * s + ys * c
        rho = np.hypot(along, across)
        kernel = np.zeros_like(xs)
        if self.mix > 0 and disc > 0:
            edge = disc * self._aperture(np.arctan2(across, along))
            inside = (rho <= edge).astype(np.float32)
            if self.rim:
                inside *= 1 + self.rim * 4 * np.clip(rho / np.maximum(edge, 1e-6), 0, 1) ** 4
            total = float(inside.sum())
            if total > 0:
                kernel += self.mix * inside / total
        if self.mix < 1 and sigma > 0:
            gauss = np.exp(-(rho ** 2) / (2 * sigma * sigma)).astype(np.float32)
            kernel += (1 - self.mix) * gauss / float(gauss.sum())
        if not kernel.any():
            kernel[size * n // 2, size * n // 2] = 1
        kernel = cv2.resize(kernel, (size, size), interpolation=cv2.INTER_AREA)
        if math.hypot(*self.motion) >= 0.5:
            kernel = _with_motion(kernel, self.motion[0] * scale, self.motion[1] * scale)
        return kernel / kernel.sum()

    def _aperture(self, theta: np.ndarray) -> np.ndarray:
        """The aperture's radius at ``theta``, its corners at 1 (a regular polygon of
        ``blades`` sides; a circle without blades)."""
        if not self.blades:
            return np.ones_like(theta)
        sector = 2 * math.pi / self.blades
        local = np.mod(theta, sector) - sector / 2
        return (math.cos(sector / 2) / np.cos(local)).astype(np.float32)

    def equivalent_radius(self, x: float, y: float, width: float, height: float,
                          scale: float = 1.0) -> float:
        """The radius of the disc with the same spread as the PSF at image point (x, y)
        along the PSF's worst axis: twice its largest standard deviation."""
        kernel = self.psf(2 * x / width - 1, 2 * y / height - 1, scale)
        radius = _worst_radius(kernel)
        if self.fringe_px:  # red and blue apart by d: gray's spread grows by their weights
            d = self.fringe_px * scale * math.hypot(x - width / 2, y - height / 2) \
                / math.hypot(width / 2, height / 2)
            radius = 2 * math.sqrt((radius / 2) ** 2 + (0.299 + 0.114) * (d / 2) ** 2)
        return radius

    def moved(self, y: float, height: float, scale: float = 1.0) -> float:
        """How far the rolling shutter moved a point of row ``y`` sideways (px)."""
        return self.skew_px * scale * y / height


def _worst_radius(kernel: np.ndarray) -> float:
    size = kernel.shape[0]
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float64) - size // 2
    w = kernel.astype(np.float64)
    mx, my = float((w * xs).sum()), float((w * ys).sum())
    cxx = float((w * (xs - mx) ** 2).sum())
    cyy = float((w * (ys - my) ** 2).sum())
    cxy = float((w * (xs - mx) * (ys - my)).sum())
    worst = (cxx + cyy) / 2 + math.sqrt(((cxx - cyy) / 2) ** 2 + cxy * cxy)
    # a pixel's own extent (1/12 a side) is in every sampled kernel: not blur
    return 2 * math.sqrt(max(0.0, worst - 1 / 12))


def _with_motion(kernel: np.ndarray, dx: float, dy: float) -> np.ndarray:
    length = max(1, int(math.ceil(math.hypot(dx, dy))))
    size = length + 2 if length % 2 else length + 3
    line = np.zeros((size, size), np.float32)
    c = size // 2
    cv2.line(line, (int(round(c - dx / 2)), int(round(c - dy / 2))),
             (int(round(c + dx / 2)), int(round(c + dy / 2))), 1.0, 1, cv2.LINE_AA)
    line /= line.sum()
    pad = size // 2
    grown = cv2.copyMakeBorder(kernel, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    return cv2.filter2D(grown, -1, line, borderType=cv2.BORDER_CONSTANT)


def blur(image: np.ndarray, lens: Lens, scale: float = 1.0) -> np.ndarray:
    """``image`` seen through ``lens``: the PSF sampled on a `GRID` over the frame, each
    sample's blurred picture weighted by a tent around its node (bilinear blending, no
    seams)."""
    h, w = image.shape[:2]
    gx, gy = GRID
    xs = np.linspace(0, w - 1, gx)
    ys = np.linspace(0, h - 1, gy)
    out = np.zeros(image.shape, np.float32)
    source = image.astype(np.float32)
    for j, ny in enumerate(ys):
        for i, nx in enumerate(xs):
            kernel = lens.psf(2 * nx / (w - 1) - 1, 2 * ny / (h - 1) - 1, scale)
            pad = kernel.shape[0] // 2 + 1
            x0 = int(xs[i - 1]) if i else 0
            x1 = int(math.ceil(xs[i + 1])) + 1 if i + 1 < gx else w
            y0 = int(ys[j - 1]) if j else 0
            y1 = int(math.ceil(ys[j + 1])) + 1 if j + 1 < gy else h
            a, b = max(0, x0 - pad), max(0, y0 - pad)
            c, d = min(w, x1 + pad), min(h, y1 + pad)
            part = cv2.filter2D(source[b:d, a:c], -1, kernel, borderType=cv2.BORDER_REFLECT)
            part = part[y0 - b:y1 - b, x0 - a:x1 - a]
            tx = _tent(np.arange(x0, x1, dtype=np.float32), nx, xs, i)
            ty = _tent(np.arange(y0, y1, dtype=np.float32), ny, ys, j)
            weight = ty[:, None] * tx[None, :]
            if part.ndim == 3:
                weight = weight[..., None]
            out[y0:y1, x0:x1] += part * weight
    if lens.fringe_px and out.ndim == 3:
        out = _fringes(out, lens.fringe_px * scale)
    if lens.falloff:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        factor = 1 - lens.falloff * r2
        out *= factor[..., None] if out.ndim == 3 else factor
    if lens.skew_px:
        shear = np.float32([[1, lens.skew_px * scale / h, 0], [0, 1, 0]])
        out = cv2.warpAffine(out, shear, (w, h), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _fringes(image: np.ndarray, px: float) -> np.ndarray:
    """Lateral chromatic aberration: red magnified, blue shrunk about the centre, each by
    half of ``px`` at the corner (BGR)."""
    h, w = image.shape[:2]
    corner = math.hypot(w / 2, h / 2)
    out = image.copy()
    for channel, sign in ((0, -1), (2, 1)):
        k = 1 + sign * px / 2 / corner
        m = np.float32([[k, 0, (1 - k) * w / 2], [0, k, (1 - k) * h / 2]])
        out[..., channel] = cv2.warpAffine(image[..., channel], m, (w, h),
                                           flags=cv2.INTER_LINEAR,
                                           borderMode=cv2.BORDER_REPLICATE)
    return out


def _tent(at: np.ndarray, node: float, nodes: np.ndarray, index: int) -> np.ndarray:
    """Bilinear weights of ``node`` (1 there, 0 at its neighbours; 1 beyond the outer ones)."""
    out = np.ones_like(at)
    if index > 0:
        left = nodes[index - 1]
        out = np.where(at < node, np.clip((at - left) / (node - left), 0, 1), out)
    if index + 1 < len(nodes):
        right = nodes[index + 1]
        out = np.where(at > node, np.clip((right - at) / (right - node), 0, 1), out)
    return out


def tuning(rng: np.random.Generator, strength: float) -> Lens:
    """A lens of the tuning family: disc, Gaussian or a mixture, elliptical towards the
    corners, with a little motion; ``strength`` is its equivalent radius (px) at the centre."""
    kind = str(rng.choice(["disc", "gauss", "mix"]))
    mix = {"disc": 1.0, "gauss": 0.0}.get(kind, float(rng.uniform(0.3, 0.7)))
    angle = float(rng.uniform(0, math.pi))
    length = float(rng.uniform(0, 1.5))
    return Lens(disc_px=strength, gauss_px=strength / 2, mix=mix,
                corner_gain=float(rng.uniform(1.1, 1.6)),
                astigmatism=float(rng.uniform(0.0, 0.6)),
                motion=(length * math.cos(angle), length * math.sin(angle)))


def fringed(rng: np.random.Generator, strength: float) -> Lens:
    """A lens of the second tuned family (issue 50): the tuning blur with a bright rim
    (spherical aberration), colour fringes, vignetting and a rolling shutter's skew."""
    base = tuning(rng, strength)
    return Lens(disc_px=base.disc_px, gauss_px=base.gauss_px, mix=base.mix,
                corner_gain=base.corner_gain, astigmatism=base.astigmatism,
                motion=base.motion, rim=float(rng.uniform(0.0, 0.8)),
                fringe_px=float(rng.uniform(0.5, 2.5)), falloff=float(rng.uniform(0.1, 0.4)),
                skew_px=float(rng.uniform(-8, 8)))


def held_out(rng: np.random.Generator, strength: float) -> Lens:
    """A lens of the held-out family (no tuning uses it): a five- or six-bladed aperture
    with a bright rim, a focal plane tilted across the frame, radial astigmatism, motion."""
    angle = float(rng.uniform(0, math.pi))
    length = float(rng.uniform(0, 1.5))
    return Lens(disc_px=strength, gauss_px=strength / 2, mix=float(rng.uniform(0.6, 1.0)),
                corner_gain=float(rng.uniform(1.2, 1.7)),
                astigmatism=float(rng.uniform(0.1, 0.5)),
                motion=(length * math.cos(angle), length * math.sin(angle)),
                blades=int(rng.choice([5, 6])), rim=float(rng.uniform(0.3, 1.0)),
                focus_tilt=float(rng.choice([-1.0, 1.0])), radial_astigmatism=True)

"""A held-out lens (issue 50): blur traced through an aberrated pupil, sharing no code with
`hardware.synthetic.lens` (the families the reader may be tuned on).

`lens.Lens` draws its point-spread function (PSF) as shapes: a disc, a Gaussian, a polygon,
stretched and blended with tents between grid nodes. A real lens's PSF is what the rays
through its aperture make of a point: this module traces them. Rays through a circular
pupil (a few thousand, fixed per lens) land off the ideal image point by the gradient of
the wavefront error, a sum of Seidel terms: defocus, spherical aberration, coma and
astigmatism growing with the field, field curvature; each colour channel focuses at its
own depth (longitudinal chromatic aberration) and at its own magnification (lateral
chromatic aberration: colour fringes towards the corners). The landing points are splatted
into a kernel per channel and per field point; the frame is blended between field points
with normalised Gaussian weights. On top: the lens's natural falloff (cos^4 of the field
angle, plus the barrel's mechanical vignetting) and a rolling shutter (each row read a
little later while the camera sways: rows shifted sideways).

Nothing here is imported by the reader or the tuned conditions: the bench reports
`optics_heldout` on its own (`defocus_heldout_found`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

RAYS = 3000
FIELD_NODES = (4, 3)  # field points the PSF is traced at (x, y)
LUMA = (0.114, 0.587, 0.299)  # B, G, R weights of the gray picture the reader sees


@dataclass(frozen=True)
class RayLens:
    """Seidel wavefront terms, as transverse ray error in 1280x720 output px at the pupil's
    edge: ``defocus`` (the focus error at the centre), ``spherical``, ``coma`` and
    ``astigmatism`` (both at the frame's corner, growing linearly and quadratically with the
    field), ``curvature`` (extra defocus at the corner); ``axial_colour`` (red focused
    behind, blue in front, px of defocus between them), ``lateral_colour`` (px the red and
    blue images are shifted apart at the corner); ``falloff`` (mechanical vignetting at the
    corner, 0..1), ``half_field_deg`` (the corner's field angle, for cos^4); ``sway``
    (px a row at the bottom is shifted against the top: a rolling shutter while the camera
    sways, with a wobble of ``wobble`` px)."""

    defocus: float
    spherical: float = 0.0
    coma: float = 0.0
    astigmatism: float = 0.0
    curvature: float = 0.0
    axial_colour: float = 0.0
    lateral_colour: float = 0.0
    falloff: float = 0.0
    half_field_deg: float = 35.0
    sway: float = 0.0
    wobble: float = 0.0
    seed: int = 0

    def rays(self, fx: float, fy: float, channel: int, scale: float = 1.0) -> np.ndarray:
        """Where the rays of a point at field (``fx``, ``fy``) (-1..1, the corner at
        |f| = 1) land, in output px relative to its ideal image, for ``channel`` (0 B,
        1 G, 2 R)."""
        pupil = _pupil(self.seed)
        px, py = pupil[:, 0], pupil[:, 1]
        h = min(1.0, math.hypot(fx, fy * 9 / 16) / math.hypot(1, 9 / 16))  # field height
        axis = math.atan2(fy * 9, fx * 16) if h > 0 else 0.0
        c, s = math.cos(axis), math.sin(axis)
        # the pupil in the meridional frame (u along the field's radius)
        u, v = px * c + py * s, -px * s + py * c
        focus = self.defocus + self.curvature * h * h + self.axial_colour * (channel - 1) / 2
        rho2 = u * u + v * v
        # transverse ray errors (dW/du, dW/dv) of W = d rho^2 + S rho^4 + C h rho^2 u
        # + A h^2 u^2, each scaled so the term's error at the pupil's edge is its value
        du = focus * u + self.spherical * rho2 * u
        dv = focus * v + self.spherical * rho2 * v
        coma = self.coma * h
        du += coma * (3 * u * u + v * v) / 3
        dv += coma * (2 * u * v) / 3
        du += self.astigmatism * h * h * u
        shift = self.lateral_colour * h * (channel - 1) / 2
        du = du + shift
        x = (du * c - dv * s) * scale
        y = (du * s + dv * c) * scale
        return np.stack([x, y], 1)

    def kernel(self, fx: float, fy: float, channel: int, scale: float = 1.0) -> np.ndarray:
        """The channel's PSF at a field point: its rays splatted bilinearly (sums to 1)."""
        return _splat(self.rays(fx, fy, channel, scale))

    def spread(self, x: float, y: float, width: float, height: float,
               scale: float = 1.0) -> float:
        """The blur the reader sees at image point (x, y), as the radius of the disc of the
        same spread along the worst axis: twice the largest standard deviation of the
        gray picture's rays (the three channels weighted as gray weighs them)."""
        fx, fy = 2 * x / width - 1, 2 * y / height - 1
        points, weights = [], []
        for channel, weight in enumerate(LUMA):
            r = self.rays(fx, fy, channel, scale)
            points.append(r)
            weights.append(np.full(len(r), weight))
        p, w = np.vstack(points), np.concatenate(weights)
        w = w / w.sum()
        mean = (p * w[:, None]).sum(0)
        d = p - mean
        cov = (d * w[:, None]).T @ d
        worst = float(np.linalg.eigvalsh(cov)[-1])
        return 2 * math.sqrt(max(worst, 0.0))

    def apply(self, image: np.ndarray, scale: float = 1.0) -> np.ndarray:
        """``image`` (BGR uint8) through the lens: blur per channel and field point, the
        falloff, then the rolling shutter."""
        h, w = image.shape[:2]
        nx, ny = FIELD_NODES
        xs = (np.arange(nx) + 0.5) / nx * w
        ys = (np.arange(ny) + 0.5) / ny * h
        sigma_x, sigma_y = w / nx * 0.6, h / ny * 0.6
        gx = np.exp(-((np.arange(w)[None, :] - xs[:, None]) / sigma_x) ** 2 / 2)
        gy = np.exp(-((np.arange(h)[None, :] - ys[:, None]) / sigma_y) ** 2 / 2)
        gx /= gx.sum(0, keepdims=True)  # a partition of unity along each axis
        gy /= gy.sum(0, keepdims=True)
        src = image.astype(np.float32)
        out = np.zeros_like(src)
        for j in range(ny):
            for i in range(nx):
                weight = (gy[j][:, None] * gx[i][None, :]).astype(np.float32)
                fx, fy = 2 * xs[i] / w - 1, 2 * ys[j] / h - 1
                for channel in range(3):
                    k = self.kernel(fx, fy, channel, scale)
                    out[..., channel] += weight * cv2.filter2D(
                        src[..., channel], -1, k, borderType=cv2.BORDER_REFLECT_101)
        out *= self._falloff(w, h)[..., None]
        if self.sway or self.wobble:
            out = self._rolling(out, scale)
        return np.clip(out + 0.5, 0, 255).astype(np.uint8)

    def _falloff(self, w: int, h: int) -> np.ndarray:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r = np.hypot((xx - w / 2) / (w / 2), (yy - h / 2) / (w / 2)) / math.hypot(1, h / w)
        theta = np.arctan(r * math.tan(math.radians(self.half_field_deg)))
        natural = np.cos(theta) ** 4
        mechanical = 1 - self.falloff * np.clip((r - 0.6) / 0.4, 0, 1) ** 2
        return (natural * mechanical).astype(np.float32)

    def _rolling(self, image: np.ndarray, scale: float) -> np.ndarray:
        h, w = image.shape[:2]
        rows = np.arange(h, dtype=np.float32) / max(1, h - 1)
        shift = (self.sway * rows + self.wobble * np.sin(2 * math.pi * 1.7 * rows)) * scale
        map_x = np.arange(w, dtype=np.float32)[None, :] - shift[:, None]
        map_y = np.repeat(np.arange(h, dtype=np.float32)[:, None], w, 1)
        return cv2.remap(image, map_x.astype(np.float32), map_y, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REFLECT_101)

    def moved(self, x: float, y: float, height: float, scale: float = 1.0) -> float:
        """How far the rolling shutter moved image point (x, y) sideways (px)."""
        row = y / max(1.0, height - 1)
        return (self.sway * row + self.wobble * math.sin(2 * math.pi * 1.7 * row)) * scale


def _pupil(seed: int) -> np.ndarray:
    """``RAYS`` points spread evenly over the unit disc (a Fibonacci spiral, jittered)."""
    rng = np.random.default_rng(4242 + seed)
    k = np.arange(RAYS) + rng.uniform(0, 1, RAYS)
    r = np.sqrt(k / RAYS)
    phi = k * math.pi * (3 - math.sqrt(5))
    return np.stack([r * np.cos(phi), r * np.sin(phi)], 1)


def _splat(points: np.ndarray) -> np.ndarray:
    """A normalised kernel from landing points (px): each point shared bilinearly among the
    four pixels around it; odd size, centred on the ideal image point."""
    reach = int(math.ceil(float(np.abs(points).max()))) + 2 if len(points) else 2
    size = 2 * reach + 1
    x = points[:, 0] + reach
    y = points[:, 1] + reach
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = x - x0, y - y0
    kernel = np.zeros((size, size), np.float64)
    for dx, dy, wgt in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)),
                        (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
        np.add.at(kernel, (np.clip(y0 + dy, 0, size - 1), np.clip(x0 + dx, 0, size - 1)), wgt)
    return (kernel / kernel.sum()).astype(np.float32)


def held_out(rng: np.random.Generator, strength: float) -> RayLens:
    """A held-out lens whose defocus at the centre is ``strength`` px (transverse error at
    the pupil's edge); the other terms drawn in proportion, colour and sway on top."""
    return RayLens(
        defocus=strength * float(rng.choice([-1.0, 1.0])),
        spherical=strength * float(rng.uniform(-0.4, 0.4)),
        coma=float(rng.uniform(0.3, 1.6)), astigmatism=float(rng.uniform(0.2, 1.2)),
        curvature=float(rng.uniform(-0.8, 0.8)), axial_colour=float(rng.uniform(0.4, 1.6)),
        lateral_colour=float(rng.uniform(0.5, 2.0)), falloff=float(rng.uniform(0.1, 0.4)),
        half_field_deg=float(rng.uniform(28, 40)), sway=float(rng.uniform(-6, 6)),
        wobble=float(rng.uniform(0, 2)), seed=int(rng.integers(0, 1000)))

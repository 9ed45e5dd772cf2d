"""A lens that can be out of focus on the table, and room lights that flicker (issue 62).

Used by the stand-in rpicam-vid (tests/hardware/standin/rpicam_vid.py) and the focus and
flicker bench, so the stand-in's frames are blurred by the renderers' own lens model
(`lens.Lens`, `lens.blur`) and banded by one light model.

Focus, in dioptres (1 / metres, as ``--lens-position`` takes them): a thin lens focused at
``L`` dioptres blurs a point at ``D`` dioptres into a disc of diameter A x f x |L - D| on the
sensor (A the aperture's diameter, f the focal length; the object far from the lens against
f). Camera Module 3: f = 4.74 mm at f/1.8 (A = 2.63 mm): 12.5 um per dioptre, on a
4608-pixel row 6.45 mm wide, i.e. a radius of about 1.24 px per dioptre at 1280 px
(`CM3_RADIUS_PX_PER_DIOPTRE`). A table 60 cm below the lens is at 1.67 D; a hand 30 cm
from the lens at 3.33 D: with the lens on the hand, the table blurs by a 2 px radius.

Flicker: lights on mains of ``hz`` pulse at twice that rate (period T = 1 / (2 hz): 10 ms
at 50 Hz, 8.33 ms at 60 Hz); modelled as L(t) = 1 + depth x cos(2 pi t / T). A rolling
shutter exposes each row for E seconds starting one line later than the row above, so row
r sees the mean of L over [t_r, t_r + E]: 1 + depth x T / (pi E) x sin(pi E / T) x
cos(2 pi (t_r + E / 2) / T), no ripple at all when E is a whole number of periods. The
bands move between frames by (frame interval mod T). libcamera's AGC with a flicker period
(``--flicker-period``, AeFlickerMode manual) rounds the shutter down to a whole number of
periods when it is at least one period long, and raises the gain to match
(`flicker_shutter`, src/ipa/rpi/controller/rpi/agc_channel.cpp, "flicker avoidance"); a
shutter shorter than one period is left as it is: in a room bright enough for that, the
bands stay.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from hardware.synthetic import lens

CM3_RADIUS_PX_PER_DIOPTRE = 1.24  # at 1280 px across the whole sensor (see above)


def blur_radius(lens_dioptres: float, object_dioptres: float, width: int = 1280,
                per_dioptre: float = CM3_RADIUS_PX_PER_DIOPTRE) -> float:
    """Radius (px at ``width``) of the disc a point at ``object_dioptres`` blurs into."""
    return abs(lens_dioptres - object_dioptres) * per_dioptre * width / 1280


def defocused(image: np.ndarray, radius_px: float) -> np.ndarray:
    """``image`` seen through the renderers' lens model (`lens.Lens`'s PSF: mostly the
    aperture's disc of ``radius_px``, a little Gaussian), the same across the frame (a lens
    off focus by the same dioptres everywhere on a flat table). A frame wider than 1920 px
    is blurred at a quarter of its size and scaled back: the blur is then at least a pixel
    or two of the small one, and the camera's full stream costs seconds a frame otherwise."""
    if radius_px < 0.25:
        return image
    height, width = image.shape[:2]
    shrink = 4 if width > 1920 else 1
    small = image if shrink == 1 else cv2.resize(image, (width // shrink, height // shrink),
                                                 interpolation=cv2.INTER_AREA)
    psf = lens.Lens(disc_px=radius_px / shrink, gauss_px=radius_px / shrink / 2,
                    mix=0.8).psf(0.0, 0.0)
    out = cv2.filter2D(small, -1, psf, borderType=cv2.BORDER_REFLECT)
    if shrink == 1:
        return out
    return cv2.resize(out, (width, height), interpolation=cv2.INTER_LINEAR)


def flicker_shutter(shutter_us: float, gain: float, period_us: float) -> tuple[float, float]:
    """The shutter and gain libcamera's AGC uses once a flicker period is set: the shutter
    rounded down to whole periods (when at least one), the gain raised to keep the exposure."""
    if period_us <= 0:
        return shutter_us, gain
    periods = int(shutter_us // period_us)
    if not periods:
        return shutter_us, gain
    new = periods * period_us
    return new, gain * shutter_us / new


def ripple(shutter_us: float, mains_hz: float, depth: float) -> float:
    """The bands' amplitude (0..depth): how far a row's brightness swings from the mean."""
    if not mains_hz or not depth or shutter_us <= 0:
        return 0.0
    period = 1e6 / (2 * mains_hz)
    x = math.pi * shutter_us / period
    return depth * abs(math.sin(x)) / x


def row_gains(height: int, shutter_us: float, mains_hz: float, depth: float,
              start_us: float, row_us: float) -> np.ndarray:
    """Each row's brightness factor (float32, ``height``) in a frame whose first row starts
    its exposure at ``start_us`` and each next row ``row_us`` later."""
    if not mains_hz or not depth or shutter_us <= 0:
        return np.ones(height, np.float32)
    period = 1e6 / (2 * mains_hz)
    x = math.pi * shutter_us / period
    t = start_us + np.arange(height, dtype=np.float64) * row_us + shutter_us / 2
    return (1 + depth * math.sin(x) / x * np.cos(2 * math.pi * t / period)).astype(np.float32)


def banded(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``image`` (gray or BGR) with each row scaled by its gain."""
    shape = (-1, 1, 1) if image.ndim == 3 else (-1, 1)
    return np.clip(image.astype(np.float32) * gains.reshape(shape) + 0.5, 0, 255
                   ).astype(np.uint8)

"""A die's body colour (pips.py `_body`, issue 64 part B): the median of the top's body
pixels, `common._median_colour` (a stable sort of each channel), np.median's figures."""
from __future__ import annotations

import numpy as np

from hardware.camera.dice_faces import pips
from hardware.camera.dice_faces.common import _INNER, _median_colour


def test_the_median_colour_is_numpys():
    """Odd and even counts of pixels, of one and many levels, on both sides of a divide.
    Planted faults (s80): the upper middle rank taken as the lower one (no half levels
    between the two middle pixels of an even count); (s81) the middle's position taken as
    half the count, not half of one less: both tests failed."""
    rng = np.random.default_rng(64)
    for count in (1, 2, 3, 4, 20, 21, 577, 1296):
        for spread in (1, 3, 256):
            colours = rng.integers(0, spread, (count, 3), dtype=np.uint8) + np.uint8(
                rng.integers(0, 256 - spread + 1))
            got = _median_colour(colours)
            want = np.median(colours, axis=0)
            assert got.dtype == want.dtype == np.float64
            np.testing.assert_array_equal(got, want)


def test_a_body_is_the_median_of_its_side_of_the_divide():
    """`_body`'s colour, of the top's pixels on the body's side (light or dark) or of the
    whole top, is np.median of those pixels (the top reshaped, the divide's mask
    flattened)."""
    rng = np.random.default_rng(65)
    for _ in range(20):
        square = rng.integers(0, 256, (pips.CANON, pips.CANON, 3), dtype=np.uint8)
        inner8 = square[_INNER, _INNER].mean(axis=2).astype(np.uint8)
        below = int(rng.integers(60, 200))
        colours = square[_INNER, _INNER].reshape(-1, 3)
        for light_body in (True, False):
            side = ((inner8 > below) if light_body else (inner8 <= below)).ravel()
            np.testing.assert_array_equal(
                pips._body(square, inner8, below, light_body, False)(),
                np.median(colours[side], axis=0))
        np.testing.assert_array_equal(pips._body(square, inner8, below, True, True)(),
                                      np.median(colours, axis=0))

"""find_cards' shortcuts give numpy's and the colour path's answers (issue 71): the median
by partial sort, two grey frames' difference on their one channel, and the specks left out
before their hull is taken."""
import cv2
import numpy as np
import pytest

from hardware.camera import card_finding
from hardware.camera.percentile import median


@pytest.mark.parametrize("size", [1, 2, 7, 16, 256, 257])
def test_median_is_numpys(size):
    rng = np.random.default_rng(size)
    for dtype in (np.float32, np.uint8):
        values = (rng.random(size) * 255).astype(dtype)
        assert median(values) == np.median(values)
        assert median(values.reshape(1, -1)) == np.median(values)


def test_grey_difference_is_the_colour_paths():
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, (60, 80), dtype=np.uint8)
    empty = rng.integers(0, 256, (60, 80), dtype=np.uint8)
    colour = card_finding._difference(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), empty)
    assert np.array_equal(card_finding._difference(frame, empty), colour)


def test_a_card_sized_contour_is_still_a_card_and_a_speck_is_not():
    card = np.int32([[10, 10], [80, 10], [80, 130], [10, 130]]).reshape(-1, 1, 2)
    assert card_finding._card_quad(card, 40, 400) is not None
    speck = np.int32([[10, 10], [50, 10], [50, 30], [10, 30]]).reshape(-1, 1, 2)
    assert card_finding._card_quad(speck, 40, 400) is None


def test_the_gradients_round_an_outline_are_the_whole_frames():
    """Issue 71 (thirteenth round): `_snapped` samples the Sobel gradients only round the
    points it asks for (`_Gradients`): the same values as the whole frame's, near the
    frame's edges and off it too. Planted fault caught: `SOBEL_MARGIN` 0 (the crop's own
    edge reflected into the samples on it): the values differed (1 and 3 pass)."""
    rng = np.random.default_rng(71)
    image = rng.integers(0, 256, (120, 160), dtype=np.uint8)
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)
    gradients = card_finding._Gradients(image)
    for _ in range(300):  # a side's samples: 24 points along, 11 across, as `_snapped`'s
        a = rng.uniform(-20, 180, 2).astype(np.float32)
        along = rng.uniform(-60, 60, 2).astype(np.float32)
        normal = rng.uniform(-1, 1, 2).astype(np.float32)
        t = np.linspace(0.12, 0.88, 24, dtype=np.float32)
        offsets = np.arange(-5, 6, dtype=np.float32)
        base = a[None] + t[:, None] * along[None]
        xs = base[:, 0:1] + offsets[None] * normal[0]
        ys = base[:, 1:2] + offsets[None] * normal[1]
        sx, sy = gradients.sample(xs, ys)
        assert np.array_equal(sx, cv2.remap(gx, xs, ys, cv2.INTER_LINEAR))
        assert np.array_equal(sy, cv2.remap(gy, xs, ys, cv2.INTER_LINEAR))

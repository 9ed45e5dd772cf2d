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

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


def _numpy_brighter(value, window, pale=None):
    """`card_finding._brighter` as it was before session 86 (numpy's int16 sums and bools)."""
    value = cv2.GaussianBlur(value, (5, 5), 0)
    around = cv2.blur(value, (window, window))
    mask = value.astype(np.int16) > around.astype(np.int16) + card_finding.BRIGHTER
    if pale is not None:
        mask &= pale
    mask = cv2.morphologyEx(mask.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))


def test_the_paper_and_change_masks_are_numpys():
    """Issue 71 (session 86): the paper mask's and the change mask's comparisons made in
    OpenCV's uint8 (a saturating subtraction, a threshold) and the one 5×5 blur shared by
    the edges, the paper and the difference: the same masks as numpy's, every pixel, at
    and either side of each level. Planted faults caught: `CMP_GE` for `CMP_GT` (a pixel
    exactly `BRIGHTER` over its surroundings counted) and the threshold at ``level - 1``:
    both failed."""
    rng = np.random.default_rng(86)
    for size in ((61, 83), (120, 160)):
        # blotches of paper on a noisy table, so many pixels lie at each level's edge
        base = cv2.resize(rng.integers(60, 200, (6, 8), dtype=np.uint8), size[::-1],
                          interpolation=cv2.INTER_NEAREST)
        value = cv2.add(base, rng.integers(0, 30, size, dtype=np.uint8))
        pale = rng.random(size) < 0.8
        for window in (31, 41):
            assert np.array_equal(card_finding._brighter(value, window),
                                  _numpy_brighter(value, window))
            assert np.array_equal(card_finding._brighter(value, window, pale),
                                  _numpy_brighter(value, window, pale))
            assert np.array_equal(
                card_finding._brighter(value, window, smooth=card_finding._smooth(value)),
                _numpy_brighter(value, window))
        diff = rng.integers(0, 60, size, dtype=np.uint8)
        for level in (card_finding.CHANGED, card_finding.CHANGED_FAINT, 12.5):
            expected = cv2.morphologyEx((diff > level).astype(np.uint8) * 255, cv2.MORPH_OPEN,
                                        np.ones((3, 3), np.uint8))
            assert np.array_equal(card_finding._changed(diff, level), expected)
        empty = rng.integers(0, 256, size, dtype=np.uint8)
        assert np.array_equal(card_finding._difference(value, empty, card_finding._smooth(value)),
                              card_finding._difference(value, empty))

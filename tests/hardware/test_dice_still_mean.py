"""The settler's mean of still frames: OpenCV's rounding weighted sum, exactly the integer
mean rounded down it replaced (hardware/camera/dice_settle.py `still_mean`)."""
import cv2
import numpy as np
import pytest

from hardware.camera.dice_settle import still_mean


def _every_triple() -> list[np.ndarray]:
    levels = np.arange(256, dtype=np.uint8)
    a, b, c = np.meshgrid(levels, levels, levels, indexing="ij")
    return [x.reshape(4096, 4096).copy() for x in (a, b, c)]


def test_the_mean_of_three_frames_is_the_sum_rounded_down_for_every_three_levels():
    frames = _every_triple()
    expected = (sum(f.astype(np.int32) for f in frames) // 3).astype(np.uint8)
    assert np.array_equal(still_mean(frames), expected)
    # the same data tells a rounded mean apart (what the offset in still_mean is for)
    rounded = cv2.addWeighted(cv2.add(frames[0], frames[1], dtype=cv2.CV_16U), 1 / 3,
                              frames[2], 1 / 3, 0.0, dtype=cv2.CV_8U)
    assert not np.array_equal(rounded, expected)


@pytest.mark.parametrize("count", [1, 2, 4, 5, 8])
def test_the_mean_of_any_number_of_colour_frames_is_rounded_down(count):
    rng = np.random.default_rng(count)
    frames = [rng.integers(0, 256, (90, 120, 3), dtype=np.uint8) for _ in range(count)]
    for frame in frames:
        frame[:4] = 255  # the largest sum
        frame[4:8] = 0
    expected = (sum(f.astype(np.int32) for f in frames) // count).astype(np.uint8)
    mean = still_mean(frames)
    assert mean.dtype == np.uint8 and mean.shape == frames[0].shape
    assert np.array_equal(mean, expected)
    # into a buffer given (the settler's own, written every roll): the same mean, in it
    out = np.full_like(frames[0], 77)
    assert still_mean(frames, out) is out
    assert np.array_equal(out, expected)

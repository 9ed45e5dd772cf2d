"""The independent dice-tray renderer (hardware/synthetic/dice_independent.py): that it is
deterministic, that its truth is sane, and that the pips it draws are the faces it claims.
The reader's accuracy on these trays is measured by bench/dice_independent.py, never
asserted here: the renderer is a yardstick, not a tuning target."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware.synthetic import dice_independent as di


def test_same_seed_same_tray_and_fresh_noise_per_still():
    a, ta = di.scene(3)
    b, tb = di.scene(3)
    assert ta == tb
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert len(a) == 3 and a[0].shape == a[1].shape == a[2].shape
    assert a[0].dtype == np.uint8 and a[0].ndim == 3
    assert not np.array_equal(a[0], a[1])  # each still has its own noise
    assert np.abs(a[0].astype(int) - a[1].astype(int)).mean() < 6  # but the same scene
    assert di.plan(4).dice != di.plan(3).dice


@pytest.mark.parametrize("seed", range(8))
def test_truth_is_sane(seed):
    p = di.plan(seed)
    assert p.kind == di.KINDS[seed % 4]
    assert 6 <= len(p.dice) <= 10
    for d in p.dice:
        side = di.projected_side(p.camera, d)
        assert 28 <= side <= 46
        faces = d.faces()
        assert sorted(faces.values()) == [1, 2, 3, 4, 5, 6]
        for (x, y, z), value in faces.items():  # opposite faces sum to seven
            assert faces[(-x, -y, -z)] == 7 - value
    for i, a in enumerate(p.dice):  # footprints apart
        for b in p.dice[i + 1:]:
            assert di._separated(di._footprint(a), di._footprint(b))
            assert np.hypot(a.x - b.x, a.y - b.y) >= 1.1 * max(a.size, b.size) - 1e-9


@pytest.mark.parametrize("seed", [0, 5])
def test_rendered_truth_inside_the_image(seed):
    frames, truth = di.scene(seed)
    h, w = frames[0].shape[:2]
    for t in truth:
        assert 0 <= t.centre[0] < w and 0 <= t.centre[1] < h
        assert 1 <= t.face <= 6
        assert 28 <= t.side <= 46
        assert t.colour in di.DIE_COLOURS


def _pips_on_top(img, t):
    """Dark blobs inside the top face (its middle 80 %) of a white die on dark felt."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    mask = np.zeros_like(grey)
    cv2.circle(mask, (round(t.centre[0]), round(t.centre[1])), round(0.4 * t.side), 255, -1)
    dark = ((grey < 110) & (mask > 0)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    return sum(1 for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 2)


@pytest.mark.parametrize("seed", [1, 2, 6])
def test_pips_drawn_are_the_truth_face(seed):
    # white dice with black pips on dark green felt, no glints, no camera effects: every
    # top face must show exactly as many pips as its truth says (a wrong-pips bug fails)
    p = di.plan(seed, kind="felt", floor_rgb=(25, 80, 45), colours=("white",), glints=False)
    frames, truth = di.render(p, clean=True)
    assert [_pips_on_top(frames[0], t) for t in truth] == [t.face for t in truth]

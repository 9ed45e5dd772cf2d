"""The first and the faint masks' holes and bitten squares filled with their outlines traced
once (floor.py `_fill_pips_and_squares`, issue 64 part B): the same pixels as `_fill_squares`
of `_fill_pips`, each tracing once, not twice."""
from __future__ import annotations

import cv2
import numpy as np

from hardware.camera.dice_faces import floor


def _mask() -> np.ndarray:
    """A rim along the walls round a floor (a hole too large to fill) holding a die with a
    pip hole and a bite out of its edge, and inside the rim's thickness, in a small hole of
    its own, a speck; beside it, on the open floor in a second picture, the same die."""
    mask = np.zeros((160, 320), np.uint8)
    mask[:, :160] = 255
    mask[12:-12, 12:148] = 0  # the rim round a floor: a hole too large to be a pip
    for x0 in (40, 200):  # the die inside the rim's hole, and the same die on the open floor
        mask[50:90, x0:x0 + 40] = 255
        cv2.circle(mask, (x0 + 20, 70), 4, 0, -1)  # a pip: a small hole, filled
        mask[50:64, x0 + 10:x0 + 30] = 0  # a bite at its edge: filled to its hull
    mask[3:9, 60:70] = 0  # a small hole in the rim's thickness ...
    mask[5:7, 64:66] = 255  # ... holding a speck
    return mask


def test_the_fills_traced_once_are_the_pixels_of_the_fills_traced_twice():
    """Planted fault: the outer outlines taken as every outline of even depth (a blob
    inside a hole, as RETR_CCOMP lists it, counted outer) fills the bite of the die
    inside the rim, which RETR_EXTERNAL never sees: the masks differ."""
    twice = floor._fill_squares(floor._fill_pips(_mask()))
    once = floor._fill_pips_and_squares(_mask())
    assert (once == twice).all()
    assert twice[55, 220] == 255 and twice[55, 60] == 0  # the open floor's die filled only
    assert twice[70, 60] == 255 and twice[6, 62] == 255  # the pip and the small hole filled


def test_the_first_mask_is_traced_once(monkeypatch):
    """`die_masks` traces the standing mask's outlines once (the faint one's not made), the
    dark mask's once (both by `_fill_pips_and_squares`, issue 64 tenth session). Planted
    fault: `_fill_pips_and_squares` handing `_fill_squares` no outlines traces each mask
    again: 4 tracings."""
    traced = []
    real = cv2.findContours
    monkeypatch.setattr(floor.cv2, "findContours",
                        lambda mask, *a: traced.append(a[0]) or real(mask, *a))
    monkeypatch.setattr(floor, "_pips_of", lambda standing, darker, parts, out: out)
    image = np.full((120, 160, 3), 90, np.uint8)
    image[40:70, 40:70] = 230  # a light die on a grey floor
    image[50:60, 100:110] = 10  # a dark speck
    floor.die_masks(image, floor.floor_colour(image))
    assert sorted(traced) == [cv2.RETR_TREE, cv2.RETR_TREE]

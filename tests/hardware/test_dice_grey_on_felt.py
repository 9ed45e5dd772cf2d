"""Black dice on a dark saturated felt, no darker than the darker mask asks nor tinted
(issue 64, eleventh session): grey where the felt is coloured, read by a last pass over
`floor.grey_mask`. The tray from the independent renderer (hardware/synthetic/
dice_independent.py, a dev seed looked at while tuning), read as bench/dice_independent.py
reads it; the mask on painted floors."""
from __future__ import annotations

import numpy as np
import pytest

from hardware.camera.dice_faces.floor import die_masks, floor_colour, grey_mask
from tests.hardware.independent_trays import nearest, settled


def test_a_black_one_on_purple_felt_is_read():
    """Seed 1108 at 28 px: a black one (body about 42,40,39 on felt 118,50,82, 0.48 of its
    B+G+R, about 34 levels of tint) in no mask, unread before. Planted fault: the grey pass
    not run (`tray._read_floor` returning after the faint mask's) leaves it unread."""
    truth, reading = settled(1108, die_px=28)
    die = next(d for d in truth if (round(d.centre[0]), round(d.centre[1])) == (98, 240))
    assert die.face == 1 and die.colour == "black"
    got = nearest(reading, die)
    assert got is not None and got.face == 1
    for other in truth:  # never a wrong face
        seen = nearest(reading, other)
        assert seen is None or seen.face in (None, other.face)


def _painted(floor, patches):
    """A 240x320 tray of ``floor`` (BGR) with 30 px squares of the given colours in a row."""
    image = np.full((240, 320, 3), floor, np.uint8)
    for k, colour in enumerate(patches):
        image[100:130, 40 + 90 * k:70 + 90 * k] = colour
    return image


def _held(mask, k):
    return mask[105:125, 45 + 90 * k:65 + 90 * k].mean() > 200


@pytest.mark.parametrize("felt", [(118, 50, 82), (45, 82, 26), (90, 40, 25)])
def test_the_grey_mask_holds_a_grey_body_not_the_felts_shadow(felt):
    """On purple, green and blue felt: a grey body as dim as seed 1108's (0.48 of the felt's
    B+G+R) is in the grey mask and not in the darker one; the felt in shadow (0.5 of it,
    its colour kept) is in neither. Planted fault: the grey test dropped (every dim pixel
    of a saturated dark floor taken) puts the shadow in the grey mask."""
    total = sum(felt)
    level = round(0.48 * total / 3)
    shadow = tuple(round(0.5 * c) for c in felt)
    image = _painted(felt, [(level, level, level), shadow])
    floor = floor_colour(image)
    darker = die_masks(image, floor)[1]
    grey = grey_mask(image, floor)
    assert _held(grey, 0) and not _held(darker, 0)
    assert not _held(grey, 1) and not _held(darker, 1)


@pytest.mark.parametrize("floor", [(200, 200, 195), (70, 115, 170)])
def test_the_grey_mask_adds_nothing_on_a_pale_or_a_light_wooden_floor(floor):
    """A pale table (no colour to be grey against) and a wood tray lighter than
    `DARK_FLOOR`'s felt: the grey mask is the darker mask (a grey body there is the
    first or the darker mask's, or glare). Planted fault: the floor's darkness not checked
    puts the wood's grey body in the grey mask."""
    total = sum(floor)
    level = round(0.6 * total / 3)
    image = _painted(floor, [(level, level, level)])
    base = floor_colour(image)
    assert np.array_equal(grey_mask(image, base), die_masks(image, base)[1])

"""Coloured dice darker than a pale floor (issue 64): trays of the independent renderer
(seeds looked at while tuning) with every die 28-31.5 px across, read as
bench/dice_independent.py reads them. A saturated green or purple die there is tinted by
fewer levels than `floor.TINTED` (its light is little: a share of it), and was in neither
floor mask; the faint mask (`floor.FAINT_SHARE`) finds it. A wrong face is worse than none."""
from __future__ import annotations

import pytest

from tests.hardware.independent_trays import nearest, settled

# seed: how many dice read right at 28 px before the faint mask, and with it
GREEN_ON_PALE = {31: (4, 8), 15: (8, 10)}


@pytest.mark.parametrize("seed", sorted(GREEN_ON_PALE))
def test_dark_green_dice_on_a_pale_table_are_read(seed):
    """Seeds 31 and 15: nine (ten) green dice on a pale grey table. Planted fault:
    `floor.FAINT_SHARE = 1.0` (the faint tint as strong as `TINTED`: the faint mask the
    first one) leaves them unread as before."""
    truth, reading = settled(seed, die_px=28)
    seen = [(die.face, nearest(reading, die)) for die in truth]
    assert [(face, got.face) for face, got in seen
            if got is not None and got.face is not None and got.face != face] == []
    right = sum(got is not None and got.face == face for face, got in seen)
    assert right >= GREEN_ON_PALE[seed][1]


def test_the_dice_size_comes_from_the_faint_mask_when_it_shows_more_dice():
    """Seed 1014: seven purple dice on a pale lid, one a rounded square in the first mask
    (a die's part, 427 px eroded: the dice's are near 600), six in the faint one. The size
    came from that one part, and the faint mask's dice, larger, were not read. Planted
    fault: `tray._read_floor` sizing from the first mask alone (2 read, not 5)."""
    truth, reading = settled(1014, die_px=28)
    seen = [(die.face, nearest(reading, die)) for die in truth]
    assert [(face, got.face) for face, got in seen
            if got is not None and got.face is not None and got.face != face] == []
    assert sum(got is not None and got.face == face for face, got in seen) >= 5

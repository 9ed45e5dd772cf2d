"""The wrong faces and the false die found on the independent renderer's seeds 1240-1299
(issue 64, eleventh session: held out, read once at its end; dev cases since): a wrong face
or a false die is never acceptable, an unread die is. Each tray is rendered from its seed
and read as bench/dice_independent.py reads it (tests/hardware/independent_trays.py)."""
from __future__ import annotations

import math

from tests.hardware.independent_trays import die_at, settled, unread_or_right


def test_a_black_one_on_felt_at_28_px_is_never_read_as_a_two():
    """Seed 1240 at 28 px (felt): the black one at (115, 182), seen with a side whose three
    pips are drawn out. Its square (32.3 px, the top and that side) read a two of the one's
    pip (82 px squared up) and a side's thin pip (32 px, 2.56 times smaller; score 0.14). A
    two's pips lie on one flat top, alike (`pips.TWO_ALIKE`). Planted fault: `TWO_ALIKE` 9
    reads the two."""
    truth, reading = settled(1240, die_px=28)
    one = die_at(truth, (115, 182))
    assert one.face == 1 and one.colour == "black"
    assert unread_or_right(reading, one)


def test_a_blue_four_on_a_lid_at_28_px_is_never_read_as_a_two():
    """Seed 1270 at 28 px (a lid): the blue four at (330, 215), 30 px, whose blob is 24.6
    px (0.86 of the dice's 28.7), its right pips at the blob's edge. Its whole square read
    nothing; a square at a corner (`_corner_top`, 0.8 of the blob: 19.7 px) held two of
    its pips and read a two (score 0.87), and the blob showed those 2 spots only. A blob
    smaller than a die is a part of its top: the spots are counted on the dice's side round
    it (4). Planted fault: the dice's side not given to `_corner_top` reads the two."""
    truth, reading = settled(1270, die_px=28)
    four = die_at(truth, (330, 215))
    assert four.face == 4 and four.colour == "blue"
    assert unread_or_right(reading, four)


def test_a_black_one_on_a_lid_is_never_read_as_a_two():
    """Seed 1258 at the renderer's sizes (a lid): the black one at (365, 302), 37 px, seen
    with a side. Its blob's square (43.2 px) read a two of the one's pip (111 px squared
    up) and a side's thin pip (45 px, 2.47 times smaller; score 0.80). Planted fault:
    `pips.TWO_ALIKE` 9 reads the two."""
    truth, reading = settled(1258)
    one = die_at(truth, (365, 302))
    assert one.face == 1 and one.colour == "black"
    assert unread_or_right(reading, one)


def test_no_die_is_read_on_felt_where_none_lies():
    """Seed 1272 at the renderer's sizes (felt): no die lies at (86, 79). The green one at
    (63, 58), 41 px, seen with a side of three pips, is read (a one at (65, 59), 37.9 px);
    the side's three pips, found by their clusters (`_pip_clusters`), read a three centred
    0.77 of that one's side from it: nearer than two dice can lie (`common.APART`), so they
    are its side's, no other die (`tray._merged`). Planted fault: that test skipped reads
    the false three."""
    truth, reading = settled(1272)
    false = [d for d in reading.dice if d.face is not None and all(
        math.hypot(d.centre[0] - t.centre[0], d.centre[1] - t.centre[1]) > 0.6 * t.side
        for t in truth)]
    assert false == []

"""The two wrong faces on the independent renderer's seeds 1540-1599 at the renderer's sizes
(issue 64, session 88: held out, read once; dev cases since). Each die is smaller than its
tray's others, and its blob holds its top and two sides seen at a corner: a square of the
dice's side, read unsure. Each tray is rendered from its seed and read as
bench/dice_independent.py reads it (tests/hardware/independent_trays.py)."""
from __future__ import annotations

from tests.hardware.independent_trays import die_at, no_wrong_face, settled, unread_or_right


def test_a_small_one_seen_at_a_corner_of_its_blob_is_not_read_a_two():
    """Seed 1593 (wood): the yellow one at (545, 122), 32.8 px among dice up to 41 px (the
    dice's side taken as 39.4); its blob, 41 x 41, top and two sides, read a two at 0.14. A
    corner's square reads the one at 0.95: the whole square's face is not taken
    (`squares.OUTREAD_UNDER`). Planted fault: that check in `squares._read_blob` off reads
    the two."""
    truth, reading = settled(1593)
    one = die_at(truth, (545, 122))
    assert one.face == 1 and one.colour == "yellow"
    assert unread_or_right(reading, one)
    assert no_wrong_face(truth, reading)


def test_a_small_two_seen_at_a_corner_of_its_blob_is_not_read_a_one():
    """Seed 1590 (lid): the green two at (267, 440), 35.3 px among dice up to 46 px (the
    dice's side taken as 43.6); its blob, 45 x 44, top and two sides, read a one at 0.21. Its
    corners' squares read a two at 0.74 and a one at 0.35: the whole square's face is not
    taken. Planted fault: that check in `squares._read_blob` off reads the one."""
    truth, reading = settled(1590)
    two = die_at(truth, (267, 440))
    assert two.face == 2 and two.colour == "green"
    assert unread_or_right(reading, two)
    assert no_wrong_face(truth, reading)

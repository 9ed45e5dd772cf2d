"""The two wrong faces on the independent renderer's seeds 1540-1599 at the renderer's sizes
(issue 64, session 88: held out, read once; dev cases since). Each die is smaller than its
tray's others, and its blob holds its top and two sides seen at a corner: a square of the
dice's side, read unsure. Then (session 89) black dice on lids at 28 px, unread before,
read right, and a die counted twice by a rule tried then (seed 1382, dev 1360-1419). Each
tray is rendered from its seed and read as bench/dice_independent.py reads it
(tests/hardware/independent_trays.py)."""
from __future__ import annotations

from hardware.camera.dice_settle import DiceSettler
from hardware.synthetic.dice_independent import plan, render
from tests.hardware.independent_trays import (
    die_at,
    nearest,
    no_wrong_face,
    settled,
    unread_or_right,
)


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


def test_a_large_green_two_with_its_shadow_is_one_die_and_the_throw_a_roll():
    """Seed 1382 (dev 1360-1419) at the renderer's sizes, ten green dice on a lid: the two
    at (500, 319), 40 px among dice of 31-44, is unread (not reported), but the throw is a
    roll: no more dice read than the ten thrown. With the darker mask closed once (3x3,
    tried in session 89 for black dice whose light pips bite their edge) its pips' holes
    closed, its blob grew to 1.59 dice, and it was counted as two dice pressed together: 11
    dice for 10 thrown, no roll. Planted fault: that closing in `tray._read_floor` (no
    roll)."""
    frames, truth = render(plan(1382))
    settler = DiceSettler()
    settler.moved()
    rolls = [roll for frame in frames if (roll := settler.feed(frame, thrown=len(truth)))]
    assert len(truth) == 10
    assert len(rolls) == 1 and not settler.too_many
    assert len(settler.last_reading.dice) <= 10
    two = die_at(truth, (500, 319))
    assert (two.face, two.colour) == (2, "green")
    assert unread_or_right(settler.last_reading, two)


def test_a_black_die_seen_at_a_corner_of_its_blob_is_read_there():
    """Seed 1554 at 28 px (a lid): black dice seen obliquely, each blob its top and a side,
    the dice's side taken from such blobs (33.2 px for tops of 28-31). The six at (491, 342),
    blob 1.13 of that side, reads a six at one corner at 0.78, and no other corner reads;
    the four at (69, 119), 1.12, a four at 0.71 and a one at 0.43 (a side's pip). Both were
    unread: a corner read that sure was taken only on blobs 1.15 of the side (`OVER_SIDE`),
    and only where every corner agreed. Now from 1.05 (`squares.CORNER_OVER`) and over a
    face 0.25 less sure (`CORNER_AHEAD`). Planted faults: `CORNER_OVER` 1.15 leaves the six
    unread; `CORNER_AHEAD` 1.0 the four."""
    truth, reading = settled(1554, die_px=28)
    six, four = die_at(truth, (491, 342)), die_at(truth, (69, 119))
    assert (six.face, six.colour, four.face, four.colour) == (6, "black", 4, "black")
    assert nearest(reading, six).face == 6
    assert nearest(reading, four).face == 4
    assert no_wrong_face(truth, reading)


def test_a_blob_narrower_than_the_dice_is_read_at_its_own_width():
    """Seed 1554 at 28 px: the black four at (151, 160), its blob 35 x 28 (a top and a
    side), narrower than the dice's side taken (33 px, from blobs holding sides): squares
    of that side at its ends read nothing. Squares of the blob's own width read the four
    (`squares.SHORT_TOP`, session 89). Planted fault: `SHORT_TOP` 1.0 leaves it unread."""
    truth, reading = settled(1554, die_px=28)
    four = die_at(truth, (151, 160))
    assert (four.face, four.colour) == (4, "black")
    assert nearest(reading, four).face == 4

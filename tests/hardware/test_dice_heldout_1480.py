"""The wrong face and wrong colours on the independent renderer's seeds 1480-1539 (issue 64,
session 87: held out, read once at its end; dev cases since, session 88), all on felt. Each
tray is rendered from its seed and read as bench/dice_independent.py reads it
(tests/hardware/independent_trays.py)."""
from __future__ import annotations

from tests.hardware.independent_trays import (
    die_at,
    faces_read,
    nearest,
    no_wrong_face,
    settled,
    unread_or_right,
)


def test_a_five_with_small_pips_seen_with_its_side_is_not_read_a_two():
    """Seed 1484 at the renderer's sizes (green felt): the white five at (235, 275), 33 px,
    seen with a side, its blob 40 x 36 px; its pips, 3-4 px, fall under `_spots_in`'s
    smallest spot. Its corners' squares read a two at 0.04-0.13 and the blob counted 2
    spots: `_corner_top` took the two. Unread or five (`squares.CORNER_LEAST`). Planted
    fault: `CORNER_LEAST` 0.0 reads the two."""
    truth, reading = settled(1484)
    five = die_at(truth, (235, 275))
    assert five.face == 5 and five.colour == "white"
    assert unread_or_right(reading, five)
    assert no_wrong_face(truth, reading)


def test_a_black_die_lit_grey_is_not_named_white():
    """Seed 1484 at the renderer's sizes: the black three at (120, 250), lit to a grey body
    (122, 125, 125, over `colour.WHITE_LEVEL`), its white pips the lighter tone: read 3 and
    named white. Light pips on a darker body are no white die's (`colour._light_pips`):
    black or no colour, read still. Planted fault: that check in `squares._read_square`
    off names it white."""
    truth, reading = settled(1484)
    three = die_at(truth, (120, 250))
    assert three.face == 3 and three.colour == "black"
    got = nearest(reading, three)
    assert got is not None and got.face == 3
    assert got.colour in ("black", "unknown")
    whites = [die for die in truth if die.colour == "white"]
    assert all(got.colour in ("white", "unknown")
               for die in whites if (got := nearest(reading, die)) is not None)


def test_a_red_die_under_a_glint_on_red_felt_is_not_named_white():
    """Seed 1500 at 28 px (red felt, 46, 34, 148): the red five at (300, 307), unread, a glint
    over 0.57 of its top (230, 241, 253); the rest of its top (164, 171, 250) lies near the
    felt's colour taken as the cast, so the die was named white. That tone, lit, is not white
    with no cast taken out (`colour._tinted_shade`): no colour. Planted fault: that check
    in `squares._read_square` off names it white."""
    truth, reading = settled(1500, die_px=28)
    five = die_at(truth, (300, 307))
    assert five.face == 5 and five.colour == "red"
    got = nearest(reading, five)
    assert got is None or got.colour in ("red", "unknown")
    assert all(got.colour in ("red", "unknown")
               for die in truth if (got := nearest(reading, die)) is not None)
    faces = faces_read(truth, reading)
    assert no_wrong_face(truth, reading)
    assert sum(got == face for face, got in faces) >= 8


def test_a_black_two_narrower_than_the_dice_s_side_taken_is_read():
    """Seed 1484 at 28 px (green felt): dice seen obliquely, their blobs 33-40 px with a
    side for tops of 28-31, and the dice's side taken as 35.7. The black two at (265, 157),
    its grey-mask blob 34 x 26, was unread: squares of 35.7 px at its ends (none, the blob
    narrower). Read at the blob's own width (`squares.SHORT_TOP`, session 89). Planted
    fault: `SHORT_TOP` 1.0 leaves it unread."""
    truth, reading = settled(1484, die_px=28)
    two = die_at(truth, (265, 157))
    assert (two.face, two.colour) == (2, "black")
    assert nearest(reading, two).face == 2
    assert no_wrong_face(truth, reading)

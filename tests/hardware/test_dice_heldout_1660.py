"""The independent renderer's seeds 1660-1719 (issue 64, session 90: held out, read once; dev
since): the one wrong colour there. The tray is rendered from its seed and read as
bench/dice_independent.py reads it (tests/hardware/independent_trays.py)."""
from __future__ import annotations

from tests.hardware.independent_trays import (
    die_at,
    nearest,
    no_wrong_face,
    read_right,
    settled,
)


def test_a_blue_die_paled_by_a_glint_and_unread_is_not_named_white():
    """Seed 1710 at the renderer's sizes (a pale lid): the blue four at (260, 261), the
    lamp's glint over half its top, is unread; its body (the darker tone, 207, 165, 157 BGR)
    lies 0.53 off the lid's cast and its least-lit tenth 0.81 off, both within
    `colour.WHITE_SPREAD`: named white. Unread, a cold least-lit tenth that far from the cast
    is no white (`colour.UNREAD_COLD`). Planted fault: `UNREAD_COLD` 9.9 names it white."""
    truth, reading = settled(1710, told=True)
    four = die_at(truth, (260, 261))
    assert (four.face, four.colour) == (4, "blue")
    got = nearest(reading, four)
    assert got is not None and got.colour in ("blue", "unknown")
    assert all(seen.colour in ("unknown", die.colour)
               for die in truth if (seen := nearest(reading, die)))
    assert no_wrong_face(truth, reading)


def test_a_top_at_one_corner_alone_of_a_blob_a_little_under_the_side_is_read():
    """Seed 1669 at the renderer's sizes (wood): the green three at (207, 251), seen
    obliquely, its blob (top and sides) 41.5 x 35.9, 0.97 of the dice's side (39.9, taken
    from blobs holding sides), unread whole; one corner alone reads 3 at 0.88, the other
    three nothing. Taken from `squares.CORNER_ALONE` 0.95 of the side (session 91). Planted
    fault: `CORNER_ALONE` 1.0 (session 90's) leaves it unread."""
    truth, reading = settled(1669, told=True)
    assert read_right(truth, reading, (207, 251), 3, "green")
    assert no_wrong_face(truth, reading)


def test_green_and_purple_dice_on_pale_tables_whose_faint_blobs_fell_apart_are_read():
    """Seeds 1695 and 1719 at 28 px (pale tables): 1695's green five at (349, 267) and green
    one at (389, 277), 1719's purple four at (326, 307), in the faint mask only, their blobs
    a stub, a bump, a star once opened (session 91): the faint pixels closed first
    (`tray.FAINT_CLOSED`, a second faint pass where the first left dice unread) make them
    rounded squares, read. Planted fault: `FAINT_CLOSED` False leaves the three unread."""
    for seed, place, face, colour in ((1695, (349, 267), 5, "green"),
                                      (1695, (389, 277), 1, "green"),
                                      (1719, (326, 307), 4, "purple")):
        truth, reading = settled(seed, told=True, die_px=28)
        assert read_right(truth, reading, place, face, colour), seed
        assert no_wrong_face(truth, reading)


def test_a_red_one_the_darker_mask_reads_where_the_first_mask_s_die_is_unread_is_read():
    """Seed 1715 at 28 px (a pale table): the red one at (495, 192), its first-mask blob its
    top and two sides (1.13 of the side), unread; its darker-mask blob read 1 at 0.26, but
    a die seen already stood there, and the darker mask's dice were added only where none
    was. A face read there over first-mask dice all unread takes their place
    (`tray.DARK_OVER_UNREAD`). Planted fault: `DARK_OVER_UNREAD` False leaves it unread."""
    truth, reading = settled(1715, told=True, die_px=28)
    assert read_right(truth, reading, (495, 192), 1, "red")
    assert no_wrong_face(truth, reading)

"""The independent renderer's seeds 1720-1779 (issue 64, session 91: held out, read once; dev
since): its two wrong faces, a four at each size. The tray is rendered from its seed and read
as bench/dice_independent.py reads it (tests/hardware/independent_trays.py)."""

from __future__ import annotations

from tests.hardware.independent_trays import (
    die_at,
    nearest,
    no_wrong_face,
    read_right,
    settled,
    unread_or_right,
)


def test_a_four_beside_its_side_on_a_blob_of_no_rounded_square_is_not_read_a_two():
    """Seed 1727 at 28 px (a table): the blue four at (51, 144), beside its own side's pips,
    its first-mask blob 35 x 25 of no rounded square (fill 0.77), about the dice's side: the
    star path's whole square read it a two at 0.10. A face read so must reach
    `squares.SIDE_SURE` (0.12). Planted fault: the star path without that floor reads the
    two."""
    truth, reading = settled(1727, told=True, die_px=28)
    four = die_at(truth, (51, 144))
    assert (four.face, four.colour) == (4, "blue")
    assert unread_or_right(reading, four)
    assert no_wrong_face(truth, reading)


def test_a_four_with_its_side_in_a_blob_a_little_long_is_not_read_a_one():
    """Seed 1751 at the renderer's sizes (a table): the green four at (578, 373), top and side
    in one darker-mask blob 43.5 x 51.7 (aspect 1.19, over `squares.SIDE_ASPECT`), of the
    dice's side (47.6 px, taken from such blobs): its whole square read a one at 0.06. On a
    blob that long a face must reach `squares.SIDE_SURE` (0.12). Planted fault: that floor
    taken out of the whole square's reading reads the one."""
    truth, reading = settled(1751, told=True)
    four = die_at(truth, (578, 373))
    assert (four.face, four.colour) == (4, "green")
    assert unread_or_right(reading, four)
    assert no_wrong_face(truth, reading)


def test_a_one_read_unsure_on_a_long_blob_with_its_pip_alone_is_still_read():
    """Seeds 1430 (a lid) and 1483 (a table), at the renderer's sizes: a blue and a red one,
    each seen with its side, a blob 1.18 long (over `squares.SIDE_ASPECT`), read right by
    the whole square at 0.04 and 0.08, under `squares.SIDE_SURE`. One pip spot on the blob's
    square (`squares._spots_in`), as many as the face: taken (1751's four read as a one shows
    4). Planted fault: `SIDE_SURE` alone, without the count, leaves both unread."""
    for seed, place in ((1430, (138, 61)), (1483, (355, 150))):
        truth, reading = settled(seed, told=True)
        one = die_at(truth, place)
        assert one.face == 1
        got = nearest(reading, one)
        assert got is not None and got.face == 1, seed
        assert no_wrong_face(truth, reading)


def test_purple_dice_on_a_pale_table_whose_faint_tint_is_a_sieve_are_read():
    """Seed 1763 at 28 px (a pale table, five purple dice): a purple body 0.6 as bright as
    the table is 24-43 levels off its colour as lit, against the faint tint's 30-37
    (`floor.FAINT_SHARE` of its own light): 70-90 % of its pixels pass, scattered, and the
    faint mask's 3x3 opening leaves crumbs. The faint mask closed first
    (`tray.FAINT_CLOSED`, a second faint pass) reads three of the five. Planted fault:
    `FAINT_CLOSED` False leaves all three unread."""
    truth, reading = settled(1763, told=True, die_px=28)
    for place, face in (((276, 185), 5), ((188, 254), 4), ((151, 215), 3)):
        assert read_right(truth, reading, place, face, "purple"), place
    assert no_wrong_face(truth, reading)

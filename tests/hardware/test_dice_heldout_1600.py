"""The independent renderer's seeds 1600-1659 at 28 px (issue 64, session 89: held out, read
once; dev since): its wrong face, and a table's dice sized a fifth small. The tray is rendered
from its seed and read as bench/dice_independent.py reads it (tests/hardware/
independent_trays.py)."""
from __future__ import annotations

from tests.hardware.independent_trays import (
    die_at,
    faces_read,
    no_wrong_face,
    read_right,
    settled,
    unread_or_right,
)


def test_a_four_seen_with_its_side_on_a_large_faint_blob_is_not_read_a_two():
    """Seed 1623 at 28 px (a table): the dice's side taken as 22.4 px for dice of 28. The
    green four at (114, 158), seen with its side: its faint blob, 1.28 of that side, read a
    two at 0.51 (over `squares.OVER_SURE`), a corner's square a one at 0.47. Another face
    read at a corner nearly as sure (`squares.OVER_AHEAD`) leaves the blob unread (its
    corner's one not taken either). Planted faults: `OVER_AHEAD` 0 reads the two; the blob
    left to the corners' pass instead of unread reads the one."""
    truth, reading = settled(1623, die_px=28)
    four = die_at(truth, (114, 158))
    assert (four.face, four.colour) == (4, "green")
    assert unread_or_right(reading, four)
    assert no_wrong_face(truth, reading)


def test_green_dice_on_a_table_are_sized_by_the_faint_mask_when_the_first_shows_few():
    """Seed 1623 at 28 px (a table, eight green dice of 28-31 px), the settler told eight were
    thrown (the bench's way): the first mask shows three green tops in part (20-26 px) and
    took the dice's side as 22.4 px, seven of eight unread. Fewer rounded squares than half
    the dice thrown (`tray.FAINT_SIZING_SHARE`): the faint mask's four size them (30.0 px),
    and six are read right, none wrong. Planted fault: `FAINT_SIZING_SHARE` 0 (one right)."""
    truth, reading = settled(1623, told=True, die_px=28)
    assert sorted(die.colour for die in truth) == ["green"] * 8
    pairs = faces_read(truth, reading)
    assert sum(face == got for face, got in pairs) >= 6
    assert no_wrong_face(truth, reading)


def test_a_top_seen_at_one_corner_alone_of_a_die_sized_blob_is_read():
    """Seeds 1624 and 1652 at the renderer's sizes (felt), 1641 at 28 px (wood): white dice
    seen obliquely, each blob a top (28-32 px) and its sides, about the dice's side as taken
    from such blobs (1.02-1.04 of it: 43.4, 37.1, 35.8 px) and unread whole. One corner
    alone of the blob (`squares._corner_reads`) reads a face, at 0.71-0.91, the other three
    none: that face is taken (`squares._alone`, `CORNER_ALONE`), on a blob too long for a
    top (1624's two, 1652's six: `_alone_corner`) and on one of a die's shape (1641's two:
    `_sure_corner`). Planted fault: `CORNER_ALONE` 9.9 leaves all three unread."""
    for seed, overrides, place, face in ((1624, {}, (176, 34), 2), (1652, {}, (449, 69), 6),
                                         (1641, {"die_px": 28}, (467, 212), 2)):
        truth, reading = settled(seed, told=True, **overrides)
        assert read_right(truth, reading, place, face, "white"), seed
        assert no_wrong_face(truth, reading)


def test_a_top_read_at_one_corner_alone_a_little_unsure_is_read():
    """Seeds 1628 and 1650 at the renderer's sizes (felt, lid), 1649 and 1624 at 28 px (wood,
    felt): dice seen obliquely, one corner alone of the blob (the dice's side or more) reading
    its face at 0.6-0.7, under `squares.CORNER_SURE`, the other three none: taken at
    `squares.ALONE_SURE` (session 91: 1628's six and 1649's four read so at 0.61-0.64).
    Planted fault: `ALONE_SURE` 0.7 (`CORNER_SURE`, as before) leaves all four unread."""
    for seed, overrides, place, face, colour in (
            (1628, {}, (512, 275), 6, "white"), (1650, {}, (100, 401), 5, "yellow"),
            (1649, {"die_px": 28}, (351, 61), 4, "white"),
            (1624, {"die_px": 28}, (101, 230), 6, "blue")):
        truth, reading = settled(seed, told=True, **overrides)
        assert read_right(truth, reading, place, face, colour), seed
        assert no_wrong_face(truth, reading)

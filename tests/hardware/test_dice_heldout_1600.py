"""The independent renderer's seeds 1600-1659 at 28 px (issue 64, session 89: held out, read
once; dev since): its wrong face, and a table's dice sized a fifth small. The tray is rendered
from its seed and read as bench/dice_independent.py reads it (tests/hardware/
independent_trays.py)."""
from __future__ import annotations

from tests.hardware.independent_trays import (
    die_at,
    faces_read,
    no_wrong_face,
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

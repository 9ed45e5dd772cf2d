"""The wrong face on the independent renderer's seeds 1600-1659 at 28 px (issue 64, session
89: held out, read once; dev since). The tray is rendered from its seed and read as
bench/dice_independent.py reads it (tests/hardware/independent_trays.py)."""
from __future__ import annotations

from tests.hardware.independent_trays import die_at, no_wrong_face, settled, unread_or_right


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

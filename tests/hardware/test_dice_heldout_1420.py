"""Dice missed on the independent renderer's seeds 1420-1479 (issue 64, session 86: held out,
read once at its end; dev cases since, session 87). Each tray is rendered from its seed and
read as bench/dice_independent.py reads it (tests/hardware/independent_trays.py)."""
from __future__ import annotations

import cv2
import numpy as np

from hardware.synthetic.dice_independent import plan, render
from tests.hardware.independent_trays import (
    die_at,
    faces_read,
    nearest,
    no_roll,
    no_wrong_face,
    read_right,
    settled,
    unread_or_right,
)


def test_dice_below_a_dark_rim_are_no_hand():
    """Seed 1454 at the renderer's sizes (a lid): a dark rim along the top wall, 67 of 360
    rows, and eight red dice, three of them against it. Rim and dice made one thing far from
    the lid's colour reaching in over the walls: `hand._hand` took it for a hand, nothing
    was read and no roll made. A rim covers its rows whole (`hand.HAND_RIM`): the hand is
    looked for inside it. Planted fault: `HAND_RIM` 2.0 (no rim cut) reads none."""
    truth, reading = settled(1454)
    assert len(truth) == 8 and {die.colour for die in truth} == {"red"}
    assert reading.clear
    faces = faces_read(truth, reading)
    assert no_wrong_face(truth, reading)
    assert sum(got == face for face, got in faces) >= 7


def with_a_hand_from_the_top(image: np.ndarray) -> np.ndarray:
    """The tray with a hand and arm reaching in over its top wall (blurred at its edge, as
    tests/hardware/test_dice_hard_cases.py draws one over the bottom), of a darker skin:
    that test's (120, 150, 200) is 72 B+G+R levels from this pale lid, under
    `hand.HAND_DISTANCE` (90), and no hand here with or without the rim cut."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.float32)
    cx, cy = int(w * 0.4), int(h * 0.45)
    cv2.ellipse(mask, (cx, cy), (int(w * 0.2), int(h * 0.25)), 20.0, 0, 360, 1.0, -1)
    cv2.rectangle(mask, (cx - int(w * 0.1), 0), (cx + int(w * 0.1), cy), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 4)[..., None]
    skin = np.array([70, 100, 150], np.float32)
    return (image * (1 - mask) + skin * mask).astype(np.uint8)


def test_a_hand_over_a_dark_rim_is_still_a_hand():
    """Seed 1454's tray with a hand reaching in over its dark rim, held still: the rim's
    rows cut (`hand._inside_rims`), the hand reaches on past them and is a hand: no roll,
    no die. Planted fault: `hand._inside_rims` cutting a third of the rows along every wall
    reads the dice."""
    frames, _ = render(plan(1454))
    assert no_roll(with_a_hand_from_the_top(frames[-1]))


def test_a_two_seen_with_its_side_is_read_at_its_corner():
    """Seed 1462 at the renderer's sizes (a lid): the orange two at (505, 357), 40 px, seen
    with a side, its blob 53 x 54 px (1.26 of the dice's side). One corner's square reads a
    two at 0.73 (the others none), but the blob shows 3 pip spots (a side's among them), and
    `_corner_top` took a face only where the count was the face's: unread. A face read that
    sure (`squares.CORNER_SURE`) on a blob larger than a die (`OVER_SIDE`) is taken.
    Planted fault: `CORNER_SURE` 9.9 leaves it unread."""
    truth, reading = settled(1462)
    two = die_at(truth, (505, 357))
    assert two.face == 2 and two.colour == "orange"
    got = nearest(reading, two)
    assert got is not None and got.face == 2
    assert no_wrong_face(truth, reading)


def test_a_top_read_at_its_corner_is_named_by_the_floor_round_the_blob():
    """Seed 1453 at the renderer's sizes (wood): the orange four at (64, 132), seen with its
    sides, its blob 44 x 37 px, is read at one corner alone (`squares._alone`, session 90).
    The ring round that corner's square lay on the die's own orange side in shade (33, 62,
    117 BGR), taken for the floor's cast: its colour "unknown". The floor is judged round the
    whole blob (`squares._corner_reads`): orange. Planted fault: the corner's own ring (no
    ``around``) names it "unknown"."""
    truth, reading = settled(1453, told=True)
    assert read_right(truth, reading, (64, 132), 4, "orange")
    assert no_wrong_face(truth, reading)


def test_a_closed_faint_blob_that_is_a_blob_read_already_is_not_read_again():
    """Seed 1441 at the renderer's sizes (wood): the white two at (88, 362), top and side in
    a first-mask blob 51 x 44, unread. The faint mask closed first (`tray.FAINT_CLOSED`)
    gives that blob again, the same box and 1.6 % larger: read again, its corner read a one
    at 0.75, a wrong face. A closed blob like one read already (`tray.LIKE_BOX`,
    `tray.LIKE_AREA`) is not read again. Planted fault: `LIKE_BOX` -1 reads the one."""
    truth, reading = settled(1441, told=True)
    two = die_at(truth, (88, 362))
    assert (two.face, two.colour) == (2, "white")
    assert unread_or_right(reading, two)
    assert no_wrong_face(truth, reading)

"""The hard cases issue 64 names, on trays of the independent renderer
(hardware/synthetic/dice_independent.py; seeds of those looked at while tuning, 0-59), each
read as bench/dice_independent.py reads it: a throw's stills through a fresh DiceSettler.
A wrong face is worse than none: an oblique die is unread or right. A die against a rim
lighter than the floor is read, not taken for a hand."""
from __future__ import annotations

import math

import pytest

from hardware.camera.dice_settle import DiceSettler
from hardware.synthetic.dice_independent import plan, render


def settled(seed: int):
    """The tray's truth, the settler's last reading and whether it made a roll."""
    frames, truth = render(plan(seed))
    settler = DiceSettler()
    settler.moved()
    roll = None
    for frame in frames:
        roll = settler.feed(frame)
    return truth, settler.last_reading, roll


def faces_seen(truth, reading) -> list[int | None]:
    """Each true die's face as read (the nearest reading within half a side; None: none)."""
    seen = []
    for die in truth:
        near = [d for d in reading.dice
                if math.hypot(d.centre[0] - die.centre[0], d.centre[1] - die.centre[1])
                <= die.side / 2]
        best = min(near, key=lambda d: math.hypot(d.centre[0] - die.centre[0],
                                                  d.centre[1] - die.centre[1]), default=None)
        seen.append(None if best is None else best.face)
    return seen


# seed: the dice read right before issue 64 (the tray may not be read less for the fix)
OBLIQUE = {28: 8, 53: 3}


@pytest.mark.parametrize("seed", [
    28,  # a black one's pip and a side's read as a two: `clusters._side_pips` (planted faults:
    #      SIDE_PIPS = 0, the check off, or UNEQUAL_PIPS = 9, read the two again)
    53,  # a blue two seen with its sides, squared up whole, read as a one: its twin pip was
    #      under a pip's least size (planted fault: pips.LONE_PIP_TWIN = 9, the check off)
])
def test_an_oblique_die_is_unread_or_right_never_wrong(seed):
    truth, reading, _ = settled(seed)
    seen = faces_seen(truth, reading)
    wrong = [(d.face, got) for d, got in zip(truth, seen, strict=True)
             if got is not None and got != d.face]
    assert wrong == []
    assert sum(got == d.face for d, got in zip(truth, seen, strict=True)) >= OBLIQUE[seed]


# held-out seed: the dice (truth index by centre) issue 64's first side-pips rule left unread
SIDES_SHOWING = {1001: [(95, 161, 3), (414, 75, 6)], 1053: [(445, 332, 2)]}


@pytest.mark.parametrize("seed", sorted(SIDES_SHOWING))
def test_a_two_or_three_seen_with_its_sides_pips_is_read(seed):
    """True twos and threes seen obliquely show their sides' pips, drawn out, beside the top:
    taken for a top's pip and a side's (seed 28), any such spot left them unread (five of the
    held-out seeds' dice, these among them). A side's pip counts only on the top itself or
    beside pips unequal as a top's and a side's are (`clusters._side_pip_among`). Planted
    fault: `clusters.UNEQUAL_PIPS = 1.0` (any spot beside, as before) fails this."""
    truth, reading, _ = settled(seed)
    seen = faces_seen(truth, reading)
    assert all(got in (None, d.face) for d, got in zip(truth, seen, strict=True))
    for x, y, face in SIDES_SHOWING[seed]:
        index = min(range(len(truth)), key=lambda i: math.dist(truth[i].centre, (x, y)))
        assert truth[index].face == face
        assert seen[index] == face


def test_dice_against_a_lighter_rim_do_not_block_the_roll():
    """Two dice touching each other and the rim lighter than the floor poked a little past
    the line a hand must reach beyond: the rim's blob counted as a hand, no roll was made.
    Planted fault: `blobs._thick` eroding without its zero border (as before) fails this."""
    truth, reading, roll = settled(33)
    assert reading.clear and roll is not None
    seen = faces_seen(truth, reading)
    assert all(got in (None, d.face) for d, got in zip(truth, seen, strict=True))
    assert sum(got == d.face for d, got in zip(truth, seen, strict=True)) >= 6


@pytest.mark.xfail(strict=True, reason="issue 64: the two dice joined to the rim are not yet "
                   "cut from it and read (seed 33)")
def test_dice_against_a_lighter_rim_are_cut_from_it_and_read():
    truth, reading, _ = settled(33)
    seen = faces_seen(truth, reading)
    assert all(got in (None, d.face) for d, got in zip(truth, seen, strict=True))
    assert sum(got == d.face for d, got in zip(truth, seen, strict=True)) == len(truth)


@pytest.mark.parametrize("seed", [2012, 2019])
def test_yellow_and_orange_dice_under_a_cast_are_named(seed):
    """Yellow dice under a pink felt's cast read at hue 21-22, between orange and yellow, and
    oranges on a grey table at 9, between red and orange: "unknown", the die entered by hand
    at every roll. `colour._HUES` sets its gaps where dice of neither colour fall (issue 64's
    figures beside it). Every die of these trays (white, yellow and orange only) read with a
    face is named its own colour. Planted fault: the old hues (orange 10-20, yellow from 23)
    leave three yellows (2012) and two oranges (2019) unknown."""
    frames, truth = render(plan(seed, colours=("white", "yellow", "orange")))
    settler = DiceSettler()
    settler.moved()
    for frame in frames:
        settler.feed(frame)
    named = []
    for die in truth:
        near = [d for d in settler.last_reading.dice if d.face is not None
                and math.dist(d.centre, die.centre) <= die.side / 2]
        if near:
            named.append((die.colour, near[0].colour))
    assert len(named) >= 6
    assert all(got == colour for colour, got in named), named

"""Black dice whose light pips bite their blob in the darker-than-floor mask, and a face
read by a later pass where two unread readings lay (issue 64, tenth session; the
independent renderer, hardware/synthetic/dice_independent.py, dev seeds looked at while
tuning). Read as bench/dice_independent.py reads the tray."""
from __future__ import annotations

import pytest

from tests.hardware.independent_trays import nearest, settled


def _never_wrong(truth, reading):
    for die in truth:
        got = nearest(reading, die)
        assert got is None or got.face in (None, die.face)  # never a wrong face


def _at(truth, place):
    dice = [die for die in truth if (round(die.centre[0]), round(die.centre[1])) == place]
    assert len(dice) == 1
    return dice[0]


@pytest.mark.parametrize(("seed", "place", "face"), [
    (3, (174, 73), 5), (3, (391, 142), 5), (1006, (207, 192), 5), (1006, (409, 125), 4)])
def test_a_black_die_whose_pips_bite_its_blob_is_read(seed, place, face):
    """28 px black dice on a pale table or lid: their white pips, blurred into the edge,
    open the die's blob in the darker mask to the floor, and eroded it fell apart (seed 3's
    dice: no blob read, unread). The darker mask's rounded squares are filled to their hull
    as the first mask's are (`floor._fill_pips_and_squares`). Planted fault: the darker
    mask only `_fill_pips`'d again (main's) leaves all four unread."""
    truth, reading = settled(seed, die_px=28)
    die = _at(truth, place)
    assert die.face == face and die.colour == "black"
    got = nearest(reading, die)
    assert got is not None and got.face == face
    _never_wrong(truth, reading)


@pytest.mark.parametrize(("seed", "place"), [(1065, (293, 46)), (1135, (332, 348))])
def test_a_black_four_with_its_side_is_never_read_as_a_six(seed, place):
    """28 px black fours seen with a side: filled to its hull, the blob (aspect 1.19) holds
    the top's four pips and the side's two, and its square reads a six at 0.01-0.05. A six
    read on a blob longer than `SIDE_ASPECT` must score `BESIDE_SIX_SURE`, as one beside a
    side does; else the top is sought as for an unread blob. Planted fault: that check
    skipped reads both fours as sixes."""
    truth, reading = settled(seed, die_px=28)
    die = _at(truth, place)
    assert die.face == 4 and die.colour == "black"
    _never_wrong(truth, reading)


@pytest.mark.parametrize(("seed", "place", "face", "size"), [
    (1121, (64, 70), 2, 28), (1148, (552, 78), 6, None)])
def test_a_face_read_where_two_unread_readings_lie_replaces_them(seed, place, face, size):
    """A blue two by the wood rim (28 px) and a white six on dark felt (the renderer's
    size): the blobs gave two unread readings there, and the pip clusters' face, which
    replaced one unread reading, was dropped beside two (`tray._merged`). Planted fault:
    only a lone unread reading replaced (main's) leaves both unread."""
    truth, reading = settled(seed, **({"die_px": size} if size else {}))
    die = _at(truth, place)
    assert die.face == face
    got = nearest(reading, die)
    assert got is not None and got.face == face
    _never_wrong(truth, reading)

"""A tray of the independent renderer (hardware/synthetic/dice_independent.py) read as
bench/dice_independent.py reads it: a throw's stills through a fresh DiceSettler; and the
reading nearest each true die."""
from __future__ import annotations

import math

from hardware.camera.dice_faces import read_tray
from hardware.camera.dice_settle import DiceSettler
from hardware.synthetic.dice_independent import plan, render


def settled(seed: int, told: bool = False, **overrides):
    """The tray's truth and the settler's last reading (``overrides``: `plan`'s, die_px...;
    ``told``: the settler told how many dice were thrown, as the bench's ``--count thrown``)."""
    frames, truth = render(plan(seed, **overrides))
    settler = DiceSettler()
    settler.moved()
    for frame in frames:
        settler.feed(frame, thrown=len(truth) if told else None)
    return truth, settler.last_reading


def nearest(reading, die):
    """The reading nearest a true die, within 0.6 of its side (None: none), as
    bench/dice_independent.py's `REACH` matches them."""
    near = [d for d in reading.dice
            if math.hypot(d.centre[0] - die.centre[0], d.centre[1] - die.centre[1])
            <= 0.6 * die.side]
    return min(near, key=lambda d: math.hypot(d.centre[0] - die.centre[0],
                                              d.centre[1] - die.centre[1]), default=None)


def die_at(truth, place):
    """The one true die centred at ``place`` (px, rounded to 2 px)."""
    dice = [die for die in truth if math.hypot(die.centre[0] - place[0],
                                               die.centre[1] - place[1]) <= 2]
    assert len(dice) == 1
    return dice[0]


def read_right(truth, reading, place, face, colour) -> bool:
    """The true die at ``place`` is a ``face`` of ``colour`` (asserted: the render is what
    the test says it is) and the reading near it names both."""
    die = die_at(truth, place)
    assert (die.face, die.colour) == (face, colour)
    got = nearest(reading, die)
    return got is not None and (got.face, got.colour) == (face, colour)


def faces_read(truth, reading):
    """(true face, face read) of each true die a reading has near it (read None: unread)."""
    return [(die.face, got and got.face) for die in truth if (got := nearest(reading, die))]


def unread_or_right(reading, die) -> bool:
    """The true ``die`` is unread (none near, or no face) or read its own face: never wrong."""
    got = nearest(reading, die)
    return got is None or got.face in (None, die.face)


def no_wrong_face(truth, reading) -> bool:
    """No true die of ``truth`` has a wrong face read near it (unread ones are allowed)."""
    return all(got in (None, face) for face, got in faces_read(truth, reading))


def no_roll(image) -> bool:
    """The still tray ``image`` (a hand held in it) is neither read as clear nor made a
    roll: `read_tray` reads no die and a fresh DiceSettler fed it three times settles none."""
    reading = read_tray(image)
    settler = DiceSettler()
    settler.moved()
    return (not reading.clear and reading.dice == []
            and [settler.feed(image) for _ in range(3)] == [None] * 3)

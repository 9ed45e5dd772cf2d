"""The dice reader told how many dice were thrown (`read_tray`'s ``thrown``, the settler's
``feed(..., thrown=)``): it stops once its first passes read that many, with the same
answers, and a tray showing more dice than were thrown is no roll (issue 64 part B)."""
from __future__ import annotations

import pytest

from hardware.camera.dice_faces import read_tray, tray
from hardware.camera.dice_settle import DiceSettler
from hardware.synthetic import dice_tray

LATER = ("_pip_clusters", "_local_pips", "_ones", "_faint_dice")  # tray.py's later passes


def answers(reading):
    return reading.clear, [(d.centre, d.face, d.colour, d.die) for d in reading.dice]


@pytest.fixture
def later_passes(monkeypatch):
    """The later passes' calls, counted (each still runs)."""
    calls = []
    for name in LATER:
        real = getattr(tray, name)

        def counted(*args, _real=real, _name=name, **kwargs):
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(tray, name, counted)
    return calls


def test_told_the_dice_thrown_the_reader_stops_once_it_read_them_answers_unchanged(
        later_passes):
    image, dice = dice_tray.tray(0, count=5, side=40.0)  # the first passes read all five
    untold = read_tray(image)
    assert sorted(d.face for d in untold.dice) == sorted(d.face for d in dice)
    assert set(later_passes) == set(LATER)
    later_passes.clear()
    told = read_tray(image, thrown=len(dice))
    assert later_passes == [] and answers(told) == answers(untold)
    # told more than lie there (a die the first passes missed): every pass looks for it
    assert answers(read_tray(image, thrown=len(dice) + 1)) == answers(untold)
    assert set(later_passes) == set(LATER)
    later_passes.clear()
    # told fewer: stopped, and every die the first passes saw still reported (the caller
    # says such a tray is no roll)
    assert answers(read_tray(image, thrown=3)) == answers(untold) and later_passes == []


def throw(seed: int, count: int) -> list:
    """An empty tray, then ``count`` dice settled (frames as the camera sees)."""
    style = dice_tray.TrayStyle()
    image, dice = dice_tray.tray(seed, count=count, side=40.0)
    return [dice_tray.render([], seed, style)] + [image] * 4


def test_a_tray_with_more_dice_than_thrown_is_no_roll_until_they_move():
    settler = DiceSettler()
    frames = throw(0, 5)
    for image in frames:
        roll = settler.feed(image, thrown=4)
        assert roll is None
    assert settler.too_many and len(settler.last_reading.dice) == 5
    assert not settler.waiting  # read once: the same still dice are not read again
    readings = settler.readings
    for image in frames[-3:]:
        assert settler.feed(image, thrown=4) is None
    assert settler.readings == readings
    # the extra die taken out (the dice moved): the four left are the roll
    image, dice = dice_tray.tray(0, count=4, side=40.0)
    rolls = [settler.feed(f, thrown=4) for f in [image] * 4]
    [roll] = [r for r in rolls if r is not None]
    assert not settler.too_many
    assert sorted(roll.faces.values()) == sorted(d.face for d in dice)


@pytest.mark.parametrize("thrown", [None, 0, 5])
def test_as_many_dice_as_thrown_or_no_count_is_the_roll(thrown):
    settler = DiceSettler()
    rolls = [settler.feed(f, thrown=thrown) for f in throw(0, 5)]
    [roll] = [r for r in rolls if r is not None]
    assert len(roll.faces) == 5 and not settler.too_many


def test_the_faint_mask_made_later_is_the_same_mask_and_not_made_when_unneeded(
        monkeypatch):
    from hardware.camera.dice_faces import floor as floor_stage

    image, dice = dice_tray.tray(0, count=5, side=40.0)
    floor = floor_stage.floor_colour(image)
    now = floor_stage.die_masks(image, floor, faint=True)
    later = floor_stage.die_masks(image, floor, scratch=True, faint="later")
    for mask, again in zip(now[:2], later[:2], strict=True):
        assert (mask == again).all()
    assert (later[2]() == now[2]).all() and later[2]() is later[2]()
    # a tray the first passes read whole, told the dice thrown: the faint mask never made
    filled = []
    real = floor_stage._filled
    monkeypatch.setattr(floor_stage, "_filled",
                        lambda mask, mode: filled.append(1) or real(mask, mode))
    read_tray(image, thrown=len(dice))
    assert len(filled) == 2  # the standing and the dark masks' holes; not the faint one's
    filled.clear()
    read_tray(image)  # not told: the faint mask, and the faint mask closed first
    assert len(filled) == 4  # (`tray.FAINT_CLOSED`: its pass, as no count says all are read)


def test_a_faint_blob_the_first_mask_read_already_is_not_read_again(monkeypatch):
    image, _ = dice_tray.tray(0, count=6, side=40.0, cocked=0.5)  # two cocked: unread
    given = []
    real = tray._faint_dice

    def faint_dice(image, blobs, *args):
        given.append(len(blobs))
        return real(image, blobs, *args)

    monkeypatch.setattr(tray, "_faint_dice", faint_dice)
    skipping = read_tray(image)
    skipped, given[:] = list(given), []
    monkeypatch.setattr(tray, "_same", lambda blob: object())  # no blob the same: none kept out
    monkeypatch.setattr(tray, "_like", lambda blob, seen: False)  # nor like one (`LIKE_BOX`)
    every = read_tray(image)
    assert answers(skipping) == answers(every)
    assert sum(d.face is None for d in every.dice) == 2
    # each pass (the faint mask's, then the closed one's, `tray.FAINT_CLOSED`) given fewer
    assert len(skipped) == len(given) == 2
    assert all(a < b for a, b in zip(skipped, given, strict=True))


def test_once_the_pip_clusters_read_the_dice_thrown_the_faint_mask_is_not_looked_at(
        later_passes, monkeypatch):
    from hardware.camera.dice_faces import DieReading

    image, dice = dice_tray.tray(0, count=5, side=40.0)
    found = DieReading(4, "white", (5.0, 5.0), 40.0, 1.0)  # a sixth die the ones pass reads
    real = tray._ones
    monkeypatch.setattr(tray, "_ones", lambda *args: [found] + real(*args))
    told = read_tray(image, thrown=len(dice) + 1)
    assert found in told.dice and "_faint_dice" not in later_passes
    assert "_ones" in later_passes  # (the counted name is the one patched after it)
    later_passes.clear()
    read_tray(image, thrown=len(dice) + 2)  # one still to find: the faint mask looks
    assert "_faint_dice" in later_passes


def test_once_a_pip_level_reads_the_dice_thrown_no_later_level_is_looked_at(monkeypatch):
    from hardware.camera.dice_faces import DieReading

    image, dice = dice_tray.tray(0, count=5, side=40.0)
    found = DieReading(4, "white", (5.0, 5.0), 40.0, 1.0)  # a sixth die the first level reads
    calls = []
    real_clusters, real_ones = tray._pip_clusters, tray._ones

    def clusters(*args, **kwargs):
        calls.append("_pip_clusters")
        return ([found] if len(calls) == 1 else []) + real_clusters(*args, **kwargs)

    def ones(*args, **kwargs):
        calls.append("_ones")
        return real_ones(*args, **kwargs)

    monkeypatch.setattr(tray, "_pip_clusters", clusters)
    monkeypatch.setattr(tray, "_ones", ones)
    told = read_tray(image, thrown=len(dice) + 1)
    assert found in told.dice and calls == ["_pip_clusters"]  # no later level, no ones
    calls.clear()
    again = read_tray(image, thrown=len(dice) + 2)  # one still to find: every level looks
    assert found in again.dice and calls.count("_pip_clusters") > 1 and "_ones" in calls
    # the same dice as the reading that went through every level
    assert answers(told) == answers(again)

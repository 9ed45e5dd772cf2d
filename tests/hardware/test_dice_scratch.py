"""The dice reader's reused per-thread buffers (`dice_faces._scratch`, against the app's
malloc faulting every whole-tray temporary in anew): a reading keeps nothing of them, and
threads reading at once read as each would alone."""
import threading

import numpy as np

from hardware.camera.dice_faces import read_tray
from hardware.camera.dice_settle import DiceSettler
from hardware.synthetic import dice_tray


def trays() -> list[np.ndarray]:
    """A settled frame of a throw on four kinds of floor, the local and the ring's floor
    judged on each (a light lid reads dice by their pips, on the buffered masks)."""
    images = []
    for seed, family in enumerate(("dark_felt", "wood", "light_lid", "large_pips")):
        style, colours = dice_tray.family(family, seed)
        frames = dice_tray.throw(1000 + seed, 10, 36.0, style, settled_frames=1,
                                 colours=colours)
        images.append(frames[-1][0])
    return images


def seen(reading) -> list:
    """Everything a reading tells, its dice's squared-up pictures byte by byte."""
    return [reading.clear] + [(d.face, d.colour, d.die, d.centre, d.side, d.score,
                               None if d.square is None else d.square.tobytes())
                              for d in reading.dice]


def test_a_reading_keeps_nothing_of_the_buffers_the_next_one_writes():
    images = trays()
    readings = [read_tray(image) for image in images]
    told = [seen(reading) for reading in readings]
    assert sum(len(reading.dice) for reading in readings) >= 30
    for image in images[::-1]:  # other trays read in the same buffers since
        read_tray(image)
    assert [seen(reading) for reading in readings] == told
    assert [seen(read_tray(image)) for image in images] == told  # and read alike again
    for image in images:  # nor of the image read (the settler writes its mean over it)
        image[:] = 0
    assert [seen(reading) for reading in readings] == told


def test_a_settlers_rolls_keep_nothing_of_its_mean_written_over_each_roll():
    settler, kept = DiceSettler(), []
    for seed, family in enumerate(("wood", "light_lid")):
        style, colours = dice_tray.family(family, seed)
        for image, _, _ in dice_tray.throw(1000 + seed, 10, 36.0, style, settled_frames=6,
                                           colours=colours):
            if settler.feed(image) is not None:
                kept.append((settler.last_reading, seen(settler.last_reading)))
    assert len(kept) == 2 and all(len(reading.dice) >= 5 for reading, _ in kept)
    assert [seen(reading) for reading, _ in kept] == [told for _, told in kept]


def test_threads_reading_at_once_read_as_one_alone():
    images = trays()
    alone = [seen(read_tray(image)) for image in images]
    got: dict[int, list] = {}
    start = threading.Barrier(3)

    def read(k: int) -> None:
        start.wait()
        # each thread its own order: the same buffers' names busy at the same moments
        order = images if k % 2 else images[::-1]
        told = [seen(read_tray(image)) for _ in range(3) for image in order]
        got[k] = told if k % 2 else [t for rep in range(3) for t in
                                      told[rep * len(images):(rep + 1) * len(images)][::-1]]

    threads = [threading.Thread(target=read, args=(k,)) for k in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for k in range(3):
        assert got[k] == alone * 3, k


def test_teaching_a_die_on_a_web_thread_keeps_no_buffers_there():
    """`lone_die` runs on one of the server's many request threads: the ~4 MB of buffers
    a reading uses are let go after, where the camera's thread keeps its own."""
    from hardware.camera import dice_faces

    image = dice_tray.render([dice_tray.Die(120.0, 100.0, 40.0, 10.0, 3, "white")], seed=2)
    held = {}

    def teach() -> None:
        read_tray(image)
        held["after reading"] = sum(a.nbytes for a in vars(dice_faces._SCRATCH).get(
            "pool", {}).values())
        dice_faces.lone_die(image)
        held["after teaching"] = len(vars(dice_faces._SCRATCH))

    thread = threading.Thread(target=teach)
    thread.start()
    thread.join()
    assert held["after reading"] >= 2_000_000  # a reading's buffers are that large
    assert held["after teaching"] == 0

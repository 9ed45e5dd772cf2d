"""When a throw is over: one `Roll` per throw from the camera's tray readings, as the serial
reader hands them on (hardware/dice/observations.py), so games need no camera code.

No reading while anything moves or a hand is over the tray (`TrayMotion`, a cheap difference
of small grey frames, gates the full reading). A roll is taken once ``still_frames`` frames
in a row showed no motion, from one reading of their mean (less sensor noise), only when the
tray is clear, and only after something moved since the last roll (one roll per throw).
Die ids are the colour group and a number in reading order (``white1``, ``red2``), a taught
die's name for it (``tax``; ``tax2`` for a second one);
unreadable dice are left out of ``faces`` and named in ``unreadable`` for the rolling
player's phone to ask.

``thrown`` (`DiceSettler.feed`): how many dice the throw has, when the caller knows (the
game, through companion/wiring/camera_dice.py): the reader stops looking once it read that
many, and a tray showing more dice than that is no roll (a die left in it, another
player's): nothing is taken until the dice move again.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

from hardware.camera.taught_faces import TaughtDie
from hardware.dice.observations import Roll

if TYPE_CHECKING:
    from hardware.camera.dice_faces import TrayReading


class TrayMotion:
    """Whether the tray changed since the last frame: mean absolute difference of 1/4-size
    grey frames above ``threshold`` grey levels in any 8×8 cell."""

    def __init__(self, threshold: float = 6.0) -> None:
        self.threshold = threshold
        self._last: np.ndarray | None = None

    def moving(self, image: np.ndarray) -> bool:
        # halved in colour first, then grey, then halved again: the same quarter-size grey
        # within a level, in 0.6 of the CPU (the whole frame's grey costs more than a half)
        h, w = image.shape[:2]
        half = cv2.resize(image, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
        small = cv2.resize(cv2.cvtColor(half, cv2.COLOR_BGR2GRAY),
                           (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
        last, self._last = self._last, small
        if last is None or last.shape != small.shape:
            return False  # nothing to compare: dice lying there at start are no throw
        cells = cv2.resize(cv2.absdiff(small, last).astype(np.float32), None, fx=0.125, fy=0.125,
                           interpolation=cv2.INTER_AREA)
        return bool(cells.max() > self.threshold)


def still_mean(frames: Sequence[np.ndarray], out: np.ndarray | None = None) -> np.ndarray:
    """The frames' mean in whole grey levels, rounded down: their 16-bit sum's integer
    division by their count (numpy 2 divides by a constant as a multiply and a shift:
    0.4 against OpenCV's rounding weighted sum's 1.0 ms a roll of three 480x360 frames,
    the same levels; a float division then rounding would not be, for every sum).
    Band by band of rows into one band's sum (`SUM_BAND`): the 16-bit sum of a whole frame
    (1 MB at 480x360) would be fresh pages every roll under the app's malloc
    (companion/server/memory.py), a band's stays in the heap.
    ``out``: where to write the mean (the frames' shape and type), else a new array."""
    count = len(frames)
    mean = np.empty_like(frames[0]) if out is None else out
    if count == 1:
        np.copyto(mean, frames[0])
        return mean
    rows = max(1, SUM_BAND // (frames[0][0].nbytes * 2))  # rows of the 16-bit sum
    total = np.empty((rows,) + frames[0].shape[1:], np.uint16)
    for y in range(0, mean.shape[0], rows):
        band = slice(y, y + rows)
        part = total[:len(mean[band])]
        np.add(frames[0][band], frames[1][band], out=part, dtype=np.uint16)
        for frame in frames[2:]:
            np.add(part, frame[band], out=part)
        np.floor_divide(part, count, out=part)
        np.copyto(mean[band], part, casting="unsafe")  # under 256: the same levels
    return mean


SUM_BAND = 64 * 1024  # bytes of a band's 16-bit sum: well under malloc's 128 KiB threshold


class DiceSettler:
    """Camera frames of the tray in, one `Roll` per throw out (`feed`)."""

    def __init__(self, still_frames: int = 3, die_px: float | None = None,
                 taught: Sequence[TaughtDie] = ()) -> None:
        self.still_frames = still_frames
        self.die_px = die_px
        self.taught = tuple(taught)  # dice read by taught pictures (a tax die), by name
        self.motion = TrayMotion()
        self.rolls = 0
        self.unreadable: list[str] = []
        self.readings = 0  # full readings made (the costly step)
        self.last_reading: TrayReading | None = None
        self.too_many = False  # the last reading showed more dice than were thrown: no roll
        self._frames: list[np.ndarray] = []
        self._mean: np.ndarray | None = None  # the still frames' mean, written each roll
        self._armed = False  # something moved since the last roll

    @property
    def waiting(self) -> bool:
        """A throw is under way: something moved since the last roll."""
        return self._armed

    def moved(self) -> None:
        """The tray changed (dice moving, a hand): the next still dice are a new throw."""
        self._armed = True
        self._frames = []

    def feed(self, image: np.ndarray, at: float | None = None, thrown: int | None = None
             ) -> Roll | None:
        """One camera frame of the tray; the Roll when it completes a throw. Nothing is read
        while the tray changes, nor when no throw is under way; after ``still_frames`` still
        frames their mean (less sensor noise) is read once. ``thrown``: how many dice the
        throw has (None: not known): read no further than that many, and a
        reading of more dice is not taken as the roll (`too_many`; the throw is over: the
        next is armed when the dice move)."""
        if self.motion.moving(image):
            self.moved()
            return None
        if not self._armed:
            return None
        if self._frames and image.shape != self._frames[0].shape:
            # the source changed resolution (the Pi's full-resolution stream starting): the
            # still frames are gathered again at the new size; no throw is made of it
            self._frames = []
        self._frames.append(image)
        if len(self._frames) < self.still_frames:
            return None
        # into the settler's own buffer: a new one would be fresh pages every roll, and
        # nothing read keeps a view of the image (tests/hardware/test_dice_scratch.py)
        if self._mean is None or self._mean.shape != image.shape:
            self._mean = np.empty_like(image)
        mean = still_mean(self._frames, self._mean)
        self._frames = []
        # imported at the first roll the camera reads: a server whose dice come from the
        # serial reader (or the phones) never loads the dice faces (1.4 MB of RSS, issue 71)
        from hardware.camera.dice_faces import read_tray

        reading = read_tray(mean, self.die_px, self.taught, thrown=thrown or None)
        self.readings += 1
        self.last_reading = reading
        if not reading.clear or not reading.dice:
            return None  # a hand held still over the tray: wait for it to go
        self._armed = False
        self.too_many = bool(thrown) and len(reading.dice) > thrown
        return None if self.too_many else self._roll(reading, at)

    def _roll(self, reading: TrayReading, at: float | None) -> Roll:
        self.rolls += 1
        faces, counts, places, self.unreadable = {}, {}, {}, []
        for die in reading.dice:
            group = die.die or die.colour  # a taught die by its name: "tax", "tax2"
            counts[group] = counts.get(group, 0) + 1
            name = group if die.die and counts[group] == 1 else f"{group}{counts[group]}"
            places[name] = die.centre  # in the tray image's pixels
            if die.face is None:
                self.unreadable.append(name)
            else:
                faces[name] = die.face
        return Roll(self.rolls, faces, False, time.time() if at is None else at,
                    tuple(self.unreadable), places)

"""When a throw is over: one `Roll` per throw from the camera's tray readings, as the serial
reader hands them on (hardware/dice/observations.py), so games need no camera code.

No reading while anything moves or a hand is over the tray (`TrayMotion`, a cheap difference
of small grey frames, gates the full reading). A roll is taken once ``still_frames`` frames
in a row showed no motion and no hand, and only after something moved since the last roll
(one roll per throw). A die not read the same, at the same place, in each of those frames
counts as unreadable. Die ids are the colour group and a number in reading order
(``white1``, ``red2``); unreadable dice are left out of ``faces`` and named in
``unreadable`` for the rolling player's phone to ask.
"""
from __future__ import annotations

import math
import time

import cv2
import numpy as np

from hardware.camera.dice_faces import TrayReading
from hardware.dice.observations import Roll


class TrayMotion:
    """Whether the tray changed since the last frame: mean absolute difference of 1/4-size
    grey frames above ``threshold`` grey levels in any 8×8 cell."""

    def __init__(self, threshold: float = 6.0) -> None:
        self.threshold = threshold
        self._last: np.ndarray | None = None

    def moving(self, image: np.ndarray) -> bool:
        small = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), None, fx=0.25, fy=0.25,
                           interpolation=cv2.INTER_AREA).astype(np.int16)
        last, self._last = self._last, small
        if last is None or last.shape != small.shape:
            return False  # nothing to compare: dice lying there at start are no throw
        cells = cv2.resize(np.abs(small - last).astype(np.float32), None, fx=0.125, fy=0.125,
                           interpolation=cv2.INTER_AREA)
        return bool(cells.max() > self.threshold)


class DiceSettler:
    def __init__(self, still_frames: int = 3, tolerance_px: float = 4.0) -> None:
        self.still_frames = still_frames
        self.tolerance_px = tolerance_px
        self.rolls = 0
        self.unreadable: list[str] = []
        self._still: list[TrayReading] = []
        self._armed = False  # something moved since the last roll

    @property
    def waiting(self) -> bool:
        """A throw is under way (something moved since the last roll): only then is a still
        frame worth the full reading."""
        return self._armed

    def moved(self) -> None:
        """The tray changed (dice moving, a hand): the next still dice are a new throw."""
        self._armed = True
        self._still = []

    def feed(self, reading: TrayReading, at: float | None = None) -> Roll | None:
        """The reading of a frame in which nothing moved (`TrayMotion`); the Roll when it
        completes a throw."""
        if not reading.clear:
            self.moved()
            return None
        self._still.append(reading)
        if not (self._armed and reading.dice and len(self._still) >= self.still_frames):
            return None
        self._armed = False
        return self._roll(at)

    def _face_near(self, reading: TrayReading, centre: tuple[float, float]) -> int | None:
        """The face read at this place in another frame (None: no die there, or unread)."""
        for die in reading.dice:
            if math.hypot(die.centre[0] - centre[0],
                          die.centre[1] - centre[1]) <= self.tolerance_px:
                return die.face
        return None

    def _roll(self, at: float | None) -> Roll:
        self.rolls += 1
        faces, counts, self.unreadable = {}, {}, []
        for die in self._still[-1].dice:
            seen = {self._face_near(r, die.centre) for r in self._still[-self.still_frames:]}
            counts[die.colour] = counts.get(die.colour, 0) + 1
            name = f"{die.colour}{counts[die.colour]}"
            if seen == {die.face} and die.face is not None:
                faces[name] = die.face
            else:
                self.unreadable.append(name)
        return Roll(self.rolls, faces, False, time.time() if at is None else at)

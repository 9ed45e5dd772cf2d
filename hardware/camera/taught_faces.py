"""Dice whose faces are not pips (World Without End's tax die, 2-5 gold), read by comparing
each die in the tray with pictures of its faces the owner took once. Knows no game: a die's
name and its taught pictures (label → squared-up die tops, as `dice_faces` makes them) in,
the face's label and a score out, or no face when unsure: a wrong face is worse than none.

A die is compared by its look (the top's grey pattern inside the rounded edge, centred and
scaled to unit length: normalised cross-correlation, in its four quarter turns since the
squared-up die may lie any way round) and its body colour (far from every taught picture's:
another die, not this one; compared as chromaticity, so a table lit brighter or dimmer than
when the pictures were taken still matches). What every face shares (a tax die's coin ring)
is taken out of the patterns before the faces are told apart, so they differ only where the
faces do. A face is given only when its best picture correlates at least ``MIN_SCORE`` and
beats every other face's by ``MIN_MARGIN``: on the renders a face read right scores
0.92-0.99, the nearest other face ("3" for a "5") at most 0.80.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SIZE = 32  # px of the compared pattern
EDGE = 0.14  # of the side: the rounded, shaded edge left out
SHIFT = 2  # px (of the 48 px squared-up top) the compared window may move each way
MIN_SCORE = 0.85  # correlation of the best picture for a face to be given
MIN_MARGIN = 0.12  # by how much it must beat the best picture of any other face
LOOKS_TAUGHT = 0.4  # a die of the taught colour correlating this much is that die, unsure
MAX_HUE = 0.06  # distance of the body's chromaticity (B, G, R over their sum) from a picture's
BRIGHTNESS = (0.5, 2.0)  # the body as bright as a picture's, within these ratios


@dataclass(frozen=True)
class Match:
    """``ours``: the die is the taught one (by colour and look); ``face`` its label when
    sure, else None; ``score`` the best correlation (0 when not ours)."""

    ours: bool
    face: int | None
    score: float


def body_colour(square: np.ndarray) -> np.ndarray:
    side = square.shape[0]
    edge = int(side * EDGE)
    return np.median(square[edge:side - edge, edge:side - edge].reshape(-1, 3), axis=0)


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 1e-6 else vector


def pattern(square: np.ndarray, dx: int = 0, dy: int = 0) -> np.ndarray:
    """The top's grey pattern (the window inside the rounded edge, moved by dx, dy px), zero
    mean and unit length (a dot product is then the normalised cross-correlation)."""
    side = square.shape[0]
    edge = int(side * EDGE)
    gray = cv2.cvtColor(square[edge + dy:side - edge + dy, edge + dx:side - edge + dx],
                        cv2.COLOR_BGR2GRAY)
    small = cv2.resize(gray, (SIZE, SIZE), interpolation=cv2.INTER_AREA).astype(np.float32)
    return _unit(small - small.mean())


def _shifted(square: np.ndarray) -> np.ndarray:
    """The pattern with its window moved up to SHIFT px each way: a die squared up a pixel
    or two off its picture still lines up with it."""
    return np.array([pattern(square, dx, dy).ravel() for dy in range(-SHIFT, SHIFT + 1)
                     for dx in range(-SHIFT, SHIFT + 1)])


class TaughtDie:
    """One die's taught faces: ``faces`` maps a face's label to its pictures (squared-up BGR
    die tops; one is enough, more make it surer)."""

    def __init__(self, name: str, faces: dict[int, list[np.ndarray]]) -> None:
        if not faces or not all(faces.values()):
            raise ValueError("a taught die needs at least one picture of a face")
        self.name = name
        self.labels = sorted(faces)
        # every picture in its four quarter turns: (label index, pattern) as one matrix
        rows, owners, colours = [], [], []
        for index, label in enumerate(self.labels):
            for picture in faces[label]:
                colours.append(body_colour(picture))
                for turns in range(4):
                    rows.append(pattern(np.ascontiguousarray(np.rot90(picture, turns))).ravel())
                    owners.append(index)
        self._patterns = np.array(rows, np.float32)
        self._owners = np.array(owners)
        self._colours = np.array(colours, np.float32)
        # what the faces share: the mean of each face's mean pattern (none with one face)
        self._common = np.zeros(SIZE * SIZE, np.float32)
        if len(self.labels) > 1:
            self._common = np.mean([self._patterns[self._owners == i].mean(axis=0)
                                    for i in range(len(self.labels))], axis=0)
        self._distinct = np.array([_unit(row - self._common) for row in self._patterns])

    def _same_body(self, colour: np.ndarray) -> bool:
        """The body's colour is a taught picture's, up to the light's strength."""
        brightness = colour.sum()
        taught = self._colours.sum(axis=1)
        hue = np.linalg.norm(self._colours / np.maximum(taught, 1.0)[:, None]
                             - colour / max(float(brightness), 1.0), axis=1)
        ratio = brightness / np.maximum(taught, 1.0)
        return bool(((hue <= MAX_HUE) & (ratio >= BRIGHTNESS[0])
                     & (ratio <= BRIGHTNESS[1])).any())

    def match(self, square: np.ndarray) -> Match:
        if not self._same_body(body_colour(square).astype(np.float32)):
            return Match(False, None, 0.0)
        seen = _shifted(square)
        if float((seen @ self._patterns.T).max()) < LOOKS_TAUGHT:
            return Match(False, None, 0.0)  # its colour, not its look: some other die
        distinct = seen - self._common
        distinct /= np.maximum(np.linalg.norm(distinct, axis=1, keepdims=True), 1e-6)
        best = np.full(len(self.labels), -1.0, np.float32)
        np.maximum.at(best, self._owners, (distinct @ self._distinct.T).max(axis=0))
        order = np.argsort(best)[::-1]
        top = float(best[order[0]])
        runner_up = float(best[order[1]]) if len(order) > 1 else -1.0
        sure = top >= MIN_SCORE and top - runner_up >= MIN_MARGIN
        return Match(True, self.labels[order[0]] if sure else None, top)

"""Is a card that was not read still there? Evidence a wooden table or a board cannot imitate.

A small gray copy of every frame (320 px wide, `Small`) is compared with two memories:

- the card's own *reference*: its sticker patch as it looked when it was last read. The
  same place still looking like that (at least half of the patch's pixels within
  `TOLERANCE` gray levels) is the card, unread (defocus, glare, a fingertip): *card*;
- the *background model* of the table: each small pixel learned while it was stable and
  not under any tracked card, so the spot under a card laid during the game is known
  (the empty table remembered when the card was laid). The spot looking like it again is
  *table*; looking like neither, it is *hidden* (a hand or its shadow over it). Where the
  table under a card was never seen (the card lay there from the start), a spot that is
  neither the card nor changing between frames is *table*; a changing one is *hidden*.

Wood grain and printed board art are part of the background model, so they never count as
a card, whatever their texture or lightness (the old test: texture or light contrast near
the card, which a wooden table imitates). A moving card (a slide, a card carried away) is
followed by the recogniser's texture or light search, and each candidate spot must not be
the table (`not_table`).

The same small image is the still table's change detector (`ChangeDetector`): cells whose
mean gray level moved since they were last decoded.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SMALL_WIDTH = 320
TOLERANCE = 22.0  # gray levels: noise, JPEG and a little light change stay inside
CARD_SHARE = 0.5  # of the reference's pixels matching: the card is there
TABLE_SHARE = 0.6  # of the known background's pixels matching: the table is there
CHANGING_SHARE = 0.15  # of the pixels moved since the previous frame: something moves
LEARN_RATE = 0.2  # background model update per stable frame
STABLE = 8.0  # gray levels between two frames for a pixel to count as stable
KNOWN_AFTER = 3  # stable frames before a background pixel is trusted
SMEAR_LIGHT = 30.0  # gray levels between a smeared card's mean and its reference's

CARD, TABLE, HIDDEN = "card", "table", "hidden"


@dataclass
class Reference:
    """A card's sticker patch in the small image when it was last read."""

    x0: int
    y0: int
    patch: np.ndarray  # float32


class Small:
    """The frame reduced to `SMALL_WIDTH` (area average: the noise averages out)."""

    def __init__(self, gray: np.ndarray) -> None:
        h, w = gray.shape[:2]
        self.f = w / SMALL_WIDTH  # frame pixels per small pixel
        self.image = cv2.resize(gray, (SMALL_WIDTH, max(1, round(h / self.f))),
                                interpolation=cv2.INTER_AREA)

    def box(self, centre, half: float) -> tuple[int, int, int, int]:
        """The small-image box around ``centre`` (frame px), ``half`` frame px each side."""
        h, w = self.image.shape
        cx, cy, r = centre[0] / self.f, centre[1] / self.f, max(1.0, half / self.f)
        return (max(0, int(cx - r)), max(0, int(cy - r)), min(w, int(cx + r) + 1),
                min(h, int(cy + r) + 1))


class Presence:
    """The background model and the cards' references; `verdict` for an unread card."""

    def __init__(self) -> None:
        self.background: np.ndarray | None = None  # float32
        self.stable: np.ndarray | None = None  # uint8: stable frames in a row, learned
        self.previous: np.ndarray | None = None
        self.current: Small | None = None
        self.references: dict[str, Reference] = {}

    def update(self, small: Small, occupied: list[tuple[tuple[float, float], float]]
               ) -> None:
        """Learn the background from ``small`` where it is stable and not under a tracked
        card (``occupied``: (centre, side) of each tracked card's sticker, frame px)."""
        image = small.image.astype(np.float32)
        if self.background is None or self.background.shape != image.shape:
            self.background = image.copy()
            self.stable = np.zeros(image.shape, np.uint8)
            self.previous = image
            self.current = small
            return
        steady = cv2.absdiff(image, self.previous) < STABLE
        free = np.ones(image.shape, bool)
        for centre, side in occupied:  # a card is about 2 sticker sides long
            x0, y0, x1, y1 = small.box(centre, 1.6 * side)
            free[y0:y1, x0:x1] = False
        learn = steady & free
        fresh = learn & (self.stable == 0)  # newly stable: start from what is there now
        self.background[fresh] = image[fresh]
        self.stable = np.where(learn, np.minimum(self.stable + 1, 250), 0).astype(np.uint8)
        cv2.accumulateWeighted(image, self.background, LEARN_RATE, learn.astype(np.uint8))
        self.previous, self.current = image, small

    def remember(self, payload: str, centre, side: float) -> None:
        """The card was read at ``centre``: its sticker patch (with the quiet zone) is its
        reference from now on."""
        small = self.current
        if small is None:
            return
        x0, y0, x1, y1 = small.box(centre, 0.6 * side)
        if x1 - x0 < 3 or y1 - y0 < 3:
            return
        self.references[payload] = Reference(x0, y0, small.image[y0:y1, x0:x1]
                                             .astype(np.float32))

    def forget(self, payload: str) -> None:
        self.references.pop(payload, None)

    def verdict(self, payload: str) -> str | None:
        """CARD, TABLE or HIDDEN for the card's last read place; None without a reference."""
        ref, small = self.references.get(payload), self.current
        if ref is None or small is None:
            return None
        h, w = ref.patch.shape
        now = small.image[ref.y0:ref.y0 + h, ref.x0:ref.x0 + w].astype(np.float32)
        if now.shape != ref.patch.shape:
            return None
        if float((cv2.absdiff(now, ref.patch) < TOLERANCE).mean()) >= CARD_SHARE:
            return CARD
        return TABLE if self._is_table(ref.x0, ref.y0, ref.x0 + w, ref.y0 + h, now) \
            else HIDDEN

    def not_table(self, centre, side: float, payload: str | None = None) -> bool:
        """Something other than the table at ``centre`` (a card carried or slid there).

        Where the table was never seen empty (under the card's own first place), a card
        smeared by motion does not change much between frames: there the spot counts when
        it is as light as the card's reference (a smear keeps the card's mean light)."""
        small = self.current
        if small is None:
            return True
        x0, y0, x1, y1 = small.box(centre, 0.6 * side)
        now = small.image[y0:y1, x0:x1].astype(np.float32)
        if now.size == 0:
            return False
        known = self.stable[y0:y1, x0:x1] >= KNOWN_AFTER
        ref = self.references.get(payload) if payload else None
        if known.mean() < 0.5 and ref is not None and \
                abs(float(now.mean()) - float(ref.patch.mean())) < SMEAR_LIGHT:
            return True
        return not self._is_table(x0, y0, x1, y1, now)

    def _is_table(self, x0: int, y0: int, x1: int, y1: int, now: np.ndarray) -> bool:
        known = self.stable[y0:y1, x0:x1] >= KNOWN_AFTER
        if known.mean() >= 0.5:
            near = cv2.absdiff(now, self.background[y0:y1, x0:x1]) < TOLERANCE
            return float(near[known].mean()) >= TABLE_SHARE
        # never seen empty: the table is what does not change
        moving = cv2.absdiff(now, self.previous[y0:y1, x0:x1]) >= TOLERANCE
        return float(moving.mean()) < CHANGING_SHARE


CHANGE_CELL = 8  # small pixels per change cell side (a 2.5x2.5 cm patch at 60 cm)
CHANGE_LEVEL = 6.0  # gray levels a cell's mean must move (noise averages to about 1)


class ChangeDetector:
    """Which cells of the frame changed since they were last decoded.

    ``reference`` holds the small image as it was when each part was last decoded; a
    cell's mean moving by more than `CHANGE_LEVEL` (after the whole frame's median shift is
    taken out: auto exposure, a cloud) marks it changed."""

    def __init__(self) -> None:
        self.reference: np.ndarray | None = None

    def changed(self, small: Small) -> np.ndarray | None:
        """A bool grid of changed cells, or None when there is no reference yet (all)."""
        image = small.image
        if self.reference is None or self.reference.shape != image.shape:
            return None
        h, w = image.shape
        diff = cv2.subtract(image.astype(np.int16), self.reference.astype(np.int16))
        cells = cv2.resize(diff.astype(np.float32), (max(1, w // CHANGE_CELL),
                                                      max(1, h // CHANGE_CELL)),
                           interpolation=cv2.INTER_AREA)
        cells -= float(np.median(cells))
        return np.abs(cells) > CHANGE_LEVEL

    def regions(self, changed: np.ndarray, small: Small, margin: float
                ) -> list[tuple[int, int, int, int]]:
        """Frame-pixel boxes (x0, y0, x1, y1) around the changed cells, grown by ``margin``
        frame px (a sticker reaching into a changed cell is decoded whole)."""
        count, _, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), 8)
        cell = CHANGE_CELL * small.f
        h, w = small.image.shape
        fw, fh = w * small.f, h * small.f
        out = []
        for x, y, cw, ch, _ in stats[1:count].tolist():
            out.append((max(0, int(x * cell - margin)), max(0, int(y * cell - margin)),
                        min(int(fw), int((x + cw) * cell + margin)),
                        min(int(fh), int((y + ch) * cell + margin))))
        return _merge(out)

    def accept(self, small: Small, boxes: list[tuple[int, int, int, int]] | None) -> None:
        """These boxes (frame px; None: the whole frame) were decoded in ``small``."""
        if boxes is None or self.reference is None or \
                self.reference.shape != small.image.shape:
            self.reference = small.image.copy()
            return
        for x0, y0, x1, y1 in boxes:
            a, b = int(x0 / small.f), int(y0 / small.f)
            c, d = int(np.ceil(x1 / small.f)), int(np.ceil(y1 / small.f))
            self.reference[b:d, a:c] = small.image[b:d, a:c]


def _merge(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Overlapping boxes merged into their union until none overlap."""
    boxes = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    boxes[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]),
                                max(a[3], b[3]))
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return boxes

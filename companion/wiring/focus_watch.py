"""Keeps a Camera Module's focus on the table (issue 62): a frame listener that tells the
source where the table is (the focus scan's ``--autofocus-window`` and the board marker's
box its sharpness is measured in, both from the calibration) and asks for one new scan when
the table's sharpness drops and stays down while nothing is over it (the camera was bumped,
the lens knocked). Nothing over it: the marker's box does not change between looks, and its
coarse picture (8 x 8 cells, which a defocus leaves as it was) is still the one it showed
when last sharp. A hand passing changes the first; a hand or a box lid held over the marker
the second.

It looks at one frame every `CHECK_S` seconds, on the camera thread (the marker's small
box: 1.3 ms median a look on this loaded machine, 0.4 % of a core at two looks a second),
and keeps what it did for the host page (`status`). A source with no lens or exposure of
its own (`optics_status()` None: a webcam, a folder of frames) ignores the table's region
and cannot scan: nothing is looked at there (issue 71: the evening's CPU).
"""
from __future__ import annotations

import logging

import cv2
import numpy as np

from hardware.camera.decode import to_gray
from hardware.camera.sharp_steady import SHARP_ENOUGH, edge_sharpness, marker_box, table_window

log = logging.getLogger(__name__)

CHECK_S = 0.5  # seconds between two looks
SOFT_FOR_S = 5.0  # the marker soft and still this long: one new scan
REARM_S = 60.0  # at most one scan a minute, whatever happens
STILL_BELOW = 4.0  # mean gray-level change of the marker's box between looks: nothing moves
SAME_BELOW = 12.0  # mean change of its 8 x 8 cells since it was last sharp: the marker it was


class FocusWatch:
    """``watch(frame, calibration, source)`` for each frame (`CameraWiring.listen`);
    ``positions_mm``: the markers' board positions, whose box is the table's region."""

    def __init__(self, positions_mm: list[tuple[float, float]], soft_for_s: float = SOFT_FOR_S,
                 check_s: float = CHECK_S) -> None:
        self.positions_mm = list(positions_mm)
        self.soft_for_s = soft_for_s
        self.check_s = check_s
        self.rescans = 0
        self.last_rescan_at: float | None = None  # frame time (monotonic)
        self.sharpness: float | None = None
        self._looked_at: float | None = None
        self._patch: np.ndarray | None = None
        self._sharp_cells: np.ndarray | None = None  # the marker's 8 x 8 cells, last sharp
        self._soft_since: float | None = None
        self._placed: tuple | None = None
        self._source = None  # the source last seen, and whether it has optics of its own
        self._optics = False

    def __call__(self, frame, calibration, source) -> None:
        if self._looked_at is not None and frame.at - self._looked_at < self.check_s:
            return
        if source is not self._source:
            self._source, self._optics = source, source.optics_status() is not None
        if not self._optics:
            return  # no lens of its own: no region to tell, no scan to ask for
        self._looked_at = frame.at
        gray = to_gray(frame.image)
        height, width = gray.shape
        box = marker_box(calibration, width, height)
        if box is None:
            return
        placed = (table_window(calibration, width, height, self.positions_mm), box)
        if placed != self._placed:  # the calibration moved: tell the source once
            self._placed = placed
            source.focus_region(*placed)
        self._look(gray, box, frame.at, source)

    def _look(self, gray: np.ndarray, box, at: float, source) -> None:
        x0, y0, x1, y1 = box
        patch = cv2.resize(gray[y0:y1, x0:x1], (32, 32), interpolation=cv2.INTER_AREA)
        still = (self._patch is not None and float(
            np.abs(patch.astype(np.int16) - self._patch).mean()) < STILL_BELOW)
        self._patch = patch.astype(np.int16)
        cells = cv2.resize(patch, (8, 8), interpolation=cv2.INTER_AREA).astype(np.int16)
        self.sharpness = edge_sharpness(gray, box)
        if self.sharpness >= SHARP_ENOUGH:
            self._sharp_cells, self._soft_since = cells, None
            return
        same = (self._sharp_cells is not None
                and float(np.abs(cells - self._sharp_cells).mean()) < SAME_BELOW)
        if not (still and same):  # a hand passing, or something over the marker
            self._soft_since = None
            return
        if self._soft_since is None:
            self._soft_since = at
        if at - self._soft_since < self.soft_for_s:
            return
        if self.last_rescan_at is not None and at - self.last_rescan_at < REARM_S:
            return
        self._soft_since = None
        if source.refocus():
            self.rescans += 1
            self.last_rescan_at = at
            log.warning("camera: the table went soft (sharpness %.2f) with nothing over it; "
                        "focusing on it again", self.sharpness)

    def status(self) -> dict:
        """For the host page: how many scans it asked for, and the marker's sharpness."""
        return {"rescans": self.rescans,
                "sharpness": None if self.sharpness is None else round(self.sharpness, 3)}

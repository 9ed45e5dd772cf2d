"""SET-like card faces drawn for the card-face tests and bench (tests/hardware/test_card_fill.py,
test_card_untaught.py, bench/cards_by_face.py's "partly" family): shapes in a count, a
colour, an outline, stripes or solid fill, and a face laid sideways in a frame as a camera
gives it. Here, not in a test module, so the bench imports no test."""
from __future__ import annotations

import cv2
import numpy as np

CARD = (200, 300)  # px: a taught face, upright


def set_face(fill: str, colour=(40, 40, 200), shape: str = "capsule", count: int = 2,
          edge: int = 9, lines: int = 2, pale: float = 0.0) -> np.ndarray:
    """A SET-like face: ``count`` shapes, outlined (an outline ``edge`` - 1 px thick),
    striped (``lines`` px lines across in every 6, as printed; ``pale``: their colour
    that much washed towards the paper) or solid, in ``colour`` on white paper."""
    w, h = CARD
    face = np.full((h, w, 3), 245, np.uint8)
    mask = np.zeros((h, w), np.uint8)
    gap = h // (count + 1)
    for i in range(count):
        y = gap * (i + 1)
        if shape == "capsule":
            cv2.ellipse(mask, (w // 2 - 40, y), (22, 22), 0, 90, 270, 255, -1)
            cv2.ellipse(mask, (w // 2 + 40, y), (22, 22), 0, -90, 90, 255, -1)
            cv2.rectangle(mask, (w // 2 - 40, y - 22), (w // 2 + 40, y + 22), 255, -1)
        else:  # a diamond
            cv2.fillPoly(mask, [np.int32([[w // 2 - 65, y], [w // 2, y - 25],
                                          [w // 2 + 65, y], [w // 2, y + 25]])], 255)
    outline = (mask - cv2.erode(mask, np.ones((edge, edge), np.uint8))) > 0
    if fill == "solid":
        face[mask > 0] = colour
    elif fill == "stripes":
        stripes = np.zeros_like(mask)
        for k in range(lines):
            stripes[:, k::6] = 255
        face[(stripes > 0) & (mask > 0)] = np.float32(colour) * (1 - pale) + 245 * pale
    face[outline] = colour
    return face


def seen_sideways(face: np.ndarray, width: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The face laid sideways on a dark table, ``width`` px wide (its short side) in a frame,
    as a camera gives it (blur, noise, JPEG); (frame, its corners in the frame)."""
    rng = np.random.default_rng(seed)
    h = round(width * CARD[1] / CARD[0])
    small = cv2.resize(cv2.rotate(face, cv2.ROTATE_90_CLOCKWISE), (h, width),
                       interpolation=cv2.INTER_AREA)
    frame = np.full((width * 3, h * 3, 3), (40, 55, 70), np.uint8)
    frame[width:2 * width, h:2 * h] = small
    frame = cv2.GaussianBlur(frame, (0, 0), 0.6)
    frame = np.clip(frame + rng.normal(0, 3.0, frame.shape), 0, 255).astype(np.uint8)
    frame = cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])[1],
                         cv2.IMREAD_COLOR)
    corners = np.float32([[h, width], [2 * h, width], [2 * h, 2 * width], [h, 2 * width]])
    return frame, corners - 0.5

"""Card faces laid on rendered tables, with the truth (id, turn, corners): for teaching and
checking the recogniser of cards by their printed face (hardware/camera/card_faces.py).

Faces come from a folder of pictures (``load_faces``: the real playing-card deck in
../shared/data/cards-playing, PNGs with transparent corners) or are drawn here
(``game_faces``: title bar, coloured art, a number, text; with near-duplicates that differ
only in their number, their title's colour or one icon, so the recogniser is not tuned on one
deck). A scene lays a few of them on a table (``FAMILIES``: wood, felt, a printed board; and
``held_out``, a checked table cover with a harsher camera of its own that no tuning looks at) at
quarter turns and small angles, seen in perspective, with defocus, noise, a lamp's glare, a
soft shadow, a token lying on a card and JPEG. Knows no game.
"""
from __future__ import annotations

import math
import string
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from hardware.synthetic import frame_cache
from hardware.synthetic.scene import _board_art, _wood

# the real deck of the issue, beside the repository (not in it)
PLAYING_DECK = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "cards-playing"


@dataclass(frozen=True)
class CardTruth:
    """A card in a scene: its face id, its quarter turn clockwise from upright, its own
    top-left, top-right, bottom-right, bottom-left corners in the image."""

    id: str
    turn: int
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Family:
    """How a family's scenes are drawn: the table, the camera and the light."""

    table: str  # wood, felt, board, checked
    tilt: float = 0.06  # corner jitter of the perspective, of the image's size
    angle: float = 8.0  # degrees each way off the quarter turn
    blur: tuple[float, float] = (0.3, 0.9)  # Gaussian sigma, px
    noise: float = 3.0  # sensor noise, grey levels
    glare: float = 0.5  # chance of a lamp's glare on a card
    shadow: float = 0.5  # chance of a soft shadow over part of the table
    cover: float = 0.3  # chance of a token lying on a card
    jpeg: tuple[int, int] = (75, 92)
    tint: float = 0.08  # light colour: each channel scaled by 1 ± this


FAMILIES = {
    "wood": Family("wood"),
    "felt": Family("felt"),
    "board": Family("board"),
    # settings of its own, no tuning looked at it: a checked table cover, a steeper camera, more
    # defocus and noise, warmer/colder light, lower JPEG quality
    "held_out": Family("checked", tilt=0.09, angle=11.0, blur=(0.5, 1.2), noise=5.0,
                       glare=0.6, shadow=0.6, cover=0.4, jpeg=(62, 80), tint=0.12),
}
TUNING = ("wood", "felt", "board")


def load_faces(folder: Path, skip: tuple[str, ...] = ("back",)) -> dict[str, np.ndarray]:
    """The pictures of a folder (``<id>.png`` / ``.jpg``, as read, BGRA kept)."""
    faces = {}
    for path in sorted(Path(folder).iterdir()):
        if path.suffix.lower() in (".png", ".jpg", ".jpeg") and path.stem not in skip:
            image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if image is not None:
                faces[path.stem] = image
    return faces


def _rounded_alpha(w: int, h: int, radius: int) -> np.ndarray:
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius),
                   (w - 1 - radius, h - 1 - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return alpha


def _game_face(rng: np.random.Generator, number: int, bar, w: int = 250, h: int = 350
               ) -> np.ndarray:
    face = np.empty((h, w, 3), np.uint8)
    face[:] = (222, 234, 240)  # cream paper
    cv2.rectangle(face, (10, 10), (w - 11, h - 11), (60, 60, 70), 2)
    cv2.rectangle(face, (16, 16), (w - 17, 62), bar, -1)  # title bar
    title = "".join(rng.choice(list(string.ascii_uppercase), int(rng.integers(4, 9))))
    cv2.putText(face, title, (64, 50), cv2.FONT_HERSHEY_DUPLEX, 0.9, (245, 245, 245), 2,
                cv2.LINE_AA)
    art = face[72:232, 20:w - 20]
    art[:] = tuple(int(c) for c in rng.integers(90, 200, 3))
    for _ in range(int(rng.integers(3, 7))):  # art: blocks and discs
        colour = tuple(int(c) for c in rng.integers(20, 235, 3))
        x, y = int(rng.integers(0, art.shape[1] - 30)), int(rng.integers(0, art.shape[0] - 30))
        size = int(rng.integers(18, 70))
        if rng.random() < 0.5:
            cv2.circle(art, (x + size // 2, y + size // 2), size // 2, colour, -1, cv2.LINE_AA)
        else:
            cv2.rectangle(art, (x, y), (x + size, y + int(size * rng.uniform(0.5, 1.2))),
                          colour, -1)
    for row in range(4):  # rules text: rows of small glyphs
        x = 26
        while x < w - 40:
            gw = int(rng.integers(3, 9))
            cv2.rectangle(face, (x, 248 + row * 18), (x + gw, 256 + row * 18), (40, 40, 50), -1)
            x += gw + int(rng.integers(2, 6)) + (8 if rng.random() < 0.15 else 0)
    cv2.circle(face, (40, 39), 21, (250, 250, 250), -1, cv2.LINE_AA)  # the number's disc
    cv2.circle(face, (40, 39), 21, (40, 40, 40), 2, cv2.LINE_AA)
    text = str(number)
    scale = 1.0 if len(text) == 1 else 0.75
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
    cv2.putText(face, text, (40 - tw // 2, 39 + th // 2), cv2.FONT_HERSHEY_DUPLEX, scale,
                (20, 20, 20), 2, cv2.LINE_AA)
    return face


@frame_cache.cached
def game_faces(seed: int = 0, count: int = 24) -> dict[str, np.ndarray]:
    """``count`` drawn game-card faces (BGRA, transparent rounded corners). A third of them
    are near-duplicates of the card before: the same picture with another number, another
    title bar colour, or one icon added in the art."""
    rng = np.random.default_rng(seed)
    faces: dict[str, np.ndarray] = {}
    previous = None
    for index in range(count):
        name = f"card{index:02d}"
        kind = index % 3
        if previous is not None and kind == 2:  # a near-duplicate of the one before
            base_seed, number, bar = previous
            variant = index // 3 % 3
            if variant == 0:
                number = number % 9 + 1 if number != 7 else 1
            elif variant == 1:
                bar = tuple(int(c) for c in np.roll(bar, 1))
            face = _game_face(np.random.default_rng(base_seed), number, bar)
            if variant == 2:
                cv2.circle(face, (180, 200), 18, (30, 30, 200), -1, cv2.LINE_AA)
        else:
            base_seed = int(rng.integers(1 << 30))
            number = int(rng.integers(1, 10))
            bar = tuple(int(c) for c in rng.integers(30, 200, 3))
            face = _game_face(np.random.default_rng(base_seed), number, bar)
            previous = (base_seed, number, bar)
        alpha = _rounded_alpha(face.shape[1], face.shape[0], 14)
        faces[name] = np.dstack([face, alpha])
    return faces


@frame_cache.cached
def line_faces() -> dict[str, np.ndarray]:
    """Nine faces drawn in thin lines only (as SET's outlined cards are): one to three
    outlined shapes (oval, diamond, rectangle), lines 3 px wide on a 200 px face, so 1.5 px
    on a card 100 px wide in the frame: an outline found a pixel or two off moves the card
    by its lines' own width. BGR, white paper."""
    faces = {}
    colours = {"oval": (40, 40, 200), "diamond": (60, 150, 30), "box": (140, 30, 120)}
    for shape, colour in colours.items():
        for count in (1, 2, 3):
            face = np.full((300, 200, 3), 250, np.uint8)
            cv2.rectangle(face, (6, 6), (193, 293), (200, 200, 200), 1)
            for k in range(count):
                cy = 150 + int((k - (count - 1) / 2) * 70)
                if shape == "oval":
                    cv2.ellipse(face, (100, cy), (60, 24), 0, 0, 360, colour, 3, cv2.LINE_AA)
                elif shape == "diamond":
                    pts = np.int32([[40, cy], [100, cy - 26], [160, cy], [100, cy + 26]])
                    cv2.polylines(face, [pts], True, colour, 3, cv2.LINE_AA)
                else:
                    cv2.rectangle(face, (40, cy - 24), (160, cy + 24), colour, 3, cv2.LINE_AA)
            faces[f"{shape}-{count}"] = face
    return faces


@frame_cache.cached
def twins() -> dict[str, np.ndarray]:
    """Two faces that differ by one small dot: too alike for a camera at table distance."""
    face = _game_face(np.random.default_rng(7), 4, (150, 60, 30))
    other = face.copy()
    cv2.circle(other, (200, 290), 3, (40, 40, 40), -1, cv2.LINE_AA)
    alpha = _rounded_alpha(face.shape[1], face.shape[0], 14)
    return {"twin_a": np.dstack([face, alpha]), "twin_b": np.dstack([other, alpha])}


def _table(rng: np.random.Generator, kind: str, w: int, h: int) -> np.ndarray:
    if kind == "wood":
        return _wood(rng, w, h)
    if kind == "board":
        canvas = _wood(rng, w, h)
        _board_art(canvas, rng)
        return canvas
    base = rng.integers(25, 140, 3).astype(np.float32)
    if kind == "felt":
        base[int(rng.integers(3))] += 60
        fibres = rng.normal(0, 6, (h, w, 1)).astype(np.float32)
        blotch = cv2.resize(rng.random((6, 8)).astype(np.float32), (w, h))[..., None]
        return np.clip(base * (0.85 + 0.3 * blotch) + fibres, 0, 255).astype(np.uint8)
    # checked: a table cover of two colours, with a thread texture
    cell = int(rng.integers(12, 30))
    y, x = np.mgrid[0:h, 0:w]
    checks = (((x // cell) + (y // cell)) % 2).astype(np.float32)[..., None]
    other = rng.integers(60, 230, 3).astype(np.float32)
    threads = rng.normal(0, 8, (h, w, 1)).astype(np.float32)
    return np.clip(base * (1 - checks) + other * checks + threads, 0, 255).astype(np.uint8)


def printed(face: np.ndarray) -> np.ndarray:
    """The card as printed (BGRA): a picture's transparent parts are white paper, cut to a
    rectangle with rounded corners."""
    if face.ndim == 3 and face.shape[2] == 4:
        alpha = face[..., 3:4].astype(np.float32) / 255
        face = (face[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    h, w = face.shape[:2]
    return np.dstack([face, _rounded_alpha(w, h, max(2, round(0.055 * w)))])


def _lay(canvas: np.ndarray, face: np.ndarray, corners: np.ndarray) -> None:
    """Warp a face as printed onto ``corners`` (TL, TR, BR, BL) of the canvas, in place."""
    face = printed(face)
    w = float(np.linalg.norm(corners[1] - corners[0]))
    scale = w / face.shape[1]
    if scale < 1:  # shrink by area first: a warp alone would alias the print
        face = cv2.resize(face, (max(4, round(face.shape[1] * scale)),
                                 max(4, round(face.shape[0] * scale))),
                          interpolation=cv2.INTER_AREA)
    if face.shape[2] == 3:
        face = np.dstack([face, np.full(face.shape[:2], 255, np.uint8)])
    fh, fw = face.shape[:2]
    src = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
    matrix = cv2.getPerspectiveTransform(src, np.float32(corners))
    size = (canvas.shape[1], canvas.shape[0])
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT)
    alpha = warped[..., 3:4].astype(np.float32) / 255
    canvas[:] = (warped[..., :3] * alpha + canvas * (1 - alpha)).astype(np.uint8)


@frame_cache.cached
def scene_and_empty(faces: dict[str, np.ndarray], seed: int, family: str = "wood",
                    card_px: float = 120.0, count: int = 4, ids: list[str] | None = None
                    ) -> tuple[np.ndarray, list[CardTruth], np.ndarray]:
    """``scene``, and the same table in the same light and camera with no card on it (as
    the camera saw it before the cards came: another frame, its own noise)."""
    style = FAMILIES[family]
    rng = np.random.default_rng(seed)
    names = sorted(faces)
    chosen = list(ids) if ids is not None else [names[int(i)] for i in
                                                rng.choice(len(names), count, replace=False)]
    cell = 1.8 * card_px * max(f.shape[0] / f.shape[1] for f in faces.values())
    cols, rows = 3, 2
    w, h = int(cols * cell), int(rows * cell)
    flat = _table(rng, style.table, w, h)
    canvas = flat.copy()
    if not 1 <= len(chosen) <= cols * rows:
        raise ValueError(f"a scene holds 1 to {cols * rows} cards")
    cells = rng.permutation(cols * rows)
    truths = []
    for name, where in zip(chosen, cells[:len(chosen)], strict=True):
        face = faces[name]
        aspect = face.shape[0] / face.shape[1]
        turn = int(rng.integers(4)) * 90
        theta = math.radians(turn + rng.uniform(-style.angle, style.angle))
        cx = (where % cols + 0.5 + rng.uniform(-0.07, 0.07)) * cell
        cy = (where // cols + 0.5 + rng.uniform(-0.07, 0.07)) * cell
        half = np.float32([[-1, -aspect], [1, -aspect], [1, aspect], [-1, aspect]]) * card_px / 2
        rot = np.float32([[math.cos(theta), -math.sin(theta)],
                          [math.sin(theta), math.cos(theta)]])
        corners = half @ rot.T + np.float32([cx, cy])
        _lay(canvas, face, corners)
        truths.append((name, turn, corners))
        if rng.random() < style.cover:  # a token on the card, near one edge
            t = rng.uniform(0.25, 0.75)
            edge = int(rng.integers(4))
            a, b = corners[edge], corners[(edge + 1) % 4]
            inward = corners.mean(axis=0) - (a + b) / 2
            centre = a + t * (b - a) + inward * rng.uniform(0.15, 0.3)
            radius = int(card_px * rng.uniform(0.08, 0.13))
            colour = tuple(int(c) for c in rng.integers(20, 230, 3))
            cv2.circle(canvas, tuple(int(v) for v in centre), radius, colour, -1, cv2.LINE_AA)
            cv2.circle(canvas, tuple(int(v) for v in centre), radius, (20, 20, 20), 1,
                       cv2.LINE_AA)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    gain = np.ones((h, w), np.float32)
    glow = np.zeros((h, w), np.float32)
    if rng.random() < style.shadow:  # soft shadow of something beside the table
        nx, ny = math.cos(a := rng.uniform(0, 2 * math.pi)), math.sin(a)
        d = (x - w / 2) * nx + (y - h / 2) * ny - rng.uniform(-0.3, 0.3) * w
        gain *= 1 - rng.uniform(0.25, 0.45) / (1 + np.exp(-d / (0.03 * w)))
    if rng.random() < style.glare:  # a lamp's reflection on one card
        _, _, corners = truths[int(rng.integers(len(truths)))]
        gx, gy = corners.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * card_px
        spread = card_px * rng.uniform(0.12, 0.3)
        glow += rng.uniform(40, 110) * np.exp(-((x - gx) ** 2 + (y - gy) ** 2)
                                              / (2 * spread ** 2))
    tint = ((1 + rng.uniform(-style.tint, style.tint, 3)) * rng.uniform(0.8, 1.1)
            ).astype(np.float32)
    # the camera: perspective, defocus, noise, JPEG
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + rng.uniform(-style.tilt, style.tilt, (4, 2)) * [w, h]
    dst = (dst - dst.min(axis=0)).astype(np.float32)
    out_w, out_h = (int(v) for v in np.ceil(dst.max(axis=0)))
    matrix = cv2.getPerspectiveTransform(src, dst)
    blur = rng.uniform(*style.blur)
    quality = int(rng.integers(style.jpeg[0], style.jpeg[1] + 1))

    def photograph(table: np.ndarray) -> np.ndarray:
        lit = (table.astype(np.float32) * gain[..., None] + glow[..., None]) * tint
        seen = cv2.warpPerspective(np.clip(lit, 0, 255).astype(np.uint8), matrix,
                                   (out_w, out_h), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REFLECT)
        seen = cv2.GaussianBlur(seen, (0, 0), blur)
        seen = np.clip(seen + rng.normal(0, style.noise, seen.shape), 0, 255).astype(np.uint8)
        return cv2.imdecode(cv2.imencode(".jpg", seen, [cv2.IMWRITE_JPEG_QUALITY, quality])[1],
                            cv2.IMREAD_COLOR)

    image = photograph(canvas)
    empty = photograph(flat)
    out = []
    for name, turn, corners in truths:
        seen = cv2.perspectiveTransform(corners[None], matrix)[0]
        out.append(CardTruth(name, turn, tuple((float(px), float(py)) for px, py in seen)))
    return image, out, empty


@frame_cache.cached
def scene(faces: dict[str, np.ndarray], seed: int, family: str = "wood",
          card_px: float = 120.0, count: int = 4, ids: list[str] | None = None
          ) -> tuple[np.ndarray, list[CardTruth]]:
    """A table with ``count`` (1-6) cards of ``faces`` (``ids`` if given, else drawn at
    random), each about ``card_px`` wide; the image and the truth of each card."""
    image, truths, _ = scene_and_empty(faces, seed, family, card_px, count, ids)
    return image, truths


def crossed_and_touching(seed: int = 1, line_px: int = 7
                         ) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """A dark table with one card crossed half way down by a faint tinted line (as bright as
    its paper, too colourful to be taken for paper: a SET card on carpet in issue 63's
    photos was traced as two half cards, each of a card's shape) and two cards laid
    touching side by side; the frame, the crossed card's corners and the touching cards'."""
    rng = np.random.default_rng(seed)
    frame = np.clip(rng.normal(55, 6, (720, 1100, 3)), 0, 255).astype(np.uint8)
    w, h = 200, 300

    def card(x0: int, y0: int, crossed: bool) -> np.ndarray:
        face = np.full((h, w, 3), 232, np.uint8)
        if crossed:
            face[h // 2 - line_px // 2:h // 2 - line_px // 2 + line_px] = (180, 230, 255)
        for cy in (h // 4, 3 * h // 4):
            cv2.ellipse(face, (w // 2, cy), (w // 4, h // 12), 0, 0, 360, (40, 40, 200), -1)
        frame[y0:y0 + h, x0:x0 + w] = face
        return np.float32([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]])

    crossed = card(80, 200, True)
    touching = [card(520, 200, False), card(520 + w, 200, False)]
    frame[200:200 + h, 520 + w - 2:520 + w + 1] = 90  # the shadowed edge between them
    return cv2.GaussianBlur(frame, (0, 0), 0.8), [crossed], touching

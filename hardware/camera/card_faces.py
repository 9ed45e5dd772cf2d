"""Cards known by their printed face, no sticker: taught pictures in, ids out. Knows no game.

A ``FaceBook`` keeps, for each taught face (one upright picture: a scan, a photo, a PNG with
transparent corners), two patterns of its inside (the rounded corners and edge left out):

- a coarse one (``COARSE`` px wide): grey with the slow shading taken out (a shadow or a lamp
  across the card changes it little), zero mean and unit length, plus the colour (Lab a, b
  less the card's median: a table lit warm or cold still matches). Every taught face in both
  its upright and upside-down turn is scored with one matrix product.
- a fine one (``FINE`` px wide, grey and colour scaled to unit spread), used only when two or
  more faces score close: the candidates are compared where *they* differ (each pixel
  weighted by how much the two taught faces differ there, blurred), so two cards that differ
  in a few pips or a colour are told apart by those pips, not drowned by what they share.

A face is answered only when it scores ``MIN_SCORE`` or more and beats every other face by
``MIN_MARGIN``, or wins the fine comparison against each close rival by ``FINE_MARGIN``,
and is in no pair ``too_alike`` at the card's width; otherwise the id is None: a wrong card
is worse than none.

``find_cards`` finds card-sized quadrilaterals (what changed on the empty table when it is
given, pale paper, rings of edges: contours whose hull is a card's rectangle with rounded
corners, each side then snapped onto the card's edge);
``identify`` straightens one (``cv2.getPerspectiveTransform``) and names it; ``recognise``
does both for a whole frame. ``FaceBook.too_alike(card_px)`` names the pairs of faces the
camera cannot tell apart when a card is ``card_px`` wide: those still need a sticker.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

COARSE = 28  # px: width of the coarse pattern
FINE = 96  # px: width of the fine pattern
FINE_CHROMA = 40.0  # Lab a, b levels per unit of the fine pattern (JPEG halves colour detail)
INSET = 0.07  # of the card's width: the rounded corners and edge left out
COLOUR_WEIGHT = 0.3  # coarse score lost per unit of squared colour distance (0 to 4)
CHROMA_FLOOR = 0.04  # RMS chroma (of 128) below which a card counts as partly grey
MIN_SCORE = 0.55  # coarse score of the best face for any answer (an untaught card: lower)
MIN_MARGIN = 0.12  # by how much the best face must beat every other one to need no second look
CLOSE = 0.25  # faces scoring this close to the best get the fine comparison
FINE_MARGIN = 0.2  # the winner: this far on its side of the midpoint to each close rival
SHIFT = 2  # px (of the fine pattern) the fine comparison may move each way
ALIKE_STEP = 20  # px: card widths within a step share one too_alike answer
MIN_CARD_PX = 40  # the shortest side of a card find_cards looks for
ASPECT = (0.5, 0.95)  # short side over long side of what find_cards takes for a card
MAX_SHARE = 0.6  # the longest card find_cards takes, of the frame's shorter side
SNAP_PX = 5  # px either side of an outline where find_cards looks for the card's edge
CHANGED = 30  # grey levels (any channel) a card changes the empty table by
PALE = 70  # HSV saturation (of 255) of card paper under tinted light
BRIGHTER = 12  # grey levels card paper is brighter than the table around it


@dataclass(frozen=True)
class FaceSighting:
    """One card in a frame: ``id`` of its taught face or None (unknown, or not sure),
    ``turn`` in degrees clockwise from upright (0, 90, 180, 270), ``corners`` the card's
    own top-left, top-right, bottom-right, bottom-left in the frame's pixels, ``score`` the
    best face's coarse score (1 is a perfect match)."""

    id: str | None
    turn: int
    corners: tuple[tuple[float, float], ...]
    score: float

    def to_json(self) -> dict:
        return {"id": self.id, "turn": self.turn,
                "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
                "score": round(self.score, 3)}


def _upright_bgr(picture: np.ndarray) -> np.ndarray:
    """BGR of a picture (grey, BGR or BGRA: transparent parts are the card's white paper, as
    in a deck's PNGs, whose corners and paper are often both left transparent)."""
    if picture is None or getattr(picture, "ndim", 0) not in (2, 3) or picture.size == 0:
        raise ValueError("not an image")
    if picture.ndim == 2:
        return cv2.cvtColor(picture, cv2.COLOR_GRAY2BGR)
    if picture.shape[2] == 4:
        alpha = picture[..., 3:4].astype(np.float32) / 255
        return (picture[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    return picture[..., :3]


def _inside(card: np.ndarray) -> np.ndarray:
    h, w = card.shape[:2]
    m = max(1, round(INSET * w))
    return card[m:h - m, m:w - m]


def _unit(a: np.ndarray) -> np.ndarray:
    a = a - a.mean()
    n = float(np.linalg.norm(a))
    return a / n if n > 1e-6 else a


class _Patterns:
    """The coarse vector and the fine (3, h, w) pattern of one straightened card."""

    def __init__(self, card: np.ndarray, coarse: tuple[int, int], fine: tuple[int, int]):
        inside = _inside(card)
        small = cv2.resize(inside, coarse, interpolation=cv2.INTER_AREA)
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
        grey = lab[..., 0]
        grey = grey - cv2.GaussianBlur(grey, (0, 0), coarse[0] / 4)
        chroma = lab[..., 1:] - np.median(lab[..., 1:].reshape(-1, 2), axis=0)
        self.grey = _unit(grey).ravel()
        # unit length when colourful, short when nearly grey (black print on white)
        chroma = (chroma / 128.0).ravel()
        self.chroma = chroma / max(float(np.linalg.norm(chroma)), CHROMA_FLOOR * math.sqrt(
            chroma.size))
        big = cv2.resize(inside, fine, interpolation=cv2.INTER_AREA)
        lab = cv2.cvtColor(big, cv2.COLOR_BGR2LAB).astype(np.float32)
        lab = cv2.GaussianBlur(lab, (0, 0), 1.0)
        l_chan = lab[..., 0] - cv2.GaussianBlur(lab[..., 0], (0, 0), fine[0] / 4)
        l_chan /= max(float(l_chan.std()), 1.0)
        ab = (lab[..., 1:] - np.median(lab[..., 1:].reshape(-1, 2), axis=0)) / FINE_CHROMA
        self.fine = np.concatenate([l_chan[None], np.moveaxis(ab, 2, 0)]).astype(np.float32)

    def turned(self, coarse: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(grey, chroma, fine) of the same card upside down."""
        w, h = coarse
        grey = self.grey.reshape(h, w)[::-1, ::-1].ravel()
        chroma = self.chroma.reshape(h, w, 2)[::-1, ::-1].ravel()
        return grey, chroma, self.fine[:, ::-1, ::-1]


class FaceBook:
    """The taught faces. Build with ``FaceBook.from_pictures({id: image})``."""

    def __init__(self, pictures: dict[str, np.ndarray]) -> None:
        if not pictures:
            raise ValueError("no card face was taught")
        uprights = {str(k): _upright_bgr(v) for k, v in pictures.items()}
        aspects = sorted(p.shape[0] / p.shape[1] for p in uprights.values())
        self.aspect = aspects[len(aspects) // 2]  # height over width, upright
        self.square = self.aspect < 1 / ASPECT[1] + 0.03
        self.coarse = (COARSE, max(8, round(COARSE * self.aspect)))
        self.fine = (FINE, max(16, round(FINE * self.aspect)))
        self.ids = sorted(uprights)
        self.pictures = uprights
        patterns = [_Patterns(uprights[i], self.coarse, self.fine) for i in self.ids]
        self.grey = np.stack([p.grey for p in patterns])
        self.chroma = np.stack([p.chroma for p in patterns])
        self.chroma_sq = (self.chroma ** 2).sum(axis=1)
        self.fines = np.stack([p.fine for p in patterns])
        self._alike: dict[int, frozenset[str]] = {}

    @classmethod
    def from_pictures(cls, pictures: dict[str, np.ndarray]) -> FaceBook:
        return cls(pictures)

    def __len__(self) -> int:
        return len(self.ids)

    def straight_size(self, card_px: float) -> tuple[int, int]:
        """The size a card is straightened to: its own width (no detail made up), capped."""
        w = int(min(max(card_px, self.fine[0] + 8), 3 * FINE))
        return w, max(8, round(w * self.aspect))

    def scores(self, card: np.ndarray) -> np.ndarray:
        """Coarse scores of a straightened card: (turns, faces), turn 0 then 180 (and, for
        square cards, the caller straightens again for 90 and 270)."""
        p = _Patterns(card, self.coarse, self.fine)
        rows = [(p.grey, p.chroma, p.fine), p.turned(self.coarse)]
        out = np.empty((2, len(self.ids)), np.float32)
        for k, (grey, chroma, _) in enumerate(rows):
            colour = (chroma @ chroma) + self.chroma_sq - 2 * (self.chroma @ chroma)
            out[k] = self.grey @ grey - COLOUR_WEIGHT * colour
        self._last = [r[2] for r in rows]
        return out

    def _leaning(self, sample: np.ndarray, fa: np.ndarray, fb: np.ndarray) -> float:
        """Where ``sample`` lies between faces a (+0.5) and b (-0.5), measured along what
        differs between them only (weighted by the blurred squared difference), at the
        shift of up to SHIFT px that fits it best: blur and noise pull it towards 0, they do
        not push it towards the wrong face."""
        diff = fa - fb
        weight = cv2.GaussianBlur((diff ** 2).sum(axis=0), (0, 0), 1.5)
        s = SHIFT
        _, h, w_ = sample.shape
        core = (slice(None), slice(s, h - s), slice(s, w_ - s))
        w = weight[s:h - s, s:w_ - s]
        mid, diff = ((fa + fb) / 2)[core], diff[core]
        wdiff = w * diff
        norm = float((wdiff * diff).sum())
        if norm < 1e-6:
            return 0.0
        best, leaning = math.inf, 0.0
        for dy in range(-s, s + 1):
            for dx in range(-s, s + 1):
                off = sample[:, s + dy:h - s + dy, s + dx:w_ - s + dx] - mid
                t = float((wdiff * off).sum()) / norm
                residual = float((w * ((off - t * diff) ** 2).sum(axis=0)).sum())
                if residual < best:
                    best, leaning = residual, t
        return leaning

    def decide(self, scores: np.ndarray, fines: list[np.ndarray]) -> tuple[int | None, int, float]:
        """(face index or None, turn index, best score) from a straightened card's scores
        (rows: turns) and its fine patterns per turn."""
        per_face = scores.max(axis=0)
        turn_of = scores.argmax(axis=0)
        order = np.argsort(-per_face)
        best = int(order[0])
        top = float(per_face[best])
        if top < MIN_SCORE:
            return None, int(turn_of[best]), top
        second = float(per_face[order[1]]) if len(order) > 1 else -1.0
        if top - second >= MIN_MARGIN:
            return best, self._turn_of(scores, fines, best), top
        rivals = [int(i) for i in order[1:] if per_face[i] >= top - CLOSE]
        contenders = [best] + rivals
        # each contender compared with each rival at its own best turn: the one that beats
        # every other clearly wins; none does: unknown
        for a in contenders:
            sample = fines[int(turn_of[a])]
            if all(self._beats(sample, a, b) for b in contenders if b != a):
                return a, self._turn_of(scores, fines, a), float(per_face[a])
        return None, int(turn_of[best]), top

    def _beats(self, sample: np.ndarray, a: int, b: int) -> bool:
        return self._leaning(sample, self.fines[a], self.fines[b]) >= FINE_MARGIN

    def _turn_of(self, scores: np.ndarray, fines: list[np.ndarray], face: int) -> int:
        """0 (as straightened) or 1 (upside down) for ``face``: by the coarse scores when
        they differ clearly, else by the fine comparison of the face with itself turned."""
        upright, turned = float(scores[0, face]), float(scores[1, face])
        if abs(upright - turned) >= MIN_MARGIN:
            return 0 if upright > turned else 1
        fine = self.fines[face]
        return 0 if self._leaning(fines[0], fine, fine[:, ::-1, ::-1]) >= 0 else 1

    def same_upside_down(self, threshold: float = 1 - MIN_MARGIN) -> list[str]:
        """Faces that look alike turned half round (most playing cards): their turn is
        known only up to 180 degrees."""
        out = []
        for index, face in enumerate(self.ids):
            card = cv2.resize(self.pictures[face], self.straight_size(FINE),
                              interpolation=cv2.INTER_AREA)
            if self.scores(card)[1, index] >= threshold:
                out.append(face)
        return out

    def alike_at(self, card_px: float) -> frozenset[str]:
        """The faces of every pair ``too_alike`` at about this width (kept per 20 px step):
        never named, however they score, since the camera cannot tell them apart there."""
        step = max(1, int(round(card_px / ALIKE_STEP)))
        if step not in self._alike:
            self._alike[step] = frozenset(f for pair in self.too_alike(step * ALIKE_STEP)
                                          for f in pair)
        return self._alike[step]

    def too_alike(self, card_px: float) -> list[tuple[str, str]]:
        """Pairs of taught faces the camera cannot tell apart when a card is ``card_px`` wide
        in the frame: each face is brought down to that width, blurred as a lens does and
        cut a little off centre (a crop found a pixel or two off), then named as at the
        table; a face not named back is too alike the face it is taken for, or closest to."""
        pairs = set()
        for index, face in enumerate(self.ids):
            picture = self.pictures[face]
            w = max(8, int(round(card_px)))
            h = max(8, round(w * picture.shape[0] / picture.shape[1]))
            small = cv2.GaussianBlur(cv2.resize(picture, (w, h), interpolation=cv2.INTER_AREA),
                                     (0, 0), 0.7)
            for shift in (0.0, 1.5):
                seen = cv2.warpAffine(small, np.float32([[1, 0, shift], [0, 1, shift]]),
                                      (w, h), borderMode=cv2.BORDER_REPLICATE)
                card = cv2.resize(seen, self.straight_size(w), interpolation=cv2.INTER_LINEAR)
                scores = self.scores(card)
                got, _, _ = self.decide(scores, self._last)
                if got != index:
                    per_face = scores.max(axis=0)
                    per_face[index] = -np.inf
                    other = got if got is not None else int(np.argmax(per_face))
                    pairs.add(tuple(sorted((face, self.ids[other]))))
        return sorted(pairs)


def _clockwise(corners) -> np.ndarray:
    quad = np.float32(corners).reshape(4, 2)
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    return quad[np.argsort(angles)]  # y down: increasing angle runs clockwise


def _turn(corners: np.ndarray) -> int:
    """Quarter turn clockwise from upright of a card with these own corners (TL TR BR BL)."""
    up = (corners[0] + corners[1]) / 2 - (corners[2] + corners[3]) / 2
    angle = math.degrees(math.atan2(float(up[0]), float(-up[1])))
    return int(round(angle / 90)) % 4 * 90


def identify(frame: np.ndarray, corners, book: FaceBook) -> FaceSighting:
    """Name the card whose four corners (any order, any start) are given in ``frame``."""
    quad = _clockwise(corners)
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    short = 0 if sides[0] + sides[2] <= sides[1] + sides[3] else 1  # edge i→i+1 a short one
    starts = [short, short + 2] if not book.square else [0, 1, 2, 3]
    width = (sides[short] + sides[(short + 2) % 4]) / 2
    size = book.straight_size(width)
    target = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    best = None
    for start in starts[::2]:  # each straightening also scores its upside-down turn
        ordered = np.roll(quad, -start, axis=0)
        matrix = cv2.getPerspectiveTransform(ordered, target)
        card = cv2.warpPerspective(frame, matrix, size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        if card.ndim == 2:
            card = cv2.cvtColor(card, cv2.COLOR_GRAY2BGR)
        scores = book.scores(card[..., :3])
        got, turn, score = book.decide(scores, book._last)
        if best is None or score > best[2]:
            own = np.roll(ordered, -2 * turn, axis=0)  # upside down: the top is the far edge
            best = (got, own, score)
    got, own, score = best
    if got is not None and book.ids[got] in book.alike_at(width):
        got = None  # one of twins the camera cannot tell apart at this width: no guess
    return FaceSighting(None if got is None else book.ids[got], _turn(own),
                        tuple((float(x), float(y)) for x, y in own), float(score))


def _refined(contour: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The quad's corners where lines fitted to its four sides meet (a rounded corner's
    vertex lies inside the card's true corner)."""
    points = contour.reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        t = ((points - a) @ ab) / (length ** 2)
        rel = points - a
        dist = np.abs(ab[0] * rel[:, 1] - ab[1] * rel[:, 0]) / length
        near = points[(t > 0.15) & (t < 0.85) & (dist < max(3.0, 0.04 * length))]
        if len(near) < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.float32([x0, y0]), np.float32([vx, vy])))
    out = []
    for i in range(4):
        (p, r), (q, s) = lines[i - 1], lines[i]
        denom = float(r[0] * s[1] - r[1] * s[0])
        if abs(denom) < 1e-3:
            return quad
        d = q - p
        t = float(d[0] * s[1] - d[1] * s[0]) / denom
        out.append(p + t * r)
    out = np.float32(out)
    if np.abs(out - quad).max() > 0.15 * math.sqrt(abs(cv2.contourArea(quad))):
        return quad
    return out


def _card_quad(contour: np.ndarray, min_px: float, max_px: float) -> np.ndarray | None:
    hull = cv2.convexHull(contour)
    area = cv2.contourArea(hull)
    if area < min_px * min_px / ASPECT[1]:
        return None
    (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
    short, long_ = min(rw, rh), max(rw, rh)
    if not (short >= min_px and long_ <= max_px and ASPECT[0] <= short / long_ <= ASPECT[1]):
        return None
    if cv2.contourArea(contour) < 0.85 * area:  # a ring of edges, or something not a card
        return None
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.03, 0.045, 0.06):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            break
    else:
        return None
    quad = _clockwise(approx)
    if not cv2.isContourConvex(quad) or cv2.contourArea(quad) < 0.9 * area:
        return None
    return _refined(hull, quad)


def _paper(frame: np.ndarray, window: int) -> np.ndarray:
    """Where the frame is card paper: pale (low saturation, once the light's colour is taken
    out: the brightest pixels are taken for white) and brighter than the table around it (a
    shadow darkens both)."""
    value = frame.max(axis=2)
    top = frame[value >= np.percentile(value, 98)].reshape(-1, 3).astype(np.float32)
    light = np.maximum(top.mean(axis=0), 1.0)
    balanced = np.clip(frame * (light.max() / light), 0, 255).astype(np.uint8)
    hsv = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV)
    value = cv2.GaussianBlur(hsv[..., 2], (5, 5), 0)
    around = cv2.blur(value, (window, window))
    pale = hsv[..., 1] < PALE
    mask = (pale & (value.astype(np.int16) > around.astype(np.int16) + BRIGHTER)).astype(np.uint8)
    mask = cv2.morphologyEx(mask * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))


def _snapped(grey: np.ndarray, quad: np.ndarray, reach: int = SNAP_PX) -> np.ndarray:
    """The quad's sides moved onto the card's edge in the image: along each side, the
    outermost strong step across it within ``reach`` px, a line fitted through those (Huber: a
    token over the edge is an outlier) and the corners where the lines meet. A mask's
    outline can be pixels off (closed, cut and grown back); the card's edge is not."""
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)
    lines = []
    centre = quad.mean(axis=0)
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        along = b - a
        length = float(np.linalg.norm(along))
        if length < 8:
            return quad
        normal = np.float32([-along[1], along[0]]) / length
        if float(np.dot(normal, (a + b) / 2 - centre)) < 0:
            normal = -normal  # outwards
        t = np.linspace(0.12, 0.88, 24, dtype=np.float32)
        base = a[None] + t[:, None] * along[None]
        xs = base[:, 0:1] + offsets[None] * normal[0]
        ys = base[:, 1:2] + offsets[None] * normal[1]
        step = np.abs(cv2.remap(gx, xs, ys, cv2.INTER_LINEAR) * normal[0]
                      + cv2.remap(gy, xs, ys, cv2.INTER_LINEAR) * normal[1])
        # the outermost strong step: a printed frame just inside the edge is no edge
        strong_enough = step >= 0.6 * step.max(axis=1, keepdims=True)
        best = step.shape[1] - 1 - strong_enough[:, ::-1].argmax(axis=1)
        strong = step[np.arange(len(t)), best] > 0.5 * np.median(step.max(axis=1))
        if strong.sum() < 6:
            return quad
        points = np.stack([xs[np.arange(len(t)), best], ys[np.arange(len(t)), best]], axis=1)
        vx, vy, x0, y0 = cv2.fitLine(points[strong], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.float32([x0, y0]), np.float32([vx, vy])))
    out = []
    for i in range(4):
        (p, r), (q, v) = lines[i - 1], lines[i]
        denom = float(r[0] * v[1] - r[1] * v[0])
        if abs(denom) < 1e-3:
            return quad
        d = q - p
        out.append(p + float(d[0] * v[1] - d[1] * v[0]) / denom * r)
    out = np.float32(out)
    return out if np.abs(out - quad).max() <= 1.5 * reach else quad


def _grown(quad: np.ndarray, by: float) -> np.ndarray:
    """The quad with each side moved out by ``by`` px (each corner along its bisector)."""
    out = []
    for i in range(4):
        p = quad[i]
        a = p - quad[i - 1]
        b = p - quad[(i + 1) % 4]
        bisector = a / np.linalg.norm(a) + b / np.linalg.norm(b)
        out.append(p + bisector / np.linalg.norm(bisector) * by * math.sqrt(2))
    return np.float32(out)


def _changed(frame: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """Where the frame differs from the empty table (as the camera saw it before)."""
    if empty.shape[:2] != frame.shape[:2]:
        raise ValueError("the empty table's frame is not the frame's size")
    if empty.ndim == 2:
        empty = cv2.cvtColor(empty, cv2.COLOR_GRAY2BGR)
    diff = cv2.absdiff(cv2.GaussianBlur(frame, (5, 5), 0),
                       cv2.GaussianBlur(empty[..., :3], (5, 5), 0)).max(axis=2)
    mask = (diff > CHANGED).astype(np.uint8) * 255
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def find_cards(frame: np.ndarray, min_px: float = MIN_CARD_PX, max_share: float = MAX_SHARE,
               empty: np.ndarray | None = None) -> list[np.ndarray]:
    """Card-sized quadrilaterals in ``frame`` (each 4×2 float32, clockwise from any corner):
    outlines of pale paper brighter than the table round it, and closed rings of edges,
    whose hull is a rectangle of a card's aspect with rounded corners, its long side at
    least ``min_px`` / 0.95 and at most ``max_share`` of the frame's shorter side. Given
    ``empty``, the same view with no card on it, what changed is traced first: that finds a
    card on any table, a busy printed board as well."""
    if frame is None or getattr(frame, "ndim", 0) not in (2, 3) or frame.size == 0:
        raise ValueError("no camera frame")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    frame = frame[..., :3]
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    max_px = min(grey.shape) * max_share
    window = int(max(31, min(grey.shape) // 3)) | 1
    edges = cv2.dilate(cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), 30, 90),
                       np.ones((3, 3), np.uint8))
    paper = _paper(frame, window)
    k = int(min_px / 3) | 1  # the print on a card closed over: a solid card
    solid = cv2.morphologyEx(paper, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    e = max(2, int(min_px / 10))  # a card touching pale table: cut the thin joins, grow back
    cut = cv2.erode(solid, np.ones((2 * e + 1, 2 * e + 1), np.uint8))
    masks = []
    if empty is not None:
        changed = cv2.morphologyEx(_changed(frame, empty), cv2.MORPH_CLOSE,
                                   np.ones((k, k), np.uint8))
        masks = [(0, changed, cv2.RETR_EXTERNAL, 0),
                 (1, cv2.erode(changed, np.ones((2 * e + 1, 2 * e + 1), np.uint8)),
                  cv2.RETR_EXTERNAL, e)]
    found: list[tuple[int, np.ndarray]] = []
    for rank, mask, mode, grow in (*masks, (2, paper, cv2.RETR_EXTERNAL, 0),
                                   (2, solid, cv2.RETR_EXTERNAL, 0),
                                   (2, edges, cv2.RETR_LIST, 0), (3, cut, cv2.RETR_EXTERNAL, e)):
        contours, _ = cv2.findContours(mask, mode, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            quad = _card_quad(contour, max(8.0, min_px - 2 * grow), max_px)
            if quad is None:
                continue
            found.append((rank, _grown(quad, grow) if grow else quad))
    # a card's printed frames and art blocks are card-shaped too: keep the outermost
    # outline; what changed on the empty table first, then traced before grown back
    found.sort(key=lambda f: (f[0], -abs(cv2.contourArea(f[1]))))
    kept: list[np.ndarray] = []
    for _, quad in found:
        centre = tuple(float(v) for v in quad.mean(axis=0))
        if not any(cv2.pointPolygonTest(k, centre, False) >= 0 or cv2.pointPolygonTest(
                quad, tuple(float(v) for v in k.mean(axis=0)), False) >= 0 for k in kept):
            kept.append(quad)
    return [_snapped(grey, quad) for quad in kept]


def recognise(frame: np.ndarray, book: FaceBook, min_px: float = MIN_CARD_PX,
              max_share: float = MAX_SHARE, empty: np.ndarray | None = None
              ) -> list[FaceSighting]:
    """Every card in ``frame``, named by its face (or id None); ``empty``: the same view
    with no card, if known (see ``find_cards``)."""
    return [identify(frame, quad, book)
            for quad in find_cards(frame, min_px, max_share, empty)]

"""Cards known by their printed face, no sticker: taught pictures in, ids out. Knows no game.

A ``FaceBook`` keeps, for each taught face (one upright picture: a scan, a photo, a PNG with
transparent corners), two patterns of its inside (the rounded corners and edge left out):

- a coarse one (``COARSE`` px wide): grey with the slow shading taken out (a shadow or a lamp
  across the card changes it little), zero mean and unit length, plus the colour (Lab a, b
  less the card's own trimmed mean, ``_chroma_centre``: a table lit warm or cold still
  matches). Every taught face in both its upright and upside-down turn is scored with one
  matrix product.
- a fine one (``FINE`` px wide, 128 for a card 150 px wide or more: ``fine_size``; grey and
  colour, each less the card's own, scaled to unit spread), used only when two or
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
import threading
from dataclasses import dataclass

import cv2
import numpy as np

from hardware.camera.percentile import percentile

COARSE = 28  # px: width of the coarse pattern
FINE = 96  # px: width of the fine pattern (of a card 120 px wide or less)
FINE_LEVELS = (96, 128)  # px: the fine pattern's widths, the widest a card's own width gives
FINE_SHARE = 0.8  # of the straightened card's width: the widest fine pattern it holds
CENTRE_TRIM = 0.1  # of each tail: left out of a card's own mean colour
FINE_CHROMA = 40.0  # Lab a, b levels per unit of the fine pattern (JPEG halves colour detail)
INSET = 0.07  # of the card's width: the rounded corners and edge left out
COLOUR_WEIGHT = 0.3  # coarse score lost per unit of squared colour distance (0 to 4)
CHROMA_FLOOR = 0.04  # RMS chroma (of 128) below which a card counts as partly grey
MIN_SCORE = 0.55  # coarse score of the best face for any answer (an untaught card: lower)
MIN_MARGIN = 0.12  # by how much the best face must beat every other one to need no second look
CLOSE = 0.25  # faces scoring this close to the best get the fine comparison
FINE_MARGIN = 0.2  # the winner: this far on its side of the midpoint to each close rival
SHIFT = 2  # px (of the fine pattern) the fine comparison may move each way
FINE_Z = 6.0  # ... and by this many of its standard errors
AREA_MARGIN = 0.1  # ... and the area where they differ votes this far on its side too
AREA_FLOOR = 0.02  # of the largest squared difference: a pixel where two faces differ
ALIGN_STOP = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-4)  # ECC's iterations
ALIGN_MAX_TURN, ALIGN_MAX_SHIFT = 0.05, 4.0  # the largest correction taken (of 1; px)
COLOUR_FLOOR = 0.05  # mean squared colour (fine units) of a face colourful enough to fit
COLOUR_GAIN = (0.3, 1.5)  # the colour strengths of a card against its face, fitted
BLURS = (0.0, 0.5, 1.0)  # px (of the fine pattern): blurs of the taught faces tried
WEIGHT_FLOOR = 0.02  # of the largest: where two faces differ less, the comparison skips
TWIN = 0.45  # taught faces scoring this alike each other (coarse): never told apart by margin
INK_APART = 0.15  # two faces whose ink differs by this share of the larger have an ink vote
INK_LEAN = 0.25  # ... and a card whose ink leans this far to the loser is not named
INK_PAPER = 75  # percentile of a card's grey taken for its paper
FILL_APART = 0.1  # two faces whose fill (``_fill``) differs by this have a fill vote,
FILL_OPEN = 0.6  # ... if one of them has open shapes (outlined, striped: a fill below this;
# pictures, pips and drawn art read 0.7-1.0 and move 0.2 with the card's size: no vote)
FILL_VETO = 0.1  # ... a card whose fill leans this far to the loser is not named
FILL_SURE = 0.2  # ... and one leaning this far to a face rules the other face out (the
# same in too_alike: its harsher camera is in the fill it reads; the lean is 0.5 at a face's)
FILL_STRONG = 0.4  # of a card's strongest ink: a shape's outline
FILL_SHAPE = 0.01  # of the card's inside: the least area of a shape
FILL_RING_PX = 20  # px: the fewest pixels of a ring (one px deeper) that counts
FILL_MIN_PX = 60  # px: the narrowest card (in the frame) whose fill votes: narrower, blur
# spreads a striped shape's outline into its stripes and it reads half way to solid
ALIKE_STEP = 20  # px: card widths within a step share one too_alike answer
ALIKE_SAFETY = 2.0  # too_alike and turn_alike: margins this many times the table's
HALF_TURN_ALIKE = 0.1  # a face this close to itself turned half round: its turn is not known
SEEN_BLUR, SEEN_NOISE, SEEN_JPEG = 0.9, 4.0, 75  # ... and the camera they imagine
MIN_CARD_PX = 40  # the shortest side of a card find_cards looks for
ASPECT = (0.4, 0.95)  # short side over long side of what find_cards takes for a card (a
# card at the far edge of a table seen from its near edge: foreshortened to 0.45)
SPLIT_COVER = 0.8  # an outline this much covered by two or more card outlines inside it:
# cards touching, taken together for one (a dark seam between them), not a card
WORK_PX = 1080  # px: the shorter side find_cards works at (a bigger frame is brought down)
GAP_DARKER = 40  # grey levels: an outline darker than all round it by this: a gap between cards
MAX_SHARE = 0.6  # the longest card find_cards takes, of the frame's shorter side
SNAP_PX = 5  # px either side of an outline where find_cards looks for the card's edge
SNAP_TURN = 0.05  # sine of the most a snapped side may turn from the outline's (3 degrees)
SNAP_DIFF_SHARE = 0.3  # against the empty table: a step this share of the strongest is an edge
PUSH_SHARE = 0.1  # of the card's short side: how far out a side inside the card is pushed
CHANGED = 30  # grey levels (any channel) a card changes the empty table by
CHANGED_FAINT = 12  # ... at least (pale paper on a pale part of a board; noise: about 3)
LAID_SHARE = 0.25  # of a card's outline that changed, at least (a board's own print: none)
WHOLE_OUTSIDE = 8  # median change just outside the outline of a whole card, at most
WHOLE_STEP = 10  # ... and how much more it changed just inside, at least
PALE = 70  # HSV saturation (of 255) of card paper under tinted light
BRIGHTER = 12  # grey levels card paper is brighter than the table around it


@dataclass(frozen=True)
class FaceSighting:
    """One card in a frame: ``id`` of its taught face or None (unknown, or not sure),
    ``turn`` in degrees clockwise from upright (0, 90, 180, 270), ``corners`` the card's
    own top-left, top-right, bottom-right, bottom-left in the frame's pixels, ``score`` the
    best face's coarse score (1 is a perfect match). ``turn_known`` False: the face looks
    the same turned half round (or the camera could not tell which way it lies): ``turn``
    is then 0 or 90 and may be 180 more, never a guess."""

    id: str | None
    turn: int
    corners: tuple[tuple[float, float], ...]
    score: float
    turn_known: bool = True

    def to_json(self) -> dict:
        return {"id": self.id, "turn": self.turn, "turn_known": self.turn_known,
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


def _chroma_centre(ab: np.ndarray) -> np.ndarray:
    """The card's own colour (Lab a, b), taken out so a warm or cold light matches: the mean
    of each channel with the ``CENTRE_TRIM`` tails left out (a token, a glare). Not the
    median: on a card that is half cream paper and half one colour (a title bar of 15 %
    tips it), the median jumps from one to the other between the taught face and the
    camera's view, and shifts the whole card's colour by the gap."""
    flat = np.sort(ab.reshape(-1, ab.shape[-1]), axis=0)
    cut = int(CENTRE_TRIM * len(flat))
    return flat[cut:len(flat) - cut].mean(axis=0)


def _ink(card: np.ndarray) -> float:
    """The card's share of ink: how much darker than its own paper (``INK_PAPER``
    percentile) it is, on average. A mean, so blur and the card's size in the frame barely
    move it: stripes too fine to be seen at the table still darken a shape more than its
    outline alone does, a third shape more than two, a solid fill far more."""
    grey = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY).astype(np.float32)
    paper = max(percentile(grey, INK_PAPER), 1.0)
    return float(np.clip(1.0 - grey / paper, 0.0, 1.0).mean())


def _fill(card: np.ndarray) -> float | None:
    """How full of ink the printed shapes on a card are inside their outline, measured at
    the card's own scale, whatever its size in the frame: for each shape (a patch of
    strong ink, its holes filled), the mean ink of each ring one pixel deeper from its
    edge (``_rings``), against the ink of its own outline; the rings beyond the outline's
    fall (as deep again as the outline's ramp) are its inside (``_inside_of``). About 0
    for an outlined shape, 0.1-0.3 for stripes (a mean: stripes too fine to see still
    count), 1 for a solid one; the median over the card's shapes. None when no shape has
    an inside deeper than its blurred outline (a small or blurred card: its outline's ramp
    fills it, and it would read as stripes) or the card has no shape. Ink is darkness
    against the paper round it (a glare over half the card is paper, not a lighter ink)."""
    light = cv2.cvtColor(card, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32)
    ink = cv2.GaussianBlur(np.maximum(_paper_round(light) - light, 0.0), (0, 0), 0.7)
    peak = percentile(ink, 99.5)
    if peak < 8.0:  # grey levels: no print on the card
        return None
    strong = (ink > FILL_STRONG * peak).astype(np.uint8)
    c = max(3, card.shape[1] // 40) | 1
    strong = cv2.morphologyEx(strong, cv2.MORPH_CLOSE, np.ones((c, c), np.uint8))
    contours, _ = cv2.findContours(strong, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contours = [c for c in contours
                if cv2.contourArea(c) >= FILL_SHAPE * card.shape[0] * card.shape[1]]
    shapes = np.zeros(strong.shape, np.int32)
    for label, contour in enumerate(contours, start=1):
        cv2.drawContours(shapes, [contour], -1, label, -1)
    if not contours or (shapes > 0).all():
        return None
    ink = np.maximum(ink - float(np.median(ink[shapes == 0])), 0.0)  # the paper's own
    fills = [f for f in (_inside_of(rings) for rings in _rings(ink, shapes, len(contours)))
             if f is not None]
    return float(np.median(fills)) if fills else None


def _paper_round(light: np.ndarray) -> np.ndarray:
    """The paper's lightness round each pixel of a card: the lightest within half the
    card's width (twice as wide as a shape, so a solid one's middle sees paper), smoothed."""
    k = max(3, light.shape[1] // 2) | 1
    return cv2.blur(cv2.dilate(light, np.ones((k, k), np.uint8)), (k, k))


def _rings(ink: np.ndarray, shapes: np.ndarray, count: int) -> list[list[float]]:
    """Per shape (``shapes``: labels 1..count, 0 the paper), the mean ink of each ring one
    pixel deeper from its edge, as long as a ring holds ``FILL_RING_PX`` pixels."""
    inside = shapes > 0
    depth = cv2.distanceTransform(inside.astype(np.uint8), cv2.DIST_L2, 3)
    rings = np.floor(depth[inside]).astype(np.int64)
    labels = shapes[inside].astype(np.int64) - 1
    deepest = int(rings.max()) + 1
    where = labels * deepest + rings
    counts = np.bincount(where, minlength=count * deepest).reshape(count, deepest)
    sums = np.bincount(where, weights=ink[inside], minlength=count * deepest).reshape(
        count, deepest)
    out = []
    for n, total in zip(counts, sums, strict=True):
        short = np.flatnonzero(n[1:] < FILL_RING_PX)
        m = int(short[0]) if len(short) else deepest - 1
        out.append([float(v) for v in total[1:1 + m] / n[1:1 + m]])
    return out


def _inside_of(rings: list[float]) -> float | None:
    """The ink inside a shape's outline, of its outline's: the rings past the outline's
    fall to half its ink, as far past it as the ramp up to the outline's peak was long
    (a blurred outline spreads both ways); a shape whose ink never falls to half is
    solid-like (its deepest rings are its inside). None when no two rings are left."""
    if len(rings) < 3:
        return None
    top = int(np.argmax(rings[:max(3, len(rings) // 2)]))
    peak = rings[top]
    if peak <= 0:
        return None
    fall = next((i for i in range(top + 1, len(rings)) if rings[i] < 0.5 * peak), None)
    start = top + 1 if fall is None else fall + (fall - top)
    deep = rings[start:]
    if len(deep) < 2:
        return None
    return float(np.mean(deep)) / peak


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
        chroma = lab[..., 1:] - _chroma_centre(lab[..., 1:])
        self.grey = _unit(grey).ravel()
        # unit length when colourful, short when nearly grey (black print on white)
        chroma = (chroma / 128.0).ravel()
        self.chroma = chroma / max(float(np.linalg.norm(chroma)), CHROMA_FLOOR * math.sqrt(
            chroma.size))
        big = cv2.resize(inside, fine, interpolation=cv2.INTER_AREA)
        self.ink = _ink(big)
        self.fill = _fill(inside if inside.shape[1] <= 3 * FINE else cv2.resize(
            inside, (3 * FINE, round(3 * FINE * inside.shape[0] / inside.shape[1])),
            interpolation=cv2.INTER_AREA))
        lab = cv2.cvtColor(big, cv2.COLOR_BGR2LAB).astype(np.float32)
        lab = cv2.GaussianBlur(lab, (0, 0), 1.0)
        l_chan = lab[..., 0] - cv2.GaussianBlur(lab[..., 0], (0, 0), fine[0] / 4)
        l_chan /= max(float(l_chan.std()), 1.0)
        ab = (lab[..., 1:] - _chroma_centre(lab[..., 1:])) / FINE_CHROMA
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
        self.inks = np.float32([p.ink for p in patterns])
        self.fills = [p.fill for p in patterns]  # ``_fill`` of each taught face, or None
        self._fills: dict[int, list] = {}  # per width step: ``fills_at``
        alike = self.grey @ self.grey.T - COLOUR_WEIGHT * (
            self.chroma_sq[:, None] + self.chroma_sq[None] - 2 * self.chroma @ self.chroma.T)
        np.fill_diagonal(alike, -np.inf)
        # per face, the faces as alike as twins (``TWIN``): it is named only by beating them
        # in the fine comparison, never by the coarse margin alone
        self.twins = [np.flatnonzero(row >= TWIN) for row in alike]
        self._levels = {FINE: self.fines}  # fine pattern width -> the taught faces' fines
        self._alike: dict[int, tuple] = {}  # per width step: what `_check` found
        self.symmetric = self._symmetric()
        self._lock = threading.Lock()  # a book is shared by the camera and HTTP threads

    @classmethod
    def from_pictures(cls, pictures: dict[str, np.ndarray]) -> FaceBook:
        return cls(pictures)

    def __len__(self) -> int:
        return len(self.ids)

    def straight_size(self, card_px: float) -> tuple[int, int]:
        """The size a card is straightened to: its own width (no detail made up), capped."""
        w = int(min(max(card_px, self.fine[0] + 8), 3 * FINE))
        return w, max(8, round(w * self.aspect))

    def fine_size(self, card_w: int) -> tuple[int, int]:
        """The fine pattern of a card straightened ``card_w`` wide: the widest of
        ``FINE_LEVELS`` within ``FINE_SHARE`` of the width step ``too_alike`` judges that
        card at (``alike_at``: the pattern it judged with; a digit in a small disc needs
        the detail a closer camera gives, a pattern as wide as the card is all noise)."""
        step = max(1, int(round(card_w / ALIKE_STEP))) * ALIKE_STEP
        w = max([v for v in FINE_LEVELS if v <= FINE_SHARE * step + 1e-6] or [FINE])
        return w, max(16, round(w * self.aspect))

    def _taught(self, width: int) -> np.ndarray:
        """The taught faces' fine patterns ``width`` wide (made once, on first need)."""
        with self._lock:
            kept = self._levels.get(width)
        if kept is None:
            size = (width, max(16, round(width * self.aspect)))
            kept = np.stack([_Patterns(self.pictures[i], self.coarse, size).fine
                             for i in self.ids])
            with self._lock:
                kept = self._levels.setdefault(width, kept)
        return kept

    def scores(self, card: np.ndarray) -> np.ndarray:
        """Coarse scores of a straightened card: (turns, faces), turn 0 then 180 (and, for
        square cards, the caller straightens again for 90 and 270)."""
        return self.scored(card)[0]

    def scored(self, card: np.ndarray
               ) -> tuple[np.ndarray, list[np.ndarray], float, float | None]:
        """(``scores``, the card's fine pattern upright and upside down, its ``_ink``, its
        ``_fill``) for ``decide``."""
        p = _Patterns(card, self.coarse, self.fine_size(card.shape[1]))
        rows = [(p.grey, p.chroma, p.fine), p.turned(self.coarse)]
        out = np.empty((2, len(self.ids)), np.float32)
        for k, (grey, chroma, _) in enumerate(rows):
            colour = (chroma @ chroma) + self.chroma_sq - 2 * (self.chroma @ chroma)
            out[k] = self.grey @ grey - COLOUR_WEIGHT * colour
        return out, [r[2] for r in rows], p.ink, p.fill

    def _ink_against(self, ink: float, a: int, b: int) -> bool:
        """The card's ink leans clearly to face b rather than a (``INK_LEAN``), where the
        two faces' inks differ enough to vote (``INK_APART``): an outlined shape taken for
        its striped twin, a count or a fill the fine comparison got wrong."""
        da, db = float(self.inks[a]), float(self.inks[b])
        if abs(da - db) < INK_APART * max(da, db, 1e-6):
            return False
        return (ink - (da + db) / 2) / (da - db) < -INK_LEAN

    def fills_at(self, card_px: float | None) -> list:
        """``_fill`` of each taught face as a card ``card_px`` wide in the frame shows it
        (brought down to that width, then straightened as ``identify`` does; kept per
        ``ALIKE_STEP``): blur lifts a striped shape's fill towards solid, the same for the
        taught face as for the card. The faces' own fills when ``card_px`` is None."""
        if card_px is None:
            return self.fills
        step = max(1, int(round(card_px / ALIKE_STEP)))
        with self._lock:
            kept = self._fills.get(step)
        if kept is None:
            w = step * ALIKE_STEP
            size = self.straight_size(w)
            kept = []
            for face in self.ids:
                picture = self.pictures[face]
                small = cv2.resize(picture, (w, max(8, round(w * picture.shape[0] /
                                                             picture.shape[1]))),
                                   interpolation=cv2.INTER_AREA)
                kept.append(_fill(_inside(cv2.resize(small, size,
                                                     interpolation=cv2.INTER_LINEAR))))
            with self._lock:
                kept = self._fills.setdefault(step, kept)
        return kept

    def _fill_lean(self, fill: float | None, a: int, b: int, fills: list) -> float:
        """How far the card's ``_fill`` leans to face a (+0.5 at a's, -0.5 at b's) where
        the two faces' ``fills`` (``fills_at`` the card's width) differ by ``FILL_APART``
        or more and one has open shapes (``FILL_OPEN``: an outlined shape and its striped
        or solid twin); 0 where they do not, or a fill is not known."""
        fa, fb = fills[a], fills[b]
        if fill is None or fa is None or fb is None or abs(fa - fb) < FILL_APART or \
                min(fa, fb) >= FILL_OPEN:
            return 0.0
        return (fill - (fa + fb) / 2) / (fa - fb)

    @staticmethod
    def _leaning(sample: np.ndarray, fa: np.ndarray, fb: np.ndarray
                 ) -> tuple[float, float, float]:
        """(t, its standard error, the area's vote: ``_area_vote``): where ``sample`` lies
        between faces a (t = +0.5) and b (-0.5), measured along what
        differs between them only (weighted by the blurred squared difference, in the box
        where that is not negligible), at the shift of up to SHIFT px and the blur of both
        faces (``BLURS``: the camera's defocus and the straightening soften the sample, not
        the taught faces) that fit it best: blur and noise pull it towards 0, they do not
        push it towards the wrong face. The error is the misfit per weighted pixel left
        after the best fit, carried through the weighted projection: a difference of a few
        pixels (a dot) gives a leaning that noise and JPEG move far, a whole pip one they
        barely move."""
        diff = fa - fb
        weight = cv2.GaussianBlur((diff ** 2).sum(axis=0), (0, 0), 1.5)
        s = SHIFT
        _, h, w_ = sample.shape
        inner = weight[s:h - s, s:w_ - s]
        peak = float(inner.max())
        if peak < 1e-9:
            return 0.0, math.inf, 0.0
        ys, xs = np.nonzero(inner > WEIGHT_FLOOR * peak)
        y0, y1 = s + int(ys.min()), s + int(ys.max()) + 1
        x0, x1 = s + int(xs.min()), s + int(xs.max()) + 1
        m = 3 + s  # a margin for the blur
        Y0, Y1, X0, X1 = max(0, y0 - m), min(h, y1 + m), max(0, x0 - m), min(w_, x1 + m)
        box = (slice(y0 - Y0, y1 - Y0), slice(x0 - X0, x1 - X0))
        w = np.repeat(weight[y0:y1, x0:x1, None], 3, axis=2)
        # the shift: every one at once (sums over the box of template × shifted sample are
        # cv2.matchTemplate's TM_CCORR; the residual of the best t is sum(w off²) - t² norm)
        window = np.ascontiguousarray(np.moveaxis(
            sample[:, y0 - s:y1 + s, x0 - s:x1 + s], 0, 2), dtype=np.float32)
        ga, gb = (np.ascontiguousarray(np.moveaxis(f[:, Y0:Y1, X0:X1], 0, 2)) for f in (fa, fb))
        d, mid = (ga - gb)[box], ((ga + gb) / 2)[box]
        wdiff, wmid = w * d, w * mid
        norm = float((wdiff * d).sum())
        if norm < 1e-9:
            return 0.0, math.inf, 0.0
        t = (cv2.matchTemplate(window, np.ascontiguousarray(wdiff), cv2.TM_CCORR)
             - float((wdiff * mid).sum())) / norm
        residual = (cv2.matchTemplate(window * window, w, cv2.TM_CCORR)
                    - 2 * cv2.matchTemplate(window, np.ascontiguousarray(wmid), cv2.TM_CCORR)
                    + float((wmid * mid).sum()) - t * t * norm)
        dy, dx = np.unravel_index(int(np.argmin(residual)), residual.shape)
        seen = window[dy:dy + y1 - y0, dx:dx + x1 - x0]
        # then the blur, at that shift
        best, leaning, spread, area = math.inf, 0.0, 0.0, 0.0
        for sigma in BLURS:
            if sigma:
                ba, bb = (cv2.GaussianBlur(g, (0, 0), sigma) for g in (ga, gb))
                d, mid = (ba - bb)[box], ((ba + bb) / 2)[box]
                wdiff = w * d
                norm = float((wdiff * d).sum())
                if norm < 1e-9:
                    continue
            off = seen - mid
            t = float((wdiff * off).sum()) / norm
            residual = float((w * off * off).sum()) - t * t * norm
            if residual < best:
                best, leaning = residual, t
                spread = float((wdiff * wdiff).sum()) / norm ** 2
                area = _area_vote(off, d)
        if not math.isfinite(best):
            return 0.0, math.inf, 0.0
        return leaning, math.sqrt(max(best, 0.0) / float(w.sum()) * spread), area

    def decide(self, scores: np.ndarray, fines: list[np.ndarray], ink: float,
               strict: float = 1.0, fill: float | None = None, card_px: float | None = None
               ) -> tuple[int | None, int | None, float]:
        """(face index or None, turn index: 0 as straightened, 1 upside down, None not
        known; best score) from a straightened card's ``scored``. ``strict`` scales every
        margin (``too_alike`` asks for more than the table does). A face with twins
        (``TWIN``) must beat each of them in the fine comparison, whatever the margin, and
        no winner may have the card's ink against it (``_ink_against``). The card's
        ``fill`` decides between two faces whose fills differ (``_fill_lean``): leaning
        ``FILL_VETO`` to b, a never beats b; ``FILL_SURE`` to a, b is ruled out, whatever
        the fine comparison says (an outlined shape and its striped twin differ in a
        pattern blur and JPEG wash out, not in how full of ink they are)."""
        per_face = scores.max(axis=0)
        turn_of = scores.argmax(axis=0)
        taught = self._taught(fines[0].shape[2])
        order = np.argsort(-per_face)
        best = int(order[0])
        top = float(per_face[best])
        if top < MIN_SCORE:
            return None, None, top
        second = float(per_face[order[1]]) if len(order) > 1 else -1.0
        twins = [int(i) for i in self.twins[best]]
        if top - second >= MIN_MARGIN * strict and not twins:
            return best, self._turn_of(scores, fines, best, strict), top
        rivals = [int(i) for i in order[1:] if per_face[i] >= top - CLOSE or int(i) in twins]
        contenders = [best] + rivals
        # the card laid onto the best contender at each turn (an outline a pixel or two off
        # turns and scales the face a little, more than a shift can undo at its corners)
        samples = {}
        for a in contenders:
            k = int(turn_of[a])
            if k not in samples:
                samples[k] = _aligned(fines[k], taught[a])
        # each contender compared with each rival at its own best turn: the one that beats
        # every other clearly wins; none does: unknown. On the same sample, b against a
        # leans as far as a against b, the other way: each pair is measured once
        leanings: dict[tuple[int, int, int], tuple[float, float, float]] = {}

        fills = self.fills_at(card_px) if fill is not None else self.fills

        def beats(a: int, b: int) -> bool:
            lean = self._fill_lean(fill, a, b, fills)
            if self._ink_against(ink, a, b) or lean < -FILL_VETO * strict:
                return False
            if lean >= FILL_SURE:
                return True
            k = int(turn_of[a])
            if (k, b, a) in leanings:
                t, error, area = leanings[(k, b, a)]
                return _clear(-t, error, strict, -area)
            t, error, area = leanings[(k, a, b)] = self._leaning(samples[k], taught[a],
                                                                 taught[b])
            return _clear(t, error, strict, area)

        for a in contenders:
            if all(beats(a, b) for b in contenders if b != a):
                return a, self._turn_of(scores, fines, a, strict), float(per_face[a])
        return None, None, top

    def _turn_of(self, scores: np.ndarray, fines: list[np.ndarray], face: int,
                 strict: float = 1.0) -> int | None:
        """0 (as straightened), 1 (upside down) or None (not known) for ``face``: by the
        coarse scores when they differ clearly, else by the fine comparison of the face
        with itself turned, when that is clear."""
        upright, turned = float(scores[0, face]), float(scores[1, face])
        if abs(upright - turned) >= MIN_MARGIN * strict:
            return 0 if upright > turned else 1
        fine = self._taught(fines[0].shape[2])[face]
        t, error, area = self._leaning(fines[0], fine, fine[:, ::-1, ::-1])
        if _clear(t, error, strict, area):
            return 0
        if _clear(-t, error, strict, -area):
            return 1
        return None

    def same_upside_down(self) -> list[str]:
        """Faces that look the same turned half round (most playing cards: their pips are
        laid out point-symmetric), whatever the resolution: their turn is known only up to
        180 degrees, and never guessed."""
        return sorted(self.symmetric)

    def _symmetric(self) -> frozenset[str]:
        """Faces whose fine pattern, turned half round and moved up to SHIFT px to fit best,
        differs from itself by less than ``HALF_TURN_ALIKE`` of its own energy."""
        s = SHIFT
        out = set()
        for face, fine in zip(self.ids, self.fines, strict=True):
            _, h, w = fine.shape
            core = fine[:, s:h - s, s:w - s]
            turned = fine[:, ::-1, ::-1]
            energy = float((core ** 2).sum())
            least = min(float(((core - turned[:, s + dy:h - s + dy, s + dx:w - s + dx]) ** 2
                               ).sum()) for dy in range(-s, s + 1) for dx in range(-s, s + 1))
            if least < HALF_TURN_ALIKE * energy:
                out.add(face)
        return frozenset(out)

    def alike_at(self, card_px: float) -> frozenset[str]:
        """The faces of every pair ``too_alike`` at about this width (kept per 20 px step):
        never named, however they score, since the camera cannot tell them apart there."""
        return self._checked(card_px)[1]

    def turn_alike_at(self, card_px: float) -> frozenset[str]:
        """``turn_alike`` at about this width (kept per 20 px step): their turn is never
        given, only whether they lie upright or sideways."""
        return self._checked(card_px)[2]

    def too_alike(self, card_px: float) -> list[tuple[str, str]]:
        """Pairs of taught faces the camera cannot tell apart when a card is ``card_px`` wide
        in the frame: each face, upright and upside down, is brought down to that width,
        blurred as a lens does, given a sensor's noise and JPEG, and cut a little off centre
        (a crop found a pixel or two off), then named as at the table but with every margin
        ``ALIKE_SAFETY`` times wider (the table is harsher than this); a face not named back
        is too alike the face it is taken for, or closest to."""
        return self._checked(card_px)[0]

    def turn_alike(self, card_px: float) -> list[str]:
        """Faces whose turn the camera cannot tell when a card is ``card_px`` wide: they look
        the same turned half round (most playing cards), or too nearly (seen as in
        ``too_alike``, a face named back at the wrong half turn or at none). A face whose
        turn matters to its game must not be one."""
        return sorted(self._checked(card_px)[2])

    def _checked(self, card_px: float) -> tuple[list, frozenset, frozenset]:
        step = max(1, int(round(card_px / ALIKE_STEP)))
        with self._lock:
            kept = self._alike.get(step)
        if kept is None:
            pairs, turns = self._check(step * ALIKE_STEP)
            kept = (pairs, frozenset(f for pair in pairs for f in pair),
                    frozenset(turns) | self.symmetric)
            with self._lock:
                self._alike[step] = kept
        return kept

    def _check(self, card_px: float) -> tuple[list[tuple[str, str]], set[str]]:
        pairs, turns = set(), set()
        rng = np.random.default_rng(0)
        for index, face in enumerate(self.ids):
            picture = self.pictures[face]
            w = max(8, int(round(card_px)))
            h = max(8, round(w * picture.shape[0] / picture.shape[1]))
            small = cv2.resize(picture, (w, h), interpolation=cv2.INTER_AREA)
            for upside_down in (False, True):
                turned = cv2.rotate(small, cv2.ROTATE_180) if upside_down else small
                for shift in (0.0, 1.5):
                    card = self._seen(turned, shift, rng)
                    scores, fines, ink, fill = self.scored(card)
                    got, turn, _ = self.decide(scores, fines, ink, ALIKE_SAFETY,
                                               fill if card_px >= FILL_MIN_PX else None,
                                               card_px)
                    if got == index:
                        if face not in self.symmetric and turn != int(upside_down):
                            turns.add(face)
                        continue
                    per_face = scores.max(axis=0)
                    per_face[index] = -np.inf
                    other = got if got is not None else int(np.argmax(per_face))
                    pairs.add(tuple(sorted((face, self.ids[other]))))
        return sorted(pairs), turns

    def _seen(self, small: np.ndarray, shift: float, rng: np.random.Generator
              ) -> np.ndarray:
        """A face already brought down to a card's width in the frame, as the camera sees
        it and ``identify`` straightens it."""
        h, w = small.shape[:2]
        seen = cv2.warpAffine(cv2.GaussianBlur(small, (0, 0), SEEN_BLUR),
                              np.float32([[1, 0, shift], [0, 1, shift]]), (w, h),
                              borderMode=cv2.BORDER_REPLICATE)
        seen = np.clip(seen + rng.normal(0, SEEN_NOISE, seen.shape), 0, 255).astype(np.uint8)
        seen = cv2.imdecode(cv2.imencode(".jpg", seen, [cv2.IMWRITE_JPEG_QUALITY, SEEN_JPEG])[1],
                            cv2.IMREAD_COLOR)
        return cv2.resize(seen, self.straight_size(w), interpolation=cv2.INTER_LINEAR)


def _aligned(sample: np.ndarray, face: np.ndarray) -> np.ndarray:
    """The fine pattern ``sample`` warped (affine, ``cv2.findTransformECC`` on the grey
    channel) to fit ``face`` best (as it was when that does not converge), its colour
    brought to the face's strength (``_colour_gain``)."""
    warp = np.eye(2, 3, dtype=np.float32)
    try:
        _, warp = cv2.findTransformECC(face[0], sample[0], warp, cv2.MOTION_AFFINE,
                                       ALIGN_STOP, None, 3)
    except cv2.error:
        return _colour_gain(sample, face)
    if np.abs(warp[:, :2] - np.eye(2)).max() > ALIGN_MAX_TURN or \
            np.abs(warp[:, 2]).max() > ALIGN_MAX_SHIFT:
        return _colour_gain(sample, face)  # not a small correction: left as it was
    _, h, w = sample.shape
    return _colour_gain(np.stack([
        cv2.warpAffine(c, warp, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                       borderMode=cv2.BORDER_REPLICATE) for c in sample]), face)


def _colour_gain(sample: np.ndarray, face: np.ndarray) -> np.ndarray:
    """The sample with its colour (Lab a, b) scaled to the face's strength, as fitted over
    the whole card: dim or tinted light, a lamp's glare and JPEG wash a card's colours
    out, and two faces told apart by a colour alone would then lean to neither. Only for a
    colourful face (a grey one gives no gain to fit), and within ``COLOUR_GAIN``."""
    chroma, taught = sample[1:], face[1:]
    energy = float((taught * taught).mean())
    if energy < COLOUR_FLOOR:
        return sample
    gain = float((chroma * taught).mean()) / energy
    low, high = COLOUR_GAIN
    if not low <= gain <= high:
        return sample
    out = sample.copy()
    out[1:] /= gain
    return out


def _area_vote(off: np.ndarray, d: np.ndarray) -> float:
    """Where the sample lies between two faces (+0.5 face a, -0.5 face b; ``off`` its
    offset from their midpoint, ``d`` a less b, (h, w, 3)) as a vote of the area where they
    differ: each pixel's own leaning, held within ±1, counts once. The weighted leaning
    counts a pixel by its squared difference twice over, so a token of a strong colour on
    the card, lying where the rival face happens to have that colour, can outweigh the
    whole of the card's picture; by area it cannot."""
    dd = (d * d).sum(axis=2)
    where = dd > AREA_FLOOR * float(dd.max())
    if not where.any():
        return 0.0
    own = (d * off).sum(axis=2)[where] / dd[where]
    return float(np.clip(own, -1.0, 1.0).mean())


def _clear(leaning: float, error: float, strict: float = 1.0, area: float = 1.0) -> bool:
    return leaning >= FINE_MARGIN * strict and leaning >= FINE_Z * strict * error and \
        area >= AREA_MARGIN * strict


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
    seen_px = width  # in the frame's pixels
    fill_votes = width >= FILL_MIN_PX  # wide enough to read a fill
    in_frame = quad  # the corners told back, in the frame's pixels
    if width > 1.5 * size[0]:  # a big photo: only the card, brought down to what is read
        frame, quad = _brought_down(frame, quad, size[0] / width)
        width = float(size[0])
    target = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    best = None
    for start in starts[:len(starts) // 2]:  # each straightening also scores its half turn
        ordered = np.roll(quad, -start, axis=0)
        matrix = cv2.getPerspectiveTransform(ordered, target)
        card = cv2.warpPerspective(frame, matrix, size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        if card.ndim == 2:
            card = cv2.cvtColor(card, cv2.COLOR_GRAY2BGR)
        scores, fines, ink, fill = book.scored(card[..., :3])
        got, turn, score = book.decide(scores, fines, ink, fill=fill if fill_votes else None,
                                       card_px=seen_px)
        if best is None or score > best[3]:
            best = (got, turn, np.roll(in_frame, -start, axis=0), score)
    got, turn, ordered, score = best
    if got is not None and book.ids[got] in book.alike_at(width):
        got = None  # one of twins the camera cannot tell apart at this width: no guess
    if got is None or book.ids[got] in book.turn_alike_at(width):
        turn = None  # a face alike turned half round: its turn is not guessed
    own = np.roll(ordered, -2 * (turn or 0), axis=0)  # upside down: the top is the far edge
    if turn is None and _turn(own) >= 180:
        own = np.roll(own, 2, axis=0)  # not known: told as 0 or 90
    return FaceSighting(None if got is None else book.ids[got], _turn(own),
                        tuple((float(x), float(y)) for x, y in own), float(score),
                        turn is not None)


def _brought_down(frame: np.ndarray, quad: np.ndarray, scale: float
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The part of ``frame`` round ``quad``, scaled by ``scale`` (area averaging: a stripe
    pattern finer than the straightened card is averaged, not aliased), and the quad in it:
    the work of reading a card then follows the card's size as it is read, not the photo's."""
    x, y, w, h = cv2.boundingRect(np.int32(np.round(quad)))
    pad = 4
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(frame.shape[1], x + w + pad), min(frame.shape[0], y + h + pad)
    crop = frame[y0:y1, x0:x1]
    small = cv2.resize(crop, (max(1, round(crop.shape[1] * scale)),
                              max(1, round(crop.shape[0] * scale))),
                       interpolation=cv2.INTER_AREA)
    sx, sy = small.shape[1] / crop.shape[1], small.shape[0] / crop.shape[0]
    moved = (quad - np.float32([x0, y0]) + 0.5) * np.float32([sx, sy]) - 0.5
    return small, np.float32(moved)


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
    value = _channel_max(frame)
    top = frame[value >= np.percentile(value, 98)].reshape(-1, 3).astype(np.float32)
    light = np.maximum(top.mean(axis=0), 1.0)
    balanced = np.clip(frame * (light.max() / light), 0, 255).astype(np.uint8)
    hsv = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV)
    return _brighter(hsv[..., 2], window, hsv[..., 1] < PALE)


def _paper_grey(grey: np.ndarray, window: int) -> np.ndarray:
    """`_paper` of a grey frame (what the Pi's camera and the evening's hand over): every
    pixel is pale (no saturation) and the light has no colour to take out (its balance is
    1), so the brightness alone makes the same mask, without a colour frame's conversions
    (~40 % of a look's CPU; issue 71)."""
    return _brighter(grey, window)


def _brighter(value: np.ndarray, window: int, pale: np.ndarray | None = None) -> np.ndarray:
    """Where ``value`` (smoothed) is brighter than around it by `BRIGHTER`, and ``pale``."""
    value = cv2.GaussianBlur(value, (5, 5), 0)
    around = cv2.blur(value, (window, window))
    mask = value.astype(np.int16) > around.astype(np.int16) + BRIGHTER
    if pale is not None:
        mask &= pale
    mask = cv2.morphologyEx(mask.astype(np.uint8) * 255, cv2.MORPH_OPEN,
                            np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))


def _gradients(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3),
            cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3))


def _snapped(gradients: tuple[np.ndarray, np.ndarray], quad: np.ndarray,
             reach: int = SNAP_PX, strong_share: float = 0.6) -> np.ndarray:
    """The quad's sides moved onto the card's edge in the image: along each side, the
    outermost strong step across it (``strong_share`` of the side's strongest or more) within
    ``reach`` px, a line fitted through those (Huber: a token over the edge is an outlier;
    a side with too few, or whose line turns from it by more than ``SNAP_TURN``, stays)
    and the corners where the lines meet. A mask's outline can be pixels off (closed, cut
    and grown back); the card's edge is not."""
    gx, gy = gradients  # of the image (``_gradients``)
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)
    lines = []
    centre = quad.mean(axis=0)
    for i in range(4):
        a, along, length, normal = _side(quad, i, centre)
        if length < 8:
            return quad
        t = np.linspace(0.12, 0.88, 24, dtype=np.float32)
        base = a[None] + t[:, None] * along[None]
        xs = base[:, 0:1] + offsets[None] * normal[0]
        ys = base[:, 1:2] + offsets[None] * normal[1]
        step = np.abs(cv2.remap(gx, xs, ys, cv2.INTER_LINEAR) * normal[0]
                      + cv2.remap(gy, xs, ys, cv2.INTER_LINEAR) * normal[1])
        # the outermost strong step: a printed frame just inside the edge is no edge
        strong_enough = step >= strong_share * step.max(axis=1, keepdims=True)
        best = step.shape[1] - 1 - strong_enough[:, ::-1].argmax(axis=1)
        rows = np.arange(len(t))
        for _ in range(2 * reach):  # inwards to the step's peak (a blurred edge is a ramp)
            inner = np.maximum(best - 1, 0)
            climb = step[rows, inner] > step[rows, best]
            if not climb.any():
                break
            best = np.where(climb, inner, best)
        strong = step[np.arange(len(t)), best] > 0.5 * np.median(step.max(axis=1))
        kept = (a, along / length)  # a side with no clear edge stays where it was
        if strong.sum() >= 6:
            points = np.stack([xs[rows, best], ys[rows, best]], axis=1)
            vx, vy, x0, y0 = cv2.fitLine(points[strong], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            if abs(float(vx * along[1] - vy * along[0])) / length <= SNAP_TURN:
                kept = (np.float32([x0, y0]), np.float32([vx, vy]))
        lines.append(kept)
    out = _crossings(lines)
    return out if out is not None and np.abs(out - quad).max() <= 1.5 * reach else quad


def _crossings(lines: list) -> np.ndarray | None:
    """The four corners where each side's line (a point, a direction) meets the one before
    it; None when two neighbours are (nearly) parallel."""
    out = []
    for i in range(4):
        (p, r), (q, v) = lines[i - 1], lines[i]
        denom = float(r[0] * v[1] - r[1] * v[0])
        if abs(denom) < 1e-3:
            return None
        d = q - p
        out.append(p + float(d[0] * v[1] - d[1] * v[0]) / denom * r)
    return np.float32(out)


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


def _difference(frame: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """How much the frame differs from the empty table (as the camera saw it before), per
    pixel: the largest of the three channels, after a little blur (noise)."""
    if empty.shape[:2] != frame.shape[:2]:
        raise ValueError("the empty table's frame is not the frame's size")
    if empty.ndim == 2:
        empty = cv2.cvtColor(empty, cv2.COLOR_GRAY2BGR)
    return _channel_max(cv2.absdiff(cv2.GaussianBlur(frame, (5, 5), 0),
                                    cv2.GaussianBlur(empty[..., :3], (5, 5), 0)))


def _channel_max(image: np.ndarray) -> np.ndarray:
    """The largest of the channels, per pixel (numpy's ``max(axis=2)`` is far slower)."""
    b, g, r = cv2.split(image)
    return cv2.max(cv2.max(b, g), r)


def _changed(diff: np.ndarray, level: float = CHANGED) -> np.ndarray:
    """Where the frame differs from the empty table (``_difference``) by over ``level``."""
    mask = (diff > level).astype(np.uint8) * 255
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def find_cards(frame: np.ndarray, min_px: float = MIN_CARD_PX, max_share: float = MAX_SHARE,
               empty: np.ndarray | None = None) -> list[np.ndarray]:
    """``_find_cards`` on the frame brought down to ``WORK_PX`` on its shorter side when it
    is bigger (a phone's 12-megapixel photo: a card there is hundreds of pixels wide, far
    more than finding its outline needs), the outlines scaled back to the frame's pixels."""
    if frame is None or getattr(frame, "ndim", 0) not in (2, 3) or frame.size == 0:
        raise ValueError("no camera frame")
    scale = WORK_PX / min(frame.shape[:2])
    if scale >= 1.0:
        return _find_cards(frame, min_px, max_share, empty)
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    if empty is not None:
        if empty.shape[:2] != frame.shape[:2]:
            raise ValueError("the empty table's frame is not the frame's size")
        empty = cv2.resize(empty, small.shape[1::-1], interpolation=cv2.INTER_AREA)
    return [np.float32((quad + 0.5) / scale - 0.5) for quad in _find_cards(
        small, max(8.0, min_px * scale), max_share, empty)]


def _find_cards(frame: np.ndarray, min_px: float = MIN_CARD_PX, max_share: float = MAX_SHARE,
                empty: np.ndarray | None = None) -> list[np.ndarray]:
    """Card-sized quadrilaterals in ``frame`` (each 4×2 float32, clockwise from any corner):
    outlines of pale paper brighter than the table round it, and closed rings of edges,
    whose hull is a rectangle of a card's aspect with rounded corners, its long side at
    least ``min_px`` / 0.95 and at most ``max_share`` of the frame's shorter side. Given
    ``empty``, the same view with no card on it, what changed is traced first: that finds a
    card on any table, a busy printed board as well."""
    if frame is None or getattr(frame, "ndim", 0) not in (2, 3) or frame.size == 0:
        raise ValueError("no camera frame")
    grey_frame = frame.ndim == 2
    if grey_frame:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    frame = frame[..., :3]
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    max_px = min(grey.shape) * max_share
    window = int(max(31, min(grey.shape) // 3)) | 1
    edges = cv2.dilate(cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), 30, 90),
                       np.ones((3, 3), np.uint8))
    paper = _paper_grey(grey, window) if grey_frame else _paper(frame, window)
    k = int(min_px / 3) | 1  # the print on a card closed over: a solid card
    solid = cv2.morphologyEx(paper, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    e = max(2, int(min_px / 10))  # a card touching pale table: cut the thin joins, grow back
    cut = cv2.erode(solid, np.ones((2 * e + 1, 2 * e + 1), np.uint8))
    masks = []
    diff = None
    if empty is not None:
        diff = _difference(frame, empty)
        changed = cv2.morphologyEx(_changed(diff), cv2.MORPH_CLOSE,
                                   np.ones((k, k), np.uint8))
        faint = cv2.morphologyEx(_changed(diff, CHANGED_FAINT), cv2.MORPH_CLOSE,
                                 np.ones((k, k), np.uint8))
        masks = [(0, changed, cv2.RETR_EXTERNAL, 0),
                 (1, cv2.erode(changed, np.ones((2 * e + 1, 2 * e + 1), np.uint8)),
                  cv2.RETR_EXTERNAL, e), (1, faint, cv2.RETR_EXTERNAL, 0)]
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

    if diff is not None:  # the table's own print, unchanged since it was seen empty: no card
        found = [(rank, quad) for rank, quad in found if _laid(diff, quad)]
    found = _split_touching(found)
    found = [(rank, quad) for rank, quad in found if not _gap(grey, quad)]
    # a card's printed frames and art blocks are card-shaped too: keep the outermost
    # outline; what changed on the empty table first, then traced before grown back; and
    # before all, a whole thing laid there: nothing changed just outside its outline,
    # something just inside (an art block's outside is its card's changed paper)
    found.sort(key=lambda f: (not _whole(diff, f[1]), f[0], -abs(cv2.contourArea(f[1]))))
    kept: list[np.ndarray] = []
    for _, quad in found:
        centre = tuple(float(v) for v in quad.mean(axis=0))
        if not any(cv2.pointPolygonTest(k, centre, False) >= 0 or cv2.pointPolygonTest(
                quad, tuple(float(v) for v in k.mean(axis=0)), False) >= 0 for k in kept):
            kept.append(quad)
    edges_of = (_gradients(grey), None if diff is None else _gradients(diff))
    return [_snap(edges_of, quad, diff) for quad in kept]


def _split_touching(found: list[tuple[int, np.ndarray]]) -> list[tuple[int, np.ndarray]]:
    """``found`` without the outlines that hold two or more others which cover them
    (``SPLIT_COVER``) without overlapping each other: cards laid touching, traced first as
    one card of about a card's shape (two cards side by side), then apart once the seam
    between them was cut (``find_cards``' eroded masks). A card's own printed frame is one
    outline inside it, never two side by side."""
    areas = [abs(cv2.contourArea(q)) for _, q in found]
    drop = set()
    for i, (_, outer) in enumerate(found):
        inside = []
        for j, (_, inner) in enumerate(found):
            if j == i or areas[j] > 0.7 * areas[i] or areas[j] < 0.25 * areas[i]:
                continue
            centre = tuple(float(v) for v in inner.mean(axis=0))
            if cv2.pointPolygonTest(outer, centre, False) < 0:
                continue
            if all(cv2.pointPolygonTest(found[k][1], centre, False) < 0 and
                   cv2.pointPolygonTest(inner, tuple(float(v) for v in found[k][1].mean(
                       axis=0)), False) < 0 for k in inside):
                inside.append(j)
        if len(inside) >= 2 and sum(areas[j] for j in inside) >= SPLIT_COVER * areas[i]:
            drop.add(i)
    return [f for i, f in enumerate(found) if i not in drop]


def _side(quad: np.ndarray, i: int, centre: np.ndarray):
    """Side ``i`` of a quad: its start, its vector, its length and its unit normal pointing
    away from ``centre`` (the card's edges are looked for outside it)."""
    a, b = quad[i], quad[(i + 1) % 4]
    along = b - a
    length = float(np.linalg.norm(along))
    normal = np.float32([-along[1], along[0]]) / max(length, 1e-6)
    if float(np.dot(normal, (a + b) / 2 - centre)) < 0:
        normal = -normal
    return a, along, length, normal


def _gap(grey: np.ndarray, quad: np.ndarray) -> bool:
    """The outline is darker than just outside two opposite sides by ``GAP_DARKER``: the
    dark table showing between two cards laid close, bounded by their pale edges."""
    centre = quad.mean(axis=0)
    t = np.linspace(0.2, 0.8, 8, dtype=np.float32)[:, None]
    brighter = []
    for i in range(4):
        a, along, length, normal = _side(quad, i, centre)
        if length < 1:
            return False
        reach = max(4.0, 0.08 * length)
        base = a[None] + t * along[None]
        levels = []
        for sign in (1, -1):
            pts = (base + sign * reach * normal[None]).astype(np.float32)
            levels.append(float(np.median(cv2.remap(
                grey, pts[:, 0:1], pts[:, 1:2], cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE))))
        brighter.append(levels[0] >= levels[1] + GAP_DARKER)
    return (brighter[0] and brighter[2]) or (brighter[1] and brighter[3])


def _strips(diff: np.ndarray, quad: np.ndarray, near: float = 2.0, far: float = 5.0
            ) -> tuple[float, float]:
    """Median change against the empty table just outside the quad's sides and just inside
    them (``near`` to ``far`` px away, the corners left out)."""
    centre = quad.mean(axis=0)
    t = np.linspace(0.1, 0.9, 16, dtype=np.float32)[:, None]
    depth = np.linspace(near, far, 4, dtype=np.float32)
    outer, inner = [], []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        along = b - a
        length = float(np.linalg.norm(along))
        if length < 1:
            return math.inf, 0.0
        normal = np.float32([-along[1], along[0]]) / length
        if float(np.dot(normal, (a + b) / 2 - centre)) < 0:
            normal = -normal
        base = a[None] + t * along[None]
        for sign, out in ((1, outer), (-1, inner)):
            pts = base[:, None, :] + sign * depth[None, :, None] * normal[None, None, :]
            out.append(cv2.remap(diff, pts[..., 0].astype(np.float32),
                                 pts[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE).ravel())
    return float(np.median(np.concatenate(outer))), float(np.median(np.concatenate(inner)))


def _laid(diff: np.ndarray, quad: np.ndarray) -> bool:
    """Something was laid inside the quad since the table was seen empty: ``LAID_SHARE`` of
    it or more changed (``CHANGED_FAINT``)."""
    x, y, w, h = cv2.boundingRect(np.int32(np.round(quad)))
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(diff.shape[1], x + w), min(diff.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return False
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.int32(np.round(quad - np.float32([x0, y0]))), 1)
    inside = mask > 0
    return bool(inside.any()) and float(
        (diff[y0:y1, x0:x1][inside] > CHANGED_FAINT).mean()) >= LAID_SHARE


def _whole(diff: np.ndarray | None, quad: np.ndarray) -> bool:
    """The quad outlines a whole thing laid on the empty table: just outside it nothing
    changed (a few px out: an outline found a few px inside the card's edge), just inside
    something did."""
    if diff is None:
        return False
    # outside: beyond the reach of an outline a few px inside the card (not snapped yet)
    outer, _ = _strips(diff, quad, SNAP_PX + 1.0, SNAP_PX + 4.0)
    _, inner = _strips(diff, quad)
    return outer <= WHOLE_OUTSIDE and inner >= outer + WHOLE_STEP


def _snap(gradients: tuple, quad: np.ndarray, diff: np.ndarray | None = None
          ) -> np.ndarray:
    """``_snapped`` onto the edge of what changed against the empty table, when known: the
    table's own print (a board's lines and text) is gone there, so the card's edge is its
    outermost step even when its paper is close to the table's colour and a printed frame
    just inside is the stronger step; else, or if that finds no edge, onto the frame's.
    ``gradients``: (the frame's, the change's or None), each ``_gradients``; ``diff``: the
    change itself (``_difference``), to push out a side left on a printed frame
    (``_pushed``)."""
    of_frame, of_change = gradients
    if of_change is not None:
        snapped = _snapped(of_change, quad, strong_share=SNAP_DIFF_SHARE)
        if diff is not None:
            pushed = _pushed(diff, snapped)
            if pushed is not snapped:
                return _snapped(of_change, pushed, strong_share=SNAP_DIFF_SHARE)
        if snapped is not quad:
            return snapped
    return _snapped(of_frame, quad)


def _pushed(diff: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The quad with each side that lies inside the card moved out to where the change
    against the empty table ends: a card's printed frame, a dark line a few px inside its
    edge, is a stronger step than pale paper on a pale board, and a mask cut and grown
    back can leave a side on it, further in than ``_snapped`` reaches. A side is moved
    only when, just outside it, the table changed (``CHANGED_FAINT``, median along the
    side) and, within ``PUSH_SHARE`` of the card's short side, it is unchanged
    (``WHOLE_OUTSIDE``): a neighbour or a shadow changed beyond that, the side stays.
    The quad itself when no side moves."""
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    reach = int(math.ceil(PUSH_SHARE * min(sides)))
    if reach <= SNAP_PX:
        return quad
    offsets = np.arange(1, reach + 1, dtype=np.float32)
    t = np.linspace(0.15, 0.85, 24, dtype=np.float32)
    centre = quad.mean(axis=0)
    lines, moved = [], False
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        along = b - a
        normal = np.float32([-along[1], along[0]]) / sides[i]
        if float(np.dot(normal, (a + b) / 2 - centre)) < 0:
            normal = -normal  # outwards
        base = a[None] + t[:, None] * along[None]
        xs = base[:, 0:1] + offsets[None] * normal[0]
        ys = base[:, 1:2] + offsets[None] * normal[1]
        level = np.median(cv2.remap(diff, xs, ys, cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE), axis=0)
        out = np.nonzero(level <= WHOLE_OUTSIDE)[0]
        by = 0.0
        if level[0] >= CHANGED_FAINT and len(out) and out[0] > SNAP_PX // 2:
            by = float(offsets[out[0]]) - 2.0  # where it ends, less the blur's ramp
            moved = True
        lines.append((a + by * normal, along / sides[i]))
    out = _crossings(lines) if moved else None
    return quad if out is None else out


def recognise(frame: np.ndarray, book: FaceBook, min_px: float = MIN_CARD_PX,
              max_share: float = MAX_SHARE, empty: np.ndarray | None = None
              ) -> list[FaceSighting]:
    """Every card in ``frame``, named by its face (or id None); ``empty``: the same view
    with no card, if known (see ``find_cards``)."""
    return [identify(frame, quad, book)
            for quad in find_cards(frame, min_px, max_share, empty)]

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

A face is answered only when it scores ``MIN_SCORE`` or more (``LOW_SCORE`` when the card's
own fill, shapes and ink hue confirm it: ``_confirmed``) and beats every other face by
``MIN_MARGIN``, or wins the fine comparison against each close rival by ``FINE_MARGIN``,
and is in no pair ``too_alike`` at the card's width; otherwise the id is None: a wrong card
is worse than none.

``card_finding.find_cards`` finds card-sized quadrilaterals; ``identify`` straightens one
(``cv2.getPerspectiveTransform``) and names it; ``recognise``
does both for a whole frame. ``FaceBook.too_alike(card_px)`` names the pairs of faces the
camera cannot tell apart when a card is ``card_px`` wide: those still need a sticker.
"""
from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from hardware import atomic_file
from hardware.camera import card_finding
from hardware.camera import percentile as percentile_module
from hardware.camera.card_finding import ASPECT, MAX_SHARE, MIN_CARD_PX, clockwise, find_cards
from hardware.camera.percentile import percentile

log = logging.getLogger(__name__)

COARSE = 28  # px: width of the coarse pattern
# of the card's width: the moves of a card the coarse score tries, each way (an outline a
# pixel or two off: a card of thin lines 1.5 px off falls from 0.9 to 0.5 against its own
# face). With the nets made for them (the ink's hue, ``_hue_against``; ``too_alike``
# imagining what the moves leave, ``_imagined_shifts``)
PLACES = (-0.015, 0.0, 0.015)
# the zooms of a card (about its centre, unmoved) the coarse score tries besides: a face
# taught from a picture cropped a few % inside the card's edge, or with a margin, against a
# card cut at its edge (the SET faces from set-solver are cut ~3 % inside the paper; the
# finder's outlines lie within 1 px of it, edge_offset.py, stop 81). The fine comparison
# fits its own affine (``_aligned``); the coarse one, without these, fell under MIN_SCORE
ZOOMS = (0.97, 1.03)
ZOOM_BELOW = 0.8  # coarse score: the zooms are tried only when no face scores this much at
# its best place (tried on every card they cost 15-25 % more CPU per identification on the
# renders and dev photos, stop 81; the coarse score alone 4 %, notes scored_cpu.py)
FINE = 96  # px: width of the fine pattern (of a card 120 px wide or less)
FINE_LEVELS = (96, 112, 128)  # px: the fine pattern's widths, the widest a card's own width
# gives; 112 (``SUBTLE_LEVELS``) only in a book with faces that differ over SUBPIXEL_AREA or
# less (``subtle``: the game deck's digit pairs). The 140 px step (cards 130-149 px wide) had
# 96 and both digit pairs too alike there; with 112 card10/11 are told apart, card01/02 not;
# refusal off 0 wrong at 140 px (digits_unrefused.py 0 of 600, misfit_more.py 708 right 12
# unknown of 720, HEAD 700/20); on every book it cost playing cards 20.3 -> 25.5 ms an
# identification at 140 px (notes s89/i63 b/cost112.py), and they have no such pair; session 89
SUBTLE_LEVELS = (112,)
SUBTLE_NEAREST = 2  # faces measured for ``subtle`` per face: its nearest, upright and turned
FINE_SHARE = 0.8  # of the straightened card's width: the widest fine pattern it holds
SUBTLE_SHARE = 0.92  # ... in a book with faces apart by a few strokes (``subtle``): a digit's
# leaning against its twin swings with where its strokes fall on the pattern's pixels
# (game deck card02 against card01, the imagined outline moved 0-2 px by 0.1, too_alike's
# camera: 112 px at the 140 px step 0.31-0.64, under ALIKE_SAFETY's 0.4 at whole-pixel
# moves, so card02 was too alike there only, named at 120 and 160; 128 px there 0.42-0.62,
# 160 px step's 128 0.48-0.58: notes s92/i63c alike_phase.py). Only the 140 px step
# changes (112 -> 128); session 92
CENTRE_TRIM = 0.1  # of each tail: left out of a card's own mean colour
FINE_CHROMA = 40.0  # Lab a, b levels per unit of the fine pattern (JPEG halves colour detail)
INSET = 0.07  # of the card's width: the rounded corners and edge left out
COLOUR_WEIGHT = 0.3  # coarse score lost per unit of squared colour distance (0 to 4)
CHROMA_FLOOR = 0.04  # RMS chroma (of 128) below which a card counts as partly grey
MIN_SCORE = 0.55  # coarse score of the best face for any answer (an untaught card: lower)
LOW_SCORE = 0.4  # ... or this much, when the card's own print confirms the face it names
# (``_confirmed``): another print than the taught faces' (the licensed photo's outlined
# green double capsule 0.533, red triple squiggle 0.458 on their found outlines, session 87;
# their striped twins 0.45, ruled out by the fill), the margins and votes still asked, and
# only the best face, with as many shapes (the real photos against books with one value
# left out, notes s87/i63 real_partly.py: without these the route named an untaught triple
# as the single, an untaught diamond as the squiggle, and, no solid taught, a striped
# capsule as the squiggle that beat its best face in the fine comparison at 0.321; with
# them 68 untaught named, as before the route, all at 0.55 or more, and 0 taught wrong)
CONFIRM_FILL = 0.05  # ... its fill within this of the face's (right cards: 0.003 there;
# an untaught outlined card against a pale striped face: 0.11 or more)
CONFIRM_HUE = 30.0  # degrees: ... and its ink hue within this of the face's (the dev and
# licensed photos' cards within 22.4 of their own faces; red and purple 70-85 apart)
MIN_MARGIN = 0.12  # by how much the best face must beat every other one to need no second look
CLOSE = 0.25  # faces scoring this close to the best get the fine comparison
FINE_MARGIN = 0.2  # the winner: this far on its side of the midpoint to each close rival
SHIFT = 2  # px (of the fine pattern) the fine comparison may move each way
SUBPIXEL = 0.5  # px: ... then the part of a pixel left, found within this each way
SUBPIXEL_AREA = 0.02  # ... where the faces differ over this share of the pattern or less: a
# digit's strokes (card01/02, card10/11: 1.0 %, card19/20 1.4 %) rest on a part of a pixel; an
# icon's disc (card16/17 2.9 %), pips (9 of clubs/10 8.8-12 %), a colour or SET's shapes (13-100 %)
# are read by whole pixels (fitted there too, card16/17 became too alike at 100 px, two red/purple
# SET pairs at 80 px, and a leaning cost twice the CPU; session 89, notes s89/i63 diff_area.py)
OWN_LAID = 0.5  # a later contender's leaning: this share measured on the card laid onto
# itself, the rest on the card laid onto the first contender (``decide``)
FINE_Z = 6.0  # ... and by this many of its standard errors
FINE_MISFIT = 0.5  # ... and the card fits that mix of the two faces, where they differ: its
# misfit (weighted) at most this share of the two faces' own difference (as blurred by the
# last of ``BLURS``), else what differs is covered (a token on a digit's disc, glare) and
# the leaning is no evidence (session 88:
# digit pairs laid together, 25 scenes a tuned table, notes/s88/i63/misfit.py: named right,
# misfit 0.003-0.175 at 160 px, 99 % under 0.22 at 120 px (one 0.71); named wrong, a token
# on the digit: 0.875 at 160 px (felt 21007, card10 as card11), 1.02 and 4.3 at 120 px)
COVERED = 1.0  # a pixel of the card farther from the nearer face than this (fine units: the
# lightness's standard deviations) and than the two faces are from each other there fits
# neither: covered (a token, a hand); the leaning and its misfit are measured without it
COVER_GROW = 2  # px (of the fine pattern) ... and so is all this near it: a dark token on a
# stroke that parts two digits fits the inked face there, not the white disc round it
VISIBLE = 0.5  # ... and the rest must hold this share of the faces' difference, else no leaning
# (session 88, notes/s88/i63/cover_grow.py at 160 px: felt 6002 card14, a token on part of its
# title bar, keeps 0.77 and 0.995 of its differences to card13 and card23 and fits them, misfit
# 0.02 and 0.05 (0.70, 0.94 over the whole area): named; board 22000 card01 half under a token
# keeps 0.94 at COVER_GROW 0 and leaned to card02 (misfit 0.42), 0.66 at 1 (lean 0.10), and
# under 0.5 at 2, as felt 21007 card10)
AREA_MARGIN = 0.0  # ... and the area where they differ votes on its side too (more than this):
# the case it is for (wood 20015 card19, a blue token where the rival has a blue square) has
# its area vote against the weighted leaning (0.54 to card14, area -0.24). 0.1 until session
# 92 refused wood 5018 card08 (leaning 0.228, error 0.015, area 0.064: the faces differ in a
# small square of the art); > 0 names it, and with the true outline (notes s92/i63
# area_probe.py) the digit pairs laid together at 100/140/160 px (refusal off), 25 scenes a
# table, and the game deck at 120 px, 30 scenes a table: 0 wrong, 1 more right at 100 px
AREA_FLOOR = 0.02  # of the largest squared difference: a pixel where two faces differ
ALIGN_STOP = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-4)  # ECC's iterations
ALIGN_MAX_TURN, ALIGN_MAX_SHIFT = 0.05, 4.0  # the largest correction taken (of 1; px)
COLOUR_FLOOR = 0.05  # mean squared colour (fine units) of a face colourful enough to fit
COLOUR_GAIN = (0.3, 1.5)  # the colour strengths of a card against its face, fitted
BLURS = (0.0, 0.5, 1.0)  # px (of the fine pattern): blurs of the taught faces tried
WEIGHT_FLOOR = 0.02  # of the largest: where two faces differ less, the comparison skips
TWIN = 0.45  # taught faces scoring this alike each other (coarse): never told apart by margin
INK_APART = 0.15  # two faces whose ink differs by this share of the larger have an ink vote
INK_LEAN = 0.25  # ... and a card whose ink leans this far to the loser is not named,
INK_SURE = 0.4  # ... unless it leans this far to the winner in the fine comparison (0.5:
# the face itself), whatever the margins asked: a digit or a pip read clearly
INK_PAPER = 75  # percentile of a card's grey taken for its paper
FILL_APART = 0.1  # two faces whose fill (``_fill``) differs by this have a fill vote,
FILL_OPEN = 0.6  # ... if one of them has open shapes (outlined, striped: a fill below this;
# pictures, pips and drawn art read 0.7-1.0 and move 0.2 with the card's size: no vote)
FILL_VETO = 0.1  # ... a card whose fill leans this far to the loser is not named
FILL_SURE = 0.2  # ... and one leaning this far to a face rules the other face out (the
# same in too_alike: its harsher camera is in the fill it reads; the lean is 0.5 at a face's)
FILL_FAR = 0.15  # a winner whose fill is this much farther from the card's than another
# face's is not named, contender or not (a striped card whose coarse look took a solid face
# by a clear margin: the licensed photo's green capsule at 245 px) ...
FILL_ASTRAY = 0.3  # ... nor one whose fill is this far from the card's and another's nearer
FILL_ALONE = 0.2  # ... nor a face with open shapes whose fill is this far from the card's,
# whether another face is nearer or none is (the nearer one not taught yet: an untaught
# outlined card 0.003-0.006 named as its striped twin, 0.32-0.34, and an untaught solid one,
# 1.0, too; partly taught family, session 86); right cards lie within 0.04 of their faces
# (drawn, partly family) and 0.10 (real dev and licensed photos, session 86)
HUE_ALONE = 45.0  # degrees: a face with printed shapes (``area_at`` known: SET's) whose
# ink hue is this far from the card's, both colourful (``HUE_CHROMA``), is not named,
# whether a face of the card's colour is taught or not (an untaught red card named as the
# purple one of its count, fill and shape: 25 of 96 sightings, notes s87/i63
# real_partly.py); the dev and licensed photos' cards lie within 22.4 of their own faces,
# red and purple 70-85 apart
HUE_APART = 40.0  # degrees: two faces whose ink hues differ this much have a hue vote,
HUE_CHROMA = 12.0  # ... if both inks are this colourful (Lab a, b; black ink has no hue)
HUE_SHARE = 0.35  # ... and a card whose ink hue is not this near the winner's (of the way
# to the rival's) is not named: a thin purple line taken for its red twin (issue 63), when
HUE_SURE = 0.2  # ... and between two faces of thin lines (``HUE_THIN``), a card whose ink hue
# is this near face a's (of the way to b's) is not b, whatever the fine comparison says: a thin
# red line against a purple one leans only 0.37-0.40 in it at 140 px (too_alike's 0.4 missed;
# half of the dev photos' unknowns, issue 63), while the hues stand 75 degrees apart
HUE_THIN = 0.15  # ... both faces are thin lines (``_ink`` below this: SET's outlined and
# striped 0.03-0.10, drawn cards 0.25 and more), else when it won the fine comparison weakly
FILL_STRONG = 0.4  # of a card's strongest ink: a shape's outline
FILL_SHAPE = 0.01  # of the card's inside: the least area of a shape
FILL_RING_PX = 20  # px: the fewest pixels of a ring (one px deeper) that counts
SHAPE_APART = 1.3  # a taught face whose printed shapes' area (``_printed``: the largest
# shape's hull, of the card) differs from the card's by more than this factor cannot be it:
# an untaught capsule (its area 1.55 times a diamond's, test_card_fill's faces) was named as
# the taught diamond of its colour and fill (partly taught family: untaught named 41 -> 5);
# the real photos' right cards lie within 1.16 of their faces (dev and licensed, session 86)
SHAPE_MOST = 3  # ... measured only on a card of this many shapes or fewer, all alike in area
# (SET's 1-3): a playing card's pips, joined in pairs by blur on a render at 120 px, read
# 0.06-0.11 of the card against the face's 0.04 (6 of hearts, 4 of clubs): the rule without
# this took playing wood from 1.000 to 0.667 right (--scenes 6, session 86)
SHAPE_SHARE = (0.05, 0.25)  # ... and the largest covering this share of the card's inside:
# SET's shapes 0.07-0.11 (drawn) and 0.11-0.18 (the real faces); a playing card's ten pips,
# joined into blobs of 0.40 at 120 px, made the 10 and 9 of clubs too alike there (playing
# wood and felt 1.000 -> 0.958), its pips (0.03-0.04) and pictures (0.75-0.89) are no shapes
FILL_MIN_PX = 60  # px: the narrowest card (in the frame) whose fill votes: narrower, blur
# spreads a striped shape's outline into its stripes and it reads half way to solid
ALIKE_STEP = 20  # px: card widths within a step share one too_alike answer
ALIKE_TOP = 160  # px: wider cards share the answer at this width (the widest fine pattern's):
# a wider card is seen sharper than the camera imagined there, so the answer stays safe, and a
# 12 MP photo's cards (300-700 px) cost no judgement of their own (44 s at 280 px, issue 63)
ALIKE_SAFETY = 2.0  # too_alike and turn_alike: margins this many times the table's
HALF_TURN_ALIKE = 0.1  # a face this close to itself turned half round: its turn is not known
SEEN_BLUR, SEEN_NOISE, SEEN_JPEG = 0.9, 4.0, 75  # ... and the camera they imagine
SEEN_SHIFTS = (0.0, 1.5)  # px: the misplaced outlines they imagine
# The too-alike verdicts kept on disk (``FaceBook(verdicts=path)``): a file of this format,
# trusted only when its key (the taught pictures' bytes, this module's constants, the code
# of the modules the judgement runs, OpenCV's and NumPy's versions) is the book's own and its
# checksum holds; anything else is ignored and judged again (16-20 s for 81 faces at 160 px
# here, the first look at a 12 MP photo; issue 63). Format 2 (session 90): each step's pairs
# ordered, (the face not named back, the face it was taken for or refused by)
VERDICTS_FORMAT = 2


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
    # > 0: the width whose ``too_alike`` judgement was not made yet (``identify`` asked
    # not to make it): the card is not named, it is not known yet whether it can be
    unjudged_px: float = 0.0

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


def _ink_hue(card: np.ndarray) -> tuple[float, float] | None:
    """(hue in degrees, chroma) of a card's ink: the mean Lab a, b of its inked pixels
    (darker than the paper round them by half its darkest's) less the paper's median, so a
    warm or cold light cancels. None without print. Thin lines give little colour to the
    coarse and fine patterns, where a purple line and a red one look alike; their hue still
    tells them apart."""
    lab = cv2.cvtColor(card, cv2.COLOR_BGR2LAB).astype(np.float32)
    dark = np.maximum(_paper_round(lab[..., 0]) - lab[..., 0], 0.0)
    peak = percentile(dark, 99.5)
    if peak < 8.0:  # grey levels: no print
        return None
    ink, paper = dark > 0.5 * peak, dark < 0.1 * peak
    if ink.sum() < 10 or paper.sum() < 10:
        return None
    ab = lab[..., 1:][ink].mean(axis=0) - np.median(lab[..., 1:][paper], axis=0)
    return math.degrees(math.atan2(float(ab[1]), float(ab[0]))) % 360.0, float(np.hypot(*ab))


def _hue_gap(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def _fill(card: np.ndarray) -> float | None:
    """``_printed``'s fill alone."""
    return _printed(card)[0]


class ShapeArea(float):
    """``_printed``'s shape area (a float, of the card's inside), with ``count``: how many
    shapes it was measured on (SET's 1-3). ``_confirmed`` asks the count of a card scoring
    under ``MIN_SCORE`` to be its face's: the area is the largest shape's alone, and an
    untaught triple outlined diamond scored 0.4-0.55 against the single one of its colour
    (setgame7, a book without triples, session 87)."""

    count: int

    def __new__(cls, area: float, count: int) -> ShapeArea:
        out = super().__new__(cls, area)
        out.count = count
        return out


def _printed(card: np.ndarray) -> tuple[float | None, float | None]:
    """(fill, shape area) of the printed shapes on a card. The fill: how full of ink the
    printed shapes are inside their outline, measured at the card's own scale, whatever
    its size in the frame: for each shape (a patch of strong ink, its holes filled), the
    mean ink of each ring one pixel deeper from its edge (``_rings``), against the ink of
    its own outline; the rings beyond the outline's fall (as deep again as the outline's
    ramp) are its inside (``_inside_of``). About 0 for an outlined shape, 0.1-0.3 for
    stripes (a mean: stripes too fine to see still count), 1 for a solid one; the median
    over the card's shapes. None when no shape has an inside deeper than its blurred
    outline (a small or blurred card: its outline's ramp fills it, and it would read as
    stripes) or the card has no shape. Ink is darkness against the paper round it (a glare
    over half the card is paper, not a lighter ink). The shape area: the largest shape's
    convex hull, of the card (``SHAPE_APART``): a glare across the card breaks a thin
    outline (its patch is then a ring, or pieces of one), never makes it larger; the hull
    of a broken ring still covers the shape. None unless the card shows one to
    ``SHAPE_MOST`` shapes alike in area (within ``SHAPE_APART``), the largest within
    ``SHAPE_SHARE``: pips that blur joins, pictures, text are no shapes to measure. The
    area is a ``ShapeArea``: it carries how many shapes it was measured on."""
    light = cv2.cvtColor(card, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32)
    ink = cv2.GaussianBlur(np.maximum(_paper_round(light) - light, 0.0), (0, 0), 0.7)
    peak = percentile(ink, 99.5)
    if peak < 8.0:  # grey levels: no print on the card
        return None, None
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
        return None, None
    hulls = sorted(cv2.contourArea(cv2.convexHull(c)) for c in contours)
    area = ShapeArea(hulls[-1] / shapes.size, len(hulls))
    if len(hulls) > SHAPE_MOST or hulls[-1] > SHAPE_APART * hulls[0] or \
            not SHAPE_SHARE[0] <= area <= SHAPE_SHARE[1]:
        area = None
    ink = np.maximum(ink - float(np.median(ink[shapes == 0])), 0.0)  # the paper's own
    fills = [f for f in (_inside_of(rings) for rings in _rings(ink, shapes, len(contours)))
             if f is not None]
    return (float(np.median(fills)) if fills else None), area


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


def _coarse(inside: np.ndarray, coarse: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The coarse (grey, chroma) vectors of a card's inside."""
    small = cv2.resize(inside, coarse, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    grey = lab[..., 0]
    grey = grey - cv2.GaussianBlur(grey, (0, 0), coarse[0] / 4)
    chroma = lab[..., 1:] - _chroma_centre(lab[..., 1:])
    # unit length when colourful, short when nearly grey (black print on white)
    chroma = (chroma / 128.0).ravel()
    return _unit(grey).ravel(), chroma / max(float(np.linalg.norm(chroma)),
                                             CHROMA_FLOOR * math.sqrt(chroma.size))


def _placed(card: np.ndarray, coarse: tuple[int, int], unmoved: tuple[np.ndarray, np.ndarray]
            ) -> tuple[np.ndarray, np.ndarray]:
    """The coarse (grey, chroma) vectors of a straightened card moved by each of
    ``PLACES`` (a share of its width, each way): rows (places, size); ``unmoved`` the
    card's own (`_Patterns`), not made twice. An outline found a pixel or two off moves a
    card of thin lines a third of a coarse cell and drops its score against its own face
    from 0.9 to 0.5; each face is scored at the place that fits it best."""
    h, w = card.shape[:2]
    greys, chromas = [], []
    for dy in PLACES:
        for dx in PLACES:
            if dx or dy:
                moved = cv2.warpAffine(card, np.float32([[1, 0, dx * w], [0, 1, dy * w]]),
                                       (w, h), flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE)
                g, c = _coarse(_inside(moved), coarse)
            else:
                g, c = unmoved
            greys.append(g)
            chromas.append(c)
    return np.stack(greys), np.stack(chromas)


def _zoomed(card: np.ndarray, coarse: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The coarse (grey, chroma) vectors of a straightened card zoomed by each of
    ``ZOOMS``: rows (zooms, size)."""
    rows = [_coarse(_zoomed_inside(card, zoom), coarse) for zoom in ZOOMS]
    return np.stack([g for g, _ in rows]), np.stack([c for _, c in rows])


def _zoomed_inside(card: np.ndarray, zoom: float) -> np.ndarray:
    """``_inside`` of the straightened card magnified by ``zoom`` about its centre (below 1:
    shrunk), as a slice of the card: the inside of a card zoomed by 0.97 still lies within
    it (``INSET`` 0.07), and a slice costs no warp."""
    h, w = card.shape[:2]
    m = max(1, round(INSET * w))
    half_w, half_h = (w / 2 - m) / zoom, (h / 2 - m) / zoom
    x0, y0 = max(0, round(w / 2 - half_w)), max(0, round(h / 2 - half_h))
    return card[y0:min(h, round(h / 2 + half_h)), x0:min(w, round(w / 2 + half_w))]


def _unit(a: np.ndarray) -> np.ndarray:
    a = a - a.mean()
    n = float(np.linalg.norm(a))
    return a / n if n > 1e-6 else a


class _Patterns:
    """The coarse vector and the fine (3, h, w) pattern of one straightened card."""

    def __init__(self, card: np.ndarray, coarse: tuple[int, int], fine: tuple[int, int],
                 with_fill: bool = True):
        inside = _inside(card)
        self.grey, self.chroma = _coarse(inside, coarse)
        big = cv2.resize(inside, fine, interpolation=cv2.INTER_AREA)
        self.ink = _ink(big)
        self.hue = _ink_hue(big)
        self.fill, self.area = _own_printed(inside) if with_fill else (None, None)
        self.fine = _fine_of(big)


def _own_printed(inside: np.ndarray) -> tuple[float | None, float | None]:
    """``_printed`` of a card's inside at its own width (at most a straightened card's)."""
    return _printed(inside if inside.shape[1] <= 3 * FINE else cv2.resize(
        inside, (3 * FINE, round(3 * FINE * inside.shape[0] / inside.shape[1])),
        interpolation=cv2.INTER_AREA))


def _fine_of(big: np.ndarray) -> np.ndarray:
    """The fine (3, h, w) pattern of a card's inside already brought to its size."""
    lab = cv2.cvtColor(big, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = cv2.GaussianBlur(lab, (0, 0), 1.0)
    l_chan = lab[..., 0] - cv2.GaussianBlur(lab[..., 0], (0, 0), big.shape[1] / 4)
    l_chan /= max(float(l_chan.std()), 1.0)
    ab = (lab[..., 1:] - _chroma_centre(lab[..., 1:])) / FINE_CHROMA
    return np.concatenate([l_chan[None], np.moveaxis(ab, 2, 0)]).astype(np.float32)


def _difference_weight(fa: np.ndarray, fb: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """How the fine comparison weighs where two fine patterns (channels first) differ: their
    blurred squared difference, the part of it ``SHIFT`` in from the edges (what a shift
    keeps in view), and that part's peak."""
    weight = cv2.GaussianBlur(((fa - fb) ** 2).sum(axis=0), (0, 0), 1.5)
    inner = weight[SHIFT:weight.shape[0] - SHIFT, SHIFT:weight.shape[1] - SHIFT]
    return weight, inner, float(inner.max())


class FaceBook:
    """The taught faces. Build with ``FaceBook.from_pictures({id: image})``."""

    def __init__(self, pictures: dict[str, np.ndarray], verdicts: str | Path | None = None
                 ) -> None:
        """``verdicts``: the file the too-alike verdicts are kept in between processes
        (read when a width is first asked, written after each judgement; None: memory only)."""
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
        # the faces' own fills are made on first need (`fills`: a card too narrow to read
        # one; 0.2 s of a fresh book of 81 faces, issue 63)
        patterns = [_Patterns(uprights[i], self.coarse, self.fine, with_fill=False)
                    for i in self.ids]
        self.grey = np.stack([p.grey for p in patterns])
        self.chroma = np.stack([p.chroma for p in patterns])
        self.chroma_sq = (self.chroma ** 2).sum(axis=1)
        self.fines = np.stack([p.fine for p in patterns])
        self.inks = np.float32([p.ink for p in patterns])
        self._own_fills: list | None = None  # ``fills``, once made
        self._own_areas: list | None = None  # ``areas``, made with them
        self.hues = [p.hue for p in patterns]  # ``_ink_hue`` of each taught face, or None
        self._fills: dict[int, list] = {}  # per width step: ``fills_at``
        self._areas: dict[int, list] = {}  # per width step: ``areas_at``
        self._area_one: dict[tuple, tuple] = {}  # (step, face): ``area_at``, made alone
        alike = self.grey @ self.grey.T - COLOUR_WEIGHT * (
            self.chroma_sq[:, None] + self.chroma_sq[None] - 2 * self.chroma @ self.chroma.T)
        np.fill_diagonal(alike, -np.inf)
        # per face, the faces as alike as twins (``TWIN``): it is named only by beating them
        # in the fine comparison, never by the coarse margin alone
        self.twins = [np.flatnonzero(row >= TWIN) for row in alike]
        self._levels = {FINE: self.fines}  # fine pattern width -> the taught faces' fines
        self._alike: dict[int, tuple] = {}  # per width step: what `_check` found
        self._lock = threading.Lock()  # a book is shared by the camera and HTTP threads
        self.verdicts = None if verdicts is None else Path(verdicts)
        self._disk_lock = threading.Lock()  # one read-merge-write of the verdicts file at once
        self._key: str | None = None
        self._symmetric_kept: frozenset[str] | None = None  # `symmetric`, once made or read
        self._subtle: bool | None = None  # ``subtle``, once found

    @property
    def subtle(self) -> bool:
        """Two taught faces (either upside down) differ over ``SUBPIXEL_AREA`` of the fine
        pattern or less, measured as the fine comparison does (``WEIGHT_FLOOR`` of the
        blurred squared difference, ``SHIFT`` trimmed): a digit, not an icon or pips. Only
        such a book takes ``SUBTLE_LEVELS``. Found once (a book's faces never change; two
        threads asking at once find the same answer)."""
        if self._subtle is None:
            self._subtle = self._finds_subtle_pair()
        return self._subtle

    def _finds_subtle_pair(self) -> bool:
        n = len(self.ids)
        flat = self.fines.reshape(n, -1)
        turned = np.ascontiguousarray(self.fines[:, :, ::-1, ::-1])
        for upright, others in ((True, self.fines), (False, turned)):
            # a face a few strokes from another is its nearest (squared distance), so only
            # each face's ``SUBTLE_NEAREST`` nearest are measured (all pairs: 0.9 s of a
            # 54-face book on the PC, these 0.05 s)
            rows = others.reshape(n, -1)
            # einsum, not ``@``: OpenBLAS's threads took 1.1 s for this product on a busy PC
            # (the lead, session 89: 54 playing faces, load 10), einsum 0.04 s on one core
            far = ((flat ** 2).sum(1)[:, None] + (rows ** 2).sum(1)[None]
                   - 2 * np.einsum("ij,kj->ik", flat, rows))
            if upright:
                np.fill_diagonal(far, np.inf)
            for i in range(n):
                for j in np.argsort(far[i])[:SUBTLE_NEAREST]:
                    if j == i:
                        continue
                    _, inner, peak = _difference_weight(self.fines[i], others[j])
                    if peak > 1e-9 and np.count_nonzero(
                            inner > WEIGHT_FLOOR * peak) <= SUBPIXEL_AREA * inner.size:
                        return True
        return False

    @classmethod
    def from_pictures(cls, pictures: dict[str, np.ndarray], verdicts: str | Path | None = None
                      ) -> FaceBook:
        return cls(pictures, verdicts)

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
        the detail a closer camera gives, a pattern as wide as the card is all noise); in a
        book of digit pairs (``subtle``) within ``SUBTLE_SHARE``."""
        step = max(1, int(round(card_w / ALIKE_STEP))) * ALIKE_STEP
        fits = [v for v in FINE_LEVELS if v <= FINE_SHARE * step + 1e-6]
        if fits and fits[-1] in SUBTLE_LEVELS and not self.subtle:
            fits.pop()  # a level for faces apart by a few strokes only: none in this book
        wider = [v for v in FINE_LEVELS if FINE_SHARE * step + 1e-6 < v <= SUBTLE_SHARE * step
                 + 1e-6]
        if wider and self.subtle:
            fits.append(wider[-1])  # digits: the widest the card nearly holds (``SUBTLE_SHARE``)
        w = max(fits or [FINE])
        return w, max(16, round(w * self.aspect))

    def _taught(self, width: int) -> np.ndarray:
        """The taught faces' fine patterns ``width`` wide (made once, on first need)."""
        with self._lock:
            kept = self._levels.get(width)
        if kept is None:
            size = (width, max(16, round(width * self.aspect)))
            # the fine pattern alone: the fill, ink and hue (`_Patterns`) are the book's
            # own, and the fills cost most (1 s of a fresh 12 MP look, issue 63)
            kept = np.stack([_fine_of(cv2.resize(_inside(self.pictures[i]), size,
                                                 interpolation=cv2.INTER_AREA))
                             for i in self.ids])
            with self._lock:
                kept = self._levels.setdefault(width, kept)
        return kept

    def scores(self, card: np.ndarray) -> np.ndarray:
        """Coarse scores of a straightened card: (turns, faces), turn 0 then 180 (and, for
        square cards, the caller straightens again for 90 and 270)."""
        return self.scored(card)[0]

    def scored(self, card: np.ndarray) -> tuple[np.ndarray, list[np.ndarray], float,
                                                 float | None, tuple | None, float | None]:
        """(``scores``, the card's fine pattern upright and upside down, its ``_ink``, its
        ``_fill``, its ``_ink_hue``, its shape area: ``_printed``) for ``decide``."""
        p = _Patterns(card, self.coarse, self.fine_size(card.shape[1]))
        out = np.full((2, len(self.ids)), -np.inf, np.float32)
        self._best_of(_placed(card, self.coarse, (p.grey, p.chroma)), out)
        if ZOOMS and float(out.max()) < ZOOM_BELOW:  # no face fits well: a scale off?
            self._best_of(_zoomed(card, self.coarse), out)
        return out, [p.fine, p.fine[:, ::-1, ::-1]], p.ink, p.fill, p.hue, p.area

    def _best_of(self, rows: tuple[np.ndarray, np.ndarray], out: np.ndarray) -> None:
        """``out`` (turns, faces) raised to each face's coarse score against the card's
        (grey, chroma) ``rows`` that fits it best, upright and turned half round."""
        greys, chromas = rows
        w, h = self.coarse
        turned = (greys.reshape(-1, h, w)[:, ::-1, ::-1].reshape(len(greys), -1),
                  chromas.reshape(-1, h, w, 2)[:, ::-1, ::-1].reshape(len(chromas), -1))
        for k, (rows_g, rows_c) in enumerate(((greys, chromas), turned)):
            for grey, chroma in zip(rows_g, rows_c, strict=True):  # matrix x vector: a
                # matrix product would start BLAS threads, slow on a busy Pi
                colour = (chroma @ chroma) + self.chroma_sq - 2 * (self.chroma @ chroma)
                np.maximum(out[k], self.grey @ grey - COLOUR_WEIGHT * colour, out=out[k])

    def _ink_against(self, ink: float, a: int, b: int) -> bool:
        """The card's ink leans clearly to face b rather than a (``INK_LEAN``), where the
        two faces' inks differ enough to vote (``INK_APART``): an outlined shape taken for
        its striped twin, a count or a fill the fine comparison got wrong."""
        da, db = float(self.inks[a]), float(self.inks[b])
        if abs(da - db) < INK_APART * max(da, db, 1e-6):
            return False
        return (ink - (da + db) / 2) / (da - db) < -INK_LEAN

    @property
    def fills(self) -> list:
        """``_fill`` of each taught face (None where it has none), at its own width."""
        if self._own_fills is None:
            printed = [_own_printed(_inside(self.pictures[i])) for i in self.ids]
            self._own_areas = [a for _, a in printed]  # first: ``areas`` waits for the fills
            self._own_fills = [f for f, _ in printed]
        return self._own_fills

    @property
    def areas(self) -> list:
        """``_printed``'s shape area of each taught face (None where it has no shape), at
        its own width."""
        if self._own_areas is None:
            _ = self.fills
        return self._own_areas

    def shape_fits(self, area: float | None, face: int, card_px: float | None = None
                   ) -> bool:
        """Whether a card ``card_px`` wide in the frame whose printed shapes cover ``area``
        of it (``_printed``) can be ``face`` (``areas_at`` that width): not when the two
        areas differ by more than ``SHAPE_APART`` (an untaught capsule against a taught
        diamond of its colour and fill). True when either is not known."""
        own = self.area_at(card_px, face)
        if area is None or own is None:
            return True
        return max(area, own) <= SHAPE_APART * min(area, own)

    def fills_at(self, card_px: float | None) -> list:
        """``_fill`` of each taught face as a card ``card_px`` wide in the frame shows it
        (brought down to that width, then straightened as ``identify`` does; kept per
        ``ALIKE_STEP``): blur lifts a striped shape's fill towards solid, the same for the
        taught face as for the card. The faces' own fills when ``card_px`` is None. Cards
        wider than a straightened card (3 ``FINE``: a 12 MP photo's, 300-700 px) share one
        step: each is straightened to that width, and each width's fills cost a second."""
        if card_px is None:
            return self.fills
        step = _width_step(card_px, 3 * FINE)
        with self._lock:
            kept = self._fills.get(step)
        if kept is not None:
            return kept
        kept = self._stored()["fills"].get(step)  # kept on disk with the verdicts
        if kept is None:
            kept = [f for f, _ in self._printed_at(step)]
            self._store(step, fills=kept)  # 0.4 s a step for 81 faces (issue 63)
        with self._lock:
            return self._fills.setdefault(step, kept)

    def areas_at(self, card_px: float | None) -> list:
        """``_printed``'s shape area of each taught face as a card ``card_px`` wide in the
        frame shows it (as ``fills_at``; kept in memory per step, made with the fills when
        they are not read from the verdicts file): blur and the outline's ramp swell a
        small card's shapes, the same for the taught face as for the card (the renders'
        pips and pictures at 120 px, measured against the faces' own: session 86)."""
        if card_px is None:
            return self.areas
        return [self.area_at(card_px, face) for face in range(len(self.ids))]

    def area_at(self, card_px: float | None, face: int) -> float | None:
        """``areas_at``'s one face: made alone when the step's fills were read from the
        verdicts file (a fresh process names a 12 MP photo's cards without reading every
        face's print again: 0.4 s for 81 faces, session 86)."""
        if card_px is None:
            return self.areas[face]
        step = _width_step(card_px, 3 * FINE)
        with self._lock:
            row = self._areas.get(step)
            kept = self._area_one.get((step, face)) if row is None else (row[face],)
        if kept is None:
            kept = (_printed(self._face_at(face, step))[1],)
            with self._lock:
                kept = self._area_one.setdefault((step, face), kept)
        return kept[0]

    def _face_at(self, face: int, step: int) -> np.ndarray:
        """The inside of a taught face brought down to the width ``step`` stands for, then
        straightened as ``identify`` does."""
        w = step * ALIKE_STEP
        picture = self.pictures[self.ids[face]]
        small = cv2.resize(picture, (w, max(8, round(w * picture.shape[0] / picture.shape[1]))),
                           interpolation=cv2.INTER_AREA)
        return _inside(cv2.resize(small, self.straight_size(w), interpolation=cv2.INTER_LINEAR))

    def _printed_at(self, step: int) -> list:
        """``_printed`` of each taught face at the width ``step`` stands for (``_face_at``);
        the areas kept (``areas_at``)."""
        out = [_printed(self._face_at(face, step)) for face in range(len(self.ids))]
        with self._lock:
            self._areas.setdefault(step, [a for _, a in out])
        return out

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

    def _hue_against(self, hue: tuple | None, a: int, b: int) -> bool:
        """The card's ink hue is not clearly face a's rather than b's (``HUE_SHARE``),
        where the two faces' inks are colourful and their hues ``HUE_APART``."""
        ha, hb = self.hues[a], self.hues[b]
        if hue is None or ha is None or hb is None or \
                min(ha[1], hb[1], hue[1]) < HUE_CHROMA or _hue_gap(ha[0], hb[0]) < HUE_APART:
            return False
        da, db = _hue_gap(hue[0], ha[0]), _hue_gap(hue[0], hb[0])
        return da >= HUE_SHARE * (da + db)

    def _hue_sure(self, hue: tuple | None, a: int, b: int) -> bool:
        """The card's ink hue is clearly face a's, not b's (``HUE_SURE``), both faces thin
        lines (``HUE_THIN``: the ink is the shapes, so its mean hue is their colour) whose
        colourful inks stand ``HUE_APART``: the card is not b."""
        ha, hb = self.hues[a], self.hues[b]
        if hue is None or ha is None or hb is None or \
                max(self.inks[a], self.inks[b]) >= HUE_THIN or \
                min(ha[1], hb[1], hue[1]) < HUE_CHROMA or _hue_gap(ha[0], hb[0]) < HUE_APART:
            return False
        da, db = _hue_gap(hue[0], ha[0]), _hue_gap(hue[0], hb[0])
        return da <= HUE_SURE * (da + db)

    def _fill_far(self, fill: float | None, a: int, fills: list, strict: float = 1.0
                  ) -> bool:
        """The card's fill is ``FILL_FAR`` nearer some other face's than face a's (or just
        nearer, when ``FILL_ASTRAY`` from a's: a card half way between stripes and solid),
        where one of the two has open shapes (``FILL_OPEN``): a is not named, whatever won.
        The pairwise vote (``_fill_lean``) is asked only between close contenders; a
        striped card whose stripes print darker than the taught face's (or a lamp shades
        half of it) looks solid to the coarse score, wins by its margin alone, and the
        striped face it is was never a contender. Nor is a face with open shapes whose fill
        is ``FILL_ALONE`` from the card's, however far the others are: the face the card is
        may not be taught yet."""
        fa = fills[a]
        if fill is None or fa is None:
            return False
        off = abs(fill - fa)
        if fa < FILL_OPEN and off >= FILL_ALONE:
            return True
        far = off - FILL_FAR * strict if off < FILL_ASTRAY * strict else off
        return any(fb is not None and min(fa, fb) < FILL_OPEN and abs(fill - fb) < far
                   for b, fb in enumerate(fills) if b != a)

    def _hue_alone(self, hue: tuple | None, a: int, card_px: float | None) -> bool:
        """Face a has printed shapes (``area_at``) and a colourful ink whose hue is
        ``HUE_ALONE`` or more from the card's colourful ink: a is not named."""
        ha = self.hues[a]
        if hue is None or ha is None or min(hue[1], ha[1]) < HUE_CHROMA or \
                self.area_at(card_px, a) is None:
            return False
        return _hue_gap(hue[0], ha[0]) >= HUE_ALONE

    def _confirmed(self, a: int, fill: float | None, hue: tuple | None,
                   area: float | None, fills: list, card_px: float | None) -> bool:
        """The card's own print confirms face a, for a card scoring under ``MIN_SCORE``
        (``LOW_SCORE``): a has open shapes (``FILL_OPEN``) whose fill is within
        ``CONFIRM_FILL`` of the card's, its shapes' area is known and fits the card's
        (``shape_fits``) with as many shapes (``ShapeArea.count``), and both inks are
        colourful (``HUE_CHROMA``) with hues within ``CONFIRM_HUE``. Pictures, pips and
        text have no such print: they keep ``MIN_SCORE``."""
        fa, ha, own = fills[a], self.hues[a], self.area_at(card_px, a)
        return fill is not None and fa is not None and fa < FILL_OPEN and \
            abs(fill - fa) <= CONFIRM_FILL and area is not None and own is not None and \
            self.shape_fits(area, a, card_px) and area.count == own.count and \
            hue is not None and ha is not None and min(hue[1], ha[1]) >= HUE_CHROMA and \
            _hue_gap(hue[0], ha[0]) <= CONFIRM_HUE

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
        barely move. What fits neither face at all (``COVERED``: a token, a hand) counts for
        neither; a card whose rest holds too little of their difference (``VISIBLE``) or
        fits neither face there (``FINE_MISFIT``: a token lying on the digit that parts
        them) leans nowhere: (0, inf, 0)."""
        weight, inner, peak = _difference_weight(fa, fb)
        s = SHIFT
        _, h, w_ = sample.shape
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
        # then the blur of both faces (``BLURS``) and the part of a pixel left at that shift
        # (``SUBPIXEL``: the blurred faces moved, cubic; a stroke a pixel wide half a pixel
        # off fits neither face, and a card laid onto its twin leaned to it, session 89)
        blurred = []
        for sigma in BLURS:
            ba, bb = (cv2.GaussianBlur(g, (0, 0), sigma) for g in (ga, gb)) if sigma \
                else (ga, gb)
            blurred.append((ba - bb, (ba + bb) / 2))

        def fitted(k: int, fx: float, fy: float) -> tuple[float, float, tuple | None]:
            d, mid = blurred[k]
            if fx or fy:
                move = np.float32([[1, 0, fx], [0, 1, fy]])
                d, mid = (cv2.warpAffine(g, move, g.shape[1::-1], flags=cv2.INTER_CUBIC,
                                         borderMode=cv2.BORDER_REPLICATE) for g in (d, mid))
            d, mid = d[box], mid[box]
            wdiff = w * d
            norm = float((wdiff * d).sum())
            if norm < 1e-9:
                return math.inf, 0.0, None
            off = seen - mid
            t = float((wdiff * off).sum()) / norm
            return float((w * off * off).sum()) - t * t * norm, t, (off, d, norm)

        tried = {(k, 0.0, 0.0): fitted(k, 0.0, 0.0) for k in range(len(BLURS))}
        k = min(tried, key=lambda key: tried[key][0])[0]
        if SUBPIXEL and len(ys) <= SUBPIXEL_AREA * inner.size:  # a difference of a few
            # strokes: a parabola through the residuals at -h, 0, +h along each axis
            h_, r0 = SUBPIXEL, tried[(k, 0.0, 0.0)][0]
            part = []
            for axis in (0, 1):
                ends = []
                for sign in (-1.0, 1.0):
                    at = (k, sign * h_, 0.0) if axis == 0 else (k, 0.0, sign * h_)
                    tried[at] = fitted(*at)
                    ends.append(tried[at][0])
                bend = ends[0] - 2 * r0 + ends[1]
                part.append(float(np.clip(h_ * (ends[0] - ends[1]) / (2 * bend), -h_, h_))
                            if bend > 1e-12 and math.isfinite(bend) else 0.0)
            if part[0] or part[1]:
                tried[(k, part[0], part[1])] = fitted(k, part[0], part[1])
        best, leaning, fit = min(tried.values(), key=lambda r: r[0])
        if fit is None:
            return 0.0, math.inf, 0.0
        # what fits neither face at all (a token, a hand) counts for neither: the leaning
        # and its misfit over the visible rest, if that holds enough of the difference
        off, d, norm = fit
        near = np.minimum(((off - d / 2) ** 2).sum(axis=2), ((off + d / 2) ** 2).sum(axis=2))
        covered = (near > np.maximum((d * d).sum(axis=2), COVERED ** 2)).astype(np.uint8)
        if COVER_GROW:
            covered = cv2.dilate(covered, cv2.getStructuringElement(
                cv2.MORPH_ELLIPSE, (2 * COVER_GROW + 1,) * 2))
        visible = (covered == 0)[..., None]
        w = w * visible
        wdiff = w * d
        whole, norm = norm, float((wdiff * d).sum())
        if norm < VISIBLE * whole:  # what parts them is mostly covered
            return 0.0, math.inf, 0.0
        leaning = float((wdiff * off).sum()) / norm
        best = float((w * off * off).sum()) - leaning * leaning * norm
        if best > FINE_MISFIT * norm:  # the card is neither face where they differ: covered
            return 0.0, math.inf, 0.0
        spread = float((wdiff * wdiff).sum()) / norm ** 2
        return (leaning, math.sqrt(max(best, 0.0) / float(w.sum()) * spread),
                _area_vote(off, d * visible))

    def decide(self, scores: np.ndarray, fines: list[np.ndarray], ink: float,
               strict: float = 1.0, fill: float | None = None, card_px: float | None = None,
               hue: tuple | None = None, refused: dict[int, int] | None = None,
               area: float | None = None) -> tuple[int | None, int | None, float]:
        """(face index or None, turn index: 0 as straightened, 1 upside down, None not
        known; best score) from a straightened card's ``scored``. ``strict`` scales every
        margin (``too_alike`` asks for more than the table does). A face with twins
        (``TWIN``) must beat each of them in the fine comparison, whatever the margin, and
        a winner with the card's ink against it (``_ink_against``) must lean ``INK_SURE``
        its way in that comparison (a weak winner is refused). The card's
        ``fill`` decides between two faces whose fills differ (``_fill_lean``): leaning
        ``FILL_VETO`` to b, a never beats b; ``FILL_SURE`` to a, b is ruled out, whatever
        the fine comparison says (an outlined shape and its striped twin differ in a
        pattern blur and JPEG wash out, not in how full of ink they are). A winner whose
        ink hue is not clearly its own (``_hue_against``) is refused: a weak one, or any
        between two faces of thin lines (``HUE_THIN``). A winner whose printed shapes' area
        is not the card's (``shape_fits``: ``area``, the card's) is not named, whatever won:
        an untaught card is not its taught twin of another shape. ``refused``, when given,
        is filled with each contender of the fine comparison that was not named and the
        first face it failed to beat: the rival that refused it (``too_alike`` names a pair
        after it)."""
        per_face = scores.max(axis=0)
        turn_of = scores.argmax(axis=0)
        taught = self._taught(fines[0].shape[2])
        order = np.argsort(-per_face)
        best = int(order[0])
        top = float(per_face[best])
        low = top < MIN_SCORE  # named only if the card's print confirms it (``_confirmed``)
        if top < (LOW_SCORE if low else MIN_SCORE) or low and fill is None:
            return None, None, top
        second = float(per_face[order[1]]) if len(order) > 1 else -1.0
        twins = [int(i) for i in self.twins[best]]
        fills = self.fills_at(card_px) if fill is not None else self.fills
        if top - second >= MIN_MARGIN * strict and not twins:
            if self._fill_far(fill, best, fills, strict) or \
                    not self.shape_fits(area, best, card_px) or \
                    self._hue_alone(hue, best, card_px) or \
                    low and not self._confirmed(best, fill, hue, area, fills, card_px):
                return None, None, top
            return best, self._turn_of(scores, fines, best, strict), top
        rivals = [int(i) for i in order[1:] if per_face[i] >= top - CLOSE or int(i) in twins]
        contenders = [best] + rivals
        # the card laid onto each contender (an outline a pixel or two off turns and scales
        # the face a little, more than a shift can undo at its corners), made when needed.
        # Laid onto a face, the card leans to it (a digit pair at 160 px: 0.46 laid onto its
        # own face, 0.40 onto its twin's): the first contender is judged on the card laid
        # onto itself, a later one on its own and the first's (``OWN_LAID``), so a twin the
        # coarse score put second by a hair (0.003, with the moves) is not judged on its
        # rival's alone
        samples: dict[tuple[int, int], np.ndarray] = {}

        def laid(k: int, on: int, a: int, b: int) -> tuple[float, float, float]:
            if (k, on) not in samples:
                samples[(k, on)] = _aligned(fines[k], taught[on])
            return self._leaning(samples[(k, on)], taught[a], taught[b])

        def beats(a: int, b: int) -> bool:
            lean = self._fill_lean(fill, a, b, fills)
            if lean < -FILL_VETO * strict:
                return False
            if lean >= FILL_SURE or self._hue_sure(hue, a, b):
                return True
            k = int(turn_of[a])
            t, error, area = laid(k, a, a, b)
            if a != best:
                t0, e0, a0 = laid(k, best, a, b)
                w = OWN_LAID
                t, area = w * t + (1 - w) * t0, w * area + (1 - w) * a0
                error = max(error, e0) if w > 0 else e0
            # the ink (its darkness or its hue) against a refuses a weak winner only: a card
            # whose pips or digit the fine comparison reads clearly (the 4 against the 5
            # of diamonds, a title bar's colour) is named
            if t < INK_SURE and self._ink_against(ink, a, b):
                return False
            if (t < INK_SURE or max(self.inks[a], self.inks[b]) < HUE_THIN) and \
                    self._hue_against(hue, a, b):
                return False  # thin lines: their colour weighs little in the comparison
            return _clear(t, error, strict, area)

        for a in contenders:
            beaten = next((b for b in contenders if b != a and not beats(a, b)), None)
            if beaten is None:
                if self._fill_far(fill, a, fills, strict) or \
                        not self.shape_fits(area, a, card_px) or \
                        self._hue_alone(hue, a, card_px) or \
                        low and (a != best or  # a rival scoring lower still: not named
                                 not self._confirmed(a, fill, hue, area, fills, card_px)):
                    return None, None, top
                return a, self._turn_of(scores, fines, a, strict), float(per_face[a])
            if refused is not None:
                refused[a] = beaten
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

    @property
    def symmetric(self) -> frozenset[str]:
        """``_symmetric``, made on first need (0.6 s for 81 faces here) or read back from
        the verdicts file."""
        with self._lock:
            kept = self._symmetric_kept
        if kept is None:
            kept = self._stored()["symmetric"]
            if kept is None:
                kept = self._symmetric()
                self._store(symmetric=kept)
            with self._lock:
                if self._symmetric_kept is None:
                    self._symmetric_kept = frozenset(kept)
                kept = self._symmetric_kept
        return kept

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
        """The faces ``too_alike`` at about this width (kept per 20 px step, ``ALIKE_TOP``
        and wider as one) finds the camera cannot name: never named, however they score.
        A face not named back is one; so is a face another face was named as (a face
        taken for another); but the face that merely refused another (its twin seen leaning
        the right way, short of the judgement's margins) is named: its own imagined
        cards were all named back and no other was ever taken for it (session 90: a red
        SET card at 80 px whose purple twin's ink is too grey to vote, a digit card whose
        twin's digit leans weakly)."""
        return self._checked(card_px)[1]

    def judged_at(self, card_px: float) -> bool:
        """Whether ``too_alike`` at about this width was judged already (no waiting: the
        judgement costs seconds, minutes on a Pi; the companion makes it on a thread of
        its own). A verdict kept in the book's file counts: a fresh process names cards
        at once (it is read on the card's ``alike_at``)."""
        step = _width_step(card_px, ALIKE_TOP)
        with self._lock:
            if step in self._alike:
                return True
        return step in self._stored()["steps"]

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
        step = _width_step(card_px, ALIKE_TOP)
        with self._lock:
            kept = self._alike.get(step)
        if kept is None:
            found = self._stored()["steps"].get(step)
            if found is None:
                found = self._check(step * ALIKE_STEP)
                self._store(step, *found)
            pairs, turns = found  # ordered: (the face not named, the face it was taken
            # for or refused by); a face taken for another is in a pair both ways
            kept = (sorted({tuple(sorted(pair)) for pair in pairs}),
                    frozenset(pair[0] for pair in pairs), frozenset(turns) | self.symmetric)
            with self._lock:
                kept = self._alike.setdefault(step, kept)
        return kept

    @property
    def key(self) -> str:
        """What the too-alike verdicts depend on, as a hash (``verdicts_key``)."""
        if self._key is None:
            self._key = verdicts_key(self.pictures)
        return self._key

    def _stored(self) -> dict[str, dict]:
        """What the book's file keeps: ``{"steps": {width step: (pairs, turns)}, "fills":
        {width step: [fill or None per face]}, "symmetric": [face, ...] or None}``
        (``_check``'s verdicts, ``fills_at``, ``symmetric``); empty when there is no file,
        or it is not this book's (another key), or it does not hold together (a corrupt
        file: never trusted, judged again and written over)."""
        empty = {"steps": {}, "fills": {}, "symmetric": None}
        if self.verdicts is None:
            return empty
        try:
            data = json.loads(self.verdicts.read_bytes())
        except FileNotFoundError:
            return empty
        except (OSError, ValueError):
            log.warning("too-alike verdicts %s unreadable: judged again", self.verdicts)
            return empty
        try:
            if data["format"] != VERDICTS_FORMAT or data["key"] != self.key:
                return empty  # another book's or older code's: judged again, silently
            if data["sum"] != _verdicts_sum(data["key"], data["steps"], data["fills"],
                                            data["symmetric"]):
                raise ValueError("checksum")
            symmetric = data["symmetric"]
            if symmetric is not None and not set(symmetric) <= set(self.ids):
                raise ValueError("unknown face")
            ids = set(self.ids)
            steps = {}
            for step, verdict in data["steps"].items():
                pairs = [tuple(p) for p in verdict["pairs"]]
                turns = list(verdict["turns"])
                if not all(len(p) == 2 and set(p) <= ids for p in pairs) or \
                        not set(turns) <= ids:
                    raise ValueError("unknown face")
                steps[int(step)] = (sorted(pairs), turns)
            fills = {}
            for step, row in data["fills"].items():
                if len(row) != len(self.ids) or not all(
                        f is None or isinstance(f, float) for f in row):
                    raise ValueError("fills")
                fills[int(step)] = list(row)
            return {"steps": steps, "fills": fills, "symmetric": symmetric}
        except (KeyError, TypeError, ValueError, AttributeError):
            log.warning("too-alike verdicts %s corrupt: judged again", self.verdicts)
            return empty

    def _store(self, step: int = 0, pairs: list | None = None, turns=None,
               fills: list | None = None, symmetric=None) -> None:
        """Keep one width step's verdict (``pairs``, ``turns``) or the faces' ``fills`` at
        one step, or ``symmetric``, in the book's file (atomically, beside what is already
        kept for this book); a failure to write is logged, the answer still kept in memory."""
        if self.verdicts is None:
            return
        with self._disk_lock:
            kept = self._stored()
            steps = {str(k): {"pairs": [list(p) for p in v[0]], "turns": sorted(v[1])}
                     for k, v in kept["steps"].items()}
            rows = {str(k): v for k, v in kept["fills"].items()}
            if pairs is not None:
                steps[str(step)] = {"pairs": [list(p) for p in pairs], "turns": sorted(turns)}
            if fills is not None:
                rows[str(step)] = [None if f is None else float(f) for f in fills]
            alike = kept["symmetric"] if symmetric is None else symmetric
            alike = None if alike is None else sorted(alike)
            data = {"format": VERDICTS_FORMAT, "key": self.key, "steps": steps,
                    "fills": rows, "symmetric": alike,
                    "sum": _verdicts_sum(self.key, steps, rows, alike)}
            try:
                atomic_file.write_bytes(self.verdicts, json.dumps(data, indent=1).encode())
            except OSError:
                log.warning("too-alike verdicts %s not written", self.verdicts, exc_info=True)

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
                for shift in _imagined_shifts(w):
                    card = self._seen(turned, shift, rng)
                    scores, fines, ink, fill, hue, area = self.scored(card)
                    refused: dict[int, int] = {}
                    votes = card_px >= FILL_MIN_PX
                    got, turn, _ = self.decide(scores, fines, ink, ALIKE_SAFETY,
                                               fill if votes else None, card_px, hue,
                                               refused, area if votes else None)
                    if got == index:
                        if face not in self.symmetric and turn != int(upside_down):
                            turns.add(face)
                        continue
                    # the face it is taken for, else the rival that refused it in the
                    # fine comparison (a purple SET card refused by its red twin, not the
                    # striped shape the coarse score put next), else the coarse score's next
                    per_face = scores.max(axis=0)
                    per_face[index] = -np.inf
                    other = got if got is not None else refused.get(index,
                                                                    int(np.argmax(per_face)))
                    pairs.add((face, self.ids[other]))  # face: not named (``alike_at``)
                    if got is not None:  # and other named for it: not named either
                        pairs.add((self.ids[other], face))
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


def _verdicts_sum(key: str, steps: dict, fills: dict, symmetric: list | None) -> str:
    return hashlib.sha256(json.dumps([key, steps, fills, symmetric], sort_keys=True).encode()
                          ).hexdigest()


def judgement_constants() -> dict:
    """This module's constants (every upper-case number, string or tuple, the imported
    ``card_finding`` ones too): the too-alike judgement runs the whole naming, so any of them
    may change its verdict."""
    module = sys.modules[__name__]
    return {name: value for name, value in sorted(vars(module).items())
            if name.isupper() and isinstance(value, int | float | str | tuple)}


@functools.cache
def _code_digest() -> str:
    """The source of the modules the too-alike judgement runs (this one, the outline
    finder's constants, the percentile), hashed once per process."""
    h = hashlib.sha256()
    for module in (sys.modules[__name__], card_finding, percentile_module):
        h.update(Path(module.__file__).read_bytes())
    return h.hexdigest()


def verdicts_key(pictures: dict[str, np.ndarray]) -> str:
    """The key of the too-alike verdicts of a book of these (upright BGR) pictures: a hash
    of the pictures' bytes (with their ids and shapes), ``judgement_constants``, the code
    (``_code_digest``) and the OpenCV and NumPy versions (JPEG, resizing)."""
    h = hashlib.sha256()
    h.update(repr((VERDICTS_FORMAT, cv2.__version__, np.__version__, _code_digest(),
                   judgement_constants())).encode())
    for face in sorted(pictures):
        picture = np.ascontiguousarray(pictures[face])
        h.update(repr((face, picture.shape, str(picture.dtype))).encode())
        h.update(picture.tobytes())
    return h.hexdigest()


def _width_step(card_px: float, top: float) -> int:
    """The ``ALIKE_STEP`` width step whose answers a card ``card_px`` wide takes, every
    card from ``top`` px up sharing one (the too-alike pairs: ``ALIKE_TOP``; the faces'
    fills: a straightened card's width)."""
    return max(1, int(round(min(card_px, top) / ALIKE_STEP)))


def _imagined_shifts(card_px: float) -> list[float]:
    """The misplaced outlines ``too_alike`` imagines for a card ``card_px`` wide: each of
    ``SEEN_SHIFTS``, and the worst misplacement the coarse score's moves (``PLACES``) leave
    of an outline up to that far off (an outline half way between two moves): a shift the
    moves undo exactly would imagine a gentler camera than the table's (1.5 px at 120 px
    is undone by the 1.8 px move, 0.9 px is not)."""
    places = sorted(p * card_px for p in PLACES)
    out = []
    for off in SEEN_SHIFTS:
        reach = [off] + [(a + b) / 2 for a, b in zip(places, places[1:], strict=False)
                         if 0 <= (a + b) / 2 <= off]
        left = max(min(abs(e - p) for p in places) for e in reach)
        out += [off, round(left, 2)]
    return sorted(set(out))


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
        area > AREA_MARGIN * strict


def _turn(corners: np.ndarray) -> int:
    """Quarter turn clockwise from upright of a card with these own corners (TL TR BR BL)."""
    up = (corners[0] + corners[1]) / 2 - (corners[2] + corners[3]) / 2
    angle = math.degrees(math.atan2(float(up[0]), float(-up[1])))
    return int(round(angle / 90)) % 4 * 90


def identify(frame: np.ndarray, corners, book: FaceBook, judged_only: bool = False
             ) -> FaceSighting:
    """Name the card whose four corners (any order, any start) are given in ``frame``.
    ``judged_only``: a card whose width's ``too_alike`` judgement is not made yet is not
    named (``unjudged_px`` says the width), rather than judged here first."""
    quad = clockwise(corners)
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
    if judged_only and not book.judged_at(width):
        own = in_frame if _turn(in_frame) < 180 else np.roll(in_frame, 2, axis=0)
        return FaceSighting(None, _turn(own), tuple((float(x), float(y)) for x, y in own),
                            0.0, False, width)
    target = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    best = None
    for start in starts[:len(starts) // 2]:  # each straightening also scores its half turn
        ordered = np.roll(quad, -start, axis=0)
        matrix = cv2.getPerspectiveTransform(ordered, target)
        card = cv2.warpPerspective(frame, matrix, size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        if card.ndim == 2:
            card = cv2.cvtColor(card, cv2.COLOR_GRAY2BGR)
        scores, fines, ink, fill, hue, area = book.scored(card[..., :3])
        got, turn, score = book.decide(scores, fines, ink, fill=fill if fill_votes else None,
                                       card_px=seen_px, hue=hue,
                                       area=area if fill_votes else None)
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


def recognise(frame: np.ndarray, book: FaceBook, min_px: float = MIN_CARD_PX,
              max_share: float = MAX_SHARE, empty: np.ndarray | None = None
              ) -> list[FaceSighting]:
    """Every card in ``frame``, named by its face (or id None); ``empty``: the same view
    with no card, if known (see ``find_cards``)."""
    return [identify(frame, quad, book)
            for quad in find_cards(frame, min_px, max_share, empty)]

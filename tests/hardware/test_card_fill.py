"""The fill of printed shapes (outlined, striped, solid) told apart whatever the card's size
in the frame (hardware/camera/card_faces.py, ``_fill``): synthetic twins drawn here at 30-80
px card width, and the licensed real photograph kept in the repository (tests/data/set-photos/
licensed). An outlined card and its striped twin come out right or unknown, never the twin;
each net is shown to matter by planting its fault."""
import math

import cv2
import numpy as np
import pytest

from hardware.camera import card_faces
from hardware.camera.card_faces import FaceBook, identify
from hardware.synthetic import real_photos
from hardware.synthetic.set_faces import seen_sideways as _seen
from hardware.synthetic.set_faces import set_face as _face

WIDTHS = (30, 40, 50, 60, 70, 80)  # px: the card's width in the frame


@pytest.fixture(scope="module")
def twins():
    """A book of twins apart by their fill only, beside faces apart by shape and colour."""
    faces = {f"{colour}-{shape}-{fill}": _face(fill, bgr, shape)
             for colour, bgr in (("red", (40, 40, 200)), ("green", (60, 150, 30)))
             for shape in ("capsule", "diamond")
             for fill in ("outline", "stripes", "solid")}
    return faces, FaceBook.from_pictures(faces)


def _named(faces, book):
    """(face, width, named id) of every face seen at every width."""
    return [(face, width, identify(*_seen(picture, width, seed), book).id)
            for seed, (face, picture) in enumerate(faces.items()) for width in WIDTHS]


def _twin(face: str) -> str | None:
    swap = {"outline": "stripes", "stripes": "outline"}
    colour, shape, fill = face.split("-")
    return f"{colour}-{shape}-{swap[fill]}" if fill in swap else None


def test_the_fill_of_a_face_is_told_whatever_its_size(twins):
    faces, book = twins
    fills = dict(zip(book.ids, book.fills, strict=True))
    for face, fill in fills.items():
        expected = {"outline": (0, 0.08), "stripes": (0.15, 0.6), "solid": (0.85, 1.05)}
        low, high = expected[face.split("-")[2]]
        assert low <= fill <= high, (face, fill)
    for face, picture in faces.items():
        for width in (card_faces.FILL_MIN_PX, 80, 120, 240):  # straightened as identify does
            size = book.straight_size(width)
            small = cv2.resize(picture, (width, round(width * 1.5)), interpolation=cv2.INTER_AREA)
            seen = card_faces._fill(card_faces._inside(cv2.resize(small, size)))
            if seen is None:
                continue  # too small or blurred to tell: no vote, never a wrong one
            nearest = min(fills.values(), key=lambda f: abs(f - seen))
            assert abs(nearest - fills[face]) < 0.05, (face, width, seen, fills[face])


def test_an_outlined_card_and_its_striped_twin_never_swap_at_30_to_80_px(twins):
    faces, book = twins
    named = _named(faces, book)
    swapped = [(f, w, got) for f, w, got in named if got is not None and got == _twin(f)]
    wrong = [(f, w, got) for f, w, got in named if got not in (f, None)]
    assert not swapped and not wrong, (swapped, wrong)


def _fine_comparison_fooled(book, monkeypatch):
    """The other nets taken away: too_alike refuses nothing, the ink votes for nobody, and
    the fine comparison leans the wrong way (to whichever face the card is not)."""
    monkeypatch.setattr(book, "alike_at", lambda card_px: frozenset())
    monkeypatch.setattr(card_faces, "INK_LEAN", math.inf)
    leaning = FaceBook._leaning
    monkeypatch.setattr(FaceBook, "_leaning", staticmethod(
        lambda sample, fa, fb: tuple(-v for v in leaning(sample, fa, fb))))


def test_the_fill_alone_keeps_twins_apart_when_the_fine_comparison_leans_to_the_twin(
        twins, monkeypatch):
    """Where the fill is read for both twins (from ``FILL_MIN_PX`` wide; narrower, only the
    fine comparison and too_alike keep them apart), a fooled comparison cannot swap them."""
    faces, book = twins
    _fine_comparison_fooled(book, monkeypatch)

    def read(face, width):
        fills = dict(zip(book.ids, book.fills_at(width), strict=True))
        return width >= card_faces.FILL_MIN_PX and fills[face] is not None and \
            fills[_twin(face)] is not None

    named = [(f, w, got) for f, w, got in _named(faces, book) if _twin(f) and read(f, w)]
    assert len(named) >= 20
    swapped = [(f, w, got) for f, w, got in named if got == _twin(f)]
    assert not swapped, swapped
    assert sum(got == f for f, w, got in named) >= len(named) // 2


def test_planted_fault_without_the_fill_vote_the_fooled_comparison_swaps_twins(
        twins, monkeypatch):
    faces, book = twins
    _fine_comparison_fooled(book, monkeypatch)
    monkeypatch.setattr(card_faces, "FILL_VETO", math.inf)
    monkeypatch.setattr(card_faces, "FILL_SURE", math.inf)
    named = _named(faces, book)
    assert any(got is not None and got == _twin(f) for f, w, got in named
               if w >= card_faces.FILL_MIN_PX)


def test_the_licensed_photo_outlined_and_striped_cards_read_by_their_fill():
    """The fill of every card of the real photo in the repository (no taught face needed):
    outlined near 0, striped in between, solid near 1, apart by a clear gap."""
    photo = real_photos.licensed_photos()[0]
    book = FaceBook.from_pictures({"card": _face("outline")})  # for the straightening size
    seen = {}
    for face, corners in photo.cards:
        quad = np.float32(corners)
        long_side = float(np.linalg.norm(quad[1] - quad[0]))
        short_side = float(np.linalg.norm(quad[2] - quad[1]))
        size = book.straight_size(short_side)
        target = np.float32([[size[0] - 1, 0], [size[0] - 1, size[1] - 1], [0, size[1] - 1],
                             [0, 0]])  # the card lies sideways: its top edge on the right
        assert long_side > short_side
        card = cv2.warpPerspective(photo.image, cv2.getPerspectiveTransform(quad, target),
                                   size)
        seen.setdefault(face.split("-")[2], []).append(card_faces._fill(
            card_faces._inside(card)))
    assert max(seen["outline"]) < 0.06 < 0.15 < min(seen["stripes"])
    assert max(seen["stripes"]) < 0.5 < 0.9 < min(seen["solid"])


def _glared() -> np.ndarray:
    """An outlined face photographed dim, with a glare washing out its lower half."""
    face = _face("outline", count=3).astype(np.float32) * 0.75
    face[150:] = np.minimum(face[150:] * 1.4, 255)
    return face.astype(np.uint8)


def test_a_glare_over_half_an_outlined_card_is_paper_not_ink():
    assert card_faces._fill(card_faces._inside(_glared())) < 0.08


def test_planted_fault_paper_taken_whole_card_a_glare_reads_as_ink(monkeypatch):
    """Ink is darkness against the paper round it: with the card's lightest paper taken for
    all of it, the dim half's plain paper is ink and the outlined card reads striped."""
    monkeypatch.setattr(card_faces, "_paper_round", lambda light: np.full_like(
        light, float(np.percentile(light, 99))))
    assert card_faces._fill(card_faces._inside(_glared())) > 0.1


@pytest.fixture(scope="module")
def pale_book():
    """Faces taught from pale pictures (single shapes, the stripes' colour washed towards
    the paper, as the dev photos' taught faces are): the striped face's coarse look is
    far from the solid one's, so the two are no twins and never compared closely."""
    faces = {f"{colour}-{shape}-{fill}": _face(fill, bgr, shape, 1, edge=7, lines=1, pale=0.7)
             for colour, bgr in (("red", (40, 40, 200)), ("green", (60, 150, 30)))
             for shape in ("capsule", "diamond")
             for fill in ("outline", "stripes", "solid")}
    return FaceBook.from_pictures(faces)


def _dark_striped_named(book) -> list:
    """The green striped capsule printed darker than taught (lines twice as wide, a
    thinner outline), seen 200-280 px wide: the licensed photo's card at 245 px."""
    card = _face("stripes", (60, 150, 30), "capsule", 1, edge=5, lines=2)
    return [identify(*_seen(card, width, seed), book).id
            for width in (200, 245, 280) for seed in range(2)]


def test_a_striped_card_printed_darker_than_taught_is_never_named_solid(pale_book):
    """Issue 63, main's one wrong on the licensed photo: its coarse look took the solid
    face by a clear margin (the striped one scored far below), so no fill was asked; its
    fill reads striped (0.2-0.5 against the solid face's 1): unknown, never the solid."""
    named = _dark_striped_named(pale_book)
    assert all(got in (None, "green-capsule-stripes") for got in named), named


def test_planted_fault_without_the_winners_fill_check_the_dark_stripes_are_named_solid(
        pale_book, monkeypatch):
    monkeypatch.setattr(card_faces, "FILL_FAR", math.inf)
    monkeypatch.setattr(card_faces, "FILL_ASTRAY", math.inf)
    assert "green-capsule-solid" in _dark_striped_named(pale_book)

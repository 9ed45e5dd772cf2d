"""A card whose print is another than the taught faces' scores low against its own face
(hardware/camera/card_faces.py): the licensed photo's outlined green double capsule and red
triple squiggle (tests/data/set-photos/licensed, a finer print than the taught faces') score
0.533 and 0.458 on their found outlines, under ``MIN_SCORE`` (0.55), and were unknown
(session 87). Named now from ``LOW_SCORE`` (0.4) when the card's own print confirms the face
(``_confirmed``: its fill, its shapes' area and its ink hue), the margins and votes still
asked. Needs the 81 taught faces of the unlicensed set: skipped without them."""

import pytest

from hardware.camera import card_faces
from hardware.camera.card_faces import FaceBook, identify
from hardware.camera.card_finding import find_cards
from hardware.synthetic import real_photos

pytestmark = pytest.mark.skipif(
    not real_photos.available(),
    reason="the taught faces are not prepared beside the "
    "repository (tests/data/set-photos/README.md)",
)

LOW = ("green-double-outline-capsule", "red-triple-outline-squiggle")


@pytest.fixture(scope="module")
def book():
    return FaceBook.from_pictures(real_photos.load_faces())


@pytest.fixture(scope="module")
def cards():
    """The licensed photo and its two low-scoring cards' found outlines."""
    photo = real_photos.licensed_photos()[0]
    quads = find_cards(photo.image)
    out = {}
    for face, corners in photo.cards:
        if face in LOW:
            centre = corners.mean(axis=0)
            out[face] = min(quads, key=lambda q: float(((q.mean(axis=0) - centre) ** 2).sum()))
    assert set(out) == set(LOW)
    return photo, out


def _named(book, cards) -> dict:
    photo, quads = cards
    return {face: identify(photo.image, quad, book) for face, quad in quads.items()}


def test_outlined_cards_of_another_print_are_named_by_their_own_print(book, cards):
    seen = _named(book, cards)
    for face, sighting in seen.items():
        assert sighting.id == face, (face, sighting.id, sighting.score)
        assert sighting.score < card_faces.MIN_SCORE  # the low route named them


def test_planted_fault_without_the_low_route_they_are_unknown(book, cards, monkeypatch):
    monkeypatch.setattr(card_faces, "LOW_SCORE", card_faces.MIN_SCORE)
    assert all(s.id is None for s in _named(book, cards).values())


def test_planted_fault_a_hue_far_from_the_face_is_no_confirmation(book, cards, monkeypatch):
    """The green card's ink hue is 17.7 degrees from its face's (the licensed print):
    asked within 10, the low route refuses it."""
    monkeypatch.setattr(card_faces, "CONFIRM_HUE", 10.0)
    assert _named(book, cards)["green-double-outline-capsule"].id is None


def _without(left_out: str) -> FaceBook:
    """The 81 faces but those with ``left_out`` (a count, a fill): the camera's everyday
    state, a deck taught card by card."""
    faces = real_photos.load_faces()
    return FaceBook.from_pictures({f: p for f, p in faces.items() if left_out not in f.split("-")})


def _sightings(photo, face):
    """A card's found outline (the nearest) and its true one."""
    quads = find_cards(photo.image)
    corners = dict(photo.cards)[face]
    centre = corners.mean(axis=0)
    found = min(quads, key=lambda q: float(((q.mean(axis=0) - centre) ** 2).sum()))
    return [found, corners]


def test_an_untaught_triple_is_not_named_as_the_single_of_its_colour_and_fill():
    """setgame7's purple triple outlined diamond, no triple taught: it scored 0.4-0.55
    against the single one, whose fill, shape area and hue are its own; only the count
    (``ShapeArea.count``) tells them apart (named so before the count was asked)."""
    book = _without("triple")
    photo = {p.name: p for p in real_photos.photos(parts=("dev",))}["setgame7.jpg"]
    face = "purple-triple-outline-diamond"
    assert [identify(photo.image, q, book).id for q in _sightings(photo, face)] == [None, None]


def test_a_low_scoring_rival_is_never_named_by_the_low_route():
    """The licensed photo's green single striped capsule (true outline), no solid taught:
    its best face scored over ``LOW_SCORE``, the striped squiggle that won the fine
    comparison 0.321, and was named (a wrong name) before only the best was allowed."""
    book = _without("solid")
    photo = real_photos.licensed_photos()[0]
    face = "green-single-stripes-capsule"
    assert identify(photo.image, dict(photo.cards)[face], book).id in (face, None)

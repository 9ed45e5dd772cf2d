"""A card whose face is not taught yet must be "unknown", never the taught face nearest to
it (hardware/camera/card_faces.py): the owner teaches a deck card by card
(companion/box/taught_cards.py builds the book from the cards that have a picture), so a
book without some faces is the camera's everyday state, and the TV asks about a card it
does not know.

Known gap (stop 83): with no capsule face taught, SET-like cards with one capsule are named
as the diamond of the same colour and fill (12 of 36 sightings on 046bb4bf); a route that
names more cards by their shapes (tried at stop 83) named all 36, so it was withdrawn. The
test stays a strict xfail until the look refuses a card that fits no taught face well
enough, and then guards it."""
import pytest

from hardware.camera.card_faces import FaceBook, identify
from tests.hardware.test_card_fill import _face, _seen

COLOURS = {"red": (40, 40, 200), "green": (60, 150, 30), "purple": (130, 30, 110)}  # BGR
WIDTHS = (200, 260)  # px: the card's width in the frame (the licensed photo's: 245)


def _faces(shape: str) -> dict[str, object]:
    return {f"{colour}-{count}-{fill}-{shape}": _face(fill, bgr, shape, count)
            for colour, bgr in COLOURS.items() for count in (1, 2)
            for fill in ("outline", "stripes", "solid")}


@pytest.mark.xfail(strict=True, reason="stop 83: one-capsule cards named as the diamond "
                   "twin when no capsule face is taught (a known gap, docs/camera.md)")
def test_a_card_whose_face_is_not_taught_is_never_named():
    book = FaceBook.from_pictures(_faces("diamond"))
    named = [(face, width, identify(*_seen(picture, width, seed), book).id)
             for seed, (face, picture) in enumerate(_faces("capsule").items())
             for width in WIDTHS]
    wrong = [n for n in named if n[2] is not None]
    assert not wrong, wrong


def test_a_taught_face_is_named_beside_the_untaught_ones():
    """The same book names its own faces: the xfail above is about untaught faces only."""
    book = FaceBook.from_pictures(_faces("diamond"))
    named = [(face, identify(*_seen(picture, 230, seed), book).id)
             for seed, (face, picture) in enumerate(_faces("diamond").items())]
    assert sum(face == got for face, got in named) >= 10, named
    assert all(got in (face, None) for face, got in named), named

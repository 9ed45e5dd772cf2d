"""A token lying on the digit that alone parts two drawn game cards (card10 and card11, a digit
pair, told apart from 150 px) leaves the card unknown, never named as its twin (session 88,
issue 63): on the felt render, seed 21007, 160 px, the four digit-pair cards laid together,
card10's disc under a token leaned 0.61 to card11 (error 0.076, 8 of them) and was named
card11; it fits neither face where they differ (misfit 0.875 of their own difference,
``card_faces.FINE_MISFIT`` 0.5; named right: 0.003-0.175 at that width)."""
import pytest

from hardware.camera import card_faces
from hardware.camera.card_faces import FaceBook, identify
from hardware.synthetic import card_faces_scene as scenes

DIGIT_PAIRS = ["card01", "card02", "card10", "card11"]


@pytest.fixture(scope="module")
def book():
    return FaceBook.from_pictures(scenes.game_faces())


def _named(book) -> str | None:
    image, truths, _ = scenes.scene_and_empty(scenes.game_faces(), 21007, "felt", 160.0, 4,
                                              ids=DIGIT_PAIRS)
    truth = next(t for t in truths if t.id == "card10")
    return identify(image, truth.corners, book).id


def test_a_digit_under_a_token_is_not_read_as_its_twins(book):
    assert _named(book) in (None, "card10")


def test_planted_fault_without_the_misfit_the_covered_card_is_named_as_its_twin(
        book, monkeypatch):
    monkeypatch.setattr(card_faces, "FINE_MISFIT", float("inf"))
    assert _named(book) == "card11"

"""A token lying on the digit that alone parts two drawn game cards (card10 and card11, a digit
pair, told apart from 150 px) leaves the card unknown, never named as its twin (session 88,
issue 63): on the felt render, seed 21007, 160 px, the four digit-pair cards laid together,
card10's disc under a token leaned 0.61 to card11 (error 0.076, 8 of them) and was named
card11; it fits neither face where they differ (misfit 0.875 of their own difference,
``card_faces.FINE_MISFIT`` 0.5; named right: 0.003-0.175 at that width). Since the misfit is
taken over the visible part only (``COVERED``, the token fits neither face) 93 % of their
difference is left and card10 leans 0.48 its own way there: not card11 either way."""
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
    monkeypatch.setattr(card_faces, "COVERED", float("inf"))  # nothing counted as covered
    assert _named(book) == "card11"


def _card14(book) -> str | None:
    image, truths, _ = scenes.scene_and_empty(scenes.game_faces(), 6002, "felt", 160.0, 4)
    truth = next(t for t in truths if t.id == "card14")
    return identify(image, truth.corners, book).id


def test_a_token_on_the_title_bar_leaves_the_card_named(book):
    """card14 (felt, seed 6002, 160 px) with a token on part of its title bar: over the whole
    area where it and its twins (card13, card23) differ it misfit 0.70 and 0.94 and was left
    unknown; over the visible rest (``card_faces.COVERED``) 0.11 and 0.05, leaning 0.47, 0.50."""
    assert _card14(book) == "card14"


def test_planted_fault_counting_the_token_against_both_faces_the_card_is_unknown(
        book, monkeypatch):
    monkeypatch.setattr(card_faces, "COVERED", float("inf"))
    assert _card14(book) is None


def _card01_half_covered(book, monkeypatch) -> str | None:
    """board 22000, 160 px, digit pairs laid together, the too-alike refusal off (as
    notes/s88/i63/misfit.py): card01's digit half under a dark token."""
    monkeypatch.setattr(FaceBook, "alike_at", lambda self, width: frozenset())
    image, truths, _ = scenes.scene_and_empty(scenes.game_faces(), 22000, "board", 160.0, 4,
                                              ids=DIGIT_PAIRS)
    truth = next(t for t in truths if t.id == "card01")
    return identify(image, truth.corners, book).id


def test_a_token_on_a_stroke_is_covered_with_what_lies_round_it(book, monkeypatch):
    """The token fits the inked face where it lies on the strokes that part the digits; only
    grown by ``COVER_GROW`` (2 px) from the white disc round them is it all counted covered."""
    assert _card01_half_covered(book, monkeypatch) in (None, "card01")


def test_planted_fault_without_the_grow_the_half_covered_digit_is_named_as_its_twin(
        book, monkeypatch):
    """Since session 89 the fine comparison's part of a pixel (``SUBPIXEL``) leaves this card
    unknown even without the grow: the fault plants both off (with the grow alone off:
    unknown); and the card, 147-150 px wide, is judged at the 140 px step, whose 112 px
    fine pattern (session 89, ``SUBTLE_LEVELS``) and 128 px one (session 92,
    ``SUBTLE_SHARE``) leave it unknown too: planted back to 96."""
    monkeypatch.setattr(card_faces, "COVER_GROW", 0)
    monkeypatch.setattr(card_faces, "SUBPIXEL", 0.0)
    monkeypatch.setattr(card_faces, "FINE_LEVELS", (96, 128))
    monkeypatch.setattr(card_faces, "SUBTLE_SHARE", card_faces.FINE_SHARE)
    assert _card01_half_covered(book, monkeypatch) == "card02"

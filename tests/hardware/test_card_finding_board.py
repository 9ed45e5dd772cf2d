"""Drawn game cards on the printed-board renders, no empty table given (issue 63, task 2: the
board family's 19 false outlines at 120 px): the card's pale paper on the pale board is no
paper outline, so what is found is the card's two printed blocks, its art and its text, each
about half a card (aspect 0.44-0.50, the session notes' board_false.py: 15 of the 18
false outlines over seeds 0-5 lie on a card). The finder takes a card's two blocks side by
side for the card they lie on (``card_finding._halves``)."""
import cv2
import numpy as np
import pytest

from hardware.camera import card_finding
from hardware.camera.card_finding import clockwise, find_cards
from hardware.synthetic import card_faces_scene

PART_OF_A_CARD = 0.7  # of a card's area: an outline centred on it and smaller is a part of it


def _parts_of_cards(seed: int) -> int:
    """Outlines whose centre lies on a card and that cover less than `PART_OF_A_CARD` of it."""
    image, truths, _ = card_faces_scene.scene_and_empty(card_faces_scene.game_faces(), seed,
                                                        "board", 120, 4)
    parts = 0
    for quad in find_cards(image):
        centre = tuple(float(v) for v in quad.mean(axis=0))
        for truth in truths:
            card = np.float32(truth.corners)
            if cv2.pointPolygonTest(card, centre, False) >= 0 and \
                    abs(cv2.contourArea(quad)) < PART_OF_A_CARD * abs(cv2.contourArea(card)):
                parts += 1
    return parts


def test_no_outline_on_the_board_renders_is_a_part_of_a_card():
    assert _parts_of_cards(0) == 0


def test_planted_fault_without_joining_halves_a_cards_blocks_are_taken_for_cards(monkeypatch):
    monkeypatch.setattr(card_finding, "HALF_ASPECT", 0.0)
    assert _parts_of_cards(0) == 4


def _box(x: float, y: float, w: float, h: float) -> np.ndarray:
    return clockwise([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


@pytest.mark.parametrize(("a", "b", "halves"), [
    ((0, 0, 100, 80), (0, 80, 100, 50), True),  # an art block over its text block
    ((0, 0, 100, 80), (2, 84, 98, 50), True),  # ... a little paper between them
    ((0, 0, 100, 80), (0, 70, 100, 50), True),  # ... their outlines overlapping
    ((0, 0, 70, 100), (75, 0, 70, 100), False),  # two whole cards side by side
    ((0, 0, 200, 90), (0, 110, 190, 85), False),  # two far cards, foreshortened, table between
    ((0, 0, 100, 50), (0, 130, 100, 50), False),  # two blocks far apart
    ((0, 0, 100, 80), (60, 80, 100, 50), False),  # not along each other
    ((0, 0, 100, 80), (0, 80, 50, 100), False),  # the other way round
])
def test_halves_of_a_card_are_two_blocks_side_by_side_one_of_them_thin(a, b, halves):
    assert card_finding._halves(_box(*a), _box(*b)) is halves

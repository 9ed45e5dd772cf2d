"""Drawn game cards on the printed-board renders, no empty table given (issue 63, task 2: the
board family's 19 false outlines at 120 px): the card's pale paper on the pale board is no
paper outline, so what is found is the card's two printed blocks, its art and its text, each
about half a card (aspect 0.44-0.50, the session notes' board_false.py: 15 of the 18
false outlines over seeds 0-5 lie on a card). A strict xfail until the finder takes a card's
blocks for the card they lie on."""
import cv2
import numpy as np
import pytest

from hardware.camera.card_finding import find_cards
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


@pytest.mark.xfail(strict=True, reason="issue 63: a game card's art and text blocks on the "
                   "pale printed board are taken for cards (4 on seed 0)")
def test_no_outline_on_the_board_renders_is_a_part_of_a_card():
    assert _parts_of_cards(0) == 0

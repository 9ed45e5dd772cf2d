"""A pale card on a pale printed board, its outline traced turned and inside the card (issue
63, session 91): board seed 7025's card13 at 120 px was found 7.7 px off its true corners and
left unknown (score 0.43; 0.89 on its true outline). Its first outline lay 9-13 px inside one
short side (the card's printed frame: its paper margin changes the pale board little) and
turned 4 degrees from the card along a long side, so `_snapped` kept that side where it was
(its line turned over ``SNAP_TURN``) and the push out (``_pushed``) did not reach the end of
the change. The long side's line now counts when it lies along the opposite side as snapped
(``SNAP_ALONG``), and `_snap` pushes and snaps again while a push moves a side
(``PUSH_ROUNDS``). Planted faults: without the second, the card stays 7.5 px off and
unknown; without the first, 5.4 px off (its long side turned; named at 0.85)."""
import numpy as np
import pytest

from hardware.camera import card_finding
from hardware.camera.card_faces import FaceBook, identify
from hardware.synthetic import card_faces_scene


@pytest.fixture(scope="module")
def faces():
    return card_faces_scene.game_faces()


def _found(faces, seed: int, card: str):
    """(corner error in px, the name given) of ``card``'s found outline on the board render
    ``seed`` at 120 px, against the empty table (as the app finds it)."""
    image, truths, empty = card_faces_scene.scene_and_empty(faces, seed, "board", 120.0, 4)
    truth = next(t for t in truths if t.id == card)
    true = card_finding.clockwise(np.float32(truth.corners))
    near = [q for q in card_finding.find_cards(image, empty=empty)
            if np.linalg.norm(q.mean(axis=0) - true.mean(axis=0)) < 36]
    assert len(near) == 1
    quad = card_finding.clockwise(near[0])
    error = min(float(np.abs(np.roll(quad, k, axis=0) - true).max()) for k in range(4))
    return error, identify(image, quad, FaceBook.from_pictures(faces)).id


def test_a_turned_outline_inside_a_pale_card_is_snapped_onto_its_edge(faces):
    error, name = _found(faces, 7025, "card13")
    assert error < 2.0 and name == "card13", (error, name)


@pytest.mark.parametrize(("constant", "value", "named"),
                         [("SNAP_ALONG", 0.0, "card13"), ("PUSH_ROUNDS", 1, None)])
def test_planted_fault_without_either_rule_the_card_stays_off(faces, monkeypatch, constant,
                                                              value, named):
    monkeypatch.setattr(card_finding, constant, value)
    error, name = _found(faces, 7025, "card13")
    assert error > 4.0 and name == named, (error, name)

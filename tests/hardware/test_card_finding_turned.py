"""A pale card on a pale printed board, its outline traced turned and inside the card (issue
63, session 91): board seed 7025's card13 at 120 px was found 7.7 px off its true corners and
left unknown (score 0.43; 0.89 on its true outline). Its first outline lay 9-13 px inside one
short side (the card's printed frame: its paper margin changes the pale board little) and
turned 4 degrees from the card along a long side, so `_snapped` kept that side where it was
(its line turned over ``SNAP_TURN``) and the push out (``_pushed``) did not reach the end of
the change. The long side's line now counts when it lies along the opposite side as snapped
(``SNAP_ALONG``), and `_snap` pushes and snaps again while a push moves a side
(``PUSH_ROUNDS``; or snaps again while a corner moves, ``RESNAP``). Planted faults: without
the second (and ``RESNAP``), the card stays 7.5 px off and unknown; without the first, 5.4
px off (its long side turned; named at 0.85)."""
import numpy as np
import pytest

from hardware.camera import card_finding
from hardware.camera.card_faces import FaceBook, identify
from hardware.synthetic import card_faces_scene


@pytest.fixture(scope="module")
def faces():
    return card_faces_scene.game_faces()


def _found(faces, seed: int, card: str, card_px: float = 120.0):
    """(corner error in px, the name given) of ``card``'s found outline on the board render
    ``seed`` at ``card_px``, against the empty table (as the app finds it)."""
    image, truths, empty = card_faces_scene.scene_and_empty(faces, seed, "board", card_px, 4)
    truth = next(t for t in truths if t.id == card)
    true = card_finding.clockwise(np.float32(truth.corners))
    near = [q for q in card_finding.find_cards(image, empty=empty)
            if np.linalg.norm(q.mean(axis=0) - true.mean(axis=0)) < 0.3 * card_px]
    assert len(near) == 1
    quad = card_finding.clockwise(near[0])
    error = min(float(np.abs(np.roll(quad, k, axis=0) - true).max()) for k in range(4))
    return error, identify(image, quad, FaceBook.from_pictures(faces)).id


def test_a_turned_outline_inside_a_pale_card_is_snapped_onto_its_edge(faces):
    error, name = _found(faces, 7025, "card13")
    assert error < 2.0 and name == "card13", (error, name)


@pytest.mark.parametrize(("planted", "named"),
                         [({"SNAP_ALONG": 0.0}, "card13"),
                          ({"PUSH_ROUNDS": 1, "RESNAP": 1}, None)])
def test_planted_fault_without_either_rule_the_card_stays_off(faces, monkeypatch, planted,
                                                              named):
    for constant, value in planted.items():  # since session 91's repeated snap (``RESNAP``)
        monkeypatch.setattr(card_finding, constant, value)  # also brings this card in
    error, name = _found(faces, 7025, "card13")
    assert error > 4.0 and name == named, (error, name)


# Session 91 (b63b): ``_resnapped`` repeats the first snap onto the change while a corner
# moves (``RESNAP``): board 7012 card00 at 120 px, a side snapped turned with its far end out
# of ``SNAP_PX``'s reach, was left 4.7 px off by one snap. A repeat that moves a side in
# (``_moved_in``, over ``RESNAP_MOVE``) is not kept: board 7010 card19 at 160 px, its short
# side's second snap turned onto a line inside the card (one end 8.3 px in).


def _first_resnap(faces, seed: int, card: str, card_px: float):
    """Corner error in px of ``_resnapped``'s first answer for ``card`` (the first snap onto
    the change, before any push), on the board render ``seed`` at ``card_px``."""
    image, truths, empty = card_faces_scene.scene_and_empty(faces, seed, "board", card_px, 4)
    true = card_finding.clockwise(np.float32(next(t for t in truths if t.id == card).corners))
    real, answers = card_finding._resnapped, []

    def spy(of_change, quad):
        out = real(of_change, quad)
        if np.linalg.norm(quad.mean(axis=0) - true.mean(axis=0)) < 0.3 * card_px:
            answers.append(card_finding.clockwise(out))
        return out

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(card_finding, "_resnapped", spy)
        card_finding.find_cards(image, empty=empty)
    assert answers
    return min(float(np.abs(np.roll(answers[0], k, axis=0) - true).max()) for k in range(4))


def test_a_side_snapped_turned_out_of_reach_is_snapped_again(faces):
    error, name = _found(faces, 7012, "card00")
    assert error < 2.0 and name == "card00", (error, name)


def test_planted_fault_one_snap_leaves_the_far_end_inside(faces, monkeypatch):
    monkeypatch.setattr(card_finding, "RESNAP", 1)
    error, _ = _found(faces, 7012, "card00")
    assert error > 4.0, error


def test_a_repeated_snap_that_moves_a_side_in_is_not_kept(faces):
    assert _first_resnap(faces, 7010, "card19", 160.0) < 2.5
    error, name = _found(faces, 7010, "card19", 160.0)
    assert error < 2.5 and name == "card19", (error, name)


def test_planted_fault_a_repeat_moving_a_side_in_walks_it_off(faces, monkeypatch):
    monkeypatch.setattr(card_finding, "_moved_in", lambda quad, moved: 0.0)
    assert _first_resnap(faces, 7010, "card19", 160.0) > 6.0


def test_the_snap_after_a_push_is_not_repeated(faces):
    # a push lays a side along the change's end; repeating the snap there walked 7025
    # card13's long side turned onto the card's frame (0.8 -> 1.9 px off, session 91)
    error, name = _found(faces, 7025, "card13")
    assert error < 1.5 and name == "card13", (error, name)


# Session 92: board 7027 card07 at 120 px was found 5.3 px off (named, 0.87): the change's
# outline was a trapezoid, both short sides turned 3-4 degrees from the card the opposite
# ways (one end 9 px in, the other 1 px), so neither side's line was taken by `_snapped`
# (each turned over ``SNAP_TURN`` from the outline, and the opposite side not snapped, only
# turned too); the pushes moved them out parallel, still turned (-5.5 px at one end, +2.9 at
# the other). Two turned lines lying along each other are now taken together
# (``SNAP_BOTH``): 1.2 px off.


def test_both_short_sides_turned_along_each_other_are_snapped(faces):
    error, name = _found(faces, 7027, "card07")
    assert error < 2.0 and name == "card07", (error, name)


def test_planted_fault_without_both_the_trapezoid_stays(faces, monkeypatch):
    monkeypatch.setattr(card_finding, "SNAP_BOTH", False)
    error, _ = _found(faces, 7027, "card07")
    assert error > 4.0, error

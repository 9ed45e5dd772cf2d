"""Cards found whole and apart (hardware/camera/card_finding.py, issue 63): two outlines
inside a third are taken for two cards touching only when an edge runs between them. On a
dev photograph a SET card on carpet was traced as two half cards (a faint line across its
paper cut the paper mask; each half of a card's shape): one card missed, two false ones."""
import cv2

from hardware.camera import card_finding
from hardware.camera.card_finding import find_cards
from hardware.synthetic.card_faces_scene import crossed_and_touching


def _found(quads, cards):
    """Per card, the outlines whose centre lies in it and that hold most of it."""
    out = []
    for card in cards:
        area = cv2.contourArea(card)
        out.append(sum(1 for q in quads
                       if cv2.pointPolygonTest(card, tuple(float(v) for v in q.mean(axis=0)),
                                               False) >= 0 and
                       cv2.contourArea(q) >= 0.9 * area))
    return out


def test_a_card_crossed_by_a_faint_line_is_one_card_and_touching_cards_two():
    frame, crossed, touching = crossed_and_touching()
    quads = find_cards(frame)
    assert len(quads) == 3
    assert _found(quads, crossed + touching) == [1, 1, 1]


def test_planted_fault_any_two_outlines_inside_split_the_crossed_card(monkeypatch):
    """The split as it was (no edge asked between the two): the crossed card is two false
    half cards and itself not found."""
    frame, crossed, _ = crossed_and_touching()
    monkeypatch.setattr(card_finding, "SEAM_EDGES", 0.0)
    quads = find_cards(frame)
    assert _found(quads, crossed) == [0] and len(quads) == 4


def test_planted_fault_no_seam_ever_keeps_touching_cards_as_one(monkeypatch):
    frame, _, touching = crossed_and_touching()
    monkeypatch.setattr(card_finding, "SEAM_EDGES", 1.1)
    quads = find_cards(frame)
    assert len(quads) == 2  # the crossed card and the two touching ones taken for one
    assert any(cv2.contourArea(q) > 1.5 * cv2.contourArea(touching[0]) for q in quads)

"""A card that moves is the same card: slides under motion blur with a hand pushing, a hand
passing over a card, a card lifted. Real rendered videos (hardware.synthetic.video) through
the real decoder and recogniser; the events must match the script's expectations."""
import cv2
import numpy as np
import pytest

from hardware.camera.recognizer import Recognizer
from hardware.camera.zones import ZoneMap
from hardware.synthetic.scene import Style
from hardware.synthetic.video import (
    DEMO_ZONES,
    hand_pass_script,
    lift_script,
    render_script,
    slide_script,
)


def play(script, seed=0, style=None):
    recognizer = Recognizer(zones=ZoneMap(DEMO_ZONES))
    events = []
    for index, (jpeg, _) in enumerate(render_script(script, seed, style)):
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        for o in recognizer.process(image, index / script.fps).observations:
            events.append((index, type(o).__name__, o.payload, o.zone))
    return events


@pytest.mark.parametrize("moving_frames, seed, style", [
    (10, 1, None),  # 260 mm in a third of a second: the code is unreadable throughout
    (36, 2, Style(tilt_deg=12, symbol_px=80)),
])
def test_a_slide_of_any_length_is_one_moved_zone(moving_frames, seed, style):
    script = slide_script(moving_frames)
    events = play(script, seed, style)
    got = [(kind, payload, zone) for _, kind, payload, zone in events]
    assert got == [(e.kind, e.payload, e.zone) for e in script.expected]
    moved = next(i for i, kind, *_ in events if kind == "MovedZone")
    assert moved <= script.expected[-1].frame + 3  # the card at rest, plus the debounce


@pytest.mark.parametrize("covered", [5, 7])
def test_a_hand_passing_over_a_card_removes_nothing(covered):
    script = hand_pass_script(covered)
    events = play(script, covered)
    assert [(kind, zone) for _, kind, _, zone in events] == [("Appeared", "centre")]


def test_a_lifted_card_is_removed_within_the_vanish_frames():
    script = lift_script()
    events = play(script, 3)
    assert [(kind, zone) for _, kind, _, zone in events] == [("Appeared", "centre"),
                                                              ("Removed", "centre")]
    removed = events[-1][0]
    assert 30 <= removed <= 30 + 8

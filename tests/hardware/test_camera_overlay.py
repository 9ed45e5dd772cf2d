"""The host preview overlay draws what the recogniser understood onto the frame."""
import cv2
import numpy as np

from hardware.camera.overlay import GREEN, RED, YELLOW, draw_overlay, jpeg
from hardware.camera.recognizer import Recognizer
from hardware.camera.zones import ZoneMap
from hardware.synthetic.scene import Camera, Placement
from hardware.synthetic.video import DEMO_ZONES
from hardware.tags.format import BOARD_MARKER, card_payload

GRAIN = card_payload("wwe", "A", "grain")


def colour_share(image, colour):
    return float(np.all(np.abs(image.astype(int) - colour) < 30, axis=2).mean())


def test_overlay_marks_tags_unknown_codes_and_zones():
    placements = [Placement(BOARD_MARKER, 640, 110, 0, marker=True),
                  Placement(GRAIN, 1050, 520, 0), Placement("HELLO WORLD", 230, 520, 0)]
    frame, _ = Camera.create(2).render(placements, seed=2)
    recognizer = Recognizer(zones=ZoneMap(DEMO_ZONES))
    result = recognizer.process(frame, 0.0)
    out = draw_overlay(frame, result, recognizer.zones, recognizer.calibration,
                       {GRAIN: "Grain"}, fps=29.5)
    assert out.shape == frame.shape and not np.array_equal(out, frame)
    for colour in (GREEN, RED, YELLOW):  # a tag, an unknown code, the zones
        assert colour_share(out, colour) > colour_share(frame, colour) + 1e-4
    decoded = cv2.imdecode(np.frombuffer(jpeg(out), np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == frame.shape


def test_overlay_without_calibration_draws_no_zones():
    frame, _ = Camera.create(3).render([Placement(GRAIN, 640, 360, 90)], seed=3)
    recognizer = Recognizer()
    result = recognizer.process(frame, 0.0)
    out = draw_overlay(frame, result, recognizer.zones, recognizer.calibration)
    assert colour_share(out, YELLOW) <= colour_share(frame, YELLOW) + 1e-5

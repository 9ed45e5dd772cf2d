"""The synthetic camera itself: deterministic, degraded, and truthful about what it drew."""
import cv2
import numpy as np

from hardware.camera.decode import Decoder
from hardware.synthetic.scene import HEIGHT, WIDTH, Camera, Placement, Style, random_scene
from hardware.synthetic.video import demo_script
from hardware.tags.format import BOARD_MARKER, card_payload

PAYLOADS = [card_payload("wwe", "A", name) for name in ("grain", "piety", "rent")]


def test_same_seed_same_frame_other_seed_other_frame():
    a, truth_a = random_scene(4, PAYLOADS)
    b, truth_b = random_scene(4, PAYLOADS)
    c, _ = random_scene(5, PAYLOADS)
    assert a.shape == (HEIGHT, WIDTH, 3)
    assert np.array_equal(a, b) and truth_a == truth_b
    assert not np.array_equal(a, c)


def test_truth_matches_what_the_decoder_sees():
    image, truth = random_scene(9, PAYLOADS, marker_angle=45)
    detections = {d.payload: d for d in Decoder().decode(image)}
    for t in truth:
        d = detections[t.payload]
        assert np.hypot(*(np.subtract(d.centre, t.sticker))) < 6
        assert min(abs(d.angle - t.angle) % 360, 360 - abs(d.angle - t.angle) % 360) < 6


def test_degradations_are_applied():
    placements = [Placement(BOARD_MARKER, 640, 360, 0, marker=True)]
    camera = Camera.create(1)
    def sharpness(style):
        image, _ = camera.render(placements, style)
        return cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var(), image

    clean, image = sharpness(Style(blur_sigma=0, noise_sigma=0, jpeg_quality=100))
    blurred, _ = sharpness(Style(blur_sigma=3, noise_sigma=0, jpeg_quality=100))
    noisy, _ = sharpness(Style(blur_sigma=0, noise_sigma=20, jpeg_quality=100))
    assert blurred < clean / 2 and noisy > clean * 1.5
    assert Decoder().decode(image)  # the clean frame is readable


def test_demo_script_expectations_are_consistent():
    script = demo_script()
    assert len(script.frames) == 100
    kinds = [e.kind for e in script.expected]
    assert kinds == ["Appeared", "Appeared", "Turned", "MovedZone", "Removed"]
    assert all(any(p.marker for p in frame) for frame in script.frames)

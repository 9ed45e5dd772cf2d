"""The table's sharpness is measured on the board marker's edges, where the calibration
puts it (issue 62): a busy tablecloth or a box sharp at another distance must not make a
soft table look sharp, nor the reverse."""
import cv2
import numpy as np

from hardware.camera.recognizer import Recognizer
from hardware.camera.sharp_steady import SHARP_ENOUGH, edge_sharpness, marker_box, marker_sharpness
from hardware.synthetic.scene import Camera, Placement
from hardware.synthetic.video import MARKER_AT, board_to_table
from hardware.tags.format import BOARD_MARKER, card_payload


def busy_table():
    """The board marker and six stickered cards around it (the busy rest of the frame),
    gray, and the calibration the recogniser took from the marker."""
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    cards = [Placement(card_payload("wwe", "E", f"card{i}"), *board_to_table(-120 + 48 * i, 80),
                       10.0 * i) for i in range(6)]
    image, _ = Camera.create(3).render([marker, *cards], seed=4, hands=[])
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    recognizer = Recognizer()
    recognizer.process(gray, 0.0)
    assert recognizer.calibration.from_marker
    return gray, recognizer.calibration


def test_a_soft_marker_on_a_sharp_busy_table_reads_soft_and_the_reverse_sharp():
    gray, calibration = busy_table()
    x0, y0, x1, y1 = marker_box(calibration, gray.shape[1], gray.shape[0])
    blurred = cv2.GaussianBlur(gray, (0, 0), 2.0)
    inside = np.zeros(gray.shape, bool)
    inside[y0:y1, x0:x1] = True
    sharp_marker = np.where(inside, gray, blurred)  # the rest soft
    soft_marker = np.where(inside, blurred, gray)  # the rest sharp

    assert marker_sharpness(sharp_marker, calibration) >= SHARP_ENOUGH
    assert marker_sharpness(soft_marker, calibration) < SHARP_ENOUGH
    # what the marker region protects against: the whole frame calls the soft marker sharp
    assert edge_sharpness(soft_marker) >= SHARP_ENOUGH


def test_no_place_without_a_marker_ever_seen():
    from hardware.camera.calibration import Calibration

    gray = np.zeros((720, 1280), np.uint8)
    assert marker_box(Calibration.identity(), 1280, 720) is None
    assert marker_sharpness(gray, None) is None

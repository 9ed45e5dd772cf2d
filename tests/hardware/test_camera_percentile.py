"""The camera's percentiles and distinct labels without numpy's general path (issue 71):
the same answers as ``np.percentile`` and ``np.unique``, a sticker's module count from its
version alone, and a camera that reads stickers without importing ``numpy.ma`` (1.2 MB of
the worker's memory held all evening)."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from hardware.camera.orientation import modules_of
from hardware.camera.percentile import labels_in, percentile, percentiles
from hardware.tags.format import BOARD_MARKER, card_payload
from hardware.tags.sheet import qr_matrix


@pytest.mark.parametrize("size", [1, 2, 3, 8, 99, 4900])
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
def test_percentiles_are_numpys(size, dtype):
    """Planted fault caught (by hand): the lower neighbour taken without interpolating
    (``below`` returned): the 10th percentile of 99 values differs."""
    values = (np.random.default_rng(size).random((size,)) * 255).astype(dtype)
    if size > 8:
        values = values.reshape(-1, 7) if size % 7 == 0 else values
    qs = (0, 5, 10, 50, 90, 95, 98, 99.5, 100)
    assert percentiles(values, qs) == pytest.approx(
        [float(v) for v in np.percentile(values, qs)], rel=1e-6, abs=1e-4)
    assert percentile(values, 37.5) == pytest.approx(float(np.percentile(values, 37.5)),
                                                     rel=1e-6, abs=1e-4)


def test_labels_in_are_numpys_unique():
    labels = np.random.default_rng(3).integers(0, 9, (12, 17)).astype(np.int32)
    labels[labels == 4] = 0  # a label missing
    assert labels_in(labels) == np.unique(labels).tolist()
    assert labels_in(labels[:0]) == []


def test_modules_from_the_version_alone_match_the_printed_symbol():
    """Planted fault caught (by hand): 21 + 4 x version (a version-1 symbol's 21 counted
    twice over): every sticker's size is 4 modules too big."""
    payloads = [BOARD_MARKER, card_payload("wwe", "E", "ev01"), "x" * 50, "TC1:" + "y" * 30,
                card_payload("pil", "C", "a-rather-long-card-identifier-0123")]
    for payload in payloads:
        assert modules_of(payload) == len(qr_matrix(payload)), payload


def test_reading_stickers_leaves_numpy_ma_unimported():
    """A frame with two stickers decoded whole, their turns checked (`orientation`), then a
    frame where one moved (the changed regions, `Presence.watch`), in a fresh process.
    Planted fault caught (by hand): `orientation.outline` back on ``np.percentile``:
    ``numpy.ma`` imported."""
    code = textwrap.dedent("""
        import sys
        import numpy as np
        from hardware.camera.recognizer import Recognizer
        from hardware.tags.format import card_payload
        from hardware.tags.sheet import qr_image
        assert "numpy.ma" not in sys.modules  # imported by nothing above
        def frame(at):
            image = np.full((720, 1280), 150, np.uint8)
            for i, (x, y) in enumerate(at):
                symbol, _ = qr_image(card_payload("wwe", "E", f"ev0{i}"), 100)
                sticker = np.array(symbol)
                h, w = sticker.shape
                image[y:y + h, x:x + w] = sticker
                image[y + h:y + h + 120, x:x + w] = 235  # the card's light body below
            return image
        recognizer = Recognizer()
        first = recognizer.process(frame([(200, 200), (700, 300)]), 0.0)
        assert len(first.detections) == 2, first.detections
        assert all(s.turn_sure for s in first.sightings)
        for k in range(1, 4):
            recognizer.process(frame([(200, 200), (700 + 40 * k, 300)]), k / 30)
        print("numpy.ma" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"

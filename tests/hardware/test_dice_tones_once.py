"""A square's grey, Otsu's divide and its levels' counts (pips.py `_tones`, issue 64 part B)
made once where `_read_square` both reads the square (`read_face`) and asks whether it is
marked (`_marked`): the same answers as each making its own."""
from __future__ import annotations

import numpy as np

from hardware.camera.dice_faces import pips, read_tray, squares
from hardware.synthetic import dice_tray


def _squares() -> list[np.ndarray]:
    """Dice tops squared up from a rendered tray, and tops of one tone, of two, of noise."""
    image, _ = dice_tray.tray(5, 8, 36.0, cocked=0.0)
    tops = [d.square for d in read_tray(image).dice if d.square is not None]
    rng = np.random.default_rng(81)
    for _ in range(40):
        top = np.full((pips.CANON, pips.CANON, 3), rng.integers(0, 256), np.uint8)
        top[rng.integers(5, 40):, rng.integers(5, 40):] = rng.integers(0, 256)
        tops.append(np.clip(top + rng.normal(0, 8, top.shape), 0, 255).astype(np.uint8))
    return tops


def test_the_tones_handed_on_give_the_same_answers():
    tops = _squares()
    assert len(tops) > 45
    for top in tops:
        tones = pips._tones(top)
        assert pips._marked(top, tones) == pips._marked(top)
        for light_body in (None, True, False):
            face, score, body, offset = pips.read_face(top, light_body)
            again = pips.read_face(top, light_body, tones=tones)
            assert (face, score, offset) == again[:2] + again[3:]
            np.testing.assert_array_equal(body(), again[2]())


def test_a_square_read_and_judged_marked_has_its_tones_made_once(monkeypatch):
    """A square that reads no face is asked `_marked`: its tones are the ones `read_face`
    was given, not made again. Planted fault: `_marked(square)` without them: made twice."""
    made = []

    def counted(square):
        made.append(square)
        return real(square)

    real = pips._tones
    monkeypatch.setattr(pips, "_tones", counted)
    monkeypatch.setattr(squares, "_tones", counted)
    image = np.full((120, 120, 3), 90, np.uint8)
    image[40:80, 40:80] = 200  # a light square, a dark bar across it: marked, no face
    image[55:65, 45:75] = 40
    reading = squares._read_square(image, ((60.0, 60.0), (40.0, 40.0), 0.0), (), retry=False)
    assert reading is not None and reading.face is None  # marked: seen, not read
    assert len(made) == 1

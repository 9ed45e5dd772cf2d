"""`die_masks`' lighter and darker pixels at their very edges: a pixel exactly `LIGHTER`
levels above the floor's B+G+R is not lighter, one level more is; a pixel exactly
`DARKER` of the floor's B+G+R less 20 is not darker, one level less is (the band's
arithmetic in OpenCV, 2026-11-28: the same figures as numpy's)."""
import numpy as np

from hardware.camera.dice_faces import floor as dice_floor


def _band(pixels, floors):
    image = np.array([pixels], np.uint8)
    floor = np.array([floors], np.uint8)
    shape = image.shape[:2]
    lighter, darker, tinted = (np.zeros(shape, np.uint8) for _ in range(3))
    dice_floor._band_masks(image, floor, lighter, darker, tinted)
    return lighter[0] > 0, darker[0] > 0


def test_the_lighter_and_darker_edges_are_exact():
    grey = (100, 100, 100)  # B+G+R 300: lighter above 345, darker below 130 (129 here)
    assert dice_floor.LIGHTER == 45.0 and dice_floor.DARKER == 0.5
    lighter, darker = _band([(115, 115, 115), (115, 115, 116), (44, 43, 43), (43, 43, 43),
                             (45, 45, 40), (45, 45, 39)], [grey] * 6)
    assert lighter.tolist() == [False, True, False, False, False, False]
    assert darker.tolist() == [False, False, False, True, False, True]
    # a floor of odd B+G+R: its half a half level, darker strictly below it less 20
    lighter, darker = _band([(44, 44, 43), (44, 43, 43)], [(101, 100, 100)] * 2)  # 130.5
    assert darker.tolist() == [False, True]

"""Decoding real rendered frames: identity, rotations against the board, unknown and damaged codes.

Every frame comes from the synthetic camera (perspective, uneven light, blur, noise, JPEG)
and goes through the real zxing-cpp decoder.
"""
import math

import numpy as np
import pytest

from hardware.camera.calibration import Calibration, load, save
from hardware.camera.decode import Decoder, symbol_angle
from hardware.camera.recognizer import Recognizer
from hardware.camera.tracker import Appeared, UnknownCode
from hardware.synthetic.scene import Camera, Placement, random_scene
from hardware.tags.format import BOARD_MARKER, card_payload

PAYLOADS = [card_payload("wwe", "E", f"event_{i}") for i in range(6)]
SLOTS = [(170, 190), (480, 190), (790, 190), (1100, 190), (170, 530), (480, 530), (790, 530),
         (1100, 530)]


def settle(recognizer, image, frames=2):
    """Feed the same frame twice (the tracker's appear debounce) and return observations."""
    out = []
    for i in range(frames):
        out += recognizer.process(image, at=i / 30).observations
    return out


def test_identity_and_position_of_every_card():
    image, truth = random_scene(1, PAYLOADS, marker_angle=0)
    detections = {d.payload: d for d in Decoder().decode(image)}
    assert set(detections) == set(PAYLOADS) | {BOARD_MARKER}
    for t in truth:
        cx, cy = detections[t.payload].centre
        assert math.dist((cx, cy), t.sticker) < 6


@pytest.mark.parametrize("quarter", [0, 1, 2, 3])
def test_each_quarter_turn_is_read(quarter):
    rng = np.random.default_rng(quarter)
    placements = [Placement(BOARD_MARKER, *SLOTS[0], 0.0, marker=True)]
    for payload, (x, y) in zip(PAYLOADS[:4], SLOTS[1:], strict=False):
        placements.append(Placement(payload, x, y, 90 * quarter + rng.uniform(-8, 8)))
    image, truth = Camera.create(quarter).render(placements, seed=quarter)
    observations = settle(Recognizer(), image)
    got = {o.payload: o.rotation for o in observations if isinstance(o, Appeared)}
    assert got == {t.payload: quarter for t in truth if t.rotation is not None}


@pytest.mark.parametrize("marker_angle", [90, 180, 270, 33])
def test_rotation_is_measured_against_a_turned_board_marker(marker_angle):
    image, truth = random_scene(marker_angle, PAYLOADS, marker_angle=marker_angle)
    observations = settle(Recognizer(), image)
    got = {o.payload: o.rotation for o in observations if isinstance(o, Appeared)}
    wanted = {t.payload: t.rotation for t in truth if t.rotation is not None}
    assert got == wanted
    # relative to the camera the answers would differ for a board not at 0 degrees
    camera_relative = {p: round(d.angle / 90) % 4 for p, d in
                       ((d.payload, d) for d in Decoder().decode(image)) if p in wanted}
    if marker_angle % 360 in (90, 180, 270):
        assert camera_relative != wanted


def test_stored_calibration_keeps_north_when_the_marker_is_gone(tmp_path):
    camera = Camera.create(7)
    marker = Placement(BOARD_MARKER, 640, 360, 90.0, marker=True)
    card = Placement(PAYLOADS[0], 300, 360, 180.0)  # a half turn from image up
    with_marker, _ = camera.render([marker, card], seed=1)
    recognizer = Recognizer()
    settle(recognizer, with_marker)
    assert recognizer.calibration_source == "marker"
    save(tmp_path / "config.json", recognizer.calibration)

    without_marker, _ = camera.render([card], seed=2)
    stored = load(tmp_path / "config.json")
    observations = settle(Recognizer(calibration=stored), without_marker)
    assert [(o.payload, o.rotation) for o in observations] == [(PAYLOADS[0], 1)]  # 180 - 90
    uncalibrated = settle(Recognizer(), without_marker)
    assert [(o.payload, o.rotation, o.zone) for o in uncalibrated] == [(PAYLOADS[0], 2, None)]


def test_calibration_file_keeps_other_settings(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"dice": {"port": "/dev/ttyACM0"}}')
    save(path, Calibration(((0.3, 0, -10), (0, 0.3, -5)), 12.5, 30))
    import json
    data = json.loads(path.read_text())
    assert data["dice"] == {"port": "/dev/ttyACM0"}
    assert load(path).north == 12.5
    assert load(tmp_path / "missing.json") is None
    path.write_text("not json")
    assert load(path) is None


def test_unknown_codes_are_flagged_never_reported_as_cards():
    foreign = "https://example.com/menu"
    other_version = "TC2:WWE:E:ABCD"
    placements = [Placement(BOARD_MARKER, *SLOTS[0], 0.0, marker=True),
                  Placement(foreign, *SLOTS[1], 0.0), Placement(other_version, *SLOTS[2], 90.0),
                  Placement(PAYLOADS[0], *SLOTS[3], 0.0)]
    image, _ = Camera.create(3).render(placements, seed=3)
    observations = settle(Recognizer(), image, frames=4)
    cards = [o.payload for o in observations if isinstance(o, Appeared)]
    unknown = {o.payload: o.reason for o in observations if isinstance(o, UnknownCode)}
    assert cards == [PAYLOADS[0]]
    assert unknown == {foreign: "tag_not_ours", other_version: "tag_version_unsupported"}


def test_damaged_codes_give_no_observation_and_no_false_decode():
    from hardware.synthetic.scene import Style

    style = Style(damaged=frozenset(PAYLOADS[:2]))
    placements = [Placement(p, x, y, 0.0) for p, (x, y) in zip(PAYLOADS[:4], SLOTS, strict=False)]
    image, _ = Camera.create(4).render(placements, style, seed=4)
    payloads = [d.payload for d in Decoder().decode(image)]
    assert sorted(payloads) == sorted(PAYLOADS[2:4])
    observations = settle(Recognizer(), image, frames=3)
    assert sorted(o.payload for o in observations) == sorted(PAYLOADS[2:4])


@pytest.mark.parametrize("turn", [0, 17, 90, 135, 200, 300])
def test_symbol_angle_from_corners(turn):
    t = math.radians(turn)
    def rot(x, y):
        return (100 + x * math.cos(t) - y * math.sin(t), 100 + x * math.sin(t) + y * math.cos(t))
    corners = (rot(-10, -10), rot(10, -10), rot(10, 10), rot(-10, 10))
    assert abs((symbol_angle(corners) - turn + 180) % 360 - 180) < 1e-6


def test_a_tag_text_at_another_error_correction_level_is_not_our_sticker():
    """Our stickers are printed at level H (hardware/tags/sheet.py): a tag's text read from
    a symbol at level L is not one we printed (issue 50: fewer false decodes); someone
    else's code at level L is still read (an UnknownCode for the tracker)."""
    import qrcode

    def symbol(text, level):
        code = qrcode.QRCode(error_correction=level, border=4, box_size=6)
        code.add_data(text)
        code.make()
        return np.array(code.make_image().convert("L"))

    tag = "TC1:DEMO:E:XVZI"
    assert [d.payload for d in Decoder().decode(symbol(tag, qrcode.constants.ERROR_CORRECT_H))
            ] == [tag]
    assert Decoder().decode(symbol(tag, qrcode.constants.ERROR_CORRECT_L)) == []
    menu = "https://example.com/menu"
    assert [d.payload for d in Decoder().decode(
        symbol(menu, qrcode.constants.ERROR_CORRECT_L))] == [menu]

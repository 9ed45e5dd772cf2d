"""Issue 35: blur the way real lenses blur, glare on glossy sleeves, and covers (a hand, a
die, a card slid over a sticker). Real rendered frames and videos (hardware.synthetic) through the
real decoder and recogniser."""
from dataclasses import replace

import cv2
import numpy as np
import pytest

from hardware.camera.recognizer import Recognizer
from hardware.camera.zones import ZoneMap
from hardware.synthetic import conditions, lens
from hardware.synthetic.conditions import video_style
from hardware.synthetic.video import (
    DEMO_ZONES,
    cover_script,
    lift_script,
    render_script,
)


def test_equivalent_radius_is_the_disc_radius_and_twice_a_gaussian_sigma():
    assert lens.Lens(disc_px=2.0).equivalent_radius(640, 360, 1280, 720) == \
        pytest.approx(2.0, abs=0.15)
    assert lens.Lens(gauss_px=1.0, mix=0.0).equivalent_radius(640, 360, 1280, 720) == \
        pytest.approx(2.0, abs=0.15)


def test_the_blur_grows_and_stretches_towards_the_corners():
    optic = lens.Lens(disc_px=1.5, corner_gain=1.6, astigmatism=0.6)
    centre = optic.equivalent_radius(640, 360, 1280, 720)
    corner = optic.equivalent_radius(10, 10, 1280, 720)
    assert corner > 1.5 * centre
    kernel = optic.psf(-1, -1)  # elliptical: one axis longer than the other
    ys, xs = np.mgrid[0:kernel.shape[0], 0:kernel.shape[1]] - kernel.shape[0] // 2
    tangential = float((kernel * (xs - ys) ** 2).sum())  # the corner's tangent: x = -y
    radial = float((kernel * (xs + ys) ** 2).sum())
    assert tangential > 1.5 * radial


def test_the_lens_blurs_a_frame_smoothly_across_its_samples():
    image = np.zeros((720, 1280), np.uint8)
    image[::16] = 255  # lines everywhere: the blur must leave no seams between tiles
    out = lens.blur(image, lens.Lens(disc_px=2.0, corner_gain=1.5))
    rows = out[:, ::40].astype(np.float32)
    assert rows.std() < image.astype(np.float32).std()  # blurred
    column = out[:, 640].astype(np.float32)
    assert abs(float(column[8::16].mean()) - float(column[24::16].mean())) < 3  # no seam


def test_held_out_lenses_are_another_family():
    rng = np.random.default_rng(1)
    held = lens.held_out(rng, 2.0)
    tuned = lens.tuning(rng, 2.0)
    assert held.blades and held.rim and held.focus_tilt and held.radial_astigmatism
    assert not (tuned.blades or tuned.rim or tuned.focus_tilt)


def test_decodable_follows_the_lens_strength():
    truths = [t for i in range(6) for t in conditions.frame("harsh_lens", i)[1]]
    assert any(t.decodable for t in truths) and any(
        t.in_view and t.covered < 0.06 and not t.decodable for t in truths)
    for t in truths:
        if t.decodable:
            assert t.defocus_px <= 0.8 * t.module_px


@pytest.mark.parametrize("name", ["lens_heldout", "harsh_glossy"])
def test_real_lenses_and_glossy_sleeves_read_without_false_codes(name):
    found = decodable = 0
    for index in range(4):
        image, truth = conditions.frame(name, index)
        got = {d.payload for d in Recognizer().process(image, 0.0).detections}
        assert got <= {t.payload for t in truth}  # nothing false
        wanted = {t.payload for t in truth if t.decodable}
        found += len(wanted & got)
        decodable += len(wanted)
    assert decodable >= 5 and found >= decodable - 1


def test_a_sleeve_highlight_over_a_finder_makes_the_sticker_undecodable():
    washed = [t.washed for i in range(8) for t in conditions.frame("harsh_glossy", i)[1]]
    assert any(0 < w < 1 for w in washed) or 1.0 in washed
    assert max(washed) <= 1.0


def play(script, seed, style):
    recognizer = Recognizer(zones=ZoneMap(DEMO_ZONES))
    events = []
    for index, (jpeg, _) in enumerate(render_script(script, seed, style)):
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        for o in recognizer.process(image, index / script.fps).observations:
            events.append((index, type(o).__name__, o.payload))
    return events


@pytest.mark.parametrize("kind, frames, size, seed, tilt", [
    ("card", 30, 0.8, 201, 0),
    ("card", 20, 1.3, 205, 0),
    ("card", 5, 1.3, 202, 0),
    ("die", 30, 1.3, 203, 0),
    ("hand", 20, 1.0, 204, 0),
    # face down: no sticker of its own is read; each of these was removed 8 frames after
    # it was covered and appeared again when uncovered (the bench's seeds)
    ("card_back", 30, 0.8, 258, 0),
    ("card_back", 20, 1.3, 266, 0),
    ("card_back", 30, 1.3, 268, 0),
    ("card_back", 10, 0.8, 255, 12),
])
def test_a_covered_card_stays_on_the_table(kind, frames, size, seed, tilt):
    style = video_style(seed)
    if tilt:  # 40 cm above the table, tilted
        style = replace(style, tilt_deg=tilt, height_mm=400.0)
    script = cover_script(kind, frames, size)
    events = play(script, seed, style)
    mine = [kind for _, kind, payload in events if payload == script.covered]
    assert mine == ["Appeared"]


@pytest.mark.xfail(strict=True, reason="a dark card back on dark wood: its outline steps "
                   "11 gray levels, under presence.OUTLINE_MIN (docs/camera.md, Limits)")
def test_a_card_under_a_dark_back_on_dark_wood_stays():
    script = cover_script("card_back", 10, 1.3)
    events = play(script, 615, video_style(615))
    assert [kind for _, kind, p in events if p == script.covered] == ["Appeared"]


def test_a_lift_is_still_removed_within_8_frames():
    script = lift_script()
    events = play(script, 205, video_style(205))
    removed = [i for i, kind, _ in events if kind == "Removed"]
    assert removed and removed[0] - script.left_view <= 8


def test_a_face_down_card_shows_no_sticker():
    from hardware.synthetic.scene import Camera, Placement
    from hardware.tags.format import card_payload

    up = Placement(card_payload("demo", "E", "card_1"), 500, 360, 0.0)
    down = Placement(card_payload("demo", "A", "card_9"), 800, 360, 0.0, face_down=True)
    image, truth = Camera.create(3).render([up, down], seed=3)
    got = {d.payload for d in Recognizer().process(image, 0.0).detections}
    assert got == {up.payload}
    assert truth[1].covered == 1.0 and not truth[1].decodable

"""The tracking check's videos: seeds the recogniser was never tuned on, and the harsh cases
of a real table (issue 20's independent renderer): the camera 40 and 60 cm above the table,
tilted up to 20 degrees; a hand lifting a card away towards each side of the frame; a hand
resting on a card for seconds; a card slid then lifted; two overlapping cards; the camera's
auto exposure moving. Each is (name, script, seed, style); `bench/camera.py --tracking`
plays them all, tests/hardware/test_camera_harsh_tracking.py a few.
"""
from __future__ import annotations

from dataclasses import replace

from hardware.synthetic import video
from hardware.synthetic.conditions import video_style
from hardware.synthetic.scene import Style

FIRST_SEED = 300  # the bench's own videos use seeds 0-43; these start well clear of them


def style(seed: int, tilt: float = 0.0, height_mm: float = 600.0) -> Style:
    """The real table (wood or a board, shadows, vignetting, raw Bayer noise, JPEG 60-85)
    seen from ``height_mm`` at ``tilt`` degrees."""
    base = video_style(seed)
    return replace(base, tilt_deg=tilt, height_mm=height_mm) if tilt else base


def cases(rounds: int = 1) -> list[tuple[str, video.Script, int, Style]]:
    """Every case ``rounds`` times, each round on its own block of 100 seeds (its own
    tables, light and noise)."""
    return [case for r in range(rounds) for case in _round(FIRST_SEED + 100 * r, r)]


def _round(seed: int, number: int) -> list[tuple[str, video.Script, int, Style]]:
    out = []

    def add(name, script, tilt=0.0, height_mm=600.0):
        nonlocal seed
        label = f"{name}#{number}" if number else name
        out.append((label, script, seed, style(seed, tilt, height_mm)))
        seed += 1

    for moving in (10, 24, 40):
        add(f"slide_{moving}", video.slide_script(moving))
    add("slide_24_tilt20_40cm", video.slide_script(24), 20, 400)
    add("slide_30_tilt20_60cm", video.slide_script(30), 20, 600)
    for covered in (5, 7):
        add(f"hand_pass_{covered}", video.hand_pass_script(covered))
    add("hand_pass_7_tilt20_40cm", video.hand_pass_script(7), 20, 400)
    add("lift", video.lift_script())
    for towards in (0, 90, 180, 270):  # a hand from each side of the frame
        add(f"lift_away_{towards}_40cm", video.lift_away_script(towards), 12, 400)
        add(f"lift_away_{towards}_tilt20_60cm", video.lift_away_script(towards), 20, 600)
    add("lift_away_135_tilt20_40cm", video.lift_away_script(135), 20, 400)
    for towards in (180, 90):
        add(f"hand_resting_3s_from_{towards}", video.rest_script(90, towards))
    add("hand_resting_3s_tilt20_40cm", video.rest_script(90, 0), 20, 400)
    for towards in (90, 270):
        add(f"slide_then_lift_{towards}", video.slide_lift_script(towards))
    add("slide_then_lift_180_tilt20_40cm", video.slide_lift_script(180), 20, 400)
    for towards in (90, 0):
        add(f"overlapping_cards_lift_{towards}", video.overlap_script(towards))
    add("auto_exposure", video.exposure_script())
    add("auto_exposure_tilt20_40cm", video.exposure_script(), 20, 400)
    add("demo", video.demo_script())
    return out

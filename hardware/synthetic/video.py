"""Scripted synthetic videos: a card appears on the centre space, is turned, is removed.

`demo_script` is the demo table; `slide_script`, `hand_pass_script` and `lift_script` are
the hard cases of a real table (a card slid across zones under motion blur with a hand
pushing it, a hand passing over a card, a card lifted by a hand). A script describes the
frames (placements and hands per frame) and the observations a correct recogniser must
produce; `render_script` renders them with one fixed synthetic camera;
`write_video` stores an MJPG .avi plus a JSON file of the ground truth per frame.
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from hardware.synthetic import frame_cache
from hardware.synthetic.scene import (
    HEIGHT,
    WIDTH,
    Camera,
    Die,
    Hand,
    Placement,
    Style,
    Truth,
)
from hardware.tags.format import BOARD_MARKER, card_payload

MARKER_AT = (640.0, 110.0)  # pixels on the flat table; board origin
MM_PER_PX = 0.3  # a 30 mm marker printed at the default 100 px symbol size


def board_to_table(x_mm: float, y_mm: float, north: float = 0.0) -> tuple[float, float]:
    """Flat-table pixels of a board point (before the camera's perspective)."""
    t = math.radians(north)
    px, py = x_mm / MM_PER_PX, y_mm / MM_PER_PX
    return (MARKER_AT[0] + px * math.cos(t) - py * math.sin(t),
            MARKER_AT[1] + px * math.sin(t) + py * math.cos(t))


@dataclass(frozen=True)
class Expected:
    """An observation the script must cause: kind, payload and its key values."""

    kind: str  # "Appeared" | "Turned" | "MovedZone" | "Removed"
    payload: str
    zone: str | None
    rotation: int
    frame: int  # the frame at which the change is first visible


@dataclass(frozen=True)
class Script:
    frames: list[list[Placement]]
    expected: list[Expected]
    fps: float = 30.0
    hands: list[list[Hand | Die]] | None = None  # per frame, drawn above the cards
    left_view: int | None = None  # a lifted card: the first frame with no part of it in view
    gains: list[float] | None = None  # per frame, the camera's exposure (1: as rendered)

    covered: str | None = None  # a cover script: the card covered, never to be removed

    def hands_at(self, index: int) -> list[Hand | Die]:
        return self.hands[index] if self.hands else []


# The demo table's zones (board mm around the marker): a card space in the middle, the
# four seats' play areas in the quarters. A game declares its own zones the same way.
DEMO_ZONES = {
    "centre": {"x0": -50, "y0": 20, "x1": 50, "y1": 100},
    "seat:N": {"x0": -200, "y0": -60, "x1": -60, "y1": 60},
    "seat:E": {"x0": 60, "y0": -60, "x1": 200, "y1": 60},
    "seat:S": {"x0": 60, "y0": 60, "x1": 200, "y1": 200},
    "seat:W": {"x0": -200, "y0": 60, "x1": -60, "y1": 200},
}


def demo_script(event: str | None = None, action: str | None = None, fps: float = 30.0
                ) -> Script:
    """100 frames (3.3 s): an action card lies in seat S's area from the start; an event
    card is laid on the centre space at frame 15, turned a quarter clockwise over frames
    40-49, the action card is moved to seat W's area at frame 60 and the event card is
    taken away at frame 80."""
    event = event or card_payload("demo", "E", "card_1")
    action = action or card_payload("demo", "A", "card_2")
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    centre = board_to_table(0, 60)
    seat_s, seat_w = board_to_table(130, 130), board_to_table(-130, 130)
    frames = []
    for i in range(100):
        placements = [marker]
        ax, ay = seat_s if i < 60 else seat_w
        placements.append(Placement(action, ax, ay, 180.0))
        if 15 <= i < 80:
            turn = min(max(i - 40, 0), 9) * 10.0  # 0 .. 90 degrees over frames 40-49
            placements.append(Placement(event, centre[0], centre[1], 2.0 + turn))
        frames.append(placements)
    expected = [
        Expected("Appeared", action, "seat:S", 2, 0),
        Expected("Appeared", event, "centre", 0, 15),
        Expected("Turned", event, "centre", 1, 46),  # 60 degrees: past the 55 degree band
        Expected("MovedZone", action, "seat:W", 2, 60),
        Expected("Removed", event, "centre", 1, 80),
    ]
    return Script(frames, expected, fps)


def slide_script(moving_frames: int = 24, action: str | None = None,
                 other: str | None = None, exposure: float = 0.5, fps: float = 30.0) -> Script:
    """A card pushed by a finger from seat S's area to seat W's (260 mm) over
    ``moving_frames`` frames, smeared by motion blur (``exposure`` of the frame interval),
    while another card lies still on the centre space. 15 frames at rest before, 20 after.
    Expected: the moving card appears once and moves zone once; nothing is removed."""
    action = action or card_payload("demo", "A", "card_2")
    other = other or card_payload("demo", "E", "card_1")
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    start, end = board_to_table(130, 130), board_to_table(-130, 130)
    centre = board_to_table(0, 60)
    frames, hands = [], []
    before, after = 15, 20
    total = before + moving_frames + after

    def at(i: float) -> tuple[float, float]:
        t = min(max((i - before) / moving_frames, 0.0), 1.0)
        t = t * t * (3 - 2 * t)  # ease in and out, like a hand
        return start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t

    for i in range(total):
        x, y = at(i)
        nx, ny = at(i + 1)
        px, py = at(i - 1)
        motion = ((nx - px) / 2 * exposure, (ny - py) / 2 * exposure)
        frames.append([marker, Placement(other, *centre, 3.0),
                       Placement(action, x, y, 180.0, motion=motion)])
        touching = before - 3 <= i < before + moving_frames + 3
        # the index finger on the card's trailing (east) edge, arm from the east
        hands.append([Hand(x + 85, y - 40, 100.0)] if touching else [])
    expected = [
        Expected("Appeared", other, "centre", 0, 0),
        Expected("Appeared", action, "seat:S", 2, 0),
        Expected("MovedZone", action, "seat:W", 2, before + moving_frames),
    ]
    return Script(frames, expected, fps, hands)


def hand_pass_script(covered_frames: int = 6, event: str | None = None,
                     fps: float = 30.0) -> Script:
    """A hand sweeps across the table over a card on the centre space, hiding its sticker
    completely for about ``covered_frames`` frames. Expected: the card appears, nothing else."""
    event = event or card_payload("demo", "E", "card_1")
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    centre = board_to_table(0, 60)
    frames, hands = [], []
    begin = 20
    step = 220 / covered_frames  # the palm is about 220 flat px long over the sticker
    for i in range(begin + covered_frames + 30):
        frames.append([marker, Placement(event, *centre, 0.0)])
        k = i - begin
        if -4 <= k < covered_frames + 6:
            # fingertip sweeps from west to east across the card, arm from the south
            hands.append([Hand(centre[0] - 60 + k * step, centre[1] - 110, 200.0, 1.2)])
        else:
            hands.append([])
    return Script(frames, [Expected("Appeared", event, "centre", 0, 0)], fps, hands)


def lift_script(event: str | None = None, fps: float = 30.0) -> Script:
    """A card on the centre space; a hand comes to it (frames 25-29, fingertip on its edge)
    and it is gone with the hand from frame 30. Expected: Removed by frame 30 + 8."""
    event = event or card_payload("demo", "E", "card_1")
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    centre = board_to_table(0, 60)
    frames, hands = [], []
    for i in range(60):
        placements = [marker]
        if i < 30:
            placements.append(Placement(event, *centre, 0.0))
        frames.append(placements)
        hands.append([Hand(centre[0] + 90, centre[1] + 60, 120.0)] if 25 <= i < 30 else [])
    expected = [Expected("Appeared", event, "centre", 0, 0),
                Expected("Removed", event, "centre", 0, 30)]
    return Script(frames, expected, fps, hands, left_view=30)


def lift_away_script(towards: float = 180.0, event: str | None = None,
                     fps: float = 30.0) -> Script:
    """A card on the centre space; a hand comes to it from ``towards`` (degrees clockwise
    from image up: 180 = from the bottom edge), its fingertip on the card for frames 25-29,
    then lifts it and carries it out of the picture the way it came, card and hand
    smeared by the motion, about 50 mm a frame (1.5 m/s). Expected: Removed within 8
    frames of ``left_view``, the first frame in which no part of the card is in view."""
    event = event or card_payload("demo", "E", "card_1")
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    cx, cy = board_to_table(0, 60)
    t = math.radians(towards)
    out = (math.sin(t), -math.cos(t))  # from the card towards the edge the hand came from
    speed, half = 160.0, 150.0  # flat px a frame; the card's half diagonal
    frames, hands = [], []
    left_view = None
    for i in range(70):
        placements = [marker]
        k = max(0, i - 30)
        x, y = cx + out[0] * speed * k, cy + out[1] * speed * k
        gone = not (-half < x < WIDTH + half and -half < y < HEIGHT + half)
        if gone and left_view is None:
            left_view = i
        if not gone:
            motion = (out[0] * speed * 0.5, out[1] * speed * 0.5) if k else (0.0, 0.0)
            placements.append(Placement(event, x, y, 0.0, motion=motion))
        frames.append(placements)
        if 22 <= i < 30:  # reaching in: the fingertip from the edge to the card's edge
            reach = min(1.0, (i - 21) / 4)
            tip = (cx + out[0] * (120 + 600 * (1 - reach)), cy + out[1] * (120 + 600 * (1 - reach)))
            hands.append([Hand(*tip, towards)])
        elif i >= 30 and not gone:
            hands.append([Hand(x + out[0] * 120, y + out[1] * 120, towards)])
        else:
            hands.append([])
    expected = [Expected("Appeared", event, "centre", 0, 0),
                Expected("Removed", event, "centre", 0, left_view)]
    return Script(frames, expected, fps, hands, left_view)


CARRY_SPEED = 160.0  # flat px a frame a hand carries a card at
CARD_HALF = 150.0  # flat px: a card's half diagonal: beyond it no part of the card is in view


def carried(x: float, y: float, towards: float, k: int, speed: float = CARRY_SPEED
            ) -> tuple[float, float, tuple[float, float]] | None:
    """A card at (x, y) flat px carried ``k`` frames of a hand at ``speed`` towards
    ``towards`` (degrees clockwise from image up): where it is and the way out (unit
    vector); None once no part of it is in view. The one geometry of the scripts' hands
    (`_carry_away`, bench/evening.py's laying and taking)."""
    t = math.radians(towards)
    out = (math.sin(t), -math.cos(t))
    x, y = x + out[0] * speed * k, y + out[1] * speed * k
    if not (-CARD_HALF < x < WIDTH + CARD_HALF and -CARD_HALF < y < HEIGHT + CARD_HALF):
        return None
    return x, y, out


def _carry_away(frames, hands, placement: Placement, start: int, towards: float,
                total: int, speed: float = CARRY_SPEED) -> int | None:
    """Frames ``start``.. of a hand lifting ``placement`` and carrying it out of the picture
    towards ``towards`` (degrees clockwise from image up), after its fingertip rested on the
    card's edge for 5 frames; appended to every frame's placements and hands. Returns the
    first frame with no part of the card in view."""
    left_view = None
    for i in range(start, total):
        k = i - start - 5
        at = carried(placement.x, placement.y, towards, max(0, k), speed)
        if at is None:
            if left_view is None:
                left_view = i
            continue
        x, y, out = at
        motion = (out[0] * speed * 0.5, out[1] * speed * 0.5) if k > 0 else (0.0, 0.0)
        frames[i].append(Placement(placement.payload, x, y, placement.angle,
                                   motion=motion))
        hands[i].append(Hand(x + out[0] * 120, y + out[1] * 120, towards))
    return left_view


def rest_script(rest_frames: int = 90, towards: float = 180.0, event: str | None = None,
                fps: float = 30.0) -> Script:
    """A hand comes in from ``towards`` and rests flat on a card on the centre space, its
    fingers over the sticker, for ``rest_frames`` frames (3 s: a player reading the card,
    holding it while thinking), then leaves. Expected: the card appears, nothing else."""
    event = event or card_payload("demo", "E", "card_1")
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    cx, cy = board_to_table(0, 60)
    t = math.radians(towards)
    back = (math.sin(t), -math.cos(t))
    begin = 20
    frames, hands = [], []
    for i in range(begin + rest_frames + 40):
        frames.append([marker, Placement(event, cx, cy, 0.0)])
        k = i - begin
        if -5 <= k < rest_frames + 5:  # 5 frames coming, resting, 5 frames leaving
            away = 120 * max(0, -k, k - rest_frames + 1)
            # the fingertip just past the sticker (63 flat px above the card's centre),
            # the fingers across it
            sx, sy = cx - back[0] * 50, cy - 63 - back[1] * 50
            tip = (sx + back[0] * away, sy + back[1] * away)
            hands.append([Hand(*tip, towards)])
        else:
            hands.append([])
    return Script(frames, [Expected("Appeared", event, "centre", 0, 0)], fps, hands)


def slide_lift_script(towards: float = 90.0, action: str | None = None,
                      fps: float = 30.0) -> Script:
    """A card pushed from seat S's area to seat W's over 20 frames, left there for 15
    frames, then lifted by a hand and carried out of view towards ``towards``.
    Expected: it appears, moves zone once, and is removed within 8 frames of leaving view."""
    action = action or card_payload("demo", "A", "card_2")
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    slide = slide_script(20, action)
    frames = [[p for p in f if p.payload != card_payload("demo", "E", "card_1")]
              for f in slide.frames[:15 + 20 + 15]]
    hands = [list(h) for h in slide.hands[:len(frames)]]
    end = frames[-1][-1]
    total = len(frames) + 40
    frames += [[marker] for _ in range(40)]
    hands += [[] for _ in range(40)]
    left = _carry_away(frames, hands, end, len(frames) - 40, towards, total)
    expected = [Expected("Appeared", action, "seat:S", 2, 0),
                Expected("MovedZone", action, "seat:W", 2, 35),
                Expected("Removed", action, "seat:W", 2, left)]
    return Script(frames, expected, fps, hands, left)


def overlap_script(towards: float = 90.0, fps: float = 30.0) -> Script:
    """Two overlapping cards: one on the centre space, a second laid by a hand with its
    sticker end over the first card's lower half (both stickers in view), left there, then
    lifted off and carried out of view towards ``towards``. Expected: both appear, the
    second is removed within 8 frames of leaving view, the first stays."""
    under = card_payload("demo", "E", "card_1")
    over = card_payload("demo", "A", "card_2")
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    a = Placement(under, *board_to_table(0, 55), 0.0)
    b = Placement(over, *board_to_table(20, 95), 8.0)
    frames, hands = [], []
    for i in range(50):
        frames.append([marker, a] + ([b] if i >= 20 else []))
        # the hand brings it in from the east over frames 12-24, then leaves
        hands.append([Hand(b.x + 100 + 60 * max(0, i - 20), b.y + 20, 100.0)]
                     if 12 <= i < 25 else [])
    total = 95
    frames += [[marker, a] for _ in range(total - 50)]
    hands += [[] for _ in range(total - 50)]
    left = _carry_away(frames, hands, b, 50, towards, total)
    expected = [Expected("Appeared", under, "centre", 0, 0),
                Expected("Appeared", over, "centre", 0, 20),
                Expected("Removed", over, "centre", 0, left)]
    return Script(frames, expected, fps, hands, left)


COVERS = ("hand", "die", "card", "card_back")


def cover_script(kind: str, covered_frames: int, size: float = 1.0, event: str | None = None,
                 fps: float = 30.0) -> Script:
    """A card on the centre space (from the start) whose sticker something covers for
    ``covered_frames`` frames (issue 35: up to 30, one second), then uncovers:

    - ``hand``: a hand comes in from the south and rests its fingers over the sticker;
    - ``die``: a die (``size`` x 16 mm) lands on the sticker and is picked up again;
    - ``card``: another card is slid over the sticker from the east (``size`` x its
      width over it), rests, and is slid back out of the picture;
    - ``card_back``: the same with the covering card face down (its back up: no sticker
      of its own is read, nothing tells that a card lies there but how the place looks).

    Expected: the card appears, and nothing removes it or makes it appear again (the
    covering card's own observations are not the point: `Script.covered` names the card
    whose observations count)."""
    event = event or card_payload("demo", "E", "card_1")
    other = card_payload("demo", "A", "card_9")
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    cx, cy = board_to_table(0, 60)
    sx, sy = cx, cy - 63  # the sticker's centre (its card's upper half)
    begin, come = 20, 6
    frames, hands = [], []
    for i in range(begin + covered_frames + 2 * come + 30):
        k = i - begin
        placements = [marker, Placement(event, cx, cy, 0.0)]
        over: list[Hand | Die] = []
        if kind == "hand" and -come <= k < covered_frames + come:
            away = 90 * max(0, -k, k - covered_frames + 1)
            over.append(Hand(sx + 10, sy - 75 + away, 180.0, size))
        elif kind == "die" and 0 <= k < covered_frames:
            over.append(Die(sx + 4, sy + 3, 17.0 + 3 * (k > covered_frames // 2), 53 * size,
                            3 + i % 3))
        elif kind in ("card", "card_back") and -come <= k < covered_frames + come:
            # the covering card's west edge comes from far east to ``size`` of its width
            # past the sticker's west side, then goes back
            shift = 130 * max(0, -k, k - covered_frames + 1)
            x = sx - 60 * size + 110 + shift
            motion = (0.0, 0.0) if 0 <= k < covered_frames else (
                (-65.0 if k < 0 else 65.0), 0.0)
            placements.append(Placement(other, x, sy + 40, 92.0, motion=motion,
                                        face_down=kind == "card_back"))
            if not 0 <= k < covered_frames:
                over.append(Hand(x + 120, sy + 30, 90.0))
        else:
            pass
        frames.append(placements)
        hands.append(over)
    return Script(frames, [Expected("Appeared", event, "centre", 0, 0)], fps, hands,
                  covered=event)


def exposure_script(gains: list[float] | None = None, fps: float = 30.0) -> Script:
    """A still table of three cards while the camera's auto exposure moves: darker by a
    quarter over 3 frames, back, then a sudden jump brighter (a lamp switched on) and
    back slowly. Expected: the three cards appear, nothing else."""
    payloads = [card_payload("demo", "E", "card_1"), card_payload("demo", "A", "card_2"),
                card_payload("demo", "A", "card_3")]
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    spots = [(0, 60), (130, 130), (-130, 130)]
    cards = [Placement(p, *board_to_table(x, y), 3.0) for p, (x, y) in zip(payloads, spots,
                                                                            strict=True)]
    if gains is None:
        gains = ([1.0] * 20 + [0.92, 0.84, 0.75] + [0.75] * 30 + [0.85, 1.0] + [1.0] * 15
                 + [1.3] * 15 + [1.25, 1.2, 1.15, 1.1, 1.05] + [1.0] * 20)
    expected = [Expected("Appeared", p, z, 0, 0)
                for p, z in zip(payloads, ["centre", "seat:S", "seat:W"], strict=True)]
    return Script([[marker] + cards] * len(gains), expected, fps, None, None, list(gains))


@frame_cache.cached
def render_script(script: Script, seed: int = 0, style: Style | None = None
                  ) -> list[tuple[bytes, list[Truth]]]:
    """Every frame as JPEG bytes (what an MJPG webcam sends) with its ground truth."""
    style = style or Style()
    camera = Camera.create(seed, style)
    return [render_frame(script, index, seed, style, camera)
            for index in range(len(script.frames))]


@frame_cache.cached
def render_frame(script: Script, index: int, seed: int = 0, style: Style | None = None,
                 camera: Camera | None = None) -> tuple[bytes, list[Truth]]:
    """Frame ``index`` of the script as `render_script` makes it, alone (a stand-in camera
    renders each frame when it is first sent)."""
    style = style or Style()
    camera = camera or Camera.create(seed, style)
    gain = script.gains[index] if script.gains else 1.0
    shot = camera if gain == 1.0 else replace(camera, light=camera.light * np.float32(gain))
    image, truth = shot.render(script.frames[index], style, seed * 100_000 + index,
                               hands=script.hands_at(index))
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return jpeg.tobytes(), truth


def write_video(path: Path, script: Script, seed: int = 0, style: Style | None = None) -> Path:
    """An MJPG .avi at the script's frame rate and ``<path>.truth.json`` beside it."""
    path = Path(path)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), script.fps,
                             (WIDTH, HEIGHT))
    if not writer.isOpened():
        raise OSError(f"cannot write video {path}")
    truths = []
    try:
        for jpeg, truth in render_script(script, seed, style):
            writer.write(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR))
            truths.append([asdict(t) for t in truth])
    finally:
        writer.release()
    truth_path = path.with_suffix(path.suffix + ".truth.json")
    truth_path.write_text(json.dumps({"fps": script.fps, "frames": truths,
                                      "expected": [asdict(e) for e in script.expected]}))
    return path

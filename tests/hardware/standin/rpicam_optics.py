"""What the stand-in rpicam-vid's lens and the room's lights do to its frames (issue 62), as
rpicam-apps and libcamera do it (rpicam-apps 9270b60; the facts in
docs/camera.md, "Focus and flicker"):

- **Focus.** A camera with a focus lens (imx708, Camera Module 3) gets an AfMode even
  when none is asked: manual when ``--lens-position`` is given, else the highest the camera
  offers, *continuous* (`core/rpicam_app.cpp` l. 754-766). ``--autofocus-mode auto`` scans
  once when the stream starts (l. 773-780) and then holds the lens. imx219 and imx477 have
  no focus control: the options are ignored (the same lines check the camera's controls)
  and their frames are as sharp as their ring was set (STANDIN_RPICAM_RING_DIOPTRES).
  The lens starts each run at its default position (1.0 D, the hyperfocal one) and moves at
  most `SPEED` dioptres a frame (``--autofocus-speed``). Continuous and auto AF aim where
  the picture in ``--autofocus-window`` (fractions; the whole frame when not given) has its
  edges, as the Pi's phase-detect AF weighs its regions by their confidence: the table at
  its depth and a hand, when one passes, at the hand's, each weighted by the edge energy it
  shows in the window. While the lens is more than `FOCUSED_WITHIN` dioptres from its aim,
  AfState is Scanning (1), else Focused (2); manual is Idle (0).
- **Flicker.** STANDIN_RPICAM_LIGHT=HZ:DEPTH:SHUTTER_US says the room's lights (mains
  frequency, ripple depth 0..1) and the shutter the AGC picks for the scene; with
  ``--flicker-period`` the shutter is rounded down to whole periods as libcamera's AGC does
  (`focus_light.flicker_shutter`), and each row of the frame is scaled by the light it
  integrated (`focus_light.row_gains`), the rows read one after the other over the mode's
  frame time.
- **Metadata.** ``--metadata FILE --metadata-format json`` writes "[", then each frame's
  controls as a JSON object after the frame itself (`output/output.cpp` l. 81-86, 126-166:
  ",\\n" before every object but the first, each field on its own line, the closing brace
  flushed only with the next object), and "]" at the end.

Other knobs: STANDIN_RPICAM_TABLE_M (the table's distance from the lens, 0.6 m);
STANDIN_RPICAM_HAND=FIRST:FRAMES:DISTANCE_M, a hand and a striped sleeve crossing the
frame from left to right from frame FIRST over FRAMES frames, DISTANCE_M from the lens.
"""
from __future__ import annotations

import json
import os
import re

import cv2
import numpy as np

from hardware.synthetic import focus_light

DEFAULT_LENS = 1.0  # imx708's LensPosition default (hyperfocal)
LENS_RANGE = (0.0, 15.0)  # imx708's LensPosition limits (dioptres)
SPEED = {"normal": 0.2, "fast": 0.5}  # dioptres a frame the AF moves the lens at most
FOCUSED_WITHIN = 0.05  # dioptres: closer than this to its aim the AF calls itself focused
AF_SENSORS = ("imx708",)  # the Camera Module 3's sensor (and its Wide and NoIR)
IDLE, SCANNING, FOCUSED = 0, 1, 2  # libcamera's AfState


def duration_us(text: str) -> float:
    """rpicam-apps' TimeVal: a number with us, ms or s (no unit: microseconds)."""
    found = re.fullmatch(r"\s*([\d.]+)\s*(us|ms|s|)\s*", text or "0")
    if not found:
        raise ValueError(f"bad duration {text!r}")
    value, unit = float(found.group(1)), found.group(2)
    return value * {"us": 1, "": 1, "ms": 1e3, "s": 1e6}[unit]


class Optics:
    """The lens and the lights for one run of the stand-in."""

    def __init__(self, args, model: str, width: int, height: int, mode_fps: float,
                 fps: float) -> None:
        self.size = (width, height)
        self.has_lens = model.split("_")[0] in AF_SENSORS
        self.table = 1 / float(os.environ.get("STANDIN_RPICAM_TABLE_M", "0.6"))
        hand = os.environ.get("STANDIN_RPICAM_HAND")
        self.hand = tuple(float(v) for v in hand.split(":")) if hand else None
        mode = args.autofocus_mode
        if mode == "default":
            mode = "manual" if args.lens_position is not None else "continuous"
        self.af = mode if self.has_lens else "none"
        self.speed = SPEED[args.autofocus_speed]
        self.window = self._window(args.autofocus_window)
        if not self.has_lens:  # a ring set by hand
            ring = os.environ.get("STANDIN_RPICAM_RING_DIOPTRES")
            self.lens = float(ring) if ring else self.table
        elif args.lens_position not in (None, "default"):
            self.lens = min(max(float(args.lens_position), LENS_RANGE[0]), LENS_RANGE[1])
        else:
            self.lens = DEFAULT_LENS
        self.scan_done = False
        self.state = IDLE
        light = os.environ.get("STANDIN_RPICAM_LIGHT")
        hz, depth, shutter = (float(v) for v in light.split(":")) if light else (0, 0, 10000)
        self.mains, self.depth = hz, depth
        self.shutter, self.gain = focus_light.flicker_shutter(
            shutter, 1.0, duration_us(args.flicker_period))
        self.row_us = 1e6 / mode_fps / height  # the mode's rows read over its frame time
        self.frame_us = 1e6 / fps
        self.phase_us = 1234.0  # where in the lights' period the first frame starts
        self._blurred: dict[tuple[int, float], np.ndarray] = {}
        self._table_edges: dict[int, float] = {}

    @staticmethod
    def _window(text: str) -> tuple[float, float, float, float]:
        x, y, w, h = (float(v) for v in text.split(","))
        return (x, y, w, h) if w > 0 and h > 0 else (0.0, 0.0, 1.0, 1.0)

    # ---------------------------------------------------------------------- one frame
    def trivial(self, index: int) -> bool:
        """Nothing to do to this frame: the table in focus, no hand, no bands."""
        return (focus_light.blur_radius(self.lens, self.table, self.size[0]) < 0.25
                and self._hand_at(index) is None
                and not focus_light.ripple(self.shutter, self.mains, self.depth))

    def step(self, index: int, view) -> None:
        """Move the lens for frame ``index`` (the AF's aim from the picture ``view()`` gives:
        (BGR, key))."""
        if self.af not in ("continuous", "auto") or (self.af == "auto" and self.scan_done):
            self.state = IDLE if self.af in ("manual", "none") else FOCUSED
            return
        aim = self._aim(index, view)
        move = max(-self.speed, min(self.speed, aim - self.lens))
        self.lens += move
        if abs(aim - self.lens) < FOCUSED_WITHIN:
            self.state = FOCUSED
            self.scan_done = self.af == "auto"
        else:
            self.state = SCANNING

    def _aim(self, index: int, view) -> float:
        """The depth the AF aims at: table and hand weighted by their edges in the window."""
        hand = self._hand_at(index)
        if hand is None:
            return self.table
        table = self._edges_of_table(*view())
        mask, picture = hand
        x, y, w, h = self._window_px()
        inside = mask[y:y + h, x:x + w] > 0
        share = float(inside.mean())
        hand_edges = _edge_energy(picture[y:y + h, x:x + w], inside)
        weight_hand = hand_edges * share
        weight_table = table * (1 - share)
        total = weight_hand + weight_table
        return self.table if total <= 0 else (
            weight_hand * self.hand[2] ** -1 + weight_table * self.table) / total

    def _window_px(self) -> tuple[int, int, int, int]:
        wx, wy, ww, wh = self.window
        width, height = self.size
        return (int(wx * width), int(wy * height), max(1, int(ww * width)),
                max(1, int(wh * height)))

    def _edges_of_table(self, view: np.ndarray, key: int | None) -> float:
        if key in self._table_edges:
            return self._table_edges[key]
        x, y, w, h = self._window_px()
        energy = _edge_energy(view[y:y + h, x:x + w], None)
        if key is not None:
            self._table_edges[key] = energy
        return energy

    def _hand_at(self, index: int) -> tuple[np.ndarray, np.ndarray] | None:
        """(mask, picture) of the hand over frame ``index``, or None when none is there."""
        if self.hand is None:
            return None
        first, frames, _ = self.hand
        t = (index - first) / max(1.0, frames)
        if not 0 <= t <= 1:
            return None
        width, height = self.size
        # sized by its distance: a forearm 90 mm wide, the lens's view 1.3 x the distance
        # across (the Camera Module 3's 66 degrees)
        px_per_mm = width / (1.3 * self.hand[2] * 1000)
        s = px_per_mm * 90 / 350
        mask = np.zeros((height, width), np.uint8)
        picture = np.zeros((height, width, 3), np.uint8)
        tip_x = int(-300 * s + t * (width + 900 * s))
        tip_y = int(height * 0.45)
        arm = (tip_x - int(900 * s), tip_y - int(60 * s))
        cv2.line(mask, arm, (tip_x - int(160 * s), tip_y), 255, int(350 * s))
        cv2.ellipse(mask, (tip_x - int(60 * s), tip_y), (int(200 * s), int(180 * s)), 0, 0,
                    360, 255, -1)
        picture[:] = (120, 150, 200)  # skin
        sleeve = np.zeros_like(mask)
        cv2.line(sleeve, arm, (tip_x - int(330 * s), tip_y - int(20 * s)), 255, int(360 * s))
        stripes = ((np.arange(width)[None, :] + np.arange(height)[:, None]) // int(30 * s + 1)
                   ) % 2
        picture[(sleeve > 0) & (stripes == 0)] = (30, 30, 160)
        picture[(sleeve > 0) & (stripes == 1)] = (235, 235, 235)
        return mask, picture

    def apply(self, index: int, view: np.ndarray, key: int | None) -> np.ndarray:
        """Frame ``index`` (BGR) as the lens (at its position now) and the lights make it."""
        radius = focus_light.blur_radius(self.lens, self.table, self.size[0])
        out = self._table_blurred(view, key, radius)
        hand = self._hand_at(index)
        if hand is not None:
            mask, picture = hand
            r_hand = focus_light.blur_radius(self.lens, 1 / self.hand[2], self.size[0])
            picture = focus_light.defocused(picture, r_hand)
            alpha = cv2.GaussianBlur(mask, (0, 0), 1 + r_hand).astype(np.float32)[..., None]
            out = (out * (1 - alpha / 255) + picture * (alpha / 255)).astype(np.uint8)
        gains = focus_light.row_gains(
            self.size[1], self.shutter, self.mains, self.depth,
            self.phase_us + index * self.frame_us, self.row_us)
        if self.mains and self.depth:
            out = focus_light.banded(out, gains)
        return out

    def _table_blurred(self, view: np.ndarray, key: int | None, radius: float) -> np.ndarray:
        step = round(radius, 1)
        if key is None:
            return focus_light.defocused(view, step)
        if (key, step) not in self._blurred:
            if len(self._blurred) > 40:
                self._blurred.clear()
            self._blurred[(key, step)] = focus_light.defocused(view, step)
        return self._blurred[(key, step)]

    def metadata(self, index: int) -> dict:
        """The frame's controls as libcamera's Pi pipeline reports some of them."""
        out = {"ExposureTime": int(self.shutter), "AnalogueGain": round(self.gain, 6),
               "FrameDuration": int(self.frame_us)}
        if self.has_lens:
            out["LensPosition"] = round(self.lens, 6)
            out["AfState"] = self.state
            out["AfPauseState"] = 0
            out["FocusFoM"] = int(1000 / (1 + focus_light.blur_radius(self.lens, self.table)))
        return out


def _edge_energy(picture: np.ndarray, mask: np.ndarray | None) -> float:
    """Mean gradient magnitude of ``picture`` where ``mask`` is set (everywhere when None)."""
    gray = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY) if picture.ndim == 3 else picture
    small = cv2.resize(gray, (max(1, gray.shape[1] // 2), max(1, gray.shape[0] // 2)),
                       interpolation=cv2.INTER_AREA).astype(np.float32)
    gx = cv2.Sobel(small, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(small, cv2.CV_32F, 0, 1)
    magnitude = np.hypot(gx, gy)
    if mask is not None:
        m = cv2.resize(mask.astype(np.uint8), (small.shape[1], small.shape[0]),
                       interpolation=cv2.INTER_NEAREST) > 0
        return float(magnitude[m].sum()) / max(1, int(m.sum()))
    return float(magnitude.mean())


class MetadataWriter:
    """rpicam-vid's --metadata JSON output (`output/output.cpp`): "[", objects, "]"."""

    def __init__(self, path: str, fmt: str) -> None:
        self.file = open(path, "w")  # noqa: SIM115 (closed by close())
        self.fmt, self.first = fmt, True
        if fmt == "json":
            self.file.write("[\n")
            self.file.flush()

    def write(self, controls: dict) -> None:
        text = ""
        if self.fmt == "txt":
            text = "".join(f"{k}={v}\n" for k, v in controls.items()) + "\n"
        else:
            if not self.first:
                text += ",\n"
            text += "{" + ",".join(f"\n    \"{k}\": {json.dumps(v)}" for k, v in
                                   controls.items()) + "\n"
        # std::endl flushes up to here; the closing brace waits for the next object
        self.file.write(text)
        self.file.flush()
        if self.fmt == "json":
            self.file.write("}")
        self.first = False

    def close(self) -> None:
        try:
            if self.fmt == "json":
                self.file.write("\n]\n")
            self.file.close()
        except OSError:
            pass


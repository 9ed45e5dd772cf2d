"""The Pi Camera Module through `rpicam-vid`, a child process streaming raw YUV420.

Why a child process and not picamera2: apt's picamera2 (and its compiled helper simplejpeg)
is built against the NumPy of the Pi OS release (1.24 on Bookworm), while our virtualenv
needs NumPy 2 (OpenCV >= 4.10 requires it); the import then fails ("numpy.dtype size
changed"). `rpicam-vid` ships with both Pi OS releases (Bookworm and Trixie) as a plain
program: nothing of it is loaded into our Python, so no ABI can mismatch. Its output with
``--codec yuv420 -o -`` is one I420 frame after another on stdout: the Y plane is exactly the
gray image the recogniser reads, handed over as a view of the frame's own buffer (no copy,
no conversion). Each frame is read into a buffer nobody else holds (`_free_buffer`: a few
are kept and reused once every view of them is gone), so a frame handed over is never
written again, and the Pi does not fault in a fresh 1.4 MB buffer 30 times a second.

What rpicam-vid really does, and what this source does about it (docs/camera.md, "The
Camera Module's view"; the facts and their sources: tests/hardware/standin/):

- **Which part of the sensor a stream shows** depends on the sensor mode rpicam-vid picks
  for the size and frame rate asked (`selectMode`): for 1280x720 at 30 fps the Camera
  Module 3 takes its 1536x864 mode, a centre crop; v2 and HQ take cropped 16:9 modes too.
  So both streams are pinned with ``--mode`` to modes that see the whole sensor
  (`SENSOR_MODES`, per sensor, the sensor named by ``rpicam-vid --list-cameras``); the ISP
  then cuts both to the same aspect ratio around the same centre: one view, one
  calibration, for the usual stream and the full one.
- **Rows are padded** to the platform's stride (`row_stride`: Pi 4 64 bytes; Pi 5
  2 x align64(width / 2)); the platform is read from the camera's id (Pi 5's cameras hang
  off its RP1 chip). Frames are parsed with it at any even width.
- **Camera memory**: ``--buffer-count`` is kept small (`BUFFERS_USUAL`, `BUFFERS_FULL`);
  rpicam-vid's default of 6 + 6 buffers is about 200 MB at full resolution.
- **A stalled camera**: on a device timeout rpicam-vid restarts the camera itself instead of
  exiting; when that brings no frame, ``read`` would wait for ever. No frame for
  `stall_seconds` (`start_seconds` for a new child's first): the child is ended (`_end`:
  SIGTERM, SIGKILL after `TERM_WAIT`, one still not gone after `KILL_WAIT` left to a reaper
  thread, so ending never blocks for longer) and `SourceLost` raised; the capture thread
  starts a new one after its back-off.
- **Exposure after a start**: each (re)start resets auto exposure, white balance and focus;
  the frames of the first `settle_seconds` (counted in frames at the stream's rate, and
  again after a gap that means the camera restarted) are read and dropped.
- **Colour**: yuv420 is sYCC, full range; the tray's colour is converted as such
  (`i420_crop`), not with OpenCV's limited-range I420 conversion.

The tray of dice and a card's face need more pixels than the stickers (docs/camera.md,
"Resolution"): while someone asks for a sharp crop (`sharp_crop`: the dice tray, called for
each frame while a roll is awaited; a card come to rest) the child is restarted at the
sensor's full resolution (at ``full_fps``); frames are then scaled down to the usual size
for the recogniser and the crop is cut from the full frame, in colour. Nobody asking for
``full_idle`` seconds: back to the usual stream. When the child ends, `read` raises
`SourceLost` with the end of its stderr; the capture thread then closes and reopens the
source with back-off, which starts a new child.
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import re
import select
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

import cv2
import numpy as np

from hardware.camera.devices import rpicam_program as find_program  # or libcamera-vid
from hardware.camera.sharp_steady import SHARP_ENOUGH, BandingMeter, edge_sharpness
from hardware.camera.source_base import FrameSource, SourceLost

# Per sensor (the model --list-cameras names, before any _wide/_noir): the modes the usual
# and the full stream are pinned to, both seeing the whole sensor (tests/hardware/standin/
# rpicam_sensors.py has the modes as the kernel drivers list them).
SENSOR_MODES = {
    "imx708": ("2304:1296:10:P", "4608:2592:10:P"),  # Camera Module 3 (and Wide, NoIR)
    "imx219": ("1640:1232:10:P", "3280:2464:10:P"),  # Camera Module v2
    "imx477": ("2028:1520:12:P", "4056:3040:12:P"),  # HQ Camera
}
BUFFERS = 4  # frame buffers kept for reuse: the capture's latest, recogniser's, preview's, next
BUFFERS_USUAL, BUFFERS_FULL = 4, 2  # rpicam-vid's --buffer-count (video and raw alike)
# Ending a child: SIGTERM ends rpicam-vid at once (it catches only SIGINT, SIGUSR1/2 and
# SIGPIPE: apps/rpicam_vid.cpp l. 79-85); SIGKILL after TERM_WAIT s; a child still there
# KILL_WAIT s later is stuck in the kernel (a hung camera driver) and left to a reaper.
TERM_WAIT, KILL_WAIT = 3.0, 2.0
# Focus (issue 62): sensors with a lens rpicam-vid drives; libcamera's AfState values; a
# lens that moved less than LENS_STILL dioptres between frames is still; a frame's metadata
# comes a moment after its pixels (FrameMetadata): waited for up to META_WAIT seconds.
FOCUS_SENSORS = ("imx708",)
AF_SCANNING, AF_FOCUSED = 1, 2
LENS_STILL = 0.01
META_WAIT = 0.1
SHARPNESS_EVERY = 60  # frames between two sharpness measures (every 2 s at 30 fps: 34 ms CPU)
METADATA_KEPT = 64  # frames' metadata kept (the reader is never far behind)


def row_stride(width: int, platform: str) -> int:
    """Bytes of one Y row in rpicam-vid's YUV420 (each chroma row is half): Pi 4's ISP
    aligns to 64 bytes, Pi 5's to 2 x align64(width / 2)."""
    if platform == "pi5":
        return 2 * (-(-(width // 2) // 64) * 64)
    return -(-width // 64) * 64


@dataclass(frozen=True)
class Mode:
    """A sensor mode as --list-cameras lists it."""

    width: int
    height: int
    depth: int
    fps: float
    crop: tuple[int, int, int, int]

    @property
    def name(self) -> str:
        return f"{self.width}:{self.height}:{self.depth}:P"


@dataclass(frozen=True)
class Camera:
    """Camera 0 as `rpicam-vid --list-cameras` describes it."""

    model: str
    array: tuple[int, int]
    platform: str  # pi4 or pi5
    modes: tuple[Mode, ...]

    def pinned(self, fps: float) -> tuple[Mode, Mode]:
        """The usual and the full stream's modes: from `SENSOR_MODES`, else (a sensor not
        in the table) the smallest whole-sensor mode fast enough and the largest."""
        by_name = {m.name: m for m in self.modes}
        table = SENSOR_MODES.get(self.model.split("_")[0])
        if table and all(name in by_name for name in table):
            return by_name[table[0]], by_name[table[1]]
        whole = [m for m in self.modes if m.crop[2:] == self.array] or list(self.modes)
        whole.sort(key=lambda m: (m.width * m.height, -m.depth))
        usual = next((m for m in whole if m.fps >= fps), whole[-1])
        return usual, whole[-1]


_CAMERA = re.compile(r"^\s*0 : (\S+) \[(\d+)x(\d+)[^\]]*\] \((.*)\)\s*$")
_FORMAT = re.compile(r"'S?[A-Z]*?(\d+)[^']*' :")
_MODE = re.compile(r"(\d+)x(\d+) \[([\d.]+) fps - \((\d+), (\d+)\)/(\d+)x(\d+) crop\]")


def parse_cameras(text: str) -> Camera | None:
    """Camera 0 of `--list-cameras` (rpicam-apps' core/options.cpp format), or None."""
    camera, modes, depth = None, [], 0
    for line in text.splitlines():
        if camera is None:
            found = _CAMERA.match(line)
            if found:
                model, width, height, ident = found.groups()
                camera = (model, (int(width), int(height)),
                          "pi5" if "/rp1/" in ident else "pi4")
            continue
        if re.match(r"^\s*\d+ : ", line):
            break  # the next camera
        fmt = _FORMAT.search(line)
        if fmt:
            depth = int(fmt.group(1))
        mode = _MODE.search(line)
        if mode:
            w, h, fps, x, y, cw, ch = mode.groups()
            modes.append(Mode(int(w), int(h), depth, float(fps),
                              (int(x), int(y), int(cw), int(ch))))
    if camera is None or not modes:
        return None
    return Camera(camera[0], camera[1], camera[2], tuple(modes))


def list_camera(program: str) -> Camera:
    """Camera 0 as rpicam-vid sees it; SourceLost when there is none."""
    try:
        done = subprocess.run([program, "--list-cameras"], capture_output=True, text=True,
                              timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SourceLost(f"{program} --list-cameras: {error}") from error
    camera = parse_cameras(done.stdout)
    if camera is None:
        said = (done.stdout.strip() or done.stderr.strip()).splitlines()
        raise SourceLost(f"rpicam-vid finds no camera: {said[-1] if said else 'no answer'} "
                         "(check the ribbon cable; rpicam-hello --list-cameras)")
    return camera


@dataclass(frozen=True)
class Stream:
    """One way of running rpicam-vid: output size, rate, mode, buffers, row stride."""

    width: int
    height: int
    fps: float
    mode: Mode
    buffers: int
    stride: int

    @property
    def frame_bytes(self) -> int:
        return self.stride * self.height * 3 // 2

    def command(self, program: str, optics: tuple[str, ...] = ()) -> list[str]:
        """No preview, run until stopped, raw I420 to stdout, the mode pinned; ``optics``:
        the focus, flicker and metadata options (`RpicamSource.optics_options`)."""
        return [program, "--nopreview", "--timeout", "0", "--codec", "yuv420",
                "--width", str(self.width), "--height", str(self.height),
                "--framerate", f"{self.fps:g}", "--mode", self.mode.name,
                "--buffer-count", str(self.buffers), "--flush", *optics, "--output", "-"]


def flicker_period_us(mains_hz: int) -> int:
    """The lights' period for ``--flicker-period``: they pulse twice per mains cycle
    (10000 us at 50 Hz, 8333 at 60 Hz)."""
    return int(1e6 / (2 * mains_hz))


class FrameMetadata:
    """rpicam-vid's ``--metadata FIFO --metadata-format json`` read in a thread: "[" then one
    object per frame, written after the frame (`output/output.cpp`: ",\\n" before each
    object but the first, a field a line, the closing brace flushed with the next one), so
    a frame's fields come a moment after its pixels; `get` waits that moment."""

    def __init__(self) -> None:
        self._dir = tempfile.mkdtemp(prefix="rpicam-meta-")
        self.path = os.path.join(self._dir, "metadata.fifo")
        os.mkfifo(self.path, 0o600)
        self._records: dict[int, dict] = {}
        self._count = 0  # objects begun
        self._cond = threading.Condition()
        self._stop = threading.Event()
        # non-blocking: rpicam-vid's open of the FIFO for writing returns at once
        self._fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        self._thread = threading.Thread(target=self._run, name="rpicam-metadata", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        pending = b""
        while not self._stop.is_set():
            ready = select.select([self._fd], [], [], 0.2)[0]
            if not ready:
                continue
            try:
                chunk = os.read(self._fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                return
            if not chunk:  # no writer (yet, or any more)
                time.sleep(0.05)
                continue
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                self._line(line.decode(errors="replace").strip())

    def _line(self, line: str) -> None:
        with self._cond:
            if line.startswith("{") or line.startswith("}{"):
                self._count += 1
                self._records[self._count - 1] = {}
                self._records.pop(self._count - 1 - METADATA_KEPT, None)
            elif line.startswith('"') and self._count:
                key, _, value = line.rstrip(",").partition(":")
                self._records[self._count - 1][key.strip('" ')] = _value(value.strip())
            self._cond.notify_all()

    def get(self, index: int, wait: float) -> dict | None:
        """Frame ``index``'s fields (counted from the child's start), once its object is
        complete or the next begun, waiting up to ``wait`` seconds; None: not in time."""
        deadline = time.monotonic() + wait
        with self._cond:
            while True:
                record = self._records.get(index)
                if record is not None and (self._count > index + 1
                                           or {"AfState", "LensPosition"} <= record.keys()):
                    return dict(record)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return dict(record) if record else None
                self._cond.wait(remaining)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=1)
        with contextlib.suppress(OSError):
            os.close(self._fd)
        with contextlib.suppress(OSError):
            os.unlink(self.path)
            os.rmdir(self._dir)


def _value(text: str):
    """A metadata value as rpicam-vid writes it: a number, a quoted fraction, an array."""
    try:
        return json.loads(text)
    except ValueError:
        return text.strip('"')


def _widen_pipe(fd: int, frame_bytes: int) -> None:
    """A pipe holds 64 KiB by default: a 1.4 MB frame is then ~22 wake-ups of both
    processes. Ask Linux for room for a whole frame (capped by fs.pipe-max-size, 1 MiB by
    default); not having it only costs those wake-ups."""
    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, frame_bytes)
    except (OSError, AttributeError):
        with contextlib.suppress(OSError, AttributeError):
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)


class RpicamSource(FrameSource):
    """Frames of the Camera Module from an `rpicam-vid` child process (gray, 2-D uint8);
    `sharp_crop` cuts a rectangle from the full-resolution stream, in
    colour."""

    def __init__(self, width: int = 1280, height: int = 720, fps: int = 30,
                 program: str | None = None, full: bool = True, full_fps: int = 5,
                 full_idle: float = 3.0, settle_seconds: float = 1.0,
                 stall_seconds: float = 3.0, start_seconds: float = 20.0,
                 lens_position: float | None = None, mains_hz: int | None = None,
                 af_window: tuple[float, float, float, float] | None = None,
                 on_focus=None, legacy: bool = False) -> None:
        if width % 2 or height % 2 or width < 64 or height < 64:
            raise ValueError(f"width and height must be even and at least 64: {width}x{height}")
        self.width, self.height, self.fps = width, height, fps
        self.full, self.full_fps, self.full_idle = full, full_fps, full_idle
        self.settle_seconds, self.stall_seconds = settle_seconds, stall_seconds
        self.start_seconds = start_seconds
        self.program = program
        self.name = "rpicam"
        self.camera: Camera | None = None  # from --list-cameras, on the first open
        self.streaming: Stream | None = None  # the child's stream now
        self.process: subprocess.Popen | None = None
        self._stderr = None
        self._want_full = False  # the stream the next open starts
        self._to_skip = 0  # frames of the exposure ramp still to drop
        self._got_frame = False  # the child has sent a frame
        self.frames_skipped = 0
        self._lock = threading.Lock()  # the latest frame and the tray request: two threads
        self._latest: tuple[np.ndarray, Stream] | None = None  # the latest frame, as read
        self._tray_until = 0.0  # monotonic time until which the full stream is wanted
        self._buffers: list[np.ndarray] = []  # kept frame buffers (`_free_buffer`)
        # focus and flicker (issue 62, module docstring)
        self.lens_position = lens_position  # dioptres the lens is held at; None: scan first
        self.mains_hz = mains_hz  # the room's mains: --flicker-period; None: not set
        self.af_window = af_window  # where a scan measures (fractions of the frame)
        self.sharp_box: tuple[int, int, int, int] | None = None  # where sharpness is measured
        self.on_focus = on_focus  # called with the dioptres a scan found (kept in settings)
        self.legacy = legacy  # the invocation before issue 62 (no focus, flicker, metadata)
        self.metadata: FrameMetadata | None = None
        self.frames_untrusted = 0  # taken while the lens moved: never handed over
        self.last_metadata: dict = {}
        self.banding = BandingMeter()
        self.sharpness = 0.0  # edge_sharpness of a recent frame handed over
        self._restart = False  # a setting changed: restart the child at the next read
        self._frames_out = 0

    # ------------------------------------------------------------------ the two streams
    def stream(self, full: bool) -> Stream:
        """The usual stream (the recogniser's size) or the full one (the sensor's full
        width, the same aspect ratio), each on its pinned whole-sensor mode."""
        with self._lock:
            camera = self.camera
        usual_mode, full_mode = camera.pinned(self.fps)
        if full:
            width = full_mode.width
            height = round(width * self.height / self.width / 2) * 2
            mode, fps, buffers = full_mode, self.full_fps, BUFFERS_FULL
        else:
            width, height, mode, fps, buffers = (self.width, self.height, usual_mode,
                                                 self.fps, BUFFERS_USUAL)
        # never ask for more than the mode gives: rpicam-vid would score another mode better
        fps = min(float(fps), math.floor(mode.fps * 100) / 100)
        return Stream(width, height, fps, mode, buffers, row_stride(width, camera.platform))

    def describe(self) -> str | None:
        """Sensor, modes and strides, for `companion doctor` (also through the server's
        camera status, from another thread); None until the camera is listed."""
        with self._lock:
            camera = self.camera
        if camera is None:
            return None
        usual, full = self.stream(False), self.stream(True)
        platform = {"pi4": "Pi 4 (64-byte rows)", "pi5": "Pi 5 (2 x 64-byte half rows)"}
        return (f"sensor {camera.model} on a {platform[camera.platform]}; "
                f"usual {usual.width}x{usual.height} from mode {usual.mode.name} "
                f"(stride {usual.stride}), tray {full.width}x{full.height} from mode "
                f"{full.mode.name} (stride {full.stride})")

    @property
    def frame_bytes(self) -> int:
        return self.streaming.frame_bytes if self.streaming else 0

    def open(self) -> None:
        program = self.program or find_program()
        if program is None:
            raise SourceLost("rpicam-vid is not installed (apt install rpicam-apps-lite)")
        if self.camera is None:
            listed = list_camera(program)
            with self._lock:
                self.camera = listed
        self.streaming = self.stream(self._want_full and self.full)
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())
        optics = ()
        if not self.legacy:
            self.metadata = FrameMetadata()
            optics = self.optics_options(self.metadata.path)
        try:
            self.process = subprocess.Popen(
                self.streaming.command(program, optics), stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=self._stderr, bufsize=0)
        except OSError as error:
            self.close()
            raise SourceLost(f"cannot start {program}: {error}") from error
        _widen_pipe(self.process.stdout.fileno(), self.frame_bytes)
        self._got_frame = False
        self._frame_index = 0
        self._lens_before: float | None = None
        self.banding.reset()
        self._restarted()

    def has_lens(self) -> bool:
        """The camera has a focus lens rpicam-vid can drive (Camera Module 3, imx708)."""
        with self._lock:
            camera = self.camera
        return camera is not None and camera.model.split("_")[0] in FOCUS_SENSORS

    def focus_mode(self) -> str:
        """manual (held at `lens_position`), auto (one scan, then held), ring (v2, HQ: no
        focus control) or continuous (the legacy invocation's default on a CM3)."""
        if not self.has_lens():
            return "ring"
        if self.legacy:
            return "continuous"
        return "manual" if self.lens_position is not None else "auto"

    def optics_options(self, metadata_path: str | None) -> tuple[str, ...]:
        """rpicam-vid's focus, flicker and metadata options (docs/camera.md, "Focus and
        flicker"): a CM3's lens held at the dioptres kept in the settings, or one scan on
        the table (``auto``; its result kept, `on_focus`) when none is kept yet; the
        lights' period for the mains; each frame's metadata, JSON, to a FIFO."""
        options: list[str] = []
        mode = self.focus_mode()
        if mode == "manual":
            options += ["--autofocus-mode", "manual",
                        "--lens-position", f"{self.lens_position:.3f}"]
        elif mode == "auto":
            options += ["--autofocus-mode", "auto"]
            if self.af_window:
                options += ["--autofocus-window", ",".join(f"{v:.3f}" for v in self.af_window)]
        if self.mains_hz:
            options += ["--flicker-period", f"{flicker_period_us(self.mains_hz)}us"]
        if metadata_path:
            options += ["--metadata", metadata_path, "--metadata-format", "json"]
        return tuple(options)

    def set_mains(self, hz: int) -> bool:
        """A new mains frequency: the child is restarted with it at the next read (from the
        capture thread, which owns the child)."""
        self.mains_hz = hz
        self._restart = True
        return True

    def focus_region(self, af_window, sharp_box) -> None:
        """The table's region for the next scan (``--autofocus-window``) and the board
        marker's box for the sharpness doctor and the host page report."""
        self.af_window = af_window
        self.sharp_box = sharp_box

    def refocus(self) -> bool:
        """Scan again (the owner asked, or the table went soft and stayed so with nothing
        over it): forget the kept position; the child is restarted at the next read (from
        the capture thread, which owns it). False on a camera without a lens to drive."""
        if not self.has_lens():
            return False
        self.lens_position = None
        self._restart = True
        return True

    def _restarted(self) -> None:
        """The camera (re)started: its first frames are the exposure ramp."""
        self._to_skip = math.ceil(self.settle_seconds * self.streaming.fps)

    def read(self) -> np.ndarray:
        if self.process is None or self.process.stdout is None:
            raise SourceLost("not open")
        if self._restart:
            self._restart = False
            self.close()
            self.open()
        self._follow_tray_request()
        while True:
            frame = self._read_frame()
            moving = self._lens_moved()
            if self._to_skip <= 0 and not moving:
                break
            if self._to_skip > 0:
                self._to_skip -= 1
                self.frames_skipped += 1
            else:
                self.frames_untrusted += 1
        stream = self.streaming
        with self._lock:
            self._latest = (frame, stream)
        gray = planes(frame, stream.width, stream.height, stream.stride)[0]
        if (stream.width, stream.height) != (self.width, self.height):  # the full stream
            gray = scale_down(gray, (self.width, self.height))
        self.banding.update(gray)
        self._frames_out += 1
        if self._frames_out % SHARPNESS_EVERY == 1:  # 34 ms CPU here: not each frame
            self.sharpness = edge_sharpness(gray, self.sharp_box)
        return gray

    def _lens_moved(self) -> bool:
        """This frame's metadata says the AF was scanning or the lens moved since the frame
        before: a frame not to trust (blurred, or about to be). Once a scan has focused,
        the dioptres are handed to `on_focus` (kept, reused after restarts)."""
        index, self._frame_index = self._frame_index, self._frame_index + 1
        if self.metadata is None:
            return False
        if not self.has_lens():  # nothing moves: the exposure for doctor, no waiting
            earlier = self.metadata.get(index - 1, 0.0) if index else None
            if earlier:
                self.last_metadata = earlier
            return False
        data = self.metadata.get(index, META_WAIT)
        if data is None:
            return False  # no metadata in time: the lens is held anyway (manual)
        self.last_metadata = data
        lens = data.get("LensPosition")
        before, self._lens_before = self._lens_before, lens
        scanning = data.get("AfState") == AF_SCANNING
        moved = lens is not None and before is not None and abs(lens - before) > LENS_STILL
        if (not scanning and not moved and self.lens_position is None
                and data.get("AfState") == AF_FOCUSED and lens is not None):
            self.lens_position = float(lens)
            if self.on_focus is not None:
                with contextlib.suppress(Exception):
                    self.on_focus(float(lens))
        return scanning or moved

    def optics_status(self) -> dict:
        """Sensor, focus mode, lens position, sharpness, exposure and banding: for doctor,
        the host page and the setup guide's focus step."""
        with self._lock:
            camera = self.camera
        meta = self.last_metadata
        return {"sensor": camera.model if camera else None, "focus_mode": self.focus_mode()
                if camera else None,
                "lens_position": meta.get("LensPosition", self.lens_position),
                "af_state": meta.get("AfState"), "sharpness": round(self.sharpness, 3),
                "sharp": self.sharpness >= SHARP_ENOUGH,
                "exposure_us": meta.get("ExposureTime"), "mains_hz": self.mains_hz,
                "banding": round(self.banding.ripple, 4),
                "flickering": self.banding.flickering,
                "banding_measured": self.banding.measured,
                "frames_untrusted": self.frames_untrusted}

    def _read_frame(self) -> np.ndarray:
        """The next whole frame from the pipe; SourceLost when the child ends or stalls."""
        frame = self._free_buffer()
        view, got, size = memoryview(frame), 0, self.frame_bytes
        stdout = self.process.stdout
        waited = time.monotonic()
        while got < size:
            limit = self.stall_seconds if self._got_frame else self.start_seconds
            remaining = waited + limit - time.monotonic()
            if remaining <= 0 or not select.select([stdout], [], [], remaining)[0]:
                raise SourceLost(self._stalled(time.monotonic() - waited))
            count = stdout.readinto(view[got:])
            if not count:
                raise SourceLost(self._ended(got))
            got += count
        gap = time.monotonic() - waited
        if self._got_frame and gap > max(1.0, 10 / self.streaming.fps):
            self._restarted()  # frames stopped a while: rpicam-vid restarted the camera
        self._got_frame = True
        return frame

    def sharp_crop(self, box: tuple[int, int, int, int], size: tuple[int, int]
                   ) -> np.ndarray | None:
        """The rectangle ``box`` (x0, y0, x1, y1 in a frame of ``size``) in colour (BGR) from
        the latest frame, at the full resolution once that stream runs (the first frames
        after the first call: the usual one). Asking keeps the full stream running."""
        with self._lock:
            self._tray_until = time.monotonic() + self.full_idle
            latest = self._latest
        if latest is None:
            return None
        frame, stream = latest
        return i420_crop(frame, stream.width, stream.height, stream.stride, box, size)

    def sharp_scale(self) -> float:
        """The full stream's width over the usual one's (1.0 without the full stream or
        before the camera is listed, at the first open)."""
        with self._lock:
            camera = self.camera
        if not self.full or camera is None:
            return 1.0
        return self.stream(True).width / self.width

    def _follow_tray_request(self) -> None:
        """Restart the child on the stream now wanted: full while the tray is asked for."""
        with self._lock:
            wanted = self.full and time.monotonic() < self._tray_until
        if wanted != self._want_full:
            self.close()
            self._want_full = wanted
            self._buffers = []  # of the other size: new ones as frames come
            self.open()

    def _free_buffer(self) -> np.ndarray:
        """A kept buffer no frame handed over still uses (only the list and this loop
        refer to it: every view of a frame holds its buffer), else a new one."""
        for buffer in self._buffers:
            # only the list, ``buffer`` and getrefcount's argument refer to a free one
            if buffer.size == self.frame_bytes and sys.getrefcount(buffer) <= 3:
                return buffer
        buffer = np.empty(self.frame_bytes, np.uint8)
        if len(self._buffers) < BUFFERS:
            self._buffers.append(buffer)
        return buffer

    def _said(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        lines = self._stderr.read().decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else ""

    def _stalled(self, waited: float) -> str:
        """The child sent nothing for too long: ended, and why (its last words)."""
        said = self._said()
        self.close()
        return (f"rpicam-vid sent no frame for {waited:.1f} s: ended, a new one starts"
                + (f" ({said})" if said else ""))

    def _ended(self, partial: int) -> str:
        """Why the stream stopped: the child's exit code and the end of what it said."""
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        said = self._said()
        ended = f"exit code {code}" if code is not None else "its output closed"
        cut = f" in the middle of a frame ({partial} bytes)" if partial else ""
        return f"rpicam-vid ended{cut}: {ended}" + (f": {said}" if said else "")

    def close(self) -> None:
        with self._lock:
            self._latest = None
        process, self.process = self.process, None
        if process is not None:
            _end(process)
            if process.stdout is not None:
                process.stdout.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        if self.metadata is not None:
            self.metadata.close()
            self.metadata = None


def _end(process: subprocess.Popen) -> None:
    """End a child within TERM_WAIT + KILL_WAIT seconds, whatever it does: a child the kernel
    keeps after SIGKILL (uninterruptible in a hung driver) is reaped by a thread once it
    goes, rather than holding the capture thread (and the table's camera) for ever."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=TERM_WAIT)
        return
    except subprocess.TimeoutExpired:
        process.kill()
    try:
        process.wait(timeout=KILL_WAIT)
    except subprocess.TimeoutExpired:
        threading.Thread(target=process.wait, name="rpicam-reaper", daemon=True).start()


def planes(frame: np.ndarray, width: int, height: int, stride: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Views of Y (height x width), U and V (half each way) in a flat YUV420 frame whose
    rows are ``stride`` bytes (chroma rows ``stride / 2``): no copy."""
    luma = stride * height
    quarter = luma // 4
    y = frame[:luma].reshape(height, stride)[:, :width]
    u = frame[luma:luma + quarter].reshape(height // 2, stride // 2)[:, :width // 2]
    v = frame[luma + quarter:luma + 2 * quarter].reshape(height // 2, stride // 2)[:, :width // 2]
    return y, u, v


def scale_down(gray: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``gray`` averaged down to ``size`` (width, height): halved while it is twice as big
    (OpenCV's whole-ratio area path), then the rest. 4608x2592 to 1280x720: 6.5 ms CPU
    against 17.3 for one non-whole step, on this machine (docs/camera.md)."""
    while gray.shape[1] >= 2 * size[0] and gray.shape[0] >= 2 * size[1]:
        gray = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2),
                          interpolation=cv2.INTER_AREA)
    return cv2.resize(gray, size, interpolation=cv2.INTER_AREA)


def i420_crop(frame: np.ndarray, width: int, height: int, stride: int,
              box: tuple[int, int, int, int], size: tuple[int, int]) -> np.ndarray | None:
    """``box`` (x0, y0, x1, y1 in a frame of ``size``) cut from a YUV420 frame of any size
    with the same view, converted to BGR as full range (sYCC: OpenCV's YCrCb, not its
    limited-range I420). Cut on even pixels (the chroma is per 2x2)."""
    sx, sy = width / size[0], height / size[1]
    x0, y0 = int(box[0] * sx) // 2 * 2, int(box[1] * sy) // 2 * 2
    x1, y1 = min(width, -(-int(box[2] * sx) // 2) * 2), min(height, -(-int(box[3] * sy) // 2) * 2)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    y, u, v = planes(frame, width, height, stride)
    chroma = (x1 - x0, y1 - y0)
    cr = cv2.resize(v[y0 // 2:y1 // 2, x0 // 2:x1 // 2], chroma, interpolation=cv2.INTER_LINEAR)
    cb = cv2.resize(u[y0 // 2:y1 // 2, x0 // 2:x1 // 2], chroma, interpolation=cv2.INTER_LINEAR)
    return cv2.cvtColor(cv2.merge([np.ascontiguousarray(y[y0:y1, x0:x1]), cr, cb]),
                        cv2.COLOR_YCrCb2BGR)

"""The Pi Camera Module through `rpicam-vid`, a child process streaming raw YUV420.

Why a child process and not picamera2: apt's picamera2 (and its compiled helper simplejpeg)
is built against the NumPy of the Pi OS release (1.24 on Bookworm), while our virtualenv
needs NumPy 2 (OpenCV >= 4.10 requires it); the import then fails ("numpy.dtype size
changed"). `rpicam-vid` ships with both Pi OS releases (Bookworm and Trixie) as a plain
program: nothing of it is loaded into our Python, so no ABI can mismatch. Its output with
``--codec yuv420 -o -`` is one I420 frame after another on stdout: the Y plane (the first
``width * height`` bytes) is exactly the gray image the recogniser reads, handed over as a
view of the frame's own buffer (no copy, no conversion). Each frame is read into a buffer
nobody else holds (`_free_buffer`: a few are kept and reused once every view of them is
gone), so a frame handed over is never written again, and the Pi does not fault in a fresh
1.4 MB buffer 30 times a second (with `companion/server/memory.py`'s fixed mmap threshold
every new one would be a mapping of its own, zeroed page by page).

The tray of dice needs more pixels than the stickers (docs/camera.md, "Resolution"): while
someone asks for the tray (`tray_crop`, called for each frame while a roll is awaited) the
child is restarted at the sensor's full resolution (``full``, at ``full_fps``); frames are
then scaled down to the usual size for the recogniser (same view, same calibration) and the
tray is cut from the full frame, in colour (its I420 chroma). Nobody asking for
``full_idle`` seconds: back to the usual stream.

The width is kept a multiple of 64 so the rows carry no stride padding. When the child
ends (camera unplugged, libcamera error, killed) `read` raises `SourceLost` with the end of
its stderr; the capture thread then closes and reopens the source with back-off, which
starts a new child.
"""
from __future__ import annotations

import contextlib
import fcntl
import subprocess
import sys
import tempfile
import threading
import time

import cv2
import numpy as np

from hardware.camera.devices import rpicam_program as find_program  # or libcamera-vid
from hardware.camera.source_base import FrameSource, SourceLost

ROW_ALIGN = 64
# The Camera Module 3's sensor (IMX708) in full; v2 (IMX219) is 3280x2464, whose 4:3 view
# differs from its 16:9 video modes: give it ``full`` and a 4:3 ``width``/``height``.
FULL_RESOLUTION = (4608, 2592)
BUFFERS = 4  # kept for reuse: the capture's latest, the recogniser's, the preview's, the next


def command(program: str, width: int, height: int, fps: int) -> list[str]:
    """rpicam-vid's command line: no preview, run until stopped, raw I420 to stdout."""
    return [program, "--nopreview", "--timeout", "0", "--codec", "yuv420",
            "--width", str(width), "--height", str(height), "--framerate", str(fps),
            "--flush", "--output", "-"]


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
    `tray_crop` cuts a rectangle from the full-resolution stream, in colour."""

    def __init__(self, width: int = 1280, height: int = 720, fps: int = 30,
                 program: str | None = None,
                 full: tuple[int, int] | None = FULL_RESOLUTION, full_fps: int = 5,
                 full_idle: float = 3.0) -> None:
        for w, h in [(width, height)] + ([full] if full else []):
            if w % ROW_ALIGN or h % 2:
                raise ValueError(f"width must be a multiple of {ROW_ALIGN} and height even "
                                 f"(no row padding in rpicam-vid's YUV420): {w}x{h}")
        if full and abs(full[0] / full[1] - width / height) > 0.01:
            raise ValueError(f"the full stream {full[0]}x{full[1]} must show the view of "
                             f"{width}x{height}: the same aspect ratio")
        self.width, self.height, self.fps = width, height, fps
        self.full, self.full_fps, self.full_idle = full, full_fps, full_idle
        self.program = program
        self.name = "rpicam"
        self.streaming = (width, height)  # the child's frame size now
        self.process: subprocess.Popen | None = None
        self._stderr = None
        self._lock = threading.Lock()  # the latest frame and the tray request: two threads
        self._latest: np.ndarray | None = None  # the latest I420 frame, as read
        self._tray_until = 0.0  # monotonic time until which the full stream is wanted
        self._buffers: list[np.ndarray] = []  # kept frame buffers (`_free_buffer`)

    @property
    def frame_bytes(self) -> int:
        width, height = self.streaming
        return width * height * 3 // 2  # Y, then U and V at a quarter each

    def open(self) -> None:
        program = self.program or find_program()
        if program is None:
            raise SourceLost("rpicam-vid is not installed (apt install rpicam-apps)")
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())
        width, height = self.streaming
        fps = self.fps if self.streaming == (self.width, self.height) else self.full_fps
        try:
            self.process = subprocess.Popen(
                command(program, width, height, fps), stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=self._stderr, bufsize=0)
        except OSError as error:
            self.close()
            raise SourceLost(f"cannot start {program}: {error}") from error
        _widen_pipe(self.process.stdout.fileno(), self.frame_bytes)

    def read(self) -> np.ndarray:
        if self.process is None or self.process.stdout is None:
            raise SourceLost("not open")
        self._follow_tray_request()
        width, height = self.streaming
        frame = self._free_buffer()
        view, got = memoryview(frame), 0
        while got < self.frame_bytes:
            count = self.process.stdout.readinto(view[got:])
            if not count:
                raise SourceLost(self._ended(got))
            got += count
        frame = frame.reshape(height * 3 // 2, width)
        with self._lock:
            self._latest = frame
        gray = frame[:height]
        if (width, height) != (self.width, self.height):  # the full stream: the usual view
            gray = scale_down(gray, (self.width, self.height))
        return gray

    def tray_crop(self, box: tuple[int, int, int, int], size: tuple[int, int]
                  ) -> np.ndarray | None:
        """The rectangle ``box`` (x0, y0, x1, y1 in a frame of ``size``) in colour (BGR) from
        the latest frame, at the full resolution once that stream runs (the first frames
        after the first call: the usual one). Asking keeps the full stream running."""
        with self._lock:
            self._tray_until = time.monotonic() + self.full_idle
            frame = self._latest
        if frame is None:
            return None
        return i420_crop(frame, box, size)

    def _follow_tray_request(self) -> None:
        """Restart the child at the size now wanted: full while the tray is asked for."""
        with self._lock:
            wanted = time.monotonic() < self._tray_until
        size = self.full if wanted and self.full else (self.width, self.height)
        if size != self.streaming:
            self.close()
            self.streaming = size
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

    def _ended(self, partial: int) -> str:
        """Why the stream stopped: the child's exit code and the end of what it said."""
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        said = ""
        if self._stderr is not None:
            self._stderr.seek(0)
            lines = self._stderr.read().decode(errors="replace").strip().splitlines()
            said = lines[-1] if lines else ""
        ended = f"exit code {code}" if code is not None else "its output closed"
        cut = f" in the middle of a frame ({partial} bytes)" if partial else ""
        return f"rpicam-vid ended{cut}: {ended}" + (f": {said}" if said else "")

    def close(self) -> None:
        with self._lock:
            self._latest = None
        process, self.process = self.process, None
        if process is not None:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=3)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            if process.stdout is not None:
                process.stdout.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None



def scale_down(gray: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``gray`` averaged down to ``size`` (width, height): halved while it is twice as big
    (OpenCV's whole-ratio area path), then the rest. 4608x2592 to 1280x720: 6.5 ms CPU
    against 17.3 for one non-whole step, on this machine (docs/camera.md)."""
    while gray.shape[1] >= 2 * size[0] and gray.shape[0] >= 2 * size[1]:
        gray = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2),
                          interpolation=cv2.INTER_AREA)
    return cv2.resize(gray, size, interpolation=cv2.INTER_AREA)


def i420_crop(frame: np.ndarray, box: tuple[int, int, int, int], size: tuple[int, int]
              ) -> np.ndarray | None:
    """``box`` (x0, y0, x1, y1 in a frame of ``size``) cut from an I420 frame of any size
    with the same view, converted to BGR. Cut on even pixels (the chroma is per 2×2)."""
    height = frame.shape[0] * 2 // 3
    width = frame.shape[1]
    sx, sy = width / size[0], height / size[1]
    x0, y0 = int(box[0] * sx) // 2 * 2, int(box[1] * sy) // 2 * 2
    x1, y1 = min(width, -(-int(box[2] * sx) // 2) * 2), min(height, -(-int(box[3] * sy) // 2) * 2)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    flat = frame.reshape(-1)
    quarter = width * height // 4
    u = flat[width * height: width * height + quarter].reshape(height // 2, width // 2)
    v = flat[width * height + quarter:].reshape(height // 2, width // 2)
    crop = np.concatenate([
        frame[y0:y1, x0:x1].reshape(-1),
        u[y0 // 2:y1 // 2, x0 // 2:x1 // 2].reshape(-1),
        v[y0 // 2:y1 // 2, x0 // 2:x1 // 2].reshape(-1)])
    return cv2.cvtColor(crop.reshape((y1 - y0) * 3 // 2, x1 - x0), cv2.COLOR_YUV2BGR_I420)

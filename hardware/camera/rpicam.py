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

import numpy as np

from hardware.camera.devices import rpicam_program as find_program  # or libcamera-vid
from hardware.camera.source_base import FrameSource, SourceLost

ROW_ALIGN = 64
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
    """Frames of the Camera Module from an `rpicam-vid` child process (gray, 2-D uint8)."""

    def __init__(self, width: int = 1280, height: int = 720, fps: int = 30,
                 program: str | None = None) -> None:
        if width % ROW_ALIGN or height % 2:
            raise ValueError(f"width must be a multiple of {ROW_ALIGN} and height even "
                             f"(no row padding in rpicam-vid's YUV420): {width}x{height}")
        self.width, self.height, self.fps = width, height, fps
        self.program = program
        self.name = "rpicam"
        self.frame_bytes = width * height * 3 // 2  # Y, then U and V at a quarter each
        self.process: subprocess.Popen | None = None
        self._stderr = None
        self._buffers: list[np.ndarray] = []

    def open(self) -> None:
        program = self.program or find_program()
        if program is None:
            raise SourceLost("rpicam-vid is not installed (apt install rpicam-apps)")
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())
        try:
            self.process = subprocess.Popen(
                command(program, self.width, self.height, self.fps), stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=self._stderr, bufsize=0)
        except OSError as error:
            self.close()
            raise SourceLost(f"cannot start {program}: {error}") from error
        _widen_pipe(self.process.stdout.fileno(), self.frame_bytes)

    def read(self) -> np.ndarray:
        if self.process is None or self.process.stdout is None:
            raise SourceLost("not open")
        frame = self._free_buffer()
        view, got = memoryview(frame), 0
        while got < self.frame_bytes:
            count = self.process.stdout.readinto(view[got:])
            if not count:
                raise SourceLost(self._ended(got))
            got += count
        return frame[: self.width * self.height].reshape(self.height, self.width)

    def _free_buffer(self) -> np.ndarray:
        """A kept buffer no frame handed over still uses (only the list and this loop
        refer to it: every view of a frame holds its buffer), else a new one."""
        for buffer in self._buffers:
            if sys.getrefcount(buffer) <= 3:  # the list, ``buffer``, getrefcount's argument
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


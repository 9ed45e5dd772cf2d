"""Frame sources behind one small interface: open(), read() -> frame, close().

- `OpenCVSource`: a USB camera (index or /dev/videoN, V4L2 with MJPG at 1280x720), a video
  file (played at its own frame rate, so it behaves like a camera), or an HTTP/RTSP stream.
- `RpicamSource` (hardware/camera/rpicam.py): the Pi Camera Module through an `rpicam-vid`
  child process streaming YUV420, on both Pi OS releases (no Python binding, no NumPy ABI).
- `Picamera2Source`: Pi Camera Modules on Bookworm (libcamera; cv2.VideoCapture cannot open
  them). Uses the lores YUV420 stream, whose first height rows are a free grayscale image.
- `FolderSource`: the images of a folder in name order, looped, at a given frame rate;
  ``.npy`` files are raw frames (e.g. the gray Y plane a Pi camera hands over), loaded
  as they are, with no image decoding.
- `SyntheticSource`: the synthetic table (hardware.synthetic) as a camera for `make run`.

A source that cannot deliver raises `SourceLost`; the capture thread turns that into a
status and reopens the source later. `open_source(spec)` picks the class from a string.
"""
from __future__ import annotations

import io
import math
import mmap
import os
import time
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from hardware.camera import rpicam
from hardware.camera.source_base import FrameSource, SourceLost


class Pacer:
    """Sleeps so a file-like source delivers frames no faster than ``fps``."""

    def __init__(self, fps: float | None) -> None:
        self.period = 1.0 / fps if fps else 0.0
        self.next = 0.0

    def wait(self) -> None:
        if not self.period:
            return
        now = time.monotonic()
        if self.next > now:
            time.sleep(self.next - now)
            self.next += self.period
        else:
            self.next = now + self.period


def native_to_gray(frame: np.ndarray, fourcc: str, width: int, height: int) -> np.ndarray:
    """The gray image of a camera's own buffer (V4L2 with CAP_PROP_CONVERT_RGB off):

    - ``YUYV``: the Y bytes are every other byte: a strided view, no decoding at all;
    - ``MJPG``: the JPEG as the camera sent it, decoded straight to gray (libjpeg skips
      the chroma planes and the colour conversion: no BGR frame is ever made);
    - anything already decoded (a driver that ignored the flag) is converted as usual.
    Raises ValueError on a buffer that is neither (a corrupt frame)."""
    if frame.ndim == 3 and frame.shape[2] == 3:
        return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if frame.ndim == 2 and frame.shape == (height, width):
        return frame
    if fourcc == "YUYV" and frame.size == width * height * 2:
        return frame.reshape(height, width * 2)[:, 0::2]
    if fourcc == "MJPG":
        gray = cv2.imdecode(frame.reshape(-1), cv2.IMREAD_GRAYSCALE)
        if gray is not None:
            return gray
    raise ValueError(f"not a {fourcc} frame of {width}x{height}: {frame.shape}")


class OpenCVSource(FrameSource):
    """cv2.VideoCapture for cameras, files and network streams.

    A camera (USB index or /dev/videoN) is asked for ``fourcc``: ``MJPG`` (the default:
    720p at 30 fps over USB 2) or ``YUYV`` (uncompressed: no JPEG to decode, often only
    10 fps at 720p); with ``native`` the buffer is read as the camera sent it
    (CAP_PROP_CONVERT_RGB off) and handed over as gray (`native_to_gray`): the
    recogniser only ever needs gray, so the BGR frame is never made."""

    def __init__(self, spec: str | int, width: int = 1280, height: int = 720, fps: int = 30,
                 loop: bool = True, pace: bool = True, fourcc: str = "MJPG",
                 native: bool = False) -> None:
        self.fourcc, self.native = fourcc, native
        self.spec = spec
        self.width, self.height, self.fps = width, height, fps
        self.loop, self.pace = loop, pace
        self.name = f"opencv:{spec}"
        self.capture: cv2.VideoCapture | None = None
        self.is_file = isinstance(spec, str) and not spec.startswith("/dev/") and "://" not in spec
        self._pacer = Pacer(None)

    def open(self) -> None:
        spec = self.spec
        if self.is_file and not os.path.exists(spec):
            raise SourceLost(f"no such file: {spec}")
        if isinstance(spec, int) or (isinstance(spec, str) and spec.startswith("/dev/")):
            capture = cv2.VideoCapture(spec, cv2.CAP_V4L2)
            capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*self.fourcc))
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
            capture.set(cv2.CAP_PROP_FPS, self.fps)
            capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
            if self.native:
                capture.set(cv2.CAP_PROP_CONVERT_RGB, 0)
        else:
            capture = cv2.VideoCapture(spec)
        if not capture.isOpened():
            capture.release()
            raise SourceLost(f"cannot open {spec}")
        self.capture = capture
        file_fps = capture.get(cv2.CAP_PROP_FPS) if self.is_file else 0
        self._pacer = Pacer(file_fps or self.fps if (self.is_file and self.pace) else None)

    def grab(self) -> bool:
        """The next frame dequeued (the camera's buffer, the file's packet) and not yet
        decoded: `retrieve` decodes it, only for a frame someone waits for (an MJPG
        camera's JPEG decode is most of its capture cost)."""
        if self.capture is None:
            raise SourceLost("not open")
        self._pacer.wait()
        if self.capture.grab():
            return True
        if self.is_file and self.loop:
            self.close()
            self.open()  # raises SourceLost when the file has gone meanwhile
            if self.capture.grab():
                return True
        raise SourceLost("end of stream" if self.is_file else "read failed")

    def retrieve(self) -> np.ndarray:
        if self.capture is None:
            raise SourceLost("not open")
        ok, frame = self.capture.retrieve()
        if not ok or frame is None:
            raise SourceLost("end of stream" if self.is_file else "read failed")
        if self.native and not self.is_file:
            try:
                return native_to_gray(frame, self.fourcc, self.width, self.height)
            except ValueError as error:
                raise SourceLost(str(error)) from error
        return frame

    def read(self) -> np.ndarray:
        self.grab()
        return self.retrieve()

    def close(self) -> None:
        if self.capture is not None:
            self.capture.release()
            self.capture = None


class Picamera2Source(FrameSource):
    """A Pi Camera Module through picamera2 (apt install python3-picamera2)."""

    name = "picamera2"

    def __init__(self, width: int = 1280, height: int = 720, fps: int = 30) -> None:
        self.width, self.height, self.fps = width, height, fps
        self.camera = None

    @staticmethod
    def available() -> bool:
        try:
            import picamera2  # noqa: F401
        except ImportError:
            return False
        return True

    def open(self) -> None:
        try:
            from picamera2 import Picamera2
            camera = Picamera2()
            config = camera.create_video_configuration(
                main={"size": (self.width, self.height)},
                lores={"size": (self.width, self.height), "format": "YUV420"},
                controls={"FrameRate": self.fps})
            camera.configure(config)
            camera.start()
        except Exception as error:  # libcamera raises many kinds when no camera is attached
            raise SourceLost(f"picamera2: {error}") from error
        self.camera = camera

    def read(self) -> np.ndarray:
        if self.camera is None:
            raise SourceLost("not open")
        try:
            yuv = self.camera.capture_array("lores")
        except Exception as error:
            raise SourceLost(f"picamera2: {error}") from error
        return np.ascontiguousarray(yuv[: self.height, : self.width])  # the Y plane = gray

    def close(self) -> None:
        if self.camera is not None:
            try:
                self.camera.stop()
                self.camera.close()
            finally:
                self.camera = None


IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
RAW_SUFFIX = ".npy"  # a raw frame: the array as a camera hands it over (gray or BGR)
FOLDER_SUFFIXES = IMAGE_SUFFIXES | {RAW_SUFFIX}


class FolderSource(FrameSource):
    """The images of a folder, in name order, looped, at ``fps`` (0 = as fast as read).

    Image files are decoded as a USB camera's MJPG would be; ``.npy`` files are raw
    frames (what `Picamera2Source` or a YUYV camera hands over: the gray Y plane), read
    with no decoding, so a recorded or rendered raw stream costs what the camera's does."""

    def __init__(self, folder: str | Path, fps: float = 30.0, loop: bool = True) -> None:
        self.folder = Path(folder)
        self.loop = loop
        self.name = f"folder:{folder}"
        # the file names, as plain strings: a Path per file caches its joined string the
        # first time it is opened, so a folder of a whole evening's frames grew the
        # server by a string per frame read, ~10 MB an hour at 30 fps (issue 37)
        self.files: list[str] = []
        self.index = 0
        self._grabbed = ""  # the file name of the frame `grab` took in
        self._pacer = Pacer(fps)

    def open(self) -> None:
        if not self.folder.is_dir():
            raise SourceLost(f"no such folder: {self.folder}")
        self.files = _Names(sorted(name for name in os.listdir(self.folder)
                                   if os.path.splitext(name)[1].lower() in FOLDER_SUFFIXES))
        if not self.files:
            raise SourceLost(f"no images in {self.folder}")
        self.index = 0

    def _next(self) -> str:
        """The next file's name, once its frame is due."""
        if self.index >= len(self.files):
            if not self.loop:
                raise SourceLost("end of folder")
            self.index = 0
        self._pacer.wait()
        self.index += 1
        return self.files[self.index - 1]

    def grab(self) -> bool:
        """The frame's time passes; its file is opened only by `retrieve` (a frame
        nobody wants is never read, as a camera buffer given back untouched)."""
        self._grabbed = self._next()
        return True

    def retrieve(self) -> np.ndarray:
        path = os.path.join(self.folder, self._grabbed)  # made and let go
        if path[-len(RAW_SUFFIX):].lower() == RAW_SUFFIX:
            return _load_raw(path)
        frame = cv2.imread(path, cv2.IMREAD_COLOR)
        if frame is None:
            raise SourceLost(f"cannot read {path}")
        return frame

    def read(self) -> np.ndarray:
        self.grab()
        return self.retrieve()


class _Names:
    """A folder's file names held as one block of bytes, each made a string when read: a
    list of 55,000 strings (a 30-minute bench folder) held 3.6 MB for the whole run, this
    holds 0.6 MB (issue 37)."""

    def __init__(self, names: list[str]) -> None:
        self._names = np.array([os.fsencode(name) for name in names], dtype=bytes)

    def __len__(self) -> int:
        return len(self._names)

    def __getitem__(self, index: int) -> str:
        return os.fsdecode(self._names[index])


def _load_raw(path: str | Path) -> np.ndarray:
    """A raw frame file: a 2-D gray or 3-D BGR uint8 array (never pickled objects), mapped
    read-only and handed over, not copied, the way a camera hands over its buffer: per
    frame only an open, a short read of the header and a mapping (its pages are read by
    whoever looks at them). ``np.load`` copied every frame and parsed its header with
    ``ast`` each time: most of the capture thread's time (bench/evening.py measures both)."""
    try:
        with open(path, "rb") as file:
            head = file.read(10)
            if len(head) < 10 or head[:6] != b"\x93NUMPY":
                raise SourceLost(f"not a raw frame file: {path}")
            if head[6] == 1:
                end = 10 + int.from_bytes(head[8:10], "little")
            else:  # versions 2 and 3: a 4-byte header length
                head += file.read(2)
                end = 12 + int.from_bytes(head[8:12], "little")
            head += file.read(end - len(head))
            frame = _raw_header(head)
            if frame is None:
                raise SourceLost(f"not a gray or BGR frame: {path}")
            shape, dtype = frame
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        return np.frombuffer(mapped, dtype, math.prod(shape), end).reshape(shape)
    except (OSError, ValueError) as error:  # unreadable, or shorter than its header says
        raise SourceLost(f"cannot read {path}: {error}") from error


@lru_cache(maxsize=8)
def _raw_header(head: bytes) -> tuple[tuple[int, ...], np.dtype] | None:
    """(shape, dtype) of a ``.npy`` header, parsed once per distinct header (a folder of
    one camera's frames has one); None unless a C-ordered gray or BGR uint8 frame."""
    stream = io.BytesIO(head)
    version = np.lib.format.read_magic(stream)
    if version not in ((1, 0), (2, 0)):
        raise ValueError(f"unsupported .npy version {version}")
    read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
            else np.lib.format.read_array_header_2_0)
    shape, fortran, dtype = read(stream)
    shaped = len(shape) == 2 or (len(shape) == 3 and shape[2] == 3)
    return (tuple(shape), dtype) if dtype == np.uint8 and shaped and not fortran else None


class SyntheticSource(FrameSource):
    """The synthetic table script (hardware.synthetic.video) played as a looping camera."""

    def __init__(self, seed: int = 0, fps: float = 30.0, event: str | None = None,
                 action: str | None = None) -> None:
        self.seed = seed
        self.event, self.action = event, action
        self.name = f"synthetic:{seed}"
        self.frames: list[bytes] = []
        self.index = 0
        self._pacer = Pacer(fps)

    def open(self) -> None:
        if not self.frames:
            from hardware.synthetic.video import demo_script, render_script

            script = demo_script(self.event, self.action)
            self.frames = [jpeg for jpeg, _ in render_script(script, seed=self.seed)]
        self.index = 0

    def read(self) -> np.ndarray:
        self._pacer.wait()
        jpeg = self.frames[self.index % len(self.frames)]
        self.index += 1
        return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def open_source(spec: str, rpicam_options: dict | None = None) -> FrameSource:
    """A source from a settings string.

    ``auto`` (rpicam-vid when installed, else picamera2 when importable, else USB camera 0);
    ``rpicam`` the Camera Module through rpicam-vid; ``0`` / ``/dev/video0`` USB
    camera; ``0:gray`` / ``0:yuyv`` the same camera read natively to gray (MJPG decoded to
    gray only / YUYV's Y bytes, no decoding); ``picamera2``; ``synthetic`` or ``synthetic:SEED``;
    ``folder:DIR`` or an existing directory; ``http://...`` / ``rtsp://...`` streams;
    anything else is a video file path. ``rpicam_options``: the Camera Module's focus and
    flicker settings (`RpicamSource`'s lens_position, mains_hz, on_focus).
    """
    if spec == "auto":
        if rpicam.find_program():
            return rpicam.RpicamSource(**(rpicam_options or {}))
        return Picamera2Source() if Picamera2Source.available() else OpenCVSource(0)
    if spec == "rpicam":
        return rpicam.RpicamSource(**(rpicam_options or {}))
    device, _, mode = spec.partition(":")
    if mode in ("yuyv", "gray") and (device.isdigit() or device.startswith("/dev/")):
        # the camera's own buffer, straight to gray: YUYV (no JPEG at all) or MJPG (the
        # JPEG decoded to gray only)
        return OpenCVSource(int(device) if device.isdigit() else device,
                            fourcc="YUYV" if mode == "yuyv" else "MJPG", native=True)
    if spec.isdigit():
        return OpenCVSource(int(spec))
    if spec == "picamera2":
        return Picamera2Source()
    if spec == "synthetic" or spec.startswith("synthetic:"):
        _, _, seed = spec.partition(":")
        return SyntheticSource(int(seed or 0))
    if spec.startswith("folder:"):
        return FolderSource(spec.removeprefix("folder:"))
    if os.path.isdir(spec):
        return FolderSource(spec)
    return OpenCVSource(spec)

"""A stand-in for Raspberry Pi's `rpicam-vid` (no Camera Module here), built from the real
tool's source (rpicam-apps v1.12.0+10, libcamera's Pi pipeline, the kernel's sensor drivers;
the rules and their lines are in tests/hardware/standin/rpicam_sensors.py and below). It
does what rpicam-vid does with the command line RpicamSource gives it:

- ``--list-cameras`` prints the camera in the real format (`core/options.cpp` l. 455-560);
  no camera: "No cameras available!" there, and "ERROR: *** no cameras available ***"
  (`core/rpicam_app.cpp` l. 146-148) with exit code 255 (`apps/rpicam_vid.cpp` l. 146-150,
  ``return -1``) when asked to stream.
- The sensor mode is chosen as `RPiCamApp::selectMode` does (l. 233-279) for
  ``--width/--height/--framerate`` and ``--mode`` (`rpicam_sensors.select_mode`); the frames
  show that mode's field of view: the scene is the whole active pixel array, cut as the
  mode's analog crop and the ISP's aspect-ratio crop cut it (`rpicam_sensors.view`).
- ``--codec yuv420`` is the null encoder (`encoder/null_encoder.cpp`): each frame is one
  ``fwrite`` of the whole buffer to stdout (``-o -``, `output/file_output.cpp` l. 34-46),
  flushed with ``--flush``: stride x height x 3 / 2 bytes, rows padded to the platform's
  stride (`rpicam_sensors.stride`; the padding bytes are left 0 here).
- The colour space is sYCC, full range: yuv420 takes the JPEG colour space
  (`apps/rpicam_vid.cpp` l. 55-61 -> `core/rpicam_app.cpp` l. 561-562), written here with
  OpenCV's YCrCb (BT.601, full range).
- The frame rate is ``--framerate`` (default 30, `DEFAULT_FRAMERATE`, `core/options.hpp`
  l. 26; set as FrameDurationLimits, `core/rpicam_app.cpp` l. 703-707) capped at the mode's.
- After each start the exposure ramps up (`StartCamera` sets auto exposure, white balance
  and autofocus anew each time, `core/rpicam_app.cpp` l. 721-766; libcamera's IPA counts
  the frames its AGC/AWB need to converge, `src/ipa/rpi/common/ipa_base.cpp` l. 353-392): for
  STANDIN_RPICAM_RAMP seconds (default 1.0) frames are darker, from 25 % of the settled
  brightness up to it.
- Buffers: the video stream takes ``--buffer-count`` buffers (default 6, l. 553-556) and the
  raw stream as many (l. 581); more than STANDIN_RPICAM_CMA_MB of them fails as a real
  allocation does: "ERROR: *** failed to allocate capture buffers for stream ***"
  (l. 1038-1041).
- A device timeout (STANDIN_RPICAM_STALL_AFTER=N frames) logs "ERROR: Device timeout
  detected, attempting a restart!!!" and restarts the camera instead of exiting
  (`apps/rpicam_vid.cpp` l. 91-96); the restart never brings frames back unless
  STANDIN_RPICAM_STALL_SECONDS says when (then with a new exposure ramp).

Other knobs, in the environment:
- STANDIN_RPICAM_SENSOR: imx708 (default), imx708_wide, imx708_noir, imx219, imx477, none.
- STANDIN_RPICAM_PLATFORM: pi5 (default) or pi4 (the row stride, the camera id).
- STANDIN_RPICAM_SCENE=FILE: an image (or .npy, BGR) of what the whole sensor sees, shown
  still; unset: the synthetic table's demo script (hardware/synthetic/video.py) in a loop,
  each frame filling the sensor's 16:9 middle band (all of a 16:9 sensor).
- STANDIN_RPICAM_FRAMES=N: exit after N frames (255, "ERROR: *** camera disconnected ***").
- STANDIN_RPICAM_LOG=FILE: one line per start: the arguments, then " => " and the mode.
- STANDIN_RPICAM_CACHE=FILE: rendered demo frames kept in files beside FILE, one per size,
  view and platform (none for frames larger than 1920x1080: rendered as they go).
- STANDIN_RPICAM_STAMPS=FILE: one line per frame, time.monotonic() as its write began.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import select
import sys
import threading
import time
from pathlib import Path

import cv2
import numpy as np

try:
    from tests.hardware.standin import rpicam_sensors as sensors
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    from tests.hardware.standin import rpicam_sensors as sensors
from tests.hardware.standin.rpicam_optics import MetadataWriter, Optics

DEFAULT_FRAMERATE = 30.0
DEFAULT_BUFFERS = 6
RAMP_FLOOR = 0.25
CACHE_LIMIT = 1920 * 1080


class Failure(Exception):
    """Ends the program as rpicam-vid's main() does: ERROR: *** ... ***, exit code 255."""


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="rpicam-vid", add_help=False)
    parser.add_argument("--list-cameras", action="store_true")
    parser.add_argument("--camera", type=int, default=0)
    parser.add_argument("--nopreview", "-n", action="store_true")
    parser.add_argument("--timeout", "-t", default="5sec")
    parser.add_argument("--codec", default="h264")
    parser.add_argument("--width", type=int, default=0)
    parser.add_argument("--height", type=int, default=0)
    parser.add_argument("--framerate", type=float, default=None)
    parser.add_argument("--mode", default=None)
    parser.add_argument("--buffer-count", type=int, default=0)
    parser.add_argument("--flush", action="store_true")
    parser.add_argument("--output", "-o", default="")
    parser.add_argument("--verbose", "-v", type=int, default=1)
    # focus and flicker (core/options.cpp l. 312-333, 385-394)
    parser.add_argument("--autofocus-mode", default="default",
                        choices=("default", "manual", "auto", "continuous"))
    parser.add_argument("--autofocus-range", default="normal")
    parser.add_argument("--autofocus-speed", default="normal", choices=("normal", "fast"))
    parser.add_argument("--autofocus-window", default="0,0,0,0")
    parser.add_argument("--lens-position", default=None)
    parser.add_argument("--flicker-period", default="0s")
    parser.add_argument("--metadata", default="")
    parser.add_argument("--metadata-format", default="json")
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        raise Failure(f"unrecognised option '{unknown[0]}'")
    return args


def sensor() -> sensors.Sensor | None:
    name = os.environ.get("STANDIN_RPICAM_SENSOR", "imx708")
    return None if name == "none" else sensors.SENSORS[name]


def platform() -> str:
    return os.environ.get("STANDIN_RPICAM_PLATFORM", "pi5")


# ------------------------------------------------------------------------------- the picture

class DemoWorld:
    """The synthetic table's demo script, each frame rendered when asked (as
    `render_script` renders it: the same JPEG), the whole sensor's view."""

    def __init__(self) -> None:
        from hardware.synthetic.scene import Camera, Style
        from hardware.synthetic.video import demo_script
        self.script, self.style = demo_script(), Style()
        self.camera = Camera.create(0, self.style)

    def __len__(self) -> int:
        return len(self.script.frames)

    def image(self, index: int) -> np.ndarray:
        from hardware.synthetic.video import render_frame
        jpeg, _ = render_frame(self.script, index, 0, self.style, self.camera)
        return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def as_world(image: np.ndarray, camera: sensors.Sensor) -> np.ndarray:
    """A 16:9 picture of the table in the middle band of the sensor's aspect (felt grey
    above and below on a 4:3 sensor)."""
    aw, ah = camera.array
    height = round(image.shape[1] * ah / aw)
    if height <= image.shape[0]:
        return image
    world = np.full((height, image.shape[1], 3), 60, np.uint8)
    top = (height - image.shape[0]) // 2
    world[top:top + image.shape[0]] = image
    return world


def look(world: np.ndarray, camera: sensors.Sensor, rect: tuple[float, float, float, float],
         width: int, height: int) -> np.ndarray:
    """The part ``rect`` (on the active pixel array) of the world picture, at the output
    size: the ISP's scaling of the chosen mode's crop."""
    sx, sy = world.shape[1] / camera.array[0], world.shape[0] / camera.array[1]
    x, y, w, h = rect
    # an affine map from output pixel centres to world coordinates (sub-pixel exact)
    ax, ay = w * sx / width, h * sy / height
    matrix = np.float32([[ax, 0, x * sx + ax / 2 - 0.5], [0, ay, y * sy + ay / 2 - 0.5]])
    source = world
    while ax >= 2 and ay >= 2:  # average down first: linear sampling alone would alias
        source = cv2.resize(source, (source.shape[1] // 2, source.shape[0] // 2),
                            interpolation=cv2.INTER_AREA)
        matrix = matrix / np.float32([[2, 2, 2], [2, 2, 2]])
        matrix[:, 2] -= 0.25
        ax, ay = ax / 2, ay / 2
    return cv2.warpAffine(source, matrix, (width, height),
                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def to_i420(image: np.ndarray, row: int) -> np.ndarray:
    """BGR -> full-range YUV420 with rows of ``row`` bytes (chroma rows ``row / 2``)."""
    height, width = image.shape[:2]
    ycrcb = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)  # BT.601 full range (JPEG, sYCC)
    chroma = cv2.resize(ycrcb[:, :, 1:], (width // 2, height // 2), interpolation=cv2.INTER_AREA)
    frame = np.zeros(row * height * 3 // 2, np.uint8)
    y = frame[:row * height].reshape(height, row)
    y[:, :width] = ycrcb[:, :, 0]
    quarter = row * height // 4
    for index, channel in ((0, 2), (1, 1)):  # U (Cb) then V (Cr)
        plane = frame[row * height + index * quarter: row * height + (index + 1) * quarter]
        plane.reshape(height // 2, row // 2)[:, :width // 2] = chroma[:, :, channel - 1]
    return frame


def from_i420(frame: np.ndarray, width: int, height: int, row: int) -> np.ndarray:
    """The BGR picture of a full-range YUV420 frame with rows of ``row`` bytes."""
    luma = row * height
    quarter = luma // 4
    y = frame[:luma].reshape(height, row)[:, :width]
    u = frame[luma:luma + quarter].reshape(height // 2, row // 2)[:, :width // 2]
    v = frame[luma + quarter:luma + 2 * quarter].reshape(height // 2, row // 2)[:, :width // 2]
    cr = cv2.resize(v, (width, height), interpolation=cv2.INTER_LINEAR)
    cb = cv2.resize(u, (width, height), interpolation=cv2.INTER_LINEAR)
    return cv2.cvtColor(cv2.merge([np.ascontiguousarray(y), cr, cb]), cv2.COLOR_YCrCb2BGR)


def darkened(frame: np.ndarray, gain: float, row: int, height: int) -> np.ndarray:
    """A frame of the exposure ramp: luma scaled by ``gain``, chroma pulled to grey."""
    out = frame.astype(np.float32)
    luma = row * height
    out[:luma] *= gain
    out[luma:] = 128 + (out[luma:] - 128) * gain
    return np.clip(out, 0, 255).astype(np.uint8)


class Frames:
    """The frames to send, in order: a still scene or the demo's loop (rendered as they are
    first sent, so the first comes at once; kept in the cache file once all are made)."""

    def __init__(self, camera, rect, width, height, row) -> None:
        self.camera, self.rect, self.size, self.row = camera, rect, (width, height), row
        scene = os.environ.get("STANDIN_RPICAM_SCENE")
        self.made: list[np.ndarray | None] = []
        self.demo: DemoWorld | None = None
        self.cache = None
        self.still: np.ndarray | None = None  # a still scene's view (BGR)
        if scene:
            world = np.load(scene) if scene.endswith(".npy") else cv2.imread(scene)
            self.still = look(world, camera, rect, width, height)
            self.made = [to_i420(self.still, row)]
            return
        self.cache = self._cache_file()
        if self.cache is not None and self.cache.exists():
            self.made = list(np.load(self.cache))
            self.cache = None
            return
        self.demo = DemoWorld()
        self.made = [None] * len(self.demo)

    def _cache_file(self) -> Path | None:
        base = os.environ.get("STANDIN_RPICAM_CACHE")
        if not base or self.size[0] * self.size[1] > CACHE_LIMIT:
            return None
        key = hashlib.sha1(repr((self.camera.array, self.rect, self.size, self.row))
                           .encode()).hexdigest()[:12]
        return Path(f"{base}.{self.size[0]}x{self.size[1]}.{key}.npy")

    def __getitem__(self, index: int) -> np.ndarray:
        index %= len(self.made)
        frame = self.made[index]
        if frame is not None:
            return frame
        world = as_world(self.demo.image(index), self.camera)
        frame = to_i420(look(world, self.camera, self.rect, *self.size), self.row)
        if self.cache is None:
            return frame  # too big to keep: made again when its turn comes
        self.made[index] = frame
        if all(f is not None for f in self.made):  # kept for the next start, meanwhile
            threading.Thread(target=self._save, args=(self.cache, list(self.made)),
                             daemon=True).start()
            self.cache = None
        return frame

    def view(self, index: int) -> tuple[np.ndarray, int | None]:
        """Frame ``index`` as BGR before the lens and the lights, and a key naming it (the
        same picture, the same key; None: a picture of its own)."""
        if self.still is not None:
            return self.still, 0
        index %= len(self.made)
        world = as_world(self.demo.image(index), self.camera) if self.demo else None
        if world is None:  # the demo's frames came from the cache: back from YUV
            return from_i420(self.made[index], *self.size, self.row), index
        return look(world, self.camera, self.rect, *self.size), index

    @staticmethod
    def _save(cache: Path, made: list[np.ndarray]) -> None:
        partial = cache.with_suffix(f".{os.getpid()}.npy")
        np.save(partial, np.stack(made))
        partial.replace(cache)


# ------------------------------------------------------------------------------- the program

def buffers_fit(args, mode: sensors.SensorMode, row: int) -> None:
    """The video and the raw stream's buffers in camera memory (CMA)."""
    limit = os.environ.get("STANDIN_RPICAM_CMA_MB")
    if not limit:
        return
    count = args.buffer_count or DEFAULT_BUFFERS
    video = row * args.height * 3 // 2
    raw = -(-mode.width * mode.depth // 8 // 32) * 32 * mode.height  # CSI-2 packed rows
    if count * (video + raw) > float(limit) * 2**20:
        raise Failure("failed to allocate capture buffers for stream")


def stream(args) -> int:
    camera = sensor()
    if camera is None:
        raise Failure("no cameras available")
    if args.camera != 0:
        raise Failure("selected camera is not available")
    if args.codec != "yuv420" or args.output != "-" or args.timeout not in ("0", "0ms"):
        raise Failure("the stand-in only streams --codec yuv420 --timeout 0 --output -")
    if not args.width or not args.height or args.width % 2 or args.height % 2:
        raise Failure("the stand-in needs an even --width and --height")
    request = sensors.parse_mode(args.mode, args.width, args.height, args.framerate)
    mode = sensors.select_mode(camera, request)
    print(f"Mode selection for {request.width}:{request.height}:{request.bit_depth}:P"
          + (f"({request.framerate:g})" if request.framerate else ""), file=sys.stderr)
    row = sensors.stride(args.width, platform())
    rect = sensors.view(mode, args.width, args.height)
    print(f"configuring streams: (0) {args.width}x{args.height}-YUV420/sYCC stride {row} "
          f"(1) {mode.width}x{mode.height}-{mode.format}", file=sys.stderr, flush=True)
    if os.environ.get("STANDIN_RPICAM_LOG"):
        with open(os.environ["STANDIN_RPICAM_LOG"], "a") as log:
            log.write(f"{' '.join(sys.argv[1:])} => {mode.width}:{mode.height}:{mode.depth}\n")
    buffers_fit(args, mode, row)
    frames = Frames(camera, rect, args.width, args.height, row)
    fps = min(args.framerate or DEFAULT_FRAMERATE, mode.fps)
    optics = Optics(args, camera.model, args.width, args.height, mode.fps, fps)
    metadata = MetadataWriter(args.metadata, args.metadata_format) if args.metadata else None
    try:
        return send(frames, fps, row, args.height, optics, metadata)
    finally:
        if metadata is not None:
            metadata.close()


def stalled(out, seconds: float | None) -> bool:
    """Send nothing for ``seconds`` (None: for ever, the restarted camera never delivering
    again); False once the reader has gone (no SIGPIPE comes to a writer that writes
    nothing: its pipe's error is watched instead, so no stand-in outlives its test)."""
    watch = select.poll()
    watch.register(out.fileno(), select.POLLERR)
    deadline = None if seconds is None else time.monotonic() + seconds
    while deadline is None or time.monotonic() < deadline:
        if watch.poll(200):
            return False
    return True


def through_optics(frames: Frames, optics: Optics, index: int, frame: np.ndarray,
                   row: int) -> np.ndarray:
    """Frame ``index`` with the lens moved for it, blurred and banded as the lens and the
    lights make it (the plain frame when the table is in focus and nothing else is)."""
    seen: list = []

    def view() -> tuple[np.ndarray, int | None]:
        if not seen:
            seen.append(frames.view(index))
        return seen[0]

    optics.step(index, view)
    if optics.trivial(index):
        return frame
    return to_i420(optics.apply(index, *view()), row)


def send(frames: Frames, fps: float, row: int, height: int, optics: Optics | None = None,
         metadata: MetadataWriter | None = None) -> int:
    limit = int(os.environ.get("STANDIN_RPICAM_FRAMES", "0")) or None
    stall_after = int(os.environ.get("STANDIN_RPICAM_STALL_AFTER", "0")) or None
    resume = float(os.environ.get("STANDIN_RPICAM_STALL_SECONDS", "0")) or None
    ramp = float(os.environ.get("STANDIN_RPICAM_RAMP", "1.0"))
    stamps = open(os.environ["STANDIN_RPICAM_STAMPS"], "a", buffering=1) \
        if os.environ.get("STANDIN_RPICAM_STAMPS") else None  # noqa: SIM115
    out = sys.stdout.buffer
    period, sent, started = 1.0 / fps, 0, time.monotonic()
    due = started
    try:
        while limit is None or sent < limit:
            if stall_after is not None and sent == stall_after:
                print("ERROR: Device timeout detected, attempting a restart!!!",
                      file=sys.stderr, flush=True)
                if not stalled(out, resume):  # nobody reads any more
                    return 0
                stall_after, started, due = None, time.monotonic(), time.monotonic()
            frame = frames[sent]
            if optics is not None:
                frame = through_optics(frames, optics, sent, frame, row)
            since = time.monotonic() - started
            if since < ramp:
                frame = darkened(frame, RAMP_FLOOR + (1 - RAMP_FLOOR) * since / ramp, row,
                                 height)
            if stamps is not None:
                stamps.write(f"{time.monotonic()}\n")
            out.write(memoryview(frame))
            out.flush()
            if metadata is not None:  # after the frame, as Output::OutputReady writes it
                metadata.write(optics.metadata(sent))
            sent += 1
            due += period
            time.sleep(max(0.0, due - time.monotonic()))
    except BrokenPipeError:  # the reader closed the stream: stopped, as rpicam-vid would be
        return 0
    raise Failure("camera disconnected")


def main(argv: list[str]) -> int:
    try:
        args = parse(argv)
        if args.list_cameras:
            camera = sensor()
            print(sensors.list_cameras(camera, platform()) if camera is not None
                  else "No cameras available!", end="" if camera else "\n")
            return 0
        return stream(args)
    except (Failure, ValueError) as error:
        print(f"ERROR: *** {error} ***", file=sys.stderr, flush=True)
        return 255


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""What `rpicam-vid` works from, as the real sources say: the Pi cameras' sensor modes, the
mode rpicam-apps picks, the view the ISP makes of it, the row stride of the frames.

Sources (read, not linked; line numbers as read):
- raspberrypi/linux `drivers/media/i2c/imx708.c` (`supported_modes_10bit_no_hdr[]`:
  size, analog `crop`, `line_length_pix`, `vblank_min`, `pixel_rate` per mode),
  `imx219.c` (`supported_modes[]`; `imx219_set_pad_format`: crop = size x binning (at most
  2), centred in the 3296x2480 native array; `IMX219_VBLANK_MIN` 32, `IMX219_PPL_DEFAULT`
  3448, `IMX219_PIXEL_RATE` 182.4 MHz on two lanes; 8- and 10-bit formats; PRs #6793 and
  #7063 for the binning and the doubled rate of analog binning),
  `imx477.c` (`supported_modes_12bit[]`, `supported_modes_10bit[]`;
  `imx477_get_frame_length`: frame length = timeperframe_min x 840 MHz / line length).
  A mode's highest frame rate is pixel rate / (line length x (height + minimum vblank)).
- libcamera (raspberrypi/libcamera, v0.7.1+rpt): the Pi pipeline's ISP crop is the sensor
  mode's frame bounded to the output's aspect ratio, centred
  (`src/libcamera/pipeline/rpi/vc4/vc4.cpp` l. 749-750, `pisp/pisp.cpp` l. 1573-1574), with
  `Size::boundedToAspectRatio` and `Size::centeredTo` (`src/libcamera/geometry.cpp`
  l. 290-303, 339-345, `Rectangle::center` l. 703-706); `CameraData::scaleIspCrop`
  (`pipeline/rpi/common/pipeline_base.cpp` l. 1301-1310) maps it onto the sensor. The
  frame-duration limit is kept in whole microseconds, so fps = 1e6 / int(microseconds).
- rpicam-apps v1.12.0+10: `RPiCamApp::selectMode` (`core/rpicam_app.cpp` l. 233-279),
  `Mode(string)` and `Mode::update` (`core/options.cpp` l. 71-90, 106-116; bit depth 12 when
  not given), `SensorMode::depth()` (`core/rpicam_app.hpp` l. 91-103).
- Row stride (bytes of a Y row; each chroma row is half): Pi 4's bcm2835-isp aligns YUV420
  to 64 bytes (raspberrypi/linux PR #4419, "Set the YUV420/YVU420 format stride to 64
  bytes"); Pi 5's PiSP uses 2 x align64(width / 2) (libcamera `pisp.cpp`
  `computeOptimalStride` l. 235-253 doubling libpisp's `compute_optimal_stride`, 64-byte
  `PISP_BACK_END_OUTPUT_MAX_ALIGN`). A frame is stride x height x 3 / 2 bytes
  (`core/rpicam_app.cpp` l. 1038-1051 maps `frameSize`; `get_sizeimage` of the ISP drivers).
"""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class SensorMode:
    """A raw mode: output size, bit depth, analog crop (x, y, w, h on the active pixel array,
    as `--list-cameras` prints it) and its highest frame rate."""

    width: int
    height: int
    depth: int
    crop: tuple[int, int, int, int]
    fps: float

    @property
    def format(self) -> str:
        return f"SRGGB{self.depth}_CSI2P" if self.depth != 8 else "SRGGB8"


@dataclass(frozen=True)
class Sensor:
    model: str
    array: tuple[int, int]  # active pixel array
    modes: tuple[SensorMode, ...]


def _fps(pixel_rate: float, line_length: int, frame_length: int) -> float:
    """1e6 / the frame duration in whole microseconds (libcamera's FrameDurationLimits)."""
    return 1e6 / int(line_length * frame_length / pixel_rate * 1e6)


def _imx708() -> tuple[SensorMode, ...]:
    # imx708.c supported_modes_10bit_no_hdr: size, crop - (16, 24), line_length_pix,
    # vblank_min, pixel_rate
    return (
        SensorMode(1536, 864, 10, (768, 432, 3072, 1728), _fps(566400000, 0x1460, 864 + 40)),
        SensorMode(2304, 1296, 10, (0, 0, 4608, 2592), _fps(585600000, 0x1E90, 1296 + 40)),
        SensorMode(4608, 2592, 10, (0, 0, 4608, 2592), _fps(595200000, 0x3D20, 2592 + 58)),
    )


def _imx219() -> tuple[SensorMode, ...]:
    # imx219_set_pad_format: binning (at most 2, the same both ways since raspberrypi/linux
    # PR #6793, "Restore the 1920x1080 to using a 1:1 PAR") maximises a centred crop;
    # analog binning doubles the pixel rate for 640x480 and for 8-bit 1640x1232 (PR #7063)
    modes = []
    for depth in (10, 8):
        for width, height in ((640, 480), (1640, 1232), (1920, 1080), (3280, 2464)):
            binning = min(3280 // width, 2464 // height, 2)
            cw, ch = width * binning, height * binning
            left, top = (3296 - cw) // 2 - 8, (2480 - ch) // 2 - 8  # native -> active
            rate = 2 if (width, height) == (640, 480) or (binning == 2 and depth == 8) else 1
            modes.append(SensorMode(width, height, depth, (left, top, cw, ch),
                                    _fps(182400000 * rate, 3448, height + 32)))
    return tuple(modes)


def _imx477() -> tuple[SensorMode, ...]:
    def mode(width, height, depth, crop, line, max_fps):
        frame = max(int(840000000 / max_fps / line), height)  # imx477_get_frame_length
        return SensorMode(width, height, depth, crop, _fps(840000000, line, frame))
    return (
        mode(1332, 990, 10, (696, 528, 2664, 1980), 6664, 120),
        mode(2028, 1080, 12, (0, 440, 4056, 2160), 0x31C4, 50),
        mode(2028, 1520, 12, (0, 0, 4056, 3040), 0x31C4, 40),
        mode(4056, 3040, 12, (0, 0, 4056, 3040), 0x5DC0, 10),
    )


SENSORS = {
    "imx708": Sensor("imx708", (4608, 2592), _imx708()),
    "imx708_wide": Sensor("imx708_wide", (4608, 2592), _imx708()),
    "imx708_noir": Sensor("imx708_noir", (4608, 2592), _imx708()),
    "imx219": Sensor("imx219", (3280, 2464), _imx219()),
    "imx477": Sensor("imx477", (4056, 3040), _imx477()),
}


@dataclass(frozen=True)
class Request:
    """rpicam-apps' `Mode`: what `--mode` gave, completed by `Mode::update` from the
    output size and `--framerate` (bit depth 12 when not given; packed)."""

    width: int
    height: int
    bit_depth: int
    framerate: float | None


def parse_mode(text: str | None, width: int, height: int, framerate: float | None) -> Request:
    """`Mode(mode_string)` then `Mode::update(size, fps)` (options.cpp l. 71-90, 106-116)."""
    mode_width = mode_height = depth = 0
    if text:
        parts = text.split(":")
        if len(parts) < 2 or not all(p.isdigit() for p in parts[:3]):
            raise ValueError("Invalid mode")
        mode_width, mode_height = int(parts[0]), int(parts[1])
        depth = int(parts[2]) if len(parts) >= 3 else 12
        if len(parts) >= 4 and parts[3].upper() not in ("P", "U"):
            raise ValueError("Packing indicator should be P or U")
    return Request(mode_width or width, mode_height or height, depth or 12, framerate)


def select_mode(sensor: Sensor, request: Request) -> SensorMode:
    """`RPiCamApp::selectMode` (rpicam_app.cpp l. 233-279): the lowest score wins, the last
    of equal scores (``<=``)."""
    def score_format(desired: float, actual: float) -> float:
        score = desired - actual
        if score < 0.0:  # smaller desired dimensions are preferred
            score = -score / 8
        if actual != desired:  # penalise non-exact matches
            score *= 2
        return score

    best, best_score = None, math.inf
    for mode in sensor.modes:
        score = score_format(request.width, mode.width)
        score += score_format(request.height, mode.height)
        score += 1500.0 * score_format(request.width / request.height, mode.width / mode.height)
        if request.framerate:
            score += 2000.0 * abs(request.framerate - min(mode.fps, request.framerate))
        score += 500.0 * abs(request.bit_depth - mode.depth)
        if score <= best_score:
            best, best_score = mode, score
    return best


def isp_crop(mode: SensorMode, out_width: int, out_height: int) -> tuple[int, int, int, int]:
    """The part of the mode's frame the ISP scales to the output (vc4.cpp l. 749-750,
    pisp.cpp l. 1573-1574): boundedToAspectRatio, centred (geometry.cpp l. 290-345)."""
    ratio1, ratio2 = mode.width * out_height, out_width * mode.height
    if ratio1 > ratio2:
        w, h = ratio2 // out_height, mode.height
    else:
        w, h = mode.width, ratio1 // out_width
    cx, cy = mode.width // 2, mode.height // 2
    return cx - w // 2, cy - h // 2, w, h


def view(mode: SensorMode, out_width: int, out_height: int) -> tuple[float, float, float, float]:
    """What the output shows, on the active pixel array (x, y, w, h): the ISP crop scaled
    onto the mode's analog crop (`scaleIspCrop`, pipeline_base.cpp l. 1301-1310; kept
    fractional here, the real one rounds to whole sensor pixels)."""
    x, y, w, h = isp_crop(mode, out_width, out_height)
    cx, cy, cw, ch = mode.crop
    sx, sy = cw / mode.width, ch / mode.height
    return cx + x * sx, cy + y * sy, w * sx, h * sy


def stride(width: int, platform: str) -> int:
    """Bytes of one Y row of a YUV420 frame (chroma rows are half)."""
    if platform == "pi5":
        return 2 * (-(-(width // 2) // 64) * 64)
    return -(-width // 64) * 64


CAMERA_IDS = {"pi4": "/base/soc/i2c0mux/i2c@1/{chip}@{addr}",
              "pi5": "/base/axi/pcie@120000/rp1/i2c@88000/{chip}@{addr}"}
ADDRESSES = {"imx708": "1a", "imx219": "10", "imx477": "1a"}


def list_cameras(sensor: Sensor, platform: str) -> str:
    """`--list-cameras` as options.cpp l. 455-560 prints it: the model, the array size, the
    largest bit depth, the Bayer order, the camera id; each raw format with its sizes
    (ascending), the highest fps and the crop."""
    chip = sensor.model.split("_")[0]
    camera_id = CAMERA_IDS[platform].format(chip=chip, addr=ADDRESSES[chip])
    bits = max(m.depth for m in sensor.modes)
    lines = ["Available cameras", "-----------------",
             f"0 : {sensor.model} [{sensor.array[0]}x{sensor.array[1]} {bits}-bit RGGB] "
             f"({camera_id})"]
    formats: dict[str, list[SensorMode]] = {}
    for mode in sensor.modes:
        formats.setdefault(mode.format, []).append(mode)
    for index, (name, modes) in enumerate(sorted(formats.items())):
        head = f"'{name}' : "
        indent = " " * (len(head) + 11)
        for number, mode in enumerate(sorted(modes, key=lambda m: (m.width, m.height))):
            x, y, w, h = mode.crop
            text = f"{mode.width}x{mode.height} [{mode.fps:.2f} fps - ({x}, {y})/{w}x{h} crop]"
            if number == 0:
                lines.append(("    Modes: " if index == 0 else "           ") + head + text)
            else:
                lines.append(indent + text)
    return "\n".join(lines) + "\n\n"

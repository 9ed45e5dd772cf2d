"""Which cameras this machine has: V4L2 capture nodes (asked with VIDIOC_QUERYCAP, so codec
and metadata nodes do not count) and the cameras libcamera sees through picamera2.

No OpenCV here: `companion doctor` and the server's start-up ask this before any frame.
"""
from __future__ import annotations

import fcntl
import glob
import os
import shutil
import struct

VIDIOC_QUERYCAP = 0x80685600  # _IOR('V', 0, struct v4l2_capability), 104 bytes
CAP_VIDEO_CAPTURE, CAP_VIDEO_CAPTURE_MPLANE = 0x1, 0x1000
CAP_M2M, CAP_M2M_MPLANE, CAP_DEVICE_CAPS = 0x8000, 0x4000, 0x80000000
# The Pi camera's own V4L2 nodes: real cameras, but only libcamera (picamera2) can use them.
PI_CAMERA_DRIVERS = {"unicam", "rp1-cfe", "bcm2835-isp", "pispbe"}


def v4l2_devices(pattern: str = "/dev/video*") -> list[dict]:
    """V4L2 nodes with ``path``, ``driver``, ``card`` and ``capture`` (True for nodes that
    capture video: not codecs, not metadata nodes); ``error`` where a node cannot be asked."""
    found = []
    for path in sorted(glob.glob(pattern), key=_natural):
        info = {"path": path, "driver": "", "card": "", "capture": False}
        try:
            fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
        except OSError as exc:
            info["error"] = exc.strerror
            found.append(info)
            continue
        try:
            raw = fcntl.ioctl(fd, VIDIOC_QUERYCAP, bytes(104))
        except OSError as exc:
            info["error"] = exc.strerror
            found.append(info)
            continue
        finally:
            os.close(fd)
        driver, card, _bus, _version, caps, device_caps = struct.unpack_from("16s32s32sIII", raw)
        if caps & CAP_DEVICE_CAPS:
            caps = device_caps
        info["driver"] = driver.split(b"\0")[0].decode(errors="replace")
        info["card"] = card.split(b"\0")[0].decode(errors="replace")
        info["capture"] = bool(caps & (CAP_VIDEO_CAPTURE | CAP_VIDEO_CAPTURE_MPLANE)) and not (
            caps & (CAP_M2M | CAP_M2M_MPLANE))
        found.append(info)
    return found


def _natural(path: str) -> tuple:
    digits = "".join(c for c in path if c.isdigit())
    return (path.rstrip("0123456789"), int(digits or 0))


def usb_cameras(devices: list[dict]) -> list[dict]:
    """The capture nodes OpenCV can open (the Pi camera's nodes need libcamera)."""
    return [d for d in devices if d["capture"] and d["driver"] not in PI_CAMERA_DRIVERS]


def pi_camera_nodes(devices: list[dict]) -> list[dict]:
    return [d for d in devices if d["driver"] in PI_CAMERA_DRIVERS]


def picamera2_cameras() -> list[dict] | None:
    """Cameras libcamera sees, or None when picamera2 is not installed."""
    try:
        from picamera2 import Picamera2
    except Exception:  # ImportError, or libcamera failing to load
        return None
    try:
        return [dict(c) for c in Picamera2.global_camera_info()]
    except Exception:
        return []


def rpicam_program() -> str | None:
    """rpicam-vid (hardware/camera/rpicam.py reads the Camera Module through it), or None."""
    return shutil.which("rpicam-vid") or shutil.which("libcamera-vid")


def camera_attached(pattern: str = "/dev/video*") -> bool:
    """A camera is there to use: a Pi camera with rpicam-vid or one libcamera sees through
    picamera2, or a USB (V4L2 capture) camera."""
    found = v4l2_devices(pattern)
    if pi_camera_nodes(found) and rpicam_program():
        return True
    return bool(picamera2_cameras()) or bool(usb_cameras(found))

"""The Camera Module through rpicam-vid: the real RpicamSource reading the stand-in rpicam-vid
(tests/hardware/standin/rpicam_vid.py, built from rpicam-apps', libcamera's and the kernel
drivers' source: sensor modes, mode choice, field of view, row stride, full-range YUV, the
exposure ramp after a start, stalls, camera memory)."""
import os
import stat
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera.capture import LOST, OK, Backoff, Capture
from hardware.camera.rpicam import BUFFERS, RpicamSource
from hardware.camera.sources import SourceLost, open_source
from hardware.synthetic import dice_tray
from hardware.synthetic.video import demo_script
from tests.hardware.standin import rpicam_sensors as sensors
from tests.hardware.standin import rpicam_vid as standin
from tests.hardware.test_camera_capture import as_tuple, run_in_lockstep
from tests.waiting import wait_for

REPO = Path(__file__).resolve().parents[2]
FAST = Backoff(first=0.05, longest=0.2)
USUAL = (1280, 720)


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("rpicam") / "frames"


@pytest.fixture
def rpicam_vid(tmp_path, cache, monkeypatch):
    """An executable called rpicam-vid on PATH running the stand-in with this Python."""
    program = tmp_path / "bin" / "rpicam-vid"
    program.parent.mkdir()
    program.write_text(f"#!/bin/sh\nPYTHONPATH={REPO} exec {sys.executable} "
                       f"-m tests.hardware.standin.rpicam_vid \"$@\"\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{program.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("STANDIN_RPICAM_CACHE", str(cache))
    monkeypatch.setenv("STANDIN_RPICAM_LOG", str(tmp_path / "starts.log"))
    monkeypatch.setenv("STANDIN_RPICAM_STAMPS", str(tmp_path / "stamps.log"))
    for knob in ("SENSOR", "PLATFORM", "SCENE", "FRAMES", "STALL_AFTER", "STALL_SECONDS",
                 "RAMP", "CMA_MB", "HAND", "LIGHT", "TABLE_M", "RING_DIOPTRES"):
        monkeypatch.delenv(f"STANDIN_RPICAM_{knob}", raising=False)
    return program


def starts(tmp_path) -> list[str]:
    """The stand-in's starts: its arguments, ' => ' and the sensor mode it chose."""
    log = tmp_path / "starts.log"
    return log.read_text().splitlines() if log.exists() else []


def stamps(tmp_path) -> list[float]:
    log = tmp_path / "stamps.log"
    return [float(t) for t in log.read_text().split()] if log.exists() else []


def scene(tmp_path, monkeypatch, sensor: str, seed: int = 3) -> np.ndarray:
    """A tray of dice on the table as the whole sensor sees it (its truth: the picture),
    given to the stand-in as its scene."""
    aw, ah = sensors.SENSORS[sensor].array
    width = 1536
    style = dice_tray.TrayStyle(width=width, height=round(width * ah / aw), margin=30,
                                noise=0.0, jpeg=95)
    world, _ = dice_tray.tray(seed, count=24, side=44.0, style=style)
    path = tmp_path / f"scene-{sensor}.png"
    cv2.imwrite(str(path), world)
    monkeypatch.setenv("STANDIN_RPICAM_SCENE", str(path))
    monkeypatch.setenv("STANDIN_RPICAM_SENSOR", sensor)
    return world


def whole_sensor_band(sensor: str, width: int, height: int) -> tuple[float, ...]:
    """The truth of "one view for both streams": the whole sensor cut to the output's aspect
    ratio around its centre (x, y, w, h on the active pixel array)."""
    aw, ah = sensors.SENSORS[sensor].array
    if aw * height > width * ah:
        w = ah * width / height
        return (aw - w) / 2, 0.0, w, float(ah)
    h = aw * height / width
    return 0.0, (ah - h) / 2, float(aw), h


def expected(world, sensor, rect, width, height) -> np.ndarray:
    """The scene's part ``rect`` as an output of width x height shows it, gray."""
    image = standin.look(world, sensors.SENSORS[sensor], rect, width, height)
    return cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)[:, :, 0]


def offset(actual: np.ndarray, truth: np.ndarray) -> tuple[float, float, float]:
    """(shift in pixels, its response, mean gray difference) of actual against truth."""
    a, t = np.float32(actual), np.float32(truth)
    (dx, dy), response = cv2.phaseCorrelate(a, t, cv2.createHanningWindow(a.shape[::-1],
                                                                           cv2.CV_32F))
    return float(np.hypot(dx, dy)), float(response), float(np.abs(a - t).mean())


def read_full(source: RpicamSource, box, timeout: float = 120.0) -> np.ndarray:
    """Ask for the tray until the crop comes from the full stream (more pixels than the
    box has in the usual frame)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        crop = source.sharp_crop(box, USUAL)
        if crop is not None and crop.shape[1] > 2 * (box[2] - box[0]):
            return crop
        source.read()
    raise AssertionError("the full stream never came")


# ---------------------------------------------------------------- 1 and 3: one view, any sensor

@pytest.mark.parametrize("sensor,platform", [("imx708", "pi5"), ("imx708_wide", "pi4"),
                                             ("imx219", "pi5"), ("imx477", "pi4")])
def test_a_tray_zone_crops_the_same_table_region_from_both_streams(
        rpicam_vid, tmp_path, monkeypatch, sensor, platform):
    """A box calibrated on the usual stream cuts the same part of the table from the full
    stream, checked against the scene: both show the whole sensor cut to 16:9 around its
    centre, within a few pixels; the recogniser's frames keep that view while the full
    stream runs."""
    world = scene(tmp_path, monkeypatch, sensor)
    monkeypatch.setenv("STANDIN_RPICAM_PLATFORM", platform)
    monkeypatch.setenv("STANDIN_RPICAM_RAMP", "0")  # the exposure ramp: its own tests
    band = whole_sensor_band(sensor, *USUAL)
    source = RpicamSource(full_fps=5, full_idle=300)
    source.open()
    try:
        usual = source.read()
        shift, _, diff = offset(usual, expected(world, sensor, band, *USUAL))
        assert shift < 1.5 and diff < 4, f"the usual stream's view: off by {shift:.1f} px"
        box = (300, 160, 760, 520)  # a tray zone in the usual frame
        crop = read_full(source, box)
        while_full = source.read()
        scale = source.sharp_scale()  # what a reader expects of the crop once it is sharp
    finally:
        source.close()
    assert scale > 2 and crop.shape[1] / (box[2] - box[0]) == pytest.approx(scale, rel=0.01)
    # the box on the sensor, by the truth of the view
    scale_x, scale_y = band[2] / USUAL[0], band[3] / USUAL[1]
    rect = (band[0] + box[0] * scale_x, band[1] + box[1] * scale_y,
            (box[2] - box[0]) * scale_x, (box[3] - box[1]) * scale_y)
    truth = expected(world, sensor, rect, crop.shape[1], crop.shape[0])
    shift, response, diff = offset(cv2.cvtColor(crop, cv2.COLOR_BGR2YCrCb)[:, :, 0], truth)
    assert shift < 3 and diff < 6, \
        f"the tray crop is {shift:.1f} full-stream px off the box (response {response:.2f})"
    shift, _, diff = offset(while_full, expected(world, sensor, band, *USUAL))
    assert shift < 1.5 and diff < 5, f"the full stream scaled down: off by {shift:.1f} px"
    chosen = [line.split(" => ")[1] for line in starts(tmp_path)]
    usual_mode, full_mode = chosen[0], chosen[1]
    whole = {f"{m.width}:{m.height}:{m.depth}" for m in sensors.SENSORS[sensor].modes
             if m.crop[2:] == sensors.SENSORS[sensor].array}
    assert usual_mode in whole and full_mode in whole and usual_mode != full_mode


def test_the_demo_through_rpicam_vid_gives_the_scripted_observations(rpicam_vid, monkeypatch):
    """The demo table through the Camera Module 3's usual stream: the zones calibrated on the
    whole view find every card (a crop of the sensor would not)."""
    script = demo_script()
    monkeypatch.setenv("STANDIN_RPICAM_FRAMES", str(len(script.frames)))
    monkeypatch.setenv("STANDIN_RPICAM_RAMP", "0")
    # the lens held on the table (issue 62): with none kept, the first frames are the AF
    # scan's and are never handed over (tests/hardware/test_camera_focus_flicker.py)
    source = RpicamSource(settle_seconds=0, lens_position=1 / 0.6)
    service, observations, statuses = run_in_lockstep(source, Backoff(first=30, longest=30))
    assert service.frames_processed == len(script.frames)
    assert [as_tuple(o) for o in observations] == [
        (e.kind, e.payload, e.zone, e.rotation) for e in script.expected]
    status, detail = statuses[1]
    assert status == LOST
    assert "rpicam-vid ended: exit code 255: ERROR: *** camera disconnected ***" in detail


# ---------------------------------------------------------------- 2: row stride

def test_frames_parse_at_every_width_on_pi4_and_pi5_strides():
    """Every even width from 64 to the widest sensor's, on both platforms: the stand-in
    writes rows padded to its stride, the source's planes give back Y, U and V exactly."""
    from hardware.camera.rpicam import planes, row_stride

    rng = np.random.default_rng(7)
    image = rng.integers(0, 256, (4, 4608, 3), np.uint8)
    for platform in ("pi4", "pi5"):
        for width in range(64, 4610, 2):
            row = sensors.stride(width, platform)
            assert row_stride(width, platform) == row
            part = image[:, :width]
            frame = standin.to_i420(part, row)
            y, u, v = planes(frame, width, 4, row)
            ycrcb = cv2.cvtColor(part, cv2.COLOR_BGR2YCrCb)
            chroma = cv2.resize(ycrcb[:, :, 1:], (width // 2, 2), interpolation=cv2.INTER_AREA)
            assert (y == ycrcb[:, :, 0]).all(), (platform, width)
            assert (u == chroma[:, :, 1]).all() and (v == chroma[:, :, 0]).all(), (platform, width)


@pytest.mark.parametrize("width,height,platform", [(960, 540, "pi5"), (1000, 562, "pi4"),
                                                   (1344, 756, "pi5"), (1280, 720, "pi4")])
def test_a_padded_width_streams_the_right_picture(rpicam_vid, tmp_path, monkeypatch, width,
                                                  height, platform):
    """960 and 1344 are multiples of 64 but not of 128 (padded on a Pi 5); 1000 is padded on
    both: the frames are the view as it is, not sheared."""
    world = scene(tmp_path, monkeypatch, "imx708")
    monkeypatch.setenv("STANDIN_RPICAM_PLATFORM", platform)
    monkeypatch.setenv("STANDIN_RPICAM_RAMP", "0")
    source = RpicamSource(width=width, height=height)
    source.open()
    try:
        gray = source.read()
    finally:
        source.close()
    assert gray.shape == (height, width)
    shift, _, diff = offset(gray, expected(world, "imx708",
                                          whole_sensor_band("imx708", width, height),
                                          width, height))
    assert shift < 1.5 and diff < 4


# ---------------------------------------------------------------- 4: robustness

def test_a_stalled_rpicam_vid_is_ended_and_replaced(rpicam_vid, tmp_path, monkeypatch):
    """rpicam-vid restarting the camera after a device timeout, never to send again: the
    source ends it once no frame came for ``stall_seconds`` (3) and the capture starts a new
    one after its back-off (the bound: stall_seconds + back-off + the new child's start)."""
    scene(tmp_path, monkeypatch, "imx708")
    monkeypatch.setenv("STANDIN_RPICAM_RAMP", "0")
    monkeypatch.setenv("STANDIN_RPICAM_STALL_AFTER", "40")  # 30 dropped (settling), 10 used
    statuses = []
    capture = Capture(RpicamSource(), FAST, on_status=lambda s, d: statuses.append((s, d)))
    capture.start()
    try:
        wait_for(lambda: len(starts(tmp_path)) >= 2, timeout=60, what="a second rpicam-vid")
        restarted = time.monotonic()
        wait_for(lambda: [s for s, _ in statuses].count(OK) >= 2, timeout=60)
    finally:
        capture.stop()
    lost = [d for s, d in statuses if s == LOST]
    assert lost and lost[0].startswith("rpicam-vid sent no frame for ")
    assert "Device timeout detected, attempting a restart!!!" in lost[0]
    waited = float(lost[0].split(" for ")[1].split(" s")[0])
    assert waited >= 3.0
    # replaced within the bound, with room for a loaded machine
    last_frame = stamps(tmp_path)[39]  # the 40th frame: then nothing
    assert 3.0 <= restarted - last_frame < 3.0 + FAST.first + 15


def ignoring_sigterm(rpicam_vid) -> None:
    """The stand-in as a child that ignores SIGTERM (the disposition survives exec)."""
    text = rpicam_vid.read_text()
    rpicam_vid.write_text(text.replace("PYTHONPATH=", "trap '' TERM\nPYTHONPATH=", 1))


def test_a_stalled_child_that_ignores_sigterm_is_killed_within_the_bound(
        rpicam_vid, tmp_path, monkeypatch):
    """The bound holds for a child that will not stop when asked: SIGKILL after TERM_WAIT;
    the stall is reported stall_seconds + TERM_WAIT after the last frame, and no later."""
    from hardware.camera import rpicam

    ignoring_sigterm(rpicam_vid)
    scene(tmp_path, monkeypatch, "imx708")
    monkeypatch.setenv("STANDIN_RPICAM_RAMP", "0")
    monkeypatch.setenv("STANDIN_RPICAM_STALL_AFTER", "5")
    source = RpicamSource(settle_seconds=0, stall_seconds=1.0)
    source.open()
    pid = source.process.pid
    try:
        with pytest.raises(SourceLost, match="sent no frame for"):
            for _ in range(10):
                source.read()
        lost = time.monotonic()
    finally:
        source.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # killed and reaped
    after_last = lost - stamps(tmp_path)[4]
    assert 1.0 + rpicam.TERM_WAIT <= after_last < 1.0 + rpicam.TERM_WAIT + rpicam.KILL_WAIT + 3


def test_a_child_the_kernel_keeps_does_not_hold_the_source(rpicam_vid, tmp_path,
                                                           monkeypatch):
    """A child stuck in a hung camera driver outlives SIGKILL until the kernel lets it go:
    the source is free within TERM_WAIT + KILL_WAIT all the same, a thread reaps the child
    later. (The stand-in is killed for real; its wait() is held back as the kernel would.)"""
    import subprocess
    import threading

    from hardware.camera import rpicam

    monkeypatch.setattr(rpicam, "TERM_WAIT", 0.5)
    monkeypatch.setattr(rpicam, "KILL_WAIT", 0.5)
    scene(tmp_path, monkeypatch, "imx708")
    monkeypatch.setenv("STANDIN_RPICAM_RAMP", "0")
    monkeypatch.setenv("STANDIN_RPICAM_STALL_AFTER", "5")
    source = RpicamSource(settle_seconds=0, stall_seconds=1.0)
    source.open()
    process, released = source.process, threading.Event()
    real_wait, real_poll = process.wait, process.poll

    def held_wait(timeout=None):
        if not released.wait(timeout):
            raise subprocess.TimeoutExpired(process.args, timeout)
        return real_wait()

    monkeypatch.setattr(process, "wait", held_wait)
    monkeypatch.setattr(process, "poll", lambda: real_poll() if released.is_set() else None)
    outcome = []

    def reading():
        try:
            for _ in range(10):
                source.read()
        except SourceLost as lost:
            outcome.append((time.monotonic(), str(lost)))

    reader = threading.Thread(target=reading, daemon=True)
    reader.start()
    reader.join(timeout=30)
    try:
        assert not reader.is_alive(), "ending the stuck child blocked the source"
        [(lost, detail)] = outcome
        assert detail.startswith("rpicam-vid sent no frame for ")
        assert lost - stamps(tmp_path)[4] < 1.0 + 0.5 + 0.5 + 3
        reapers = [t for t in threading.enumerate() if t.name == "rpicam-reaper"]
        assert reapers and process.returncode is None
    finally:
        released.set()
        source.close()
    reapers[0].join(timeout=10)
    assert process.returncode is not None, "the reaper collected the child once it went"


def test_the_recogniser_sees_no_frame_of_the_exposure_ramp(rpicam_vid, tmp_path, monkeypatch):
    """After a start, and after rpicam-vid restarted the camera itself (frames stopped for a
    while, then came back darker), the frames of the ramp are dropped: every frame handed
    over is the settled picture."""
    world = scene(tmp_path, monkeypatch, "imx708")
    monkeypatch.setenv("STANDIN_RPICAM_STALL_AFTER", "50")
    monkeypatch.setenv("STANDIN_RPICAM_STALL_SECONDS", "1.5")  # back before the stall limit
    settled = expected(world, "imx708", whole_sensor_band("imx708", *USUAL), *USUAL)
    source = RpicamSource()
    source.open()
    try:
        frames = [source.read().copy() for _ in range(60)]
    finally:
        source.close()
    first = frames[0]
    darker = [i for i, f in enumerate(frames) if not np.array_equal(f, first)]
    assert not darker, f"frames {darker} are from an exposure ramp"
    assert abs(float(first.mean()) - float(settled.mean())) < 1.5
    assert len(stamps(tmp_path)) >= 60 + 30, "the ramps' frames were sent"


def test_the_full_stream_fits_in_a_small_camera_memory(rpicam_vid, tmp_path, monkeypatch):
    """With 128 MB of camera memory (a Pi 3 or Zero 2 W), rpicam-vid's default 6 + 6
    buffers at 4608x2592 do not fit; the source's --buffer-count does."""
    scene(tmp_path, monkeypatch, "imx708")
    monkeypatch.setenv("STANDIN_RPICAM_RAMP", "0")
    monkeypatch.setenv("STANDIN_RPICAM_CMA_MB", "128")
    source = RpicamSource(full_fps=5, full_idle=300)
    source.open()
    try:
        source.read()
        crop = read_full(source, (300, 160, 760, 520), timeout=90)
    finally:
        source.close()
    assert crop.shape[1] > 1000
    assert all("--buffer-count" in line for line in starts(tmp_path))


@pytest.mark.parametrize("colour", [(30, 30, 30), (225, 225, 225), (40, 40, 200)])
def test_tray_colours_are_full_range(rpicam_vid, tmp_path, monkeypatch, colour):
    """rpicam-vid's yuv420 is full range (sYCC): a patch of known colour in the middle of
    the table comes back as itself, not stretched as limited range would."""
    world = np.full((864, 1536, 3), 90, np.uint8)
    world[232:632, 468:1068] = colour
    path = tmp_path / "patch.png"
    cv2.imwrite(str(path), world)
    monkeypatch.setenv("STANDIN_RPICAM_SCENE", str(path))
    monkeypatch.setenv("STANDIN_RPICAM_RAMP", "0")
    source = RpicamSource()
    source.open()
    try:
        source.read()
        crop = source.sharp_crop((600, 320, 680, 400), USUAL)  # the middle of the view
    finally:
        source.close()
    got = crop.reshape(-1, 3).mean(axis=0)
    assert np.abs(got - colour).max() < 4, f"{colour} came back as {got.round()}"


# ---------------------------------------------------------------- the rest of the source

def test_the_sensor_and_its_modes_come_from_list_cameras(rpicam_vid, monkeypatch):
    from hardware.camera.rpicam import list_camera

    for name, platform in [("imx708_wide", "pi5"), ("imx219", "pi4"), ("imx477", "pi5")]:
        monkeypatch.setenv("STANDIN_RPICAM_SENSOR", name)
        monkeypatch.setenv("STANDIN_RPICAM_PLATFORM", platform)
        camera = list_camera("rpicam-vid")
        truth = sensors.SENSORS[name]
        assert (camera.model, camera.array, camera.platform) == (name, truth.array, platform)
        assert sorted((m.width, m.height, m.depth, m.crop) for m in camera.modes) == sorted(
            (m.width, m.height, m.depth, m.crop) for m in truth.modes)
        usual, full = camera.pinned(30)
        assert usual.crop[2:] == full.crop[2:] == truth.array and usual.fps >= 30
    monkeypatch.setenv("STANDIN_RPICAM_SENSOR", "none")
    with pytest.raises(SourceLost, match="finds no camera: No cameras available!"):
        list_camera("rpicam-vid")


def test_frames_are_the_y_plane_as_gray_in_their_own_buffers(rpicam_vid, tmp_path):
    source = open_source("rpicam")
    assert isinstance(source, RpicamSource)
    source.open()
    try:
        first, second = source.read(), source.read()
    finally:
        source.close()
    assert first.shape == (720, 1280) and first.dtype == np.uint8
    assert first.flags.c_contiguous  # 1280: no padding on either platform
    # a new buffer per frame: the capture thread may hand `first` on while `second` is read
    assert not np.shares_memory(first, second)
    assert 40 < first.mean() < 220 and first.std() > 10  # a picture, not the chroma's 128s
    [line] = starts(tmp_path)
    assert "--width 1280 --height 720 --framerate 30 --mode 2304:1296:10:P" in line
    assert line.endswith(" => 2304:1296:10")


def test_a_buffer_is_reused_only_once_no_frame_uses_it(rpicam_vid, monkeypatch):
    """Frames are read into kept buffers: one whose every view is gone is read into again
    (no fresh 1.4 MB buffer per frame), one still held never is."""
    monkeypatch.setenv("STANDIN_RPICAM_RAMP", "0")
    source = RpicamSource(settle_seconds=0)
    source.open()
    try:
        held = source.read()
        kept = held.copy()
        address = source.read().__array_interface__["data"][0]  # dropped at once
        again = [source.read().__array_interface__["data"][0] for _ in range(5)]
        views = [source.read() for _ in range(BUFFERS + 2)]  # all held: none reused
    finally:
        source.close()
    # the source keeps its latest frame for `sharp_crop`: the dropped frames alternate
    # between two kept buffers, never a fresh one
    assert address in set(again) and len(set(again)) <= 2, "dropped frames are read into again"
    assert all(not np.shares_memory(held, v) for v in views)
    assert len({v.__array_interface__["data"][0] for v in views}) == len(views)
    assert (held == kept).all(), "a frame still held was never written again"
    assert len(source._buffers) == BUFFERS


def test_auto_prefers_rpicam_vid_when_installed(rpicam_vid):
    assert isinstance(open_source("auto"), RpicamSource)


def test_a_dead_rpicam_vid_is_a_lost_camera_and_a_new_one_is_started(rpicam_vid, tmp_path,
                                                                      monkeypatch):
    monkeypatch.setenv("STANDIN_RPICAM_FRAMES", "12")
    statuses = []
    # settle 0.1 s at 60 fps: 6 frames dropped, 6 handed over, then the child dies
    capture = Capture(RpicamSource(fps=60, settle_seconds=0.1), FAST,
                      on_status=lambda s, d: statuses.append(s))
    capture.start()
    try:
        wait_for(lambda: statuses.count(OK) >= 3, timeout=120)
    finally:
        capture.stop()
    assert statuses[:4] == [OK, LOST, OK, LOST]
    assert len(starts(tmp_path)) >= 3 and capture.reopens >= 2
    assert capture.frames_read >= 12


def test_a_child_killed_mid_stream_is_lost_not_raised(rpicam_vid):
    source = RpicamSource(settle_seconds=0)
    source.open()
    try:
        source.read()
        source.process.kill()
        with pytest.raises(SourceLost, match="rpicam-vid ended"):
            for _ in range(100):  # what was already in the pipe, then the end
                source.read()
    finally:
        source.close()
    assert source.process is None


def test_without_rpicam_vid_the_camera_is_lost_with_the_package_to_install(monkeypatch,
                                                                           tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SourceLost, match="apt install rpicam-apps-lite"):
        RpicamSource().open()


def test_an_odd_size_is_refused():
    with pytest.raises(ValueError, match="even"):
        RpicamSource(width=1001, height=750)


def test_the_stream_goes_back_to_the_usual_one_when_nobody_asks(rpicam_vid, tmp_path,
                                                                monkeypatch):
    scene(tmp_path, monkeypatch, "imx708")
    monkeypatch.setenv("STANDIN_RPICAM_RAMP", "0")
    source = RpicamSource(full_fps=5, full_idle=300, settle_seconds=0)
    source.open()
    try:
        source.read()
        read_full(source, (300, 160, 760, 520))
        source.full_idle = 0.2
        source.sharp_crop((300, 160, 760, 520), USUAL)  # the last time anyone asks
        wait_for(lambda: source.read() is not None and source.streaming.width == 1280,
                 timeout=120)
    finally:
        source.close()
    assert [line.split(" => ")[1] for line in starts(tmp_path)] == [
        "2304:1296:10", "4608:2592:10", "2304:1296:10"]
    assert "--buffer-count 2" in starts(tmp_path)[1]


def test_doctor_names_the_sensor_the_modes_and_the_stride(rpicam_vid, tmp_path, monkeypatch):
    from companion import doctor
    from tests.companion.test_doctor import ctx_for

    monkeypatch.setenv("STANDIN_RPICAM_SENSOR", "imx219")
    monkeypatch.setenv("STANDIN_RPICAM_PLATFORM", "pi4")
    monkeypatch.setenv("STANDIN_RPICAM_RAMP", "0")
    result = doctor.check_camera(ctx_for(tmp_path, camera="rpicam", camera_seconds=0.3))
    assert "camera rpicam: 1280x720" in result.summary
    assert ("sensor imx219 on a Pi 4 (64-byte rows); usual 1280x720 from mode 1640:1232:10:P "
            "(stride 1280), tray 3280x1844 from mode 3280:2464:10:P (stride 3328)"
            ) in result.summary


def test_doctor_names_the_sensor_of_the_camera_the_server_runs(rpicam_vid, tmp_path,
                                                               monkeypatch):
    """On the appliance the server owns the camera: doctor takes the sensor, the modes and
    the strides from the server's camera status (a real `companion serve`)."""
    from companion import doctor
    from tests.companion.test_doctor import ctx_for, running_server

    scene(tmp_path, monkeypatch, "imx477")
    monkeypatch.setenv("STANDIN_RPICAM_PLATFORM", "pi5")
    monkeypatch.setenv("COMPANION_CAMERA", "rpicam")
    with running_server(tmp_path, env=dict(os.environ)) as port:
        ctx = ctx_for(tmp_path, port=port)
        wait_for(lambda: "running in the server" in doctor.check_camera(ctx).summary,
                 timeout=60, what="the server's camera")
        result = doctor.check_camera(ctx)
    assert "frames" not in result.details  # doctor grabbed nothing itself
    assert ("(sensor imx477 on a Pi 5 (2 x 64-byte half rows); usual 1280x720 from mode "
            "2028:1520:12:P (stride 1280), tray 4056x2282 from mode 4056:3040:12:P "
            "(stride 4096))") in result.summary, result.summary

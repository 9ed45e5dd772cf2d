"""The Camera Module through rpicam-vid: the real RpicamSource reading a stand-in rpicam-vid
(tests/hardware/standin/rpicam_vid.py: raw I420 frames of the synthetic table on stdout)."""
import os
import stat
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from hardware.camera.capture import LOST, OK, Backoff, CameraService, Capture
from hardware.camera.recognizer import Recognizer
from hardware.camera.rpicam import BUFFERS, RpicamSource, command
from hardware.camera.sources import SourceLost, open_source
from hardware.camera.zones import ZoneMap
from hardware.synthetic.video import DEMO_ZONES, demo_script
from tests.hardware.test_camera_capture import Lockstep, as_tuple
from tests.waiting import wait_for

REPO = Path(__file__).resolve().parents[2]
FAST = Backoff(first=0.05, longest=0.2)


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("rpicam") / "frames.npy"


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
    return program


def starts(tmp_path) -> list[str]:
    log = tmp_path / "starts.log"
    return log.read_text().splitlines() if log.exists() else []


def test_frames_are_the_y_plane_as_gray_in_their_own_buffers(rpicam_vid, tmp_path):
    source = open_source("rpicam")
    assert isinstance(source, RpicamSource)
    source.open()
    try:
        first, second = source.read(), source.read()
    finally:
        source.close()
    assert first.shape == (720, 1280) and first.dtype == np.uint8
    assert first.flags.c_contiguous
    # a new buffer per frame: the capture thread may hand `first` on while `second` is read
    assert not np.shares_memory(first, second)
    assert 40 < first.mean() < 220 and first.std() > 10  # a picture, not the chroma's 128s
    assert starts(tmp_path) == [" ".join(command("rpicam-vid", 1280, 720, 30)[1:])]


def test_a_buffer_is_reused_only_once_no_frame_uses_it(rpicam_vid):
    """Frames are read into kept buffers: one whose every view is gone is read into again
    (no fresh 1.4 MB buffer per frame), one still held never is."""
    source = open_source("rpicam")
    source.open()
    try:
        held = source.read()
        kept = held.copy()
        address = source.read().__array_interface__["data"][0]  # dropped at once
        again = [source.read().__array_interface__["data"][0] for _ in range(5)]
        views = [source.read() for _ in range(BUFFERS + 2)]  # all held: none reused
    finally:
        source.close()
    # the source keeps its latest frame for `tray_crop`: the dropped frames alternate
    # between two kept buffers, never a fresh one
    assert address in set(again) and len(set(again)) <= 2, "dropped frames are read into again"
    assert all(not np.shares_memory(held, v) for v in views)
    assert len({v.__array_interface__["data"][0] for v in views}) == len(views)
    assert (held == kept).all(), "a frame still held was never written again"
    assert len(source._buffers) == BUFFERS


def test_auto_prefers_rpicam_vid_when_installed(rpicam_vid):
    assert isinstance(open_source("auto"), RpicamSource)


def test_the_demo_through_rpicam_vid_gives_the_scripted_observations(rpicam_vid, monkeypatch):
    script = demo_script()
    monkeypatch.setenv("STANDIN_RPICAM_FRAMES", str(len(script.frames)))
    observations, statuses = [], []
    ended = threading.Event()
    source = Lockstep(RpicamSource())  # every frame recognised, in order
    service = CameraService(source, Recognizer(zones=ZoneMap(DEMO_ZONES)),
                            on_observation=observations.append, on_frame=source.recognised,
                            on_status=lambda s, d: (statuses.append((s, d)),
                                                    s == LOST and ended.set()),
                            backoff=Backoff(first=30, longest=30),
                            every_frame=lambda: True)  # in lockstep: no still-table stride
    service.start()
    try:
        assert ended.wait(300), "rpicam-vid never ended"
    finally:
        service.stop()
    assert service.frames_processed == len(script.frames)
    assert [as_tuple(o) for o in observations] == [
        (e.kind, e.payload, e.zone, e.rotation) for e in script.expected]
    status, detail = statuses[1]
    assert status == LOST
    assert "rpicam-vid ended: exit code 1: ERROR: *** camera disconnected ***" in detail


def test_a_dead_rpicam_vid_is_a_lost_camera_and_a_new_one_is_started(rpicam_vid, tmp_path,
                                                                      monkeypatch):
    monkeypatch.setenv("STANDIN_RPICAM_FRAMES", "5")
    statuses = []
    capture = Capture(RpicamSource(fps=60), FAST, on_status=lambda s, d: statuses.append(s))
    capture.start()
    try:
        wait_for(lambda: statuses.count(OK) >= 3, timeout=120)
    finally:
        capture.stop()
    assert statuses[:4] == [OK, LOST, OK, LOST]
    assert len(starts(tmp_path)) >= 3 and capture.reopens >= 2
    assert capture.frames_read >= 10


def test_a_child_killed_mid_stream_is_lost_not_raised(rpicam_vid):
    source = RpicamSource()
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
    with pytest.raises(SourceLost, match="apt install rpicam-apps"):
        RpicamSource().open()


def test_a_width_with_row_padding_is_refused():
    with pytest.raises(ValueError, match="multiple of 64"):
        RpicamSource(width=1000, height=750)


def test_the_tray_is_cut_from_the_full_resolution_stream_while_asked_for(rpicam_vid, tmp_path):
    """Asking for the tray restarts rpicam-vid at full resolution: the recogniser's frames
    keep their size and view, the crop has the full stream's pixels and colour; nobody
    asking for a while: back to the usual stream."""
    import cv2

    source = RpicamSource(full=(2560, 1440), full_fps=30, full_idle=300)
    box = (400, 200, 720, 440)  # in the 1280x720 frame
    source.open()
    try:
        usual = source.read()
        low = source.tray_crop(box, (1280, 720))  # from the usual stream: what there is
        assert low.shape == (240, 320, 3)
        frames = [source.read() for _ in range(3)]
        crop = source.tray_crop(box, (1280, 720))
        assert source.streaming == (2560, 1440)
        assert all(f.shape == (720, 1280) for f in frames)
        assert crop.shape == (480, 640, 3)  # twice the pixels each way
        # the same view: the full frame scaled down is the usual frame
        assert np.abs(frames[-1].astype(int) - usual.astype(int)).mean() < 4
        # the crop is that part of the view, in colour
        small = cv2.resize(crop, (320, 240), interpolation=cv2.INTER_AREA)
        assert np.abs(small.astype(int) - low.astype(int)).mean() < 6
        assert np.abs(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(int)
                      - usual[200:440, 400:720].astype(int)).mean() < 6
        source.full_idle = 0.2
        source.tray_crop(box, (1280, 720))  # the last time anyone asks
        wait_for(lambda: source.read() is not None and source.streaming == (1280, 720),
                 timeout=120)
    finally:
        source.close()
    assert [line.split("--width ")[1].split(" --framerate")[0] for line in starts(tmp_path)] \
        == ["1280 --height 720", "2560 --height 1440", "1280 --height 720"]


def test_a_full_stream_of_another_view_is_refused():
    with pytest.raises(ValueError, match="aspect ratio"):
        RpicamSource(full=(3264, 2464))

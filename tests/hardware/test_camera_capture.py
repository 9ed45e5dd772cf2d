"""Capture thread and service: a video file as the camera, losing and regaining the camera."""
import threading
import time

import cv2
import numpy as np
import pytest

from hardware.camera.capture import LOST, OK, Backoff, CameraService, Capture
from hardware.camera.recognizer import Recognizer
from hardware.camera.sources import (
    FolderSource,
    FrameSource,
    OpenCVSource,
    SourceLost,
    SyntheticSource,
    open_source,
)
from hardware.camera.tracker import UnknownCode
from hardware.camera.zones import ZoneMap
from hardware.synthetic.scene import random_scene
from hardware.synthetic.video import DEMO_ZONES, Script, demo_script, write_video
from hardware.tags.format import card_payload
from tests.waiting import wait_for

FAST = Backoff(first=0.05, longest=0.2)


@pytest.fixture(scope="module")
def demo_video(tmp_path_factory):
    script = demo_script()
    path = write_video(tmp_path_factory.mktemp("video") / "demo.avi", script)
    return path, script


def as_tuple(observation):
    return (type(observation).__name__, observation.payload, observation.zone,
            observation.rotation)


class Lockstep(FrameSource):
    """A source that hands over its next frame only once the service has recognised the
    one before (``recognised`` is the service's ``on_frame``). The service keeps only the
    latest frame, as it should with a camera; on a loaded machine it would skip frames of a
    file and the observations would depend on the machine's speed. In lockstep every frame
    is recognised, in order, however slow the machine."""

    def __init__(self, source: FrameSource, patience: float = 60.0) -> None:
        self.source, self.name, self.patience = source, source.name, patience
        self._turn = threading.Semaphore(1)

    def recognised(self, frame, result) -> None:
        self._turn.release()

    def open(self):
        self.source.open()

    def read(self):
        if not self._turn.acquire(timeout=self.patience):
            raise SourceLost("the previous frame was never recognised")
        return self.source.read()

    def close(self):
        self.source.close()


def run_in_lockstep(source: FrameSource, backoff: Backoff):
    """The demo zones' recogniser over every frame of ``source``, in order, until the source
    is lost (its end): the service, its observations and its (status, detail) list."""
    observations, statuses = [], []
    done = threading.Event()
    source = Lockstep(source)
    service = CameraService(source, Recognizer(zones=ZoneMap(DEMO_ZONES)),
                            on_observation=observations.append, on_frame=source.recognised,
                            on_status=lambda s, d: (statuses.append((s, d)),
                                                    s == LOST and done.set()),
                            backoff=backoff,
                            every_frame=lambda: True)  # in lockstep: no still-table stride
    service.start()
    try:
        # the end is read only after the last frame was recognised
        assert done.wait(300), "the source never ended"
    finally:
        service.stop()  # joins the recogniser: the last frame's observations are in
    return service, observations, statuses


def test_video_file_as_camera_gives_the_scripted_observations(demo_video):
    path, script = demo_video
    service, observations, statuses = run_in_lockstep(
        OpenCVSource(str(path), loop=False, pace=True), Backoff(first=5, longest=5))
    assert service.frames_processed == len(script.frames)
    # the file's end shows as a lost camera; the tracker has not yet seen enough missed
    # frames to remove the action card, which is fine: it is still on the table.
    assert [as_tuple(o) for o in observations] == [
        (e.kind, e.payload, e.zone, e.rotation) for e in script.expected]
    assert [status for status, _ in statuses[:2]] == [OK, LOST]
    assert service.stats()["calibration"] == "marker"


def test_video_file_frames_carry_ground_truth(demo_video):
    import json

    path, script = demo_video
    truth = json.loads(path.with_suffix(".avi.truth.json").read_text())
    assert len(truth["frames"]) == len(script.frames) == 100
    capture = cv2.VideoCapture(str(path))
    assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) == 100
    assert capture.read()[1].shape == (720, 1280, 3)


def test_removed_video_file_is_a_lost_camera_and_comes_back(tmp_path):
    payload = card_payload("wwe", "A", "grain")
    script = Script(frames=demo_script(action=payload).frames[:6], expected=[])
    path = write_video(tmp_path / "short.avi", script)
    hidden = tmp_path / "hidden.avi"
    statuses = []
    capture = Capture(OpenCVSource(str(path), loop=True, pace=False), FAST,
                      on_status=lambda s, d: statuses.append((s, d)))
    capture.start()
    try:
        wait_for(lambda: capture.status == OK)
        path.rename(hidden)  # unplugged: the loop's reopen fails
        wait_for(lambda: capture.status == LOST)
        assert "no such file" in capture.detail
        seq = capture.latest().seq
        time.sleep(0.3)
        assert capture.latest().seq == seq  # no frames while lost, and no exception
        hidden.rename(path)  # plugged in again
        wait_for(lambda: capture.status == OK and capture.latest().seq > seq)
        assert capture.reopens >= 1
    finally:
        capture.stop()
    assert [s for s, _ in statuses][:3] == [OK, LOST, OK]


class FlakySource(FrameSource):
    """A camera that fails while ``broken`` is set: read raises, open raises."""

    name = "flaky"

    def __init__(self, frame):
        self.frame = frame
        self.broken = threading.Event()
        self.opens = 0

    def open(self):
        if self.broken.is_set():
            raise OSError("no device")
        self.opens += 1

    def read(self):
        if self.broken.is_set():
            raise RuntimeError("device unplugged")
        time.sleep(1 / 60)
        return self.frame


def test_a_raising_source_is_a_status_not_a_crash():
    payloads = [card_payload("wwe", "E", "e1")]
    frame, _ = random_scene(2, payloads)
    empty, _ = random_scene(2, [])
    source = FlakySource(frame)
    observations, statuses, recognised = [], [], []
    service = CameraService(source, on_observation=observations.append,
                            on_status=lambda s, d: statuses.append((s, d)), backoff=FAST,
                            on_frame=lambda frame, result: recognised.append(frame.seq),
                            every_frame=lambda: True)  # the last frame read is recognised
    service.start()
    try:
        wait_for(lambda: len(observations) == 1)
        source.broken.set()
        # lost, and the frame read just before the failure is recognised too
        wait_for(lambda: service.status == LOST and recognised
                 and recognised[-1] == service.capture.latest().seq)
        frames = service.frames_processed
        time.sleep(0.3)
        assert service.frames_processed == frames
        source.broken.clear()
        wait_for(lambda: service.status == OK and service.frames_processed > frames + 3)
        # a lost camera is not an empty table: the card was not removed meanwhile
        assert [type(o).__name__ for o in observations] == ["Appeared"]
        source.frame = empty
        wait_for(lambda: len(observations) == 2)
    finally:
        service.stop()
    assert [type(o).__name__ for o in observations] == ["Appeared", "Removed"]
    assert statuses[1] == (LOST, "RuntimeError: device unplugged")
    assert source.opens >= 2


def test_folder_source_reads_images_in_order_and_loops(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i:02d}.png"), np.full((10, 10, 3), i * 50, np.uint8))
    source = open_source(str(tmp_path))
    assert isinstance(source, FolderSource)
    source._pacer.period = 0
    source.open()
    values = [int(source.read()[0, 0, 0]) for _ in range(4)]
    assert values == [0, 50, 100, 0]
    with pytest.raises(SourceLost):
        FolderSource(tmp_path / "nope").open()


def test_folder_of_raw_gray_frames_is_read_without_decoding_and_recognised(tmp_path):
    """``.npy`` files are raw frames (a Pi camera's Y plane): the recogniser reads the
    cards in them; a file that is not a uint8 gray/BGR array is a lost camera, not a crash."""
    payloads = [card_payload("wwe", "C", "c1"), card_payload("wwe", "C", "c2")]
    frame, _ = random_scene(2, payloads)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    np.save(tmp_path / "000.npy", gray)
    source = open_source(f"folder:{tmp_path}")
    source._pacer.period = 0
    source.open()
    read = source.read()
    assert read.shape == gray.shape and read.dtype == np.uint8 and (read == gray).all()
    # handed over, not copied: a read-only array over the file's pages
    assert not read.flags.owndata and not read.flags.writeable
    recognizer = Recognizer()
    found = {o.payload for i in range(3) for o in recognizer.process(read, i / 30).observations}
    assert found == set(payloads)
    assert (read == gray).all(), "the recogniser does not write into the camera's frame"
    np.save(tmp_path / "001.npy", gray.astype(np.float32))
    source.open()
    source.read()
    with pytest.raises(SourceLost, match="not a gray or BGR frame"):
        source.read()
    whole = (tmp_path / "000.npy").read_bytes()
    (tmp_path / "002.npy").write_bytes(whole[: len(whole) // 2])  # cut short
    (tmp_path / "003.npy").write_bytes(b"not a frame at all")
    (tmp_path / "004.npy").write_bytes(b"")
    source.open()
    source.read()
    with pytest.raises(SourceLost, match="not a gray or BGR frame"):
        source.read()
    for _ in range(3):
        with pytest.raises(SourceLost, match="cannot read|not a raw frame"):
            source.read()
    assert (source.read() == gray).all(), "the folder loops back to the good frame"


def test_a_folder_of_frames_read_once_through_keeps_nothing_per_frame(tmp_path):
    """An evening's folder is read once through (a 30-minute bench folder has 55,000
    frames): what each read makes is let go. A Path per file cached its joined name when
    first opened, a string per frame kept for the whole run (issue 37, bench/evening.py
    --tracemalloc named it)."""
    import tracemalloc

    frame = np.zeros((48, 64), np.uint8)
    for i in range(600):
        np.save(tmp_path / f"{i:06d}.npy", frame)
    source = FolderSource(tmp_path, fps=0, loop=False)
    source.open()
    source.read()  # the header parsed and cached once
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for _ in range(599):
            source.read()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    sources = [tracemalloc.Filter(True, "*/hardware/camera/*"),
               tracemalloc.Filter(True, "*/pathlib.py")]
    grown = sum(stat.size_diff for stat in after.filter_traces(sources).compare_to(
        before.filter_traces(sources), "filename"))
    assert grown < 6000, f"{grown} bytes kept after 599 frames"  # was ~60 kB (100 a frame)


def test_a_folder_of_frames_holds_its_names_in_one_block(tmp_path):
    """The listing of an evening's folder is held for the whole run: one block of bytes,
    not a string per frame (55,000 strings held 3.6 MB), names read back as they were."""
    import tracemalloc

    names = [f"{i:06d}.npy" for i in range(5000)] + ["caf\u00e9.png"]
    for name in names:
        (tmp_path / name).touch()
    (tmp_path / "notes.txt").touch()
    tracemalloc.start()
    try:
        source = FolderSource(tmp_path, fps=0, loop=False)
        before = tracemalloc.take_snapshot()
        source.open()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    assert len(source.files) == len(names)
    assert [source.files[i] for i in range(len(names))] == sorted(names)
    held = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert held < 20 * len(names), f"{held} bytes for {len(names)} names"  # a list: ~70 each


def test_open_source_specs():
    assert isinstance(open_source("0"), OpenCVSource) and open_source("0").spec == 0
    assert open_source("/dev/video2").spec == "/dev/video2"
    assert open_source("rtsp://cam/stream").is_file is False
    assert isinstance(open_source("synthetic:3"), SyntheticSource)
    assert open_source("movie.avi").is_file
    from hardware.camera.sources import Picamera2Source
    auto = open_source("auto")
    assert isinstance(auto, Picamera2Source) if Picamera2Source.available() else auto.spec == 0


def test_missing_camera_device_is_lost_not_raised():
    capture = Capture(OpenCVSource("/dev/video99"), FAST).start()
    try:
        wait_for(lambda: capture.status == LOST)
    finally:
        capture.stop()
    assert capture.latest() is None


def test_unknown_code_in_service_is_reported_not_applied():
    frame, _ = random_scene(5, ["https://example.com/wifi"])
    source = FlakySource(frame)
    observations = []
    service = CameraService(source, on_observation=observations.append, backoff=FAST).start()
    try:
        wait_for(lambda: observations)
        time.sleep(0.2)
    finally:
        service.stop()
    assert [type(o) for o in observations] == [UnknownCode]


def test_picamera2_without_the_library_is_a_lost_camera():
    from hardware.camera.sources import Picamera2Source

    source = open_source("picamera2")
    assert isinstance(source, Picamera2Source)
    if Picamera2Source.available():  # pragma: no cover - only on a Pi
        pytest.skip("picamera2 is installed here")
    capture = Capture(source, FAST).start()
    try:
        wait_for(lambda: capture.status == LOST)
        assert "picamera2" in capture.detail
    finally:
        capture.stop()

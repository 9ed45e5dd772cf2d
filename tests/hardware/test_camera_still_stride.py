"""A still table is looked at in every `still_stride`-th frame only (issue 37: the camera's
CPU), and the frames between are never handed over; a card laid is still seen, at most
`still_stride` - 1 frames late, and a listener that needs every frame (the dice tray
being read) gets every frame."""
import threading

import cv2
import numpy as np

from hardware.camera import STILL_STRIDE
from hardware.camera.capture import CameraService
from hardware.camera.recognizer import ChangeSettings, Recognizer
from hardware.camera.sources import FolderSource, SourceLost
from hardware.camera.tracker import Appeared
from hardware.synthetic.scene import Camera, Hand, Placement
from hardware.tags.format import BOARD_MARKER, card_payload
from tests.waiting import wait_for

CARD = card_payload("wwe", "E", "e1")
MARKER = Placement(BOARD_MARKER, 640, 110, 0.0, marker=True)


def scenes(reaching: bool = False):
    """The empty table and the table with a card, each in 3 renders (sensor noise), gray;
    with ``reaching``, also the card with a hand come for it from the bottom edge (its
    fingertip on the card's lower edge): a card is lifted by a hand (issue 50)."""
    camera = Camera.create(11)

    def gray(placements, seed, hands=()):
        return cv2.cvtColor(camera.render(placements, seed=seed, hands=hands)[0],
                            cv2.COLOR_BGR2GRAY)

    empty = [gray([MARKER], seed) for seed in (1, 2, 3)]
    laid = [gray([MARKER, Placement(CARD, 640, 360, 0.0)], seed) for seed in (4, 5, 6)]
    if not reaching:
        return empty, laid
    hand = [gray([MARKER, Placement(CARD, 640, 360, 0.0)], seed, [Hand(660, 500, 180.0)])
            for seed in (7, 8, 9)]
    return empty, laid, hand


class Stepped(FolderSource):
    """A folder of raw frames, each frame handed over only once the one before was
    recognised (no frame dropped because the machine is slow); a frame passed over costs
    nothing and is noted. Every `retrieve` is counted by the frame's index."""

    def __init__(self, folder, frames: int) -> None:
        super().__init__(folder, fps=0, loop=False)
        self.frames = frames
        self.retrieved: list[int] = []
        self.passed: list[int] = []
        self.at_index = 0  # the index of the frame last grabbed
        self._turn = threading.Semaphore(1)
        self.done = threading.Event()

    def recognised(self, frame, result) -> None:
        self._turn.release()

    def grab(self) -> bool:
        if self.retrieved and self.retrieved[-1] == self.at_index:  # wait for its result
            if not self._turn.acquire(timeout=60):
                raise SourceLost("the previous frame was never recognised")
        elif self.at_index and self.at_index not in self.passed:
            self.passed.append(self.at_index)
        if self.index >= self.frames:
            self.done.set()
            raise SourceLost("end of the script")
        ok = super().grab()
        self.at_index = self.index
        return ok

    def retrieve(self):
        self.retrieved.append(self.at_index)
        if len(self.retrieved) == 1:
            self._turn.acquire()  # the first frame takes the turn
        return super().retrieve()


def write(folder, frames) -> None:
    folder.mkdir()
    for i, image in enumerate(frames):
        np.save(folder / f"{i:05d}.npy", image)


def run(source: Stepped, every_frame=None, recognizer=None) -> tuple[list, CameraService]:
    seen = []

    def observed(observation):
        if isinstance(observation, Appeared):
            seen.append((observation.payload, source.at_index))

    recognizer = recognizer or Recognizer(change=ChangeSettings(still_stride=2))
    service = CameraService(source, recognizer,
                            on_observation=observed, on_frame=source.recognised,
                            every_frame=every_frame)
    service.start()
    try:
        assert source.done.wait(120), "the script never ended"
        wait_for(lambda: service.frames_processed == len(source.retrieved))
    finally:
        service.stop()
    return seen, service


def test_a_still_table_skips_frames_and_a_card_laid_is_seen_one_frame_late_at_most(tmp_path):
    empty, laid = scenes()
    lay_at = 41  # 1-based frame index of the first frame showing the card
    frames = [empty[i % 3] for i in range(lay_at - 1)] + [laid[i % 3] for i in range(30)]
    write(tmp_path / "f", frames)
    source = Stepped(tmp_path / "f", len(frames))
    seen, service = run(source)
    # the still table before the card: about every other frame was never even read
    before = [i for i in source.passed if i < lay_at]
    assert len(before) >= 12, source.passed
    assert service.capture.frames_skipped == len(source.passed)
    # the frames passed over count as seen (up to the last one processed)
    assert service.recognizer.seen == source.retrieved[-1]
    # the card: Appeared after its debounce (2 frames) and at most 1 skipped frame
    assert [p for p, _ in seen] == [CARD]
    appear_frames = service.recognizer.tracker.settings.appear_frames
    assert seen[0][1] <= lay_at + appear_frames - 1 + 1, (seen, source.retrieved)
    # once the card is there and still again, frames are skipped again
    assert any(i > seen[0][1] + 3 for i in source.passed)


# what a player may wait for (issue 71, session 92): a card appearing from one frame to the
# next on a table still for a while is Appeared at most this many frames after the first
# frame showing it (its debounce, `appear_frames` 2, and the stride's frames passed over:
# 100 ms at 30 fps; every frame looked at: 1)
LATE_AT_MOST = 3


def test_the_default_stride_passes_over_most_of_a_still_table_and_sees_a_card_in_time(tmp_path):
    """The server's own recogniser (`build_recognizer` on the default `CameraSettings`):
    on a table still for 2 s it is handed fewer than half the frames (the stride is
    applied, and is more than every other frame), and a card that appears on it is
    Appeared within `LATE_AT_MOST` frames, whichever frame of the stride it appears in."""
    from hardware.camera.settings import CameraSettings, build_recognizer

    empty, laid = scenes()
    for lay_at in (61, 62, 63, 64):  # every phase of a stride up to 4
        frames = [empty[i % 3] for i in range(lay_at - 1)] + [laid[i % 3] for i in range(12)]
        folder = tmp_path / f"f{lay_at}"
        write(folder, frames)
        source = Stepped(folder, len(frames))
        seen, service = run(source, recognizer=build_recognizer(CameraSettings(), None))
        still = [i for i in source.retrieved if 10 < i < lay_at]
        assert len(still) < 0.45 * (lay_at - 11), (lay_at, source.retrieved)
        assert [p for p, _ in seen] == [CARD], seen
        assert seen[0][1] - lay_at <= LATE_AT_MOST, (lay_at, seen, source.retrieved)


def test_a_listener_that_needs_every_frame_gets_every_frame(tmp_path):
    empty, _ = scenes()
    frames = [empty[i % 3] for i in range(40)]
    write(tmp_path / "f", frames)
    source = Stepped(tmp_path / "f", len(frames))
    _, service = run(source, every_frame=lambda: True)
    assert source.passed == [] and service.capture.frames_skipped == 0
    assert source.retrieved == list(range(1, 41))


def test_skipped_frames_keep_the_whole_frame_safety_net_in_camera_frames():
    """`Recognizer.skipped` counts the frames passed over: the whole-frame decode of a
    still table still comes every `full_every` camera frames, not every `full_every`
    processed ones."""
    empty, _ = scenes()
    recognizer = Recognizer(change=ChangeSettings(full_every=30, still_stride=3))
    camera_frame, fulls = 0, []
    while camera_frame < 200:
        camera_frame += 1
        result = recognizer.process(empty[camera_frame % 3], camera_frame / 30)
        if result.mode == "full":
            fulls.append(camera_frame)
        skip = recognizer.still_skip()
        if skip:
            recognizer.skipped(skip)
            camera_frame += skip
    assert recognizer.still_skip() == 2  # the table is still: every third frame
    gaps = [b - a for a, b in zip(fulls, fulls[1:], strict=False)]
    assert len(fulls) >= 6 and all(30 <= g <= 32 for g in gaps), fulls


def test_the_host_page_fps_is_the_cameras_not_the_recognisers(tmp_path):
    """On a still table the recogniser sees every other frame; the host page's fps still
    counts every frame the camera gave (the frames passed over too)."""
    empty, _ = scenes()
    frames = [empty[i % 3] for i in range(80)]
    write(tmp_path / "f", frames)
    source = Stepped(tmp_path / "f", len(frames))
    _, service = run(source)
    times = list(service.frame_times)
    processed_rate = (len(times) - 1) / (times[-1][0] - times[0][0])
    assert len(source.passed) >= 30
    assert service.stats()["fps"] >= 1.5 * processed_rate


def test_an_mjpg_source_passes_over_a_frame_without_decoding_it(tmp_path):
    """`OpenCVSource.grab` dequeues a frame; only `retrieve` decodes it (a USB MJPG
    camera's JPEG decode is most of its capture cost): the frames after a few grabs are
    the file's frames in order, and a looping file starts over."""
    empty, _ = scenes()
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (1280, 720))
    # five frames told apart by their light (20 gray levels apart)
    frames = [np.clip(empty[0].astype(int) - 40 + 20 * i, 0, 255).astype(np.uint8)
              for i in range(5)]
    for image in frames:
        writer.write(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR))
    writer.release()
    from hardware.camera.sources import OpenCVSource

    source = OpenCVSource(str(path), loop=True, pace=False)
    source.open()
    try:
        got = []
        for step in ("read", "grab", "grab", "read", "grab", "read", "read"):
            if step == "read":
                got.append(cv2.cvtColor(source.read(), cv2.COLOR_BGR2GRAY))
            else:
                assert source.grab()
    finally:
        source.close()
    # frames 0, 3 and (looped) 0, 1 of the file: JPEG-compressed, so compared loosely
    for image, index in zip(got, (0, 3, 0, 1), strict=True):
        errors = [float(np.abs(image.astype(int) - f.astype(int)).mean()) for f in frames]
        assert int(np.argmin(errors)) == index, errors


def test_the_owner_s_still_stride_from_config_json_reaches_the_recogniser(tmp_path):
    """`"camera": {"still_stride": 1}` restores every frame on a still table (the old
    path); the default looks at every `STILL_STRIDE`-th one."""
    import json

    from hardware.camera.settings import CameraSettings, build_recognizer, load_settings

    empty, _ = scenes()
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"camera": {"still_stride": 1}}))
    skips = {}
    for name, settings in (("owner", load_settings(config)), ("default", CameraSettings())):
        recognizer = build_recognizer(settings, None)
        for k in range(10):
            recognizer.process(empty[k % 3], k / 30)
        skips[name] = recognizer.still_skip()
    assert skips == {"owner": 0, "default": STILL_STRIDE - 1}


def test_a_card_lifted_from_a_still_table_is_removed_after_its_misses_in_camera_frames(tmp_path):
    """A lift is a change: every frame is looked at from the first one the recogniser
    sees without the card until it is removed, so the removal comes at most one frame
    later than without the stride, and no frame is passed over while the miss count runs.
    The hand comes for the card over the 4 frames before it is gone (a card nothing
    reached from the frame's edge was not lifted: `Presence.watch`)."""
    from hardware.camera.tracker import Removed

    empty, laid, hand = scenes(reaching=True)
    lift_at = 41  # 1-based frame index of the first frame without the card
    frames = [laid[i % 3] for i in range(lift_at - 5)] + [hand[i % 3] for i in range(4)] + \
        [empty[i % 3] for i in range(30)]
    write(tmp_path / "f", frames)
    source = Stepped(tmp_path / "f", len(frames))
    removed = []
    service = CameraService(source, Recognizer(change=ChangeSettings(still_stride=2)),
                            on_observation=lambda o: isinstance(o, Removed) and removed.append(
                                source.at_index),
                            on_frame=source.recognised)
    service.start()
    try:
        assert source.done.wait(120), "the script never ended"
    finally:
        service.stop()
    vanish = service.recognizer.tracker.settings.vanish_frames
    assert len(removed) == 1
    assert removed[0] <= lift_at + vanish, (removed, source.passed)
    assert not [i for i in source.passed if lift_at < i <= removed[0]], source.passed
    assert any(i < lift_at for i in source.passed)  # the still table before was strided

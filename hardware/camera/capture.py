"""The capture thread and the recognition service built on it.

`Capture` reads a `FrameSource` in its own thread and keeps only the latest frame, so a slow
consumer never works on stale pictures. Losing the source is a status ("lost"), never an
exception in the caller; the source is reopened with a growing back-off until it returns.

`CameraService` runs a `Recognizer` on each new frame in a second thread and hands the
observations and status changes to callbacks (the companion's wiring).
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hardware.camera.recognizer import FrameResult, Recognizer
from hardware.camera.sources import FrameSource, SourceLost
from hardware.camera.tracker import Observation

log = logging.getLogger(__name__)

STARTING, OK, LOST, STOPPED = "starting", "ok", "lost", "stopped"


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    seq: int
    at: float  # time.monotonic() when it was read


@dataclass(frozen=True)
class Backoff:
    first: float = 0.5
    longest: float = 5.0
    factor: float = 2.0


class Capture:
    def __init__(self, source: FrameSource, backoff: Backoff | None = None,
                 on_status: Callable[[str, str], None] | None = None) -> None:
        self.source = source
        self.backoff = backoff or Backoff()
        self.on_status = on_status
        self.status = STARTING  # written under _status_lock (capture and stopping threads)
        self.detail = ""
        self._status_lock = threading.Lock()
        self.frames_read = 0
        self.reopens = 0
        self.frames_skipped = 0  # passed over by the source, never handed over
        self._latest: Frame | None = None
        self._seq = 0  # of the latest frame read or skipped (the capture thread's)
        self._wants: list[int] = []  # the frame each waiter waits for (under _cond)
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"capture {source.name}",
                                        daemon=True)

    def start(self) -> Capture:
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        self._thread.join(timeout)
        self._set_status(STOPPED, "")

    def latest(self) -> Frame | None:
        return self._latest

    def seq(self) -> int:
        """The number of the latest frame read or passed over: the frame being read now is
        the next one, and every frame after that is read from the source's later state."""
        with self._cond:
            return self._seq

    def wait_frame(self, after_seq: int, timeout: float, skip: int = 0) -> Frame | None:
        """The latest frame newer than ``after_seq + skip``, waiting up to ``timeout``
        seconds. The ``skip`` frames after ``after_seq`` are not wanted: while this waits,
        the source passes over them without handing them over (`FrameSource.skip`), and
        the waiter is woken for none of them."""
        deadline = time.monotonic() + timeout
        target = after_seq + skip + 1
        with self._cond:
            self._wants.append(target)
            try:
                while not self._stop.is_set():
                    frame = self._latest
                    if frame is not None and frame.seq >= target:
                        return frame
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return None
                    self._cond.wait(remaining)
            finally:
                self._wants.remove(target)
        return None

    def status_and_detail(self) -> tuple[str, str]:
        """Both, from one moment (another thread may be setting them)."""
        with self._status_lock:
            return self.status, self.detail

    def _set_status(self, status: str, detail: str) -> None:
        """Called by the capture thread and by whoever stops it; the listener is told
        outside the lock (it may ask for the status back)."""
        with self._status_lock:
            if (status, detail) == (self.status, self.detail):
                return
            self.status, self.detail = status, detail
        log.info("camera %s: %s %s", self.source.name, status, detail)
        if self.on_status is not None:
            try:
                self.on_status(status, detail)
            except Exception:  # a broken listener must not stop the camera
                log.exception("camera status callback failed")

    def _run(self) -> None:
        delay = self.backoff.first
        opened = False
        while not self._stop.is_set():
            if not opened:
                try:
                    self.source.open()
                    opened = True
                    if self.status == LOST:
                        self.reopens += 1
                    delay = self.backoff.first
                except SourceLost as error:
                    self._set_status(LOST, str(error))
                except Exception as error:  # any driver error is a lost camera, not a crash
                    self._set_status(LOST, f"{type(error).__name__}: {error}")
                if not opened:
                    self._stop.wait(delay)
                    delay = min(delay * self.backoff.factor, self.backoff.longest)
                    continue
            try:
                if not self.source.grab():
                    image = self.source.read()
                elif self._unwanted(self._seq + 1):  # decided once the frame is due
                    with self._cond:
                        self._seq += 1
                    self.frames_skipped += 1
                    continue
                else:
                    image = self.source.retrieve()
            except Exception as error:
                detail = str(error) if isinstance(error, SourceLost) else (
                    f"{type(error).__name__}: {error}")
                self._set_status(LOST, detail)
                self._close()
                opened = False
                self._stop.wait(delay)
                continue
            self.frames_read += 1
            with self._cond:
                self._seq += 1
                self._latest = Frame(image, self._seq, time.monotonic())
                if not self._wants or min(self._wants) <= self._seq:
                    self._cond.notify_all()
            if self.status != OK:
                self._set_status(OK, "")
        self._close()

    def _unwanted(self, seq: int) -> bool:
        """Every waiter waits for a later frame than ``seq`` (none waiting: wanted, so
        a busy consumer finds the latest frame when it asks)."""
        with self._cond:
            return bool(self._wants) and min(self._wants) > seq

    def _close(self) -> None:
        try:
            self.source.close()
        except Exception:
            log.exception("closing the camera source failed")


class CameraService:
    """Capture + recognition in background threads, reporting through callbacks."""

    def __init__(self, source: FrameSource, recognizer: Recognizer | None = None,
                 on_observation: Callable[[Observation], None] | None = None,
                 on_status: Callable[[str, str], None] | None = None,
                 on_frame: Callable[[Frame, FrameResult], None] | None = None,
                 backoff: Backoff | None = None,
                 every_frame: Callable[[], bool] | None = None) -> None:
        self.recognizer = recognizer or Recognizer()
        # () -> True while a listener needs every frame even on a still table (the dice
        # tray being read); else a still table is looked at in every few frames only
        self.every_frame = every_frame
        self.on_observation = on_observation
        self.on_frame = on_frame
        self.capture = Capture(source, backoff, on_status)
        self.frames_processed = 0
        # written by the recognizer thread, read by `stats` from any thread: under _stats_lock
        self.decode_ms: deque[float] = deque(maxlen=60)
        # (when read, seq) of the latest processed frames: the camera's rate counts the
        # frames a still table passed over too
        self.frame_times: deque[tuple[float, int]] = deque(maxlen=60)
        self._stats_lock = threading.Lock()  # a leaf: held only to copy or append
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera recognizer",
                                        daemon=True)

    @property
    def status(self) -> str:
        return self.capture.status

    def stats(self) -> dict:
        """For the host page: status, fps (the camera's: frames passed over on a still
        table count), decode time, where north comes from."""
        with self._stats_lock:
            times, decode = list(self.frame_times), sorted(self.decode_ms)
            frames = self.frames_processed
        fps = (times[-1][1] - times[0][1]) / (times[-1][0] - times[0][0]) \
            if len(times) > 1 and times[-1][0] > times[0][0] else 0.0
        status, detail = self.capture.status_and_detail()
        return {"status": status, "detail": detail,
                "fps": round(fps, 1),
                "decode_ms": round(decode[len(decode) // 2], 2) if decode else None,
                "calibration": self.recognizer.calibration_source,
                "frames": frames}

    def start(self) -> CameraService:
        self.capture.start()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.capture.stop()
        self._thread.join(5.0)

    def _run(self) -> None:
        seq = 0
        while not self._stop.is_set():
            skip = self._still_skip()
            frame = self.capture.wait_frame(seq, timeout=0.2, skip=skip)
            if frame is None:
                continue
            if skip and seq:  # frames passed over on purpose (not ones it was too slow for)
                self.recognizer.skipped(min(skip, frame.seq - seq - 1))
            seq = frame.seq
            try:
                result = self.recognizer.process(frame.image, frame.at)
            except Exception:
                log.exception("recognising a frame failed")
                continue
            with self._stats_lock:
                self.frames_processed += 1
                self.decode_ms.append(result.decode_ms)
                self.frame_times.append((frame.at, frame.seq))
            if self.on_frame is not None:
                self._safe(self.on_frame, frame, result)
            if self.on_observation is not None:
                for observation in result.observations:
                    self._safe(self.on_observation, observation)

    def _still_skip(self) -> int:
        """Frames the recogniser may pass over before the next (`Recognizer.still_skip`),
        unless a listener needs every frame."""
        if self.every_frame is not None and self._safe(self.every_frame):
            return 0
        return self.recognizer.still_skip()

    @staticmethod
    def _safe(callback, *args):
        try:
            return callback(*args)
        except Exception:
            log.exception("camera callback failed")
            return None

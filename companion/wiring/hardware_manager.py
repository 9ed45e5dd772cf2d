"""Starts the camera and the dice wiring once per server process, and reports their status.

Never under a reloader and never in tests unless asked (`START_HARDWARE`): `companion serve`
sets it. It is the app's `companion.context.HardwarePort`: ``camera`` is the running
`companion.wiring.camera.CameraWiring` (a `CameraPort`) or None, ``dice`` the running
`companion.wiring.dice.DiceWiring` (a `DicePort`) or None. Each part is started by its
module's ``start``:

    camera.start(settings, service, changed) -> CameraWiring | None (None: none configured)
    dice.start(settings, service, changed, camera, kinds, reader_options) -> DiceWiring

where ``service`` is the `GameService` (``service.access.current()`` is the game readings go to;
``service.act(Identity("table", game_id), action)`` records a reading) and ``changed()`` is
called when a part's status changes (the views carry it). A failing start is reported as a
status, never a crash.

The views carry the hardware status as it was last pushed down into the game layer's
`HardwareReport` (companion/game/hardware_report.py): at each ``changed()``, before the
views are re-sent, and on the ``hardware-status`` thread: every `TICK_S` seconds while a host
page is connected (the one screen that shows the frame rate; a host page connecting reads it
at once), else every `SAFETY_S` seconds (a change no part announces, `SAFETY_S`'s list; then
the views are re-sent). The view sender never calls up here. The host's camera and dice
pages ask `status` itself, live.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from companion.box.catalog import Kinds
from companion.game.hardware_report import ABSENT, HardwareReport
from companion.game.service import GameService
from companion.server import locks, threadnames
from companion.server.settings import Settings
from companion.wiring import camera as camera_wiring
from companion.wiring import dice as dice_wiring
from companion.wiring.face_judge import FaceJudge

log = logging.getLogger(__name__)
TICK_S = 1.0  # the status is read this often while a host page is connected (its frame rate)
# ... and this often while none is: what no part announces with `changed()` still reaches
# the table display and the phones (issue 71, session 89; read in the parts' code): another
# game put at the table (the dice' state and untaught dice are then the new game's; the
# camera drops the old game's pre-selections at its next frame), the camera's dice tray
# saved on the host's camera page or first seen in a frame (the dice' state), the taught
# faces' judgement beginning and ending (the TV's ``faces_checking``). Each reached the
# screens within a second before, within 5 s now (kept as a net rather than announced one
# by one: a status read from seven sources, and a change missed here would show never).
# A read costs ~0.13 ms (session 88's counters): once a second, 0.0002-0.0003 of a core of
# bench/evening.py's evening, where no host page is open; every 5 s, 0.0001 (the bench's
# resolution; `--against 81a2886`, two runs, docs/pi-appliance.md's eighteenth round).
SAFETY_S = 5.0
# With no host page the tick sleeps the whole `SAFETY_S` (a host page connecting wakes it,
# `push`), rather than waking every `TICK_S` to find no host: an idle wake-up costs its
# thread ~60 us beside the camera's busy thread (notes s91/i71 tick_wake.py, 2 x 500
# wake-ups, 59 / 64 us), 4 of every 5 s's wake-ups, ~0.00005 of a core (issue 71, session 91).
TICK_THREAD = "hardware-status"


class _Part:
    """A part's handle (``camera``, ``dice``). Setting one (`start`, or a tool or test
    wiring its own) is a new status: pushed down at once, and the views re-sent if the
    screens' part of it changed."""

    def __set_name__(self, owner, name: str) -> None:
        self.attribute = "_" + name

    def __get__(self, manager, owner=None):
        return self if manager is None else getattr(manager, self.attribute)

    def __set__(self, manager, handle) -> None:
        setattr(manager, self.attribute, handle)
        manager.push()


class HardwareManager:
    """The camera and the dice of one app (`companion.context.HardwarePort`)."""

    camera = _Part()  # a camera_wiring.CameraWiring, or None
    dice = _Part()  # a dice_wiring.DiceWiring, or None

    def __init__(self, settings: Settings, service: GameService, kinds: Kinds,
                 reader_options: dict | None = None,
                 report: HardwareReport | None = None,
                 host_watching: Callable[[], bool] | None = None) -> None:
        self.settings, self.service, self.kinds = settings, service, kinds
        self.reader_options = reader_options
        # where the views read the status (made here when the caller has none: a tool)
        self.report = report if report is not None else HardwareReport(service.access)
        self._camera: camera_wiring.CameraWiring | None = None
        self._dice: dice_wiring.DiceWiring | None = None
        self._errors: dict[str, dict] = {}  # a part that did not start, and why
        self.started = False
        self._lock = locks.lock("hardware manager")
        self._stop = threading.Event()
        self._wake = threading.Event()  # the tick's: `stop`, or a host page may have come
        self._ticker: threading.Thread | None = None
        # () -> whether a host page is connected (the app's `Connections.has_host`); a tool
        # or a test with no sockets reads the status every tick
        self._host_watching = host_watching or (lambda: True)
        self.ticks = 0  # the tick's wake-ups (tests: none while no host page is connected)
        # which taught card faces are too alike, judged on its own thread (face_judge.py):
        # shared by the camera's face reader and the deck page, camera or not
        self.judge = FaceJudge(settings.data_dir, catalog_of=None if kinds is None else
                               lambda game: kinds.get(game).catalog)
        if kinds is not None:
            kinds.subscribe(self.judge.changed)
        self._put()

    def start(self) -> None:
        with self._lock:
            if self.started:
                return
            self.started = True
        try:
            self.camera = camera_wiring.start(self.settings, self.service, self.changed,
                                              self.judge)
            if self.camera is None:
                self._errors["camera"] = camera_wiring.ABSENT
            elif self.kinds is not None:  # the cards known by face follow the deck page
                self.kinds.subscribe(self.camera.faces.catalog_changed)
        except Exception as exc:
            log.exception("camera did not start")
            self._errors["camera"] = {"state": "error", "detail": str(exc)}
        try:
            self.dice = dice_wiring.start(self.settings, self.service, self.changed,
                                          self.camera, self.kinds, self.reader_options)
        except Exception as exc:
            log.exception("dice did not start")
            self._errors["dice"] = {"state": "error", "detail": str(exc)}
        self._faces_skip_the_tray()
        self.push()
        self._ticker = threading.Thread(target=self._tick, name=TICK_THREAD, daemon=True)
        self._ticker.start()
        threadnames.name_os_threads()  # top -H and bench/evening.py tell the parts apart

    def _faces_skip_the_tray(self) -> None:
        """Tell the face reader where the dice tray lies: no card is looked for there. Said at
        start and at each change, since either part may come or go."""
        if self.camera is not None and self.dice is not None and self.dice.camera is not None:
            self.camera.faces.use_tray(self.dice.camera.tray_mm)

    def status(self) -> dict:
        out = {}
        for part, handle in (("camera", self.camera), ("dice", self.dice)):
            if handle is None:
                out[part] = self._errors.get(part, ABSENT)
                continue
            try:
                out[part] = handle.status()
            except Exception as exc:  # a part's broken status is shown, not a 500
                log.warning("the status of %s failed", part, exc_info=True)
                out[part] = {"state": "error", "detail": str(exc)}
        return out

    def changed(self) -> None:
        """A part's status changed: push it down, then re-send the views of the games in
        play (they carry it): every screen's when what the table display or a phone shows
        of it changed, else only the host pages' (they show every detail). A dice reader's
        observation or a camera warning the other screens do not show builds none of their
        views (issue 71, session 88: in 3 minutes of bench/evening.py 14 such re-sends, 13
        turns of ~4.6 views each built and nothing sent, of 110 turns and 507 views)."""
        self._faces_skip_the_tray()
        threadnames.name_os_threads()  # a part may have started a thread since (rare)
        self._resend("hardware" if self._put() else "host-hardware")

    def _put(self) -> bool:
        """Read the status and put it in the report (see `HardwareReport.put`)."""
        read_at = time.monotonic()
        return self.report.put(self.status(), read_at)

    def push(self) -> None:
        """Push the status down; the views are re-sent only if what the table display or a
        phone shows of it changed (a frame rate alone: the next views carry it). A host page
        connecting pushes: the tick, asleep for `SAFETY_S` while none was, is woken to read
        every `TICK_S` from now."""
        self._push()
        self._wake.set()

    def _push(self) -> None:
        if self._put():
            self._resend()

    def _resend(self, what: str = "hardware") -> None:
        for live in self.service.all():
            if live.status != "finished":
                self.service.notify(live, what)

    def _tick(self) -> None:
        """Read the status every `TICK_S` while a host page is connected, else every
        `SAFETY_S`, sleeping in between (woken by `push` or `stop` only)."""
        threadnames.name_this_thread()
        read = time.monotonic()
        while True:
            every = TICK_S if self._host_watching() else SAFETY_S
            left = read + every - time.monotonic()
            if left > TICK_S / 100:  # not due yet: sleep till it is, or till woken
                self._wake.wait(left)
                self._wake.clear()
                if self._stop.is_set():
                    return
                self.ticks += 1
                continue  # due now, or woken: a host page may have come (then `TICK_S`)
            read = time.monotonic()
            try:
                self._push()
            except Exception:  # the next tick tries again
                log.exception("pushing the hardware status failed")

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        for handle in (self.dice, self.camera):
            if handle is not None:
                try:
                    handle.stop()
                except Exception:  # the other parts still stop
                    log.exception("hardware stop failed")


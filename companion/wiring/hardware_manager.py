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
"""
from __future__ import annotations

import logging

from companion.box.catalog import Kinds
from companion.game.service import GameService, LiveGame
from companion.server import locks, threadnames
from companion.server.settings import Settings
from companion.wiring import camera as camera_wiring
from companion.wiring import dice as dice_wiring

log = logging.getLogger(__name__)
PARTS = ("camera", "dice")
ABSENT = {"state": "absent"}


class HardwareManager:
    """The camera and the dice of one app (`companion.context.HardwarePort`)."""

    def __init__(self, settings: Settings, service: GameService, kinds: Kinds,
                 reader_options: dict | None = None) -> None:
        self.settings, self.service, self.kinds = settings, service, kinds
        self.reader_options = reader_options
        self.camera: camera_wiring.CameraWiring | None = None
        self.dice: dice_wiring.DiceWiring | None = None
        self.errors: dict[str, dict] = {}  # a part that did not start, and why
        self.started = False
        self._lock = locks.lock("hardware manager")

    def start(self) -> None:
        with self._lock:
            if self.started:
                return
            self.started = True
        try:
            self.camera = camera_wiring.start(self.settings, self.service, self.changed)
            if self.camera is None:
                self.errors["camera"] = camera_wiring.ABSENT
            elif self.kinds is not None:  # the cards known by face follow the deck page
                self.kinds.subscribe(self.camera.faces.catalog_changed)
        except Exception as exc:
            log.exception("camera did not start")
            self.errors["camera"] = {"state": "error", "detail": str(exc)}
        try:
            self.dice = dice_wiring.start(self.settings, self.service, self.changed,
                                          self.camera, self.kinds, self.reader_options)
        except Exception as exc:
            log.exception("dice did not start")
            self.errors["dice"] = {"state": "error", "detail": str(exc)}
        if self.camera is not None and self.dice is not None and self.dice.camera is not None:
            self.camera.faces.use_tray(self.dice.camera.tray_mm)  # the dice tray: no card
        threadnames.name_os_threads()  # top -H and bench/evening.py tell the parts apart

    def status(self) -> dict:
        out = {}
        for part, handle in (("camera", self.camera), ("dice", self.dice)):
            if handle is None:
                out[part] = self.errors.get(part, ABSENT)
                continue
            try:
                out[part] = handle.status()
            except Exception as exc:  # a part's broken status is shown, not a 500
                log.warning("the status of %s failed", part, exc_info=True)
                out[part] = {"state": "error", "detail": str(exc)}
        return out

    def status_for(self, live: LiveGame) -> dict:
        """`status`, as the screens of the game ``live`` show it (`away`)."""
        return away(self.status(), live, self.service.access.at_table())

    def changed(self) -> None:
        """Re-send the views of the games in play (they carry the hardware status)."""
        if self.camera is not None and self.dice is not None and self.dice.camera is not None:
            self.camera.faces.use_tray(self.dice.camera.tray_mm)  # the dice tray: no card
        threadnames.name_os_threads()  # a part may have started a thread since (rare)
        for live in self.service.all():
            if live.status != "finished":
                self.service.notify(live, "hardware")

    def stop(self) -> None:
        for handle in (self.dice, self.camera):
            if handle is not None:
                try:
                    handle.stop()
                except Exception:  # the other parts still stop
                    log.exception("hardware stop failed")


def away(status: dict, live, at_table) -> dict:
    """The hardware status as the screens of ``live`` show it. For the game at the table,
    as it is; for any other game each device that is there is ``"elsewhere"`` (its readings
    go to the game at the table, so no screen of this game may promise one), with
    ``table``: where the hardware is (``{"here", "game", "title", "players"}``)."""
    here = at_table is not None and at_table.id == live.id
    where = {"here": here, "game": None, "title": None, "players": None}
    if at_table is not None and not here:
        where.update(game=at_table.id, title=dict(at_table.kind.title),
                     players=", ".join(p["name"] for p in at_table.players))
    out = dict(status)
    if not here:
        for part in PARTS:
            state = (status.get(part) or {}).get("state")
            if state and state != "absent":
                out[part] = {"state": "elsewhere"}
    else:  # a warning or would-be action of the game the camera served before is stale
        for part in PARTS:
            if isinstance(out.get(part), dict):
                out[part] = {k: [w for w in v if not isinstance(w, dict)
                                 or w.get("game") in (None, live.id)]
                             if k in ("warnings", "would") and isinstance(v, list) else v
                             for k, v in out[part].items()}
    out["table"] = where
    return out

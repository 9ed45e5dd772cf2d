"""Starts the camera and dice managers once per server process, and reports their status.

Never under a reloader and never in tests unless asked (`START_HARDWARE`): `companion serve`
sets it. The hardware areas fill in `companion/wiring/camera.py` and
`companion/wiring/dice.py`; each may expose

    def start(app, service, changed) -> handle

where ``service`` is the `companion.game.service.GameService` (``service.current()`` is the game
readings go to: the game at the table, while it runs;
``service.act(Identity("table", game_id), action)`` records a reading;
``service.set_preview(game_id, rotation)`` shows a turning event card), ``changed()`` is to be
called when the status changes (the views are re-sent), and ``handle.status()`` returns a small
JSON dict such as ``{"state": "ok" | "absent" | "error", "detail": "..."}``; ``handle.stop()``
is optional. A missing module or a failing start is reported as a status, never a crash.
"""
from __future__ import annotations

import importlib
import logging
import threading

from flask import Flask

from companion.server import threadnames

log = logging.getLogger(__name__)
PARTS = ("camera", "dice")
ABSENT = {"state": "absent"}


class HardwareManager:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self.handles: dict[str, object] = {}
        self.errors: dict[str, dict] = {}
        self.started = False
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if self.started:
                return
            self.started = True
        service = self.app.extensions["companion"]
        for part in PARTS:
            try:
                module = importlib.import_module(f"companion.wiring.{part}")
            except ImportError as exc:
                if exc.name != f"companion.wiring.{part}":
                    log.exception("%s wiring cannot be imported", part)
                    self.errors[part] = {"state": "error", "detail": str(exc)}
                continue
            starter = getattr(module, "start", None)
            if starter is None:
                continue
            try:
                self.handles[part] = starter(self.app, service, self.changed)
            except Exception as exc:
                log.exception("%s did not start", part)
                self.errors[part] = {"state": "error", "detail": str(exc)}
        threadnames.name_os_threads()  # top -H and bench/evening.py tell the parts apart

    def status(self) -> dict:
        out = {}
        for part in PARTS:
            handle = self.handles.get(part)
            if handle is not None and hasattr(handle, "status"):
                try:
                    out[part] = handle.status()
                except Exception as exc:  # a part's broken status is shown, not a 500
                    log.warning("the status of %s failed", part, exc_info=True)
                    out[part] = {"state": "error", "detail": str(exc)}
            else:
                out[part] = self.errors.get(part, ABSENT)
        return out

    def changed(self) -> None:
        """Re-send the views of the games in play (they carry the hardware status)."""
        threadnames.name_os_threads()  # a part may have started a thread since (rare)
        service = self.app.extensions["companion"]
        for live in service.all():
            if live.status != "finished":
                service.notify(live, "hardware")

    def stop(self) -> None:
        for handle in self.handles.values():
            stop = getattr(handle, "stop", None)
            if stop:
                try:
                    stop()
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
    out["table"] = where
    return out


def status_for(app: Flask, live) -> dict:
    """`status`, as the screens of the game ``live`` show it (`away`)."""
    return away(status(app), live, app.extensions["companion"].at_table())


def init_app(app: Flask) -> None:
    app.extensions["companion.hardware"] = HardwareManager(app)


def start(app: Flask) -> None:
    app.extensions["companion.hardware"].start()


def status(app: Flask) -> dict:
    return app.extensions["companion.hardware"].status()

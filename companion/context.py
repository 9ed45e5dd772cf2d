"""The one object through which the app's parts reach each other, made in the factory.

`create_app` builds every part, then one `Context` holding them; a route, a socket handler or
a command finds a part as ``context.current().service`` (or ``context.of(app)``), never by a
string key, by probing another part with ``hasattr`` or by importing a module by name. The
running camera and dice are reached through their ports (`CameraPort`, `DicePort`), which
say all another part may ask of them; the camera answers what it sees with an immutable
`CameraSnapshot`. `companion/wiring/` implements the ports; a part that is absent (no camera
configured, a reader that did not start) is ``None``, and its status says why.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from flask import Flask, current_app
from flask_socketio import SocketIO

from companion.box.catalog import Kinds
from companion.game.events_bus import Bus
from companion.game.recipients import Connections
from companion.game.sender import ViewSender
from companion.game.service import GameService, Identity
from companion.server.frames import FrameLog
from companion.server.security import CreationLimits, RateLimiter
from companion.server.settings import Settings
from engine.api import Sighting

KEY = "companion.context"  # where Flask keeps it: app.extensions[KEY], read only by `of`


@dataclass(frozen=True)
class CameraSnapshot:
    """What the camera saw in its latest frame, published whole by the camera thread: a
    reader keeps one consistent moment however long it looks at it. ``frame`` is the
    latest processed `hardware.camera.capture.Frame` (its pixels never written after
    capture) and ``result`` its `FrameResult`; ``cards`` the cards at rest, as the game
    ``game`` (the one the camera serves) was told them."""

    game: str | None = None
    frame: Any = None
    result: Any = None
    calibration_source: str = "none"  # where north comes from ("none": not calibrated)
    calibration: Any = None  # image px -> board mm (`hardware.camera.calibration.Calibration`)
    cards: tuple[Sighting, ...] = ()

    @property
    def marker_seen(self) -> bool:
        return self.result is not None and bool(self.result.marker_seen)

    @property
    def detections(self) -> tuple:
        return tuple(self.result.detections) if self.result is not None else ()

    def sticker_report(self) -> dict:
        """Pixels per module of the symbols in view (the wizard warns below 3)."""
        from hardware.camera import calibration as calibration_file

        return calibration_file.sticker_report(list(self.detections))


class CameraPort(Protocol):
    """The running camera, as the routes and the table guide use it."""

    def status(self) -> dict: ...

    def snapshot(self) -> CameraSnapshot: ...

    def set_acting(self, on: bool) -> None: ...

    def save_calibration(self) -> dict: ...

    def mjpeg(self, fps: float = 10.0, stop=None) -> Iterator[bytes]: ...

    def lay_demo_die(self, colour: str, face: int) -> bool: ...

    def lay_demo_card(self, picture: Any) -> bool: ...

    def answer_unknown(self, zone: str, card: str) -> None: ...

    def set_mains(self, hz: int) -> bool: ...

    def refocus(self) -> bool: ...

    def card_px(self) -> int: ...


class DicePort(Protocol):
    """The running dice wiring (a reader, the camera's tray, or the phones), as the routes
    and the socket handlers use it."""

    def status(self) -> dict: ...

    def choose(self, source: str) -> None: ...

    def enter_face(self, identity: Identity, die: Any, face: Any) -> dict | None: ...

    def tray_changed(self) -> None: ...

    def tray_image(self) -> Any: ...


class HardwarePort(Protocol):
    """The hardware manager: the parts it started, their status, and start and stop."""

    camera: CameraPort | None
    dice: DicePort | None
    judge: Any  # the taught card faces' too-alike judgement (wiring/face_judge.py)

    def status(self) -> dict: ...

    def changed(self) -> None: ...

    def push(self) -> None: ...

    def start(self) -> None: ...

    def stop(self) -> None: ...


@dataclass(frozen=True)
class Context:
    """Every part of one app. Frozen: the parts are made once, in `create_app`."""

    settings: Settings
    service: GameService
    bus: Bus  # what the services publish (views changed, tokens revoked), to subscribers
    kinds: Kinds  # the installed games with the owner's catalogs; told when one changes
    limiter: RateLimiter
    creations: CreationLimits  # new games and imports per address and in all (issue 67)
    frames: FrameLog  # malformed socket frames, counted
    socketio: SocketIO
    connections: Connections  # the connected sockets and what each was sent
    views: ViewSender  # the one sender of views
    hardware: HardwarePort


def of(app: Flask) -> Context:
    """The context `create_app` made for ``app``."""
    return app.extensions[KEY]


def current() -> Context:
    """The context of the app handling the current request."""
    return current_app.extensions[KEY]

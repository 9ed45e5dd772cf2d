"""The Flask application factory (the flaskr pattern): `create_app(test_config=None)`.

One Flask app, one Flask-SocketIO server in ``threading`` mode (real WebSockets through
simple-websocket), one `GameService` over one SQLite file in the data directory. The data
directory holds everything that changes: ``companion.sqlite3``, ``secret_key``, compiled
translations, owner catalogs, backups, ``config.json``. Its settings: companion/server/settings.py.
"""
from __future__ import annotations

import logging
import os
import shutil
from functools import partial
from pathlib import Path

from flask import Flask
from flask_compress import Compress
from flask_socketio import SocketIO

from companion import context
from companion.blueprints import (
    camera,
    common,
    deck,
    dice,
    game_assets,
    history,
    host,
    pages,
    records,
    sockets,
    table_guide,
)
from companion.box import catalog
from companion.game import events_bus, games, hardware_report
from companion.game.recipients import Connections
from companion.game.sender import ViewSender
from companion.game.service import GameService
from companion.game.store import Store
from companion.server import (
    bodies,
    budget,
    frames,
    headers,
    i18n,
    security,
    settings,
    text,
    transport,
)
from companion.server.packet import JsonPacket
from companion.wiring.hardware_manager import HardwareManager
from hardware import atomic_file

log = logging.getLogger(__name__)
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def secret_key(data_dir: Path) -> bytes:
    """Generated once into ``DIR/secret_key`` (mode 0600) so sessions survive restarts."""
    path = data_dir / "secret_key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(32))
            f.flush()
            os.fsync(f.fileno())
    return path.read_bytes()


def clean_stale_writes(data_dir: Path) -> None:
    """Temporary files a power cut left behind mid-write (hardware/atomic_file.py): the
    settings' beside ``config.json``, the deck's under ``catalogs/`` (and an interrupted
    catalog import's staging folder). Removed before anything writes."""
    removed = atomic_file.clean_stale(data_dir, recursive=False)
    removed += atomic_file.clean_stale(data_dir / "catalogs")
    for staging in (data_dir / "catalogs").glob(".*.import-*"):
        shutil.rmtree(staging, ignore_errors=True)
        removed.append(staging)
    for path in removed:
        log.warning("removed %s, left by an interrupted write", path)


def server_busy(app: Flask, environ, start_response):
    """The translated 503 of a request over its share of the threads (`budget.Budget`)."""
    with app.request_context(environ):
        response = common.json_error("server_busy", {}, 503)
        response.headers["Retry-After"] = "10"
        return response(environ, start_response)


def create_app(test_config: dict | None = None) -> Flask:
    """The app, with its settings resolved once (companion/server/settings.py): defaults <
    DATA/config.json < COMPANION_* environment < ``test_config`` (`companion serve` passes
    its command line here). Every part it makes is in its `companion.context.Context`."""
    security.install_log_redaction()
    app = Flask(__name__, template_folder=str(WEB_DIR / "templates"),
                static_folder=str(WEB_DIR / "static"), static_url_path="/static")
    app.config.from_mapping(
        GAMES=None,  # {name: (module, catalog)} to run other modules (tests)
        START_HARDWARE=False,  # this process runs the camera and dice (`companion serve`)
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        MAX_CONTENT_LENGTH=4 * 1024 * 1024,
    )
    if test_config:
        app.config.from_mapping(test_config)
    resolved = settings.resolve(test_config)
    for problem in resolved.problems:
        log.warning("setting refused: %s", problem)
    app.config.update(settings.app_config(resolved))
    if resolved.server.certfile:  # served over https: the session cookie never goes over http
        app.config["SESSION_COOKIE_SECURE"] = True
    data_dir = resolved.data_dir
    data_dir.mkdir(parents=True, exist_ok=True)
    clean_stale_writes(data_dir)
    app.secret_key = app.config.get("SECRET_KEY") or secret_key(data_dir)
    i18n.init_app(app, data_dir, games.Installed(app.config["GAMES"] or {}))

    kinds = catalog.Kinds(data_dir, app.config["GAMES"])
    bus = events_bus.Bus()
    service = GameService(Store(data_dir / "companion.sqlite3"), kinds,
                          snapshot_every=resolved.snapshot_every, bus=bus)
    service.load_all()

    socketio = SocketIO(app, async_mode="threading", serializer=JsonPacket, logger=False,
                        engineio_logger=False, ping_interval=10, ping_timeout=10,
                        max_http_buffer_size=64 * 1024, **transport.SOCKETIO_OPTIONS)
    app.session_interface = transport.SocketSession()  # none opened per socket event
    app.wsgi_app = transport.NoDeflate(app.wsgi_app)  # plain WebSocket frames: less Pi CPU
    # unproven requests and sockets within their share of the threads (issue 67)
    app.wsgi_app = budget.Budget(app.wsgi_app, service, resolved.server.threads,
                                 partial(server_busy, app))
    frame_log = frames.FrameLog()  # malformed frames: one line each
    frames.guard(frame_log)
    Compress(app)  # pages, scripts, styles and JSON go out compressed (not the MJPEG preview)

    # the hardware pushes its status down into the report the views read (issue 65)
    report = hardware_report.HardwareReport(service.access)
    connections = Connections()
    hardware = HardwareManager(resolved, service, kinds, app.config.get("DICE_READER_OPTIONS"),
                               report, connections.has_host)
    views = ViewSender(app, socketio.emit, connections, report.for_game)
    bus.subscribe(events_bus.ViewsChanged, views.views_changed)  # the service -> the sender
    made = context.Context(
        settings=resolved, service=service, bus=bus, kinds=kinds,
        limiter=security.RateLimiter(resolved.rate_limit.attempts, resolved.rate_limit.window_s),
        creations=security.CreationLimits(),
        frames=frame_log, socketio=socketio, connections=connections, views=views,
        hardware=hardware)
    app.extensions[context.KEY] = made

    game_assets.init_app(app)  # each game's static files and template partials
    for blueprint in (pages.bp, host.bp, records.bp, deck.bp, camera.bp, dice.bp,
                      table_guide.bp, history.bp):
        app.register_blueprint(blueprint)
    app.register_error_handler(404, common.not_found)
    app.register_error_handler(405, common.wrong_method)
    sockets.init_app(made)
    # a chunked body measured too; every 413 the app's own, translated (issue 67)
    bodies.init_app(app, partial(common.too_large, app.config["MAX_CONTENT_LENGTH"]))
    text.init_app(app, common.refuse_text)  # one rule for text at every HTTP door
    headers.init_app(app)  # CSP, no framing, nosniff, no referrer (issue 67)

    if app.config["START_HARDWARE"] and resolved.hardware:
        hardware.start()
    return app

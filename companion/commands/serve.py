"""`companion serve`: the production server (gunicorn, 1 worker, many threads).

One worker because the games live in that process's memory (and the hardware threads too);
threads because Flask-SocketIO's ``threading`` mode keeps one thread per WebSocket.
``--demo`` creates (once) a demo table with its seats ready to join.

The master (gunicorn's arbiter) never imports the app: the worker builds it (`Server.load`)
and ``--demo`` sets its tables up in a child process. Python writes to every object it
uses (reference counts, 3.11's specialised bytecode inside code objects), so the app's
modules imported before the fork were copied into the worker page by page anyway, and the
master kept a second copy of them for nothing (issue 37: ~25 MB of PSS, docs/pi-appliance.md).
"""
from __future__ import annotations

import gc
import json
import logging
import os
import sys
import traceback
from pathlib import Path

import click
from gunicorn.app.base import BaseApplication

from companion.game.games import known

DEMO_PIN = "1234"
DEMO_NAMES = ("Anna", "Bruno", "Chiara", "Dario")


# gunicorn's atoms: the request's time, method, path without its query, status, milliseconds
ACCESS_LOG_FORMAT = "%(t)s %(m)s %(U)s %(s)s %(M)sms"


def gunicorn_settings() -> set[str]:
    from gunicorn.config import KNOWN_SETTINGS

    return {setting.name for setting in KNOWN_SETTINGS}


class Server(BaseApplication):
    """gunicorn run from Python, so `companion serve` needs no separate config file."""

    def __init__(self, config: dict, options: dict) -> None:
        self.config = config
        self.options = options
        self.app = None  # built in the worker (`load`)
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)
        self.cfg.set("worker_exit", self.worker_exit)

    def load(self):
        """Build the app in the worker: its SQLite handle and hardware threads live there."""
        from companion.app import create_app
        from companion.server import memory, thread_errors

        thread_errors.install()  # a client that hung up is one line, not a traceback
        self.app = create_app(self.config)
        memory.start_trimming()  # the freed frame buffers back to the system (issue 37)
        return self.app

    def worker_exit(self, server, worker) -> None:
        """On a clean stop: stop the camera and dice threads, close the database."""
        from companion import context

        if self.app is not None:  # None: the worker stopped before it loaded
            parts = context.of(self.app)
            parts.hardware.stop()
            parts.service.store.close()


def share_with_worker() -> None:
    """Before gunicorn forks the worker: collect what the setup left and freeze the rest,
    so the worker's garbage collector never writes to the objects it inherited and their
    pages stay shared with this process instead of being copied (on the Pi, megabytes)."""
    gc.collect()
    gc.freeze()


def demo_lines(config: dict, base: str, only: tuple = ()) -> list[str]:
    """`demo_game` on an app of its own in a forked child process, so that this process
    (gunicorn's master, which forks the worker) never imports or builds the app. A refusal
    (`click.UsageError`) comes back raised here.

    A bare fork and a pipe, not `multiprocessing`: its queues need POSIX semaphores
    (/dev/shm), which a hardened service or a chroot may not have (the clean Bookworm
    install test found it)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: build the app, set the tables up, answer, and go
        os.close(read_end)
        try:
            try:
                answer = {"lines": _demo_in_child(config, base, only)}
            except click.UsageError as error:
                answer = {"usage": error.message}
            except BaseException as error:  # noqa: BLE001 - said by the parent
                traceback.print_exc()
                answer = {"error": f"{type(error).__name__}: {error}"}
            with os.fdopen(write_end, "w", encoding="utf-8") as pipe:
                json.dump(answer, pipe)
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, encoding="utf-8") as pipe:
        text = pipe.read()
    os.waitpid(pid, 0)
    answer = json.loads(text) if text else {"error": "the demo set-up stopped"}
    if "usage" in answer:
        raise click.UsageError(answer["usage"])
    if "error" in answer:
        raise click.ClickException(f"the demo tables could not be set up: {answer['error']}")
    return answer["lines"]


def _demo_in_child(config: dict, base: str, only: tuple) -> list[str]:
    from companion import context
    from companion.app import create_app

    app = create_app(dict(config, START_HARDWARE=False))
    try:
        return demo_game(app, base, only)
    finally:
        context.of(app).service.store.close()


def demo_game(app, base: str, only: tuple = ()) -> list[str]:
    """A demo table per installed game (created on first use) and where to join them."""
    from companion import context
    from companion.server import i18n

    parts = context.of(app)
    service = parts.service

    # a game installed without its pages cannot be played at a table: no demo for it
    with app.app_context():
        playable = [n for n in known() if i18n.web_dir(n)]
    names = list(app.config.get("GAMES") or {}) or playable
    unknown = set(only) - set(names)
    if unknown:
        raise click.UsageError(f"no such game: {', '.join(sorted(unknown))}")
    names = [n for n in names if not only or n in only]
    lines = []
    for name in names:
        live = next((g for g in service.all() if g.kind.name == name
                     and g.row["setup"].get("demo") and g.status != "finished"), None)
        if live is None:
            info = parts.kinds.get(name).module.info
            seats = info.seats[:info.max_players]
            players = [{"seat": seat.id, "name": who, "colour": seat.colour}
                       for seat, who in zip(seats, DEMO_NAMES, strict=False)]
            live = service.create(name, {"players": players, "demo": True}, DEMO_PIN)
        codes = service.store.join_codes(live.id)
        title = live.kind.title.get("en", name)
        pairing = service.access.new_table_pairing(live.id)
        lines += [f"{title}",
                  f"  Table display: {base}/table/{live.id}/pair?code={pairing}",
                  f"  Host page:     {base}/host/{live.id}  (PIN {DEMO_PIN})"]
        taken = service.store.claimed_seats(live.id)  # a restart on the same data
        for seat in sorted(codes, key=live.seats.index):
            if seat in taken:  # its code is used up: no link would work
                lines.append(f"  Seat {seat}:     taken by a phone; the host frees it on the "
                             "host page (Seat a player on a new phone: New join code)")
            else:
                lines.append(f"  Join {seat}:     {base}/join/{live.id}/{seat}?code={codes[seat]}")
    return lines


@click.command("serve")
@click.option("--host", default=None,
              help="Address to bind [default: server.host, else 127.0.0.1].")
@click.option("--port", default=None, type=int,
              help="Port to listen on [default: server.port, else 8000].")
@click.option("--data", "data_dir", default=None, type=click.Path(file_okay=False),
              help="Data directory [default: $COMPANION_DATA, else instance].")
@click.option("--demo", is_flag=True,
              help="Create a demo table per installed game and print its links.")
@click.option("--demo-game", "demo_games", multiple=True,
              help="Only these games get a demo table (repeatable; with --demo).")
@click.option("--threads", default=None, type=int,
              help="Worker threads (one per connected phone or display, plus requests) "
                   "[default: server.threads, else 300].")
@click.option("--no-hardware", is_flag=True, help="Do not start the camera and dice.")
@click.option("--certfile", type=click.Path(exists=True, dir_okay=False),
              help="Serve https with this certificate (PEM); phones need https for Wake Lock.")
@click.option("--keyfile", type=click.Path(exists=True, dir_okay=False),
              help="The certificate's private key (PEM).")
def command(host: str | None, port: int | None, data_dir: str | None, demo: bool,
            demo_games: tuple, threads: int | None, no_hardware: bool, certfile: str | None,
            keyfile: str | None) -> None:
    """Run the Table Companion server.

    Options left out come from the settings: COMPANION_* environment variables, else
    DATA/config.json, else the defaults (docs/server.md, Settings).
    """
    from companion.server import budget, memory, netinfo, settings

    memory.configure()  # malloc's arenas and mmap threshold, before any thread: the worker
    # forked from here inherits them (companion/server/memory.py)
    memory.one_blas_thread()  # no OpenBLAS threads in the worker (its environment)

    given = {"HOST": host, "PORT": port, "DATA_DIR": data_dir, "THREADS": threads,
             "CERTFILE": certfile, "KEYFILE": keyfile, "HARDWARE": False if no_hardware else None}
    config = {key: value for key, value in given.items() if value is not None}
    resolved = settings.resolve(config)
    for problem in resolved.problems:
        click.echo(f"Setting refused: {problem}", err=True)
    server = resolved.server
    if bool(server.certfile) != bool(server.keyfile):
        raise click.UsageError("--certfile and --keyfile go together (server.certfile, "
                               "server.keyfile)")
    for key in ("server.certfile", "server.keyfile"):
        path = resolved.get(key)
        if path and not Path(path).is_file():
            raise click.UsageError(f"{key} {path} (from {resolved.source_of(key)}) is not a file")

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: "
                        "%(message)s")
    host, port = server.host, server.port
    shown_host = netinfo.lan_ip() if host in ("0.0.0.0", "::", "") else host
    base = f"{'https' if server.certfile else 'http'}://{shown_host}:{port}"
    if server.public_base_url is None and shown_host != host:
        config["PUBLIC_BASE_URL"] = base
    config["START_HARDWARE"] = True  # this process's worker runs them (unless hardware off)
    click.echo(f"Table Companion on {base}/  (data: {resolved.data_dir})")
    if demo:
        for line in demo_lines(config, base, demo_games):
            click.echo(line)
    sys.stdout.flush()
    share_with_worker()
    options = {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "workers": 1,
        # gthread with the table's budget: heads read by the main loop, connections capped
        # per address (companion/server/budget.py)
        **budget.worker_options(server.threads),
        "timeout": 0,  # long-lived WebSockets are not stuck workers
        "graceful_timeout": 5,
        "keepalive": 5,
        # the path only: a query may carry a seat's token (?t=...), never written down
        "accesslog": "-" if server.access_log else None,
        "access_log_format": ACCESS_LOG_FORMAT,
        "errorlog": "-",
        "loglevel": "info",
    }
    if server.certfile:
        options.update(certfile=server.certfile, keyfile=server.keyfile)
    if "control_socket_disable" in gunicorn_settings():
        options["control_socket_disable"] = True  # no socket in $HOME (read-only on the Pi)
    Server(config, options).run()

"""The server's budget for the table (issue 67, major 1): someone on the Wi-Fi holding many
connections open must not lock the table's own screens out.

What it had: gunicorn's gthread worker, one pool of threads (300 by default, `--threads`).
A connection that sent half a request took a thread while it waited for the rest (for ever);
so did every WebSocket, a viewer's (who needs no token) as well. 300 slow connections from
one laptop and nobody new got in: not `/healthz`, not a phone back from its sleep.

Three parts, each where it can see what it budgets:

- `TableWorker` (the gthread worker, `companion serve`): **a request's head is read by the
  main loop**, never by a thread: a connection gets a thread only once its request line and
  headers are all in (plain http; under https gunicorn reads them in a thread, as before).
  A head not complete within `HEAD_SECONDS` of the first wait, or longer than `MAX_HEAD`
  bytes, closes the connection; a thread reading a body waits at most `BODY_IDLE_SECONDS`
  for each piece of it. **At most `PER_ADDRESS` open connections per address** (an IPv6
  address counted by its /64: one device may have many addresses); the next is answered 503
  and closed at once. The machine itself (127.0.0.1, ::1) has no cap (`companion doctor`,
  `/healthz`). `MAX_CONNECTIONS` in all (gunicorn's `worker_connections`): below the Pi's
  1024 open files.
- `Budget` (WSGI, every request, any server): a thread is held for each request while it
  runs and for each WebSocket while it is open. A request that proves no seat, table or host
  of a game (its `tc_seat_`/`tc_table_`/`tc_host_` cookie, checked against the store) may
  hold at most `PER_ADDRESS_THREADS` threads per address, of which `PER_ADDRESS_SOCKETS`
  WebSockets (a viewer's screen), and `threads - RESERVE` in all, of which `VIEWER_SOCKETS`
  WebSockets; over that it is answered 503 with the translated `server_busy`. So `RESERVE`
  threads are always left for the table's own screens, whoever else is on the Wi-Fi.
- The head deadline makes a half-sent request cost a file descriptor and a few bytes, never
  a thread; `bench/availability.py` measures what gets in while 300 of them are held.
"""
from __future__ import annotations

import contextlib
import errno
import ipaddress
import logging
import selectors
import socket
import time
from collections import deque
from functools import partial
from http.cookies import CookieError, SimpleCookie

from gunicorn.http import wsgi as gunicorn_wsgi
from gunicorn.workers.gthread import TConn, ThreadWorker

from companion.server import locks

log = logging.getLogger(__name__)
# This module builds on gunicorn's gthread worker beyond its documented settings: it
# overrides these methods of `ThreadWorker` and `TConn` and uses these of their attributes,
# read in gunicorn 27.0.1's source. No setting of gunicorn's reads a request head in the main
# loop, so there is no supported door; instead tests/companion/test_gunicorn_pin.py fails on
# any other gunicorn version until someone has re-read these against it.
WRITTEN_FOR = "27.0.1"
OVERRIDDEN = {"ThreadWorker": ("accept", "on_client_socket_readable", "murder_pending",
                               "handle", "handle_request"),
              "TConn": ("__init__", "close")}
USED = {"ThreadWorker": ("enqueue_req", "nr_conns", "poller", "keepalived_conns", "cfg"),
        "TConn": ("sock", "timeout", "data_ready", "init", "parser"),
        "gunicorn.http.wsgi": ("SERVER",)}
# every answer's Server header: not which server nor its version (issue 67, minor 4)
gunicorn_wsgi.SERVER = "table-companion"

HEAD_SECONDS = 10.0  # a phone on a weak Wi-Fi sends its head in well under a second
MAX_HEAD = 64 * 1024  # gunicorn's own limits allow ~800 KB; no page of ours needs 64 KB
BODY_IDLE_SECONDS = 20.0  # the longest pause inside a body being sent (a 4 MB upload)
PER_ADDRESS = 32  # open connections of one address (a browser opens ~6, a phone 2-3)
MAX_CONNECTIONS = 800  # in all; under the 1024 open files a service gets by default
PER_ADDRESS_THREADS = 12  # threads held by one address's unproven requests and sockets
PER_ADDRESS_SOCKETS = 4  # of which WebSockets (a viewer, a page not yet paired)
VIEWER_SOCKETS = 60  # unproven WebSockets in all
RESERVE = 60  # threads only the table's own screens (proven by a token) may take
THE_MACHINE = ("127.0.0.1", "::1")
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Retry-After: 10\r\nConnection: close\r\nContent-Length: 41\r\n\r\n"
        b"Too many connections from this address.\r\n")
TOO_LONG = (b"HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n"
            b"Content-Length: 0\r\n\r\n")


def address_key(address: str) -> str:
    """Who an address is: an IPv4 address, or an IPv6 address's /64 (a device's privacy
    addresses share it); an IPv4-mapped IPv6 address is its IPv4 one."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _peer(client) -> str:
    return client[0] if isinstance(client, tuple) and client else str(client or "")


class _Refusals:
    """One log line per refused peer and reason a minute (a flood writes a count, not lines)."""

    def __init__(self) -> None:
        self.said: dict[tuple[str, str], float] = {}
        self.lock = locks.lock("budget refusals")

    def say(self, key: str, why: str) -> None:
        now = time.monotonic()
        with self.lock:
            if now - self.said.get((key, why), -60.0) < 60.0:
                return
            if len(self.said) > 1000:
                self.said.clear()
            self.said[(key, why)] = now
        log.warning("refused %s: %s (said once a minute)", key, why)


REFUSALS = _Refusals()


class BudgetConn(TConn):
    """A connection that tells its worker when it closes (gunicorn closes every connection
    through `close`, on the main loop's thread), so its address holds one fewer."""

    def __init__(self, worker, key: str, *args) -> None:
        super().__init__(*args)
        self.worker, self.key, self.head = worker, key, None

    def close(self, graceful: bool = False) -> None:
        if self.key is not None:
            self.worker.forget(self.key)
            self.key = None
        super().close(graceful)


class TableWorker(ThreadWorker):
    """gunicorn's gthread worker with the head read in the main loop and a cap per address."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.heads: list[BudgetConn] = []  # connections whose request head is being read
        self.per_address: dict[str, int] = {}
        self.closing: deque = deque()  # (when, socket): refused, answered, closed soon

    def accept(self, listener) -> None:
        try:
            client_sock, client_addr = listener.accept()
        except OSError as e:  # out of file descriptors too: the next loop tries again
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK,
                               errno.EMFILE, errno.ENFILE):
                raise
            return
        peer = _peer(client_addr)
        key = address_key(peer)
        if peer not in THE_MACHINE and self.per_address.get(key, 0) >= PER_ADDRESS:
            REFUSALS.say(key, f"more than {PER_ADDRESS} connections open")
            with contextlib.suppress(OSError):
                client_sock.setblocking(False)
                client_sock.send(BUSY)
                client_sock.shutdown(socket.SHUT_WR)
            # closed a second later: closed now, with the request unread, the answer would
            # be lost to a reset
            self.closing.append((time.monotonic() + 1.0, client_sock))
            return
        self.nr_conns += 1
        self.per_address[key] = self.per_address.get(key, 0) + 1
        conn = BudgetConn(self, key, self.cfg, client_sock, client_addr,
                          listener.getsockname())
        if self.cfg.is_ssl:  # the TLS handshake and head are read by a thread (gunicorn's way)
            self.enqueue_req(conn)
        else:
            self.await_head(conn)

    def forget(self, key: str) -> None:
        left = self.per_address.get(key, 1) - 1
        if left > 0:
            self.per_address[key] = left
        else:
            self.per_address.pop(key, None)

    # ---- the head read by the main loop --------------------------------------------------
    def on_client_socket_readable(self, conn, client) -> None:
        """A kept-alive connection's next request: its head read here too."""
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        if conn.key is None or self.cfg.is_ssl:  # every connection is a BudgetConn (accept)
            self.enqueue_req(conn)
        else:
            self.await_head(conn)

    def await_head(self, conn: BudgetConn) -> None:
        conn.head = bytearray()
        conn.sock.setblocking(False)
        conn.timeout = time.monotonic() + HEAD_SECONDS
        self.heads.append(conn)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.read_head, conn))

    def read_head(self, conn: BudgetConn, client) -> None:
        try:
            data = conn.sock.recv(MAX_HEAD)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if data:
            conn.head += data
        if data and b"\r\n\r\n" not in conn.head and len(conn.head) <= MAX_HEAD:
            return  # more to come
        self.poller.unregister(conn.sock)
        self.heads.remove(conn)
        if not data:  # the client went away
            self.drop(conn)
        elif b"\r\n\r\n" not in conn.head[:MAX_HEAD + 4]:
            REFUSALS.say(conn.key, f"a request head over {MAX_HEAD} bytes")
            self.drop(conn, TOO_LONG)
        else:
            conn.data_ready = True
            self.enqueue_req(conn)

    def drop(self, conn: BudgetConn, answer: bytes = b"") -> None:
        if answer:
            with contextlib.suppress(OSError):
                conn.sock.send(answer)
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """gunicorn's (called every turn of the loop), and the connections whose head did
        not come in time (a slowloris) closed."""
        super().murder_pending()
        now = time.monotonic()
        while self.closing and self.closing[0][0] <= now:
            self.closing.popleft()[1].close()
        for conn in [c for c in self.heads if c.timeout <= now]:
            self.heads.remove(conn)
            with contextlib.suppress(OSError, KeyError, ValueError):
                self.poller.unregister(conn.sock)
            if conn.head:
                REFUSALS.say(conn.key, f"a request head not complete in {HEAD_SECONDS:g} s")
            self.drop(conn)

    def handle(self, conn):
        """In a thread: the head read so far goes to the parser first, then gunicorn's way."""
        head = getattr(conn, "head", None)
        if head:
            conn.head = None
            conn.sock.setblocking(True)
            conn.init()
            conn.parser.unreader.unread(bytes(head))
        return super().handle(conn)

    def handle_request(self, req, conn):
        """A body is read with a deadline for each piece (`Budget` lifts it for a
        WebSocket, which may stay quiet between its pings)."""
        conn.sock.settimeout(BODY_IDLE_SECONDS)
        return super().handle_request(req, conn)


# ---- the threads, per request ------------------------------------------------------------
TOKEN_COOKIES = {"tc_seat_": "seat", "tc_table_": "table", "tc_host_": "host"}


class Budget:
    """WSGI middleware: unproven requests and sockets within their share of the threads."""

    def __init__(self, wsgi_app, service, threads: int, busy) -> None:
        """``busy``: the WSGI app answering a refused request (the app's translated 503)."""
        self.wsgi_app, self.service, self.busy = wsgi_app, service, busy
        self.unproven_total = max(threads - RESERVE, PER_ADDRESS_THREADS)
        self.lock = locks.lock("budget")
        self.held: dict[str, list[int]] = {}  # address -> [threads, sockets] unproven
        self.total = [0, 0]

    def __call__(self, environ, start_response):
        peer = environ.get("REMOTE_ADDR") or ""
        is_socket = environ.get("HTTP_UPGRADE", "").lower() == "websocket"
        if is_socket:  # a WebSocket may stay quiet between its pings: no read deadline
            raw = environ.get("gunicorn.socket")
            if raw is not None:
                with contextlib.suppress(OSError):
                    raw.settimeout(None)
        if peer in THE_MACHINE:
            return self.wsgi_app(environ, start_response)
        key = address_key(peer)
        why = self.take(key, is_socket)
        if why is not None and self.proven(environ):
            return self.wsgi_app(environ, start_response)
        if why is not None:
            REFUSALS.say(key, why)
            return self.busy(environ, start_response)
        try:
            return self.wsgi_app(environ, start_response)
        finally:
            self.give_back(key, is_socket)

    def take(self, key: str, is_socket: bool) -> str | None:
        """Count one more unproven request (or socket) of ``key``, or say why not."""
        with self.lock:
            mine = self.held.get(key, [0, 0])
            if mine[0] >= PER_ADDRESS_THREADS:
                return f"more than {PER_ADDRESS_THREADS} requests at once"
            if is_socket and mine[1] >= PER_ADDRESS_SOCKETS:
                return f"more than {PER_ADDRESS_SOCKETS} sockets without a seat"
            if self.total[0] >= self.unproven_total:
                return f"the {self.unproven_total} threads for unproven requests in use"
            if is_socket and self.total[1] >= VIEWER_SOCKETS:
                return f"{VIEWER_SOCKETS} sockets without a seat in use"
            mine[0] += 1
            self.total[0] += 1
            if is_socket:
                mine[1] += 1
                self.total[1] += 1
            self.held[key] = mine
            return None

    def give_back(self, key: str, is_socket: bool) -> None:
        with self.lock:
            mine = self.held.get(key, [1, int(is_socket)])
            mine[0] -= 1
            self.total[0] -= 1
            if is_socket:
                mine[1] -= 1
                self.total[1] -= 1
            if mine[0] <= 0:
                self.held.pop(key, None)

    def proven(self, environ) -> bool:
        """The request carries a live token of some game's seat, table or host."""
        try:
            cookies = SimpleCookie(environ.get("HTTP_COOKIE", ""))
        except CookieError:
            return False
        for name, morsel in cookies.items():
            for prefix, role in TOKEN_COOKIES.items():
                if name.startswith(prefix) and len(name) < 80 and len(morsel.value) < 100:
                    try:
                        if self.service.access.identify(name[len(prefix):], morsel.value, role):
                            return True
                    except Exception:  # noqa: BLE001 - an unknown game is no proof
                        continue
        return False

def worker_options(threads: int) -> dict:
    """gunicorn's settings for `TableWorker` (companion serve)."""
    return {"worker_class": f"{__name__}.TableWorker", "threads": threads,
            "worker_connections": MAX_CONNECTIONS}



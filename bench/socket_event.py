"""What the server pays per incoming Socket.IO event before our handler runs, with and
without companion/server/transport.py's cuts: Flask-SocketIO's request context for the event (with
a phone's session cookie, opened and HMAC-checked by Flask's cookie session, or skipped by
`transport.SocketSession`), and the thread python-socketio started per event when
``async_handlers`` was on (a start and a join). CPU time (time.thread_time / process_time),
median of 7 rounds; Pi column x5. One event per action (`act`); resync, set_lang, preview and
host ops are events too.

Usage: .venv/bin/python bench/socket_event.py [--n 3000]
JSON last line: {"context_session_us", "context_no_session_us", "ratio_no_session",
"thread_per_event_us", "saved_per_event_us"}
"""
import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])
import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

from flask import session  # noqa: E402
from flask.sessions import SecureCookieSessionInterface  # noqa: E402

from companion.app import create_app  # noqa: E402
from companion.server import transport  # noqa: E402

PI = 5


def per_call(fn, n: int, clock=time.thread_time) -> tuple[float, float, float]:
    """Median, min and max over 7 rounds of the CPU microseconds per call."""
    rounds = []
    for _ in range(7):
        t = clock()
        for _ in range(n):
            fn()
        rounds.append((clock() - t) / n * 1e6)
    return statistics.median(rounds), min(rounds), max(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=3000)
    args = parser.parse_args()
    app = create_app({"DATA_DIR": tempfile.mkdtemp(), "TESTING": True, "HARDWARE": False})
    with app.test_request_context("/"):  # a phone's session cookie (its pages' CSRF token)
        session["csrf"] = "x" * 43
        response = app.response_class()
        SecureCookieSessionInterface().save_session(app, session, response)
        cookie = response.headers["Set-Cookie"].split(";")[0]
    environ = app.test_request_context(  # the socket's environ, as Flask-SocketIO keeps it
        "/socket.io/?EIO=4&transport=websocket",
        headers={"Cookie": f"{cookie}; tc_seat_g={'y' * 43}"}).request.environ

    def event_context():  # what Flask-SocketIO does around every handler
        with app.request_context(dict(environ)):
            session.get("csrf")

    def thread_per_event():
        t = threading.Thread(target=lambda: None)
        t.start()
        t.join()

    app.session_interface = SecureCookieSessionInterface()  # before: Flask's own
    opened = per_call(event_context, args.n)
    app.session_interface = transport.SocketSession()
    skipped = per_call(event_context, args.n)
    thread = per_call(thread_per_event, args.n // 3, time.process_time)
    saved = opened[0] - skipped[0] + thread[0]
    for name, (med, lo, hi) in (("request context, cookie session", opened),
                                ("request context, SocketSession", skipped),
                                ("a thread per event (start+join)", thread)):
        print(f"{name:34} {med:7.1f} us  ({lo:.1f}-{hi:.1f})  Pi x5 {med * PI:7.1f} us")
    print(f"saved per event: {saved:.1f} us (Pi x5 {saved * PI:.0f} us); "
          f"context ratio {skipped[0] / opened[0]:.2f}")
    print(json.dumps({"context_session_us": round(opened[0], 1),
                      "context_no_session_us": round(skipped[0], 1),
                      "ratio_no_session": round(skipped[0] / opened[0], 2),
                      "thread_per_event_us": round(thread[0], 1),
                      "saved_per_event_us": round(saved, 1)}))


if __name__ == "__main__":
    main()

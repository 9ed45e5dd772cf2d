"""`server.access_log` (docs/server.md, Settings): `companion serve` writes one line a request
when it is on (the browser tests turn it on: a failed one shows the server's last lines),
none when off (the default: a table's phones poll all evening), and never a request's query,
which may carry a seat's token."""
from __future__ import annotations

import os
import urllib.request

from tests.web.conftest import running_server


def ask(base: str, path: str) -> None:
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        answer.read()


def test_the_access_log_has_each_request_and_no_query(tmp_path):
    log = tmp_path / "server.log"
    env = dict(os.environ, COMPANION_ACCESS_LOG="1", COMPANION_HARDWARE="0")
    with running_server(tmp_path / "data", log, env=env) as base:
        ask(base, "/healthz?t=SEATSECRET")
    lines = [line for line in log.read_text().splitlines() if " GET /healthz " in line]
    assert lines, log.read_text()[-2000:]
    assert lines[-1].split()[-3:-1] == ["/healthz", "200"], lines[-1]
    assert lines[-1].endswith("ms")
    assert "SEATSECRET" not in log.read_text()


def test_off_it_writes_no_request_and_off_is_the_default(tmp_path):
    from companion.server import settings

    assert settings.resolve({}).server.access_log is False
    log = tmp_path / "server.log"
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_ACCESS_LOG"}
    env.update(COMPANION_ACCESS_LOG="0", COMPANION_HARDWARE="0")
    with running_server(tmp_path / "data", log, env=env) as base:
        ask(base, "/healthz")
    assert " GET /healthz " not in log.read_text()

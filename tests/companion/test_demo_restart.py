"""Issue 21: `make run` (`companion serve --demo`) started again on the same data prints
working join links for the demo table's free seats, and says which seats are taken and how
the host frees them (a taken seat's old link would only answer 409 `seat_taken`)."""
from __future__ import annotations

import http.client
import re
from urllib.parse import urlparse

from tests.companion.test_restart import ServeProcess, claim


def status_of(url: str, port: int) -> int:
    parsed = urlparse(url)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", f"{parsed.path}?{parsed.query}")
    return conn.getresponse().status


def test_a_second_start_prints_working_links_and_names_taken_seats(tmp_path):
    data = tmp_path / "data"
    first = ServeProcess(data)
    try:
        assert sorted(first.joins) == ["E", "N", "S", "W"]
        old = dict(first.joins)
        for seat in ("N", "E"):
            claim(first.joins[seat], first.port)
    finally:
        first.kill()
    second = ServeProcess(data)
    try:
        output = "".join(second.output)
        assert sorted(second.joins) == ["S", "W"], output  # only the free seats get a link
        for seat in ("N", "E"):
            assert re.search(rf"Seat {seat}:\s+taken by a phone; the host frees it", output)
            assert status_of(old[seat].replace(":0/", f":{second.port}/"),
                             second.port) == 409  # why the old links are not printed
        for seat in ("S", "W"):
            claim(second.joins[seat], second.port)  # 303 and a seat cookie
    finally:
        second.kill()

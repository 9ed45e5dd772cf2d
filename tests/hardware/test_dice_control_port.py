"""The dice emulator's control port (only when switched on) refuses what a web page on any
site could send it (issue 67, minor 9): a cross-site ``POST /roll`` with ``text/plain`` rolled
the dice. Over real HTTP to the port on 127.0.0.1."""
from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from hardware.dice.emulator import DiceEmulator, serve_http


@pytest.fixture
def port(tmp_path):
    with DiceEmulator(link=str(tmp_path / "dice.tty")) as emulator:
        server = serve_http(emulator)
        yield server.server_address[1], emulator
        server.shutdown()


def post(port: int, body: bytes, headers: dict) -> tuple[int, dict]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/roll", data=body, method="POST",
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.load(reply)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


@pytest.mark.parametrize("headers", [
    {"Content-Type": "text/plain", "Origin": "http://evil.example"},
    {"Content-Type": "text/plain"},  # a browser that leaves Origin out still says text
    {"Content-Type": "application/x-www-form-urlencoded", "Origin": "null"},
    {"Content-Type": "multipart/form-data; boundary=x"},
    {"Sec-Fetch-Site": "cross-site"},
])
def test_a_web_page_s_request_rolls_nothing(port, headers):
    """Planted fault: emulator.cross_site's check removed from do_POST -> 200, a roll."""
    number, emulator = port
    before = emulator.state()
    status, answer = post(number, b"{}", headers)
    assert status == 403 and answer["error"] == "cross_site"
    assert emulator.state() == before


def test_curl_and_scripts_still_roll(port):
    number, _ = port
    for headers in ({}, {"Content-Type": "application/json"},
                    {"Content-Type": "application/x-www-form-urlencoded"}):  # curl -d
        status, answer = post(number, json.dumps({"faces": {}}).encode(), headers)
        assert status == 200 and "faces" in answer

"""`companion serve --certfile --keyfile`: pages and WebSockets over https (Wake Lock needs it)."""
from __future__ import annotations

import http.client
import re
import ssl
import subprocess

import socketio

from tests.companion.test_restart import ServeProcess
from tests.waiting import wait_for


def self_signed(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def test_https_pages_cookies_and_websocket(tmp_path):
    cert, key = self_signed(tmp_path)
    server = ServeProcess(tmp_path / "data", extra=["--certfile", str(cert), "--keyfile",
                                                     str(key)], scheme="https")
    try:
        context = ssl.create_default_context(cafile=str(cert))
        join = server.joins["N"]
        assert join.startswith("https://")
        conn = http.client.HTTPSConnection("127.0.0.1", server.port, context=context,
                                           timeout=10)
        conn.request("GET", join.split(str(server.port), 1)[1])
        response = conn.getresponse()
        assert response.status == 303
        cookie = response.getheader("Set-Cookie")
        assert "Secure" in cookie and "HttpOnly" in cookie
        token = re.match(r"tc_seat_\w+=([^;]+)", cookie).group(1)
        game_id = join.split("/")[4]
        sio = socketio.Client(reconnection=False, ssl_verify=False)
        got = []
        sio.on("view", got.append)
        sio.connect(f"https://127.0.0.1:{server.port}", transports=["websocket"],
                    auth={"role": "seat", "game": game_id, "token": token}, wait_timeout=10)
        try:
            wait_for(lambda: got, what="a view over TLS")
            assert sio.transport() == "websocket"
            assert got[-1]["seat"] == "N"
        finally:
            sio.disconnect()
    finally:
        server.kill()

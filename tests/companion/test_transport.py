"""companion/server/transport.py over a real socket: plain WebSocket frames, socket events beside a
page's session cookie, one connection's events handled in order."""
from __future__ import annotations

import base64
import os
import socket

from tests.companion.conftest import Spy, create_game, csrf
from tests.companion.test_sockets import seat_token
from tests.waiting import PATIENCE


def handshake(url: str, extensions: str) -> tuple[str, bytes]:
    """A browser's WebSocket handshake with its extension offer: the response head and the
    first bytes of the first frame (Engine.IO's open packet)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=PATIENCE) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
                      f"Host: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                      f"Sec-WebSocket-Extensions: {extensions}\r\n\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < 3:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    return head.decode("latin-1"), body


def test_websocket_declines_permessage_deflate(live):
    """Chrome's offer: the upgrade goes through, no extension is accepted, and the first frame
    is a plain (RSV1 clear) text frame holding Engine.IO's open packet."""
    head, body = handshake(live.url, "permessage-deflate; client_max_window_bits")
    assert head.startswith("HTTP/1.1 101"), head
    assert "sec-websocket-extensions" not in head.lower()
    assert body[0] & 0x70 == 0  # no RSV bit: not compressed
    assert body[0] & 0x0F == 1  # a text frame
    assert body[2:3] == b"0"  # Engine.IO "open", readable as is


def test_socket_events_beside_a_page_session(app, client, live):
    """A phone carries the pages' session cookie on its socket too: its events work, and the
    page's session (its CSRF token) is still good after them."""
    game_id = create_game(client)
    token = csrf(client)
    cookie = client.get_cookie("session").value
    spy = Spy(live.url, {"role": "seat", "game": game_id},
              headers={"Cookie": f"session={cookie}; "
                                 f"tc_seat_{game_id}={seat_token(app, game_id, 'A')}"})
    try:
        assert spy.got_view.wait(PATIENCE)
        card = spy.views[-1]["view"]["hand"][0]
        assert spy.call("act", {"action": {"type": "play", "card": card}}) == \
            {"ok": True, "version": 1}
        assert card in spy.wait_version(1)["view"]["played"]
    finally:
        spy.close()
    assert csrf(client) == token  # the same session, nothing written over it
    assert create_game(client)  # its forms still pass


def test_one_connections_events_are_answered_in_order(app, client, live):
    """Events sent back to back on one connection (no waiting for each ack) are handled one
    after another: each ack names the next version, none is lost."""
    game_id = create_game(client)
    spy = Spy(live.url, {"role": "seat", "game": game_id, "token": seat_token(app, game_id, "A")})
    try:
        assert spy.got_view.wait(PATIENCE)
        acks = []
        for _ in range(5):
            spy.sio.emit("resync", {}, callback=lambda *a: acks.append(a))
        spy.sio.emit("act", {"action": {"type": "play", "card": "no-such-card"}},
                     callback=lambda *a: acks.append(a))
        card = spy.views[-1]["view"]["hand"][0]
        assert spy.call("act", {"action": {"type": "play", "card": card}}) == \
            {"ok": True, "version": 1}
        assert [a[0].get("ok") for a in acks] == [True] * 5 + [False]  # all came, in order
        assert card in spy.wait_version(1)["view"]["played"]
    finally:
        spy.close()

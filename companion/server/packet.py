"""The Socket.IO packet class of the server: plain JSON through companion/server/json_codec.py.
In the server's bottom part (not the app factory) because python-socketio calls it back
while the view sender's thread emits: a call from the sender must not climb up to app.py
(tests/companion/test_walk.py)."""
from __future__ import annotations

from socketio.packet import Packet

from companion.server import json_codec


class JsonPacket(Packet):
    """Socket.IO packets of plain JSON: our messages never carry bytes, so skip the recursive
    search for binary parts (it cost ~4 ms per 18 kB view, more than building the view).
    Encoded and decoded by companion/server/json_codec.py (orjson); python-socketio calls
    ``json.dumps(data, separators=...)`` for a str and ``json.loads(str)``. Given to the
    server as its serializer (companion/app.py), not as ``SocketIO(json=...)``, which would
    also replace Engine.IO's module process-wide."""

    json = json_codec

    @classmethod
    def data_is_binary(cls, data):
        return isinstance(data, bytes | bytearray)

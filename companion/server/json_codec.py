"""The JSON on the wire: every Socket.IO packet the server sends or reads
(companion/server/packet.py's ``JsonPacket``), and bench/server_cpu.py's count of it, go
through `dumps` and `loads` here.

orjson: ~3-4x faster than the json module on our views and patches (bench/server_cpu.py), the
same compact form Socket.IO asks for, key order kept, and UTF-8 rather than \\u escapes (a
Polish or German text is smaller). What orjson does not take (a non-str key, an int beyond
64 bits, a lone surrogate) goes through the json module as before, so nothing that was sent
is refused now.
"""
from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(data: Any, separators: tuple | None = None) -> str:
    """Compact JSON text (``separators`` is accepted as python-socketio passes it; the text is
    always compact). A str, as the Socket.IO packet is a text frame."""
    try:
        return orjson.dumps(data).decode()
    except TypeError:  # beyond orjson: the json module, as the server always did
        return json.dumps(data, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    """A client's packet, read by the json module as always: small, so orjson would save
    nothing worth it, and a client's number is read exactly (orjson turns a 400-digit integer
    into a float or refuses it, where `limits` answers it with a translated ``bad_value``).
    What is not JSON raises (a ValueError; RecursionError when nested too deep)."""
    return json.loads(text)

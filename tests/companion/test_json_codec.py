"""The JSON on the wire (companion/server/json_codec.py): real Socket.IO clients over a real
socket get the server's packets as UTF-8 JSON, non-ASCII texts intact; a malformed packet is refused
cleanly."""
from __future__ import annotations

import json

import pytest
import socketio

from companion import context
from companion.server import json_codec
from tests.companion.conftest import Spy, create_game
from tests.companion.test_sockets import seat_token
from tests.waiting import PATIENCE, wait_for

POLISH = {"A": "Łucja Żółć", "B": "Grzegorz Brzęczyszczykiewicz", "C": "Jürgen Größe"}


def wait(predicate) -> None:
    wait_for(predicate, what="the socket sent away")


@pytest.fixture
def raw_packets(monkeypatch):
    """Every Socket.IO packet a client receives, as the text frame carried it."""
    seen: list[str] = []
    handle = socketio.Client._handle_eio_message

    def spy(self, data):
        seen.append(data)
        return handle(self, data)

    monkeypatch.setattr(socketio.Client, "_handle_eio_message", spy)
    return seen


def test_non_ascii_names_arrive_intact_as_utf8(app, client, live, raw_packets):
    game_id = create_game(client, players=POLISH)
    seat = Spy(live.url, {"role": "seat", "game": game_id, "lang": "pl",
                          "token": seat_token(app, game_id, "A")})
    try:
        assert seat.got_view.wait(PATIENCE)
        names = {p["seat"]: p["name"] for p in seat.views[-1]["players"]}
        assert names == POLISH
        card = seat.views[-1]["view"]["hand"][0]
        assert seat.call("act", {"action": {"type": "play", "card": card}})["ok"]
        view = seat.wait_version(1)  # the patch applied on the last view: names still intact
        assert {p["seat"]: p["name"] for p in view["players"]} == POLISH
    finally:
        seat.close()
    text = "".join(raw_packets)
    assert "Łucja Żółć" in text and "\\u0141" not in text  # UTF-8, not \u escapes


def test_a_malformed_packet_is_counted_and_dropped(app, client, live):
    """A Socket.IO event whose JSON does not parse is counted (one log line) and dropped; it
    changes nothing, and every connection goes on (issue 65: the count comes from a logging
    filter on the library's own logger, the connection is no longer closed for it)."""
    game_id = create_game(client)
    service = context.of(app).service
    frames = context.of(app).frames
    good = Spy(live.url, {"role": "seat", "game": game_id, "token": seat_token(app, game_id, "A")})
    try:
        assert good.got_view.wait(PATIENCE)
        for bad in ('2["act",{"action":', '2["act",{"action":{"type":"roll"}}]]',
                    "2" + "[" * 5000, '2["act",{"action":{"type":"roll","value":3}}'):
            before = frames.count
            other = Spy(live.url, {"role": "table", "game": game_id,
                                   "table_token": service.access.new_table_token(game_id)})
            assert other.got_view.wait(PATIENCE)
            other.sio.eio.send(bad)  # a Socket.IO event whose JSON does not parse
            wait(lambda before=before: frames.count == before + 1)  # counted, nothing else
            assert other.sio.connected
            other.close()
        assert service.get(game_id).version == 0  # nothing changed
        card = good.views[-1]["view"]["hand"][0]  # the other connections go on
        assert good.call("act", {"action": {"type": "play", "card": card}}) == \
            {"ok": True, "version": 1}
        assert card in good.wait_version(1)["view"]["played"]
    finally:
        good.close()


@pytest.mark.parametrize("data", [
    {"views": [{"n": 1, "text": "Żółć — 3×"}], "ok": True, "x": None, "f": 0.5},
    [1, -2, 3.25, "ß", [], {}],
    {1: "a non-str key"},  # beyond orjson: the json module, as before
    {"name": "\ud800"},  # a lone surrogate (from a JSON escape): escaped, as before
    {"big": 2 ** 70},
])
def test_dumps_is_compact_json_that_reads_back_the_same(data):
    text = json_codec.dumps(data, separators=(",", ":"))
    assert isinstance(text, str)
    assert json.loads(text) == json.loads(json.dumps(data))
    assert ": " not in text and ", " not in text
    text.encode()  # always sendable as a text frame


def test_loads_reads_what_the_json_module_reads():
    for bad in ("{", '{"a":1,}', '["act"]]'):
        with pytest.raises(ValueError):
            json_codec.loads(bad)
    with pytest.raises((ValueError, RecursionError)):
        json_codec.loads("[" * 100_000)
    big = json_codec.loads('["host",{"delta":1' + "0" * 400 + "}]")  # exact: limits refuse it
    assert big[1]["delta"] == 10 ** 400

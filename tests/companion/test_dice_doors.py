"""Hand-made bad text and wrong shapes at the dice doors (issue 31's rule at the doors the
camera's dice added): the socket message ``dice_face`` (a die the camera could not read,
entered by the rolling player) and the host's deck routes that teach a die's faces
(``/deck/die_face``, ``/deck/die_face/forget``). A lone surrogate, as JSON's ``\\ud800``
escape and as the invalid UTF-8 bytes of one, a list for the object, a face that is text, a
huge number: each gets a clear refusal in the sender's language, and nothing changes (the
roll waiting, the game, the catalog's pictures). Real server, real sockets, real files."""
from __future__ import annotations

import json

from hardware.dice.observations import Roll
from hardware.synthetic import dice_tray
from tests.companion.conftest import Spy
from tests.companion.test_camera_dice_wiring import monasterium_on_camera
from tests.companion.test_camera_tax_die import at_tax, host, teach
from tests.companion.test_frames import frame, raw_websocket
from tests.companion.test_text_doors import tracebacks
from tests.waiting import PATIENCE, wait_for

LONE_ESCAPE = b'"\\ud800"'  # JSON text: the escape of a lone surrogate
LONE_BYTES = b'"\xed\xa0\x80"'  # that surrogate as UTF-8 would encode it: invalid UTF-8


def waiting_roll(games_live):
    """A Monasterium roll whose fifth white die the camera could not read: it waits for
    Anna (seat N), who rolled."""
    app, server = games_live
    service, mon, handle = monasterium_on_camera(app)
    roll = Roll(1, {"blue1": 2, "white1": 1, "white2": 1, "white3": 6, "white4": 3}, False,
                0.0, ("white5",), {"white5": (0.8, 0.2)})
    assert handle.apply_roll(roll, "camera") is None
    return app, server, service, mon, handle


def unchanged(mon, handle) -> bool:
    """The game did not move and the die still waits, with no face entered."""
    pending = handle.status()["pending"]
    return mon.version == 0 and pending is not None and pending["missing"][0]["face"] is None


def test_dice_face_messages_with_bad_text_or_shapes_are_refused(games_live, caplog):
    app, server, service, mon, handle = waiting_roll(games_live)
    token = service.access.claim_seat(mon.id, "N", service.store.join_codes(mon.id)["N"])
    auth = {"role": "seat", "game": mon.id, "lang": "it", "token": token}
    anna = Spy(server.url, auth)
    try:
        for data, code, field in (({"die": "\ud800", "face": 4}, "bad_text", "die"),
                                  ({"die": "white5", "face": "\ud800"}, "bad_text", "face"),
                                  ({"die": "white5", "face": 4, "x\ud800": 1}, "bad_text", None),
                                  (["white5", 4], "bad_request", None),
                                  ("white5", "bad_request", None),
                                  ({"die": "white5", "face": "4"}, "dice_bad_face", None),
                                  ({"die": "white5", "face": 4.0}, "dice_bad_face", None),
                                  ({"die": "white5", "face": 10 ** 30}, "bad_value", None),
                                  ({"die": ["white5"], "face": 4}, "dice_not_waiting", None)):
            answer = anna.call("dice_face", data)
            assert (answer["ok"], answer["code"]) == (False, code), (data, answer)
            if field:
                assert answer["params"]["field"] == field
            message = answer["message"]
            assert message and message.isprintable() and "Traceback" not in message
            assert not message.startswith(("The ", "A ", "No ")), message  # Italian
            assert unchanged(mon, handle), data
        assert "Non è cambiato nulla" in anna.call("dice_face", {"die": "\ud800"})["message"]
    finally:
        anna.close()

    # the surrogate as invalid UTF-8 bytes in a Socket.IO text frame, on Anna's own
    # connection: the connection is dropped, nothing is entered, the server goes on
    sock = raw_websocket(server.url)
    try:
        sock.sendall(frame(b"40" + json.dumps(auth).encode(), 1))
        got = b""
        while b"40{" not in got:  # the connect accepted (the view follows)
            got += sock.recv(65536)
        sock.sendall(frame(b'421["dice_face",{"die":' + LONE_BYTES + b',"face":4}]', 1))
        sock.sendall(frame(b'422["dice_face",{"die":"white5","face":4,"n":' + LONE_BYTES
                           + b'}]', 1))
        sock.settimeout(PATIENCE)
        rest = b""
        try:
            while chunk := sock.recv(65536):
                rest += chunk
                if b"431[" in rest and b"432[" in rest:
                    break
        except (TimeoutError, ConnectionError):
            pass
        # never acknowledged as done: refused (bad_text) or the connection closed
        assert b'"ok":true' not in rest.replace(b" ", b""), rest[-500:]
    finally:
        sock.close()
    assert unchanged(mon, handle)
    anna = Spy(server.url, auth)  # the server still answers
    try:
        assert anna.call("dice_face", {"die": "white5", "face": 4})["ok"]
        wait_for(lambda: mon.version == 1, what="the roll played")
    finally:
        anna.close()
    assert not tracebacks(caplog)


def pictures(app) -> dict:
    """The catalog's die pictures on disk: path -> bytes."""
    from pathlib import Path

    root = Path(app.config["DATA_DIR"]) / "catalogs"
    return {str(p): p.read_bytes() for p in root.rglob("*") if p.is_file()} \
        if root.exists() else {}


def test_deck_die_face_routes_with_bad_text_or_shapes_are_refused(games_live, caplog):
    app, _server, service, live, handle, camera = at_tax(games_live)
    client = app.test_client()
    headers = host(client, service, live.id)
    handle.choose("phones")
    teach(client, headers, live.id, camera, (2, 4))  # two faces taught, their pictures kept
    camera.show(dice_tray.lone(3, seed=3))  # a lone die in the tray: face 3 could be taken
    before = pictures(app)
    assert len(before) == 2
    bad_text = "Der Text von {} enthält ein Zeichen"
    request_shape = "die Anfrage muss den Würfel (role, als Text)"
    cases = [
        (b'{"game": "wwe", "role": ' + LONE_ESCAPE + b', "face": 3}', 400, bad_text, "role"),
        (b'{"game": "wwe", "role": ' + LONE_BYTES + b', "face": 3}', 400, bad_text, "role"),
        (b'{"game": "wwe", "role": "tax", "face": 3, "note": ' + LONE_BYTES + b'}', 400,
         bad_text, "note"),
        (b'{"game": "wwe", "role": "tax", "face": 3, "x\xed\xa0\x80": 1}', 400, bad_text,
         "key"),  # a bad key is named as such
        (b'[{"game": "wwe", "role": "tax", "face": 3}]', 422, request_shape, None),
        (b'"tax"', 422, request_shape, None),
        (b'{"game": "wwe", "role": "tax", "face": "3"}', 422, request_shape, None),
        (b'{"game": "wwe", "role": ["tax"], "face": 3}', 422, request_shape, None),
        (b'{"game": "wwe", "role": "tax", "face": 3.0}', 422, request_shape, None),
        (b'{"game": "wwe", "role": "tax", "face": 1' + b"0" * 400 + b"}", 422,
         "100000000000… ist keine Seite dieses Würfels", None),
    ]
    for route in ("die_face", "die_face/forget"):
        for body, status, said, field in cases:
            response = client.post(f"/host/{live.id}/deck/{route}?lang=de", data=body,
                                   headers={**headers, "Content-Type": "application/json"})
            assert response.status_code == status, (route, body, response.get_data())
            answer = response.get_json()
            assert answer["ok"] is False
            message = answer.get("message") or answer["problems"][0]["message"]
            assert said.format(field) in message, (route, body, message)
            assert pictures(app) == before, (route, body)
    assert not tracebacks(caplog)
    # the routes still work: face 3 is taken, face 2 forgotten
    for route, face in (("die_face", 3), ("die_face/forget", 2)):
        answer = client.post(f"/host/{live.id}/deck/{route}", headers=headers,
                             json={"game": "wwe", "role": "tax", "face": face}).get_json()
        assert answer["ok"], answer
    assert sorted(p.rsplit("/", 1)[-1] for p in pictures(app)) == ["3.png", "4.png"]

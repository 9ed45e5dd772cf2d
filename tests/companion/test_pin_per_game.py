"""The PIN limit counts per game as well as per address (issue 67, minor 3): twenty addresses
checked 100 PINs in 22 s. Over real HTTP to a live server, each guess from an address of its
own (127.0.0.x)."""
from __future__ import annotations

import http.client
import json
import re

from tests.companion.test_logout import new_game, real  # noqa: F401

WRONG = "0000"


def guess(port: int, source: str, game_id: str, pin: str) -> tuple[int, dict]:
    """A browser at ``source``: its session and CSRF token, then one PIN login."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                      source_address=(source, 0))
    conn.request("GET", "/new")
    page = conn.getresponse()
    cookie = page.getheader("Set-Cookie").split(";", 1)[0]
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.read().decode()).group(1)
    conn.close()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                      source_address=(source, 0))
    conn.request("POST", f"/host/{game_id}/login?lang=es", json.dumps({"pin": pin}),
                 {"Content-Type": "application/json", "X-CSRF-Token": csrf, "Cookie": cookie})
    answer = conn.getresponse()
    status, body = answer.status, json.loads(answer.read() or b"{}")
    conn.close()
    return status, body


def test_many_addresses_share_one_game_s_pin_attempts(real):  # noqa: F811
    """Planted fault: the per-game key left out of RateLimiter.attempt -> the eleventh
    address gets its own five attempts (403 wrong_pin, not 429)."""
    app, server = real
    port = int(server.url.rsplit(":", 1)[1])
    game_id = new_game(app, "wwe")
    other = new_game(app, "wwe")
    for i in range(10):  # ten addresses, one wrong PIN each: the game's ten
        assert guess(port, f"127.0.2.{i + 1}", game_id, WRONG)[0] == 403
    status, body = guess(port, "127.0.2.50", game_id, WRONG)  # a new address
    assert status == 429 and body["code"] == "rate_limited"
    assert body["message"].startswith("Demasiados intentos")
    assert guess(port, "127.0.2.51", game_id, "2468")[0] == 429  # the right PIN waits too
    assert guess(port, "127.0.2.52", other, "2468")[0] == 200  # another game is not held

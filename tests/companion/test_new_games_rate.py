"""New games and imports within a rate and a cap (issue 67, minor 5): 131 imports in 26 s
filled the lobby. Over real HTTP to a live server from addresses of their own (127.0.3.x)."""
from __future__ import annotations

import http.client
import logging
import re
from urllib.parse import urlencode

from companion import context
from companion.blueprints import common
from tests.companion.test_logout import new_game, real  # noqa: F401


def create(port: int, source: str, lang: str = "en") -> tuple[int, str]:
    """A browser at ``source`` opens the new-game form and sends it (a World Without End
    game, two players)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    conn.request("GET", "/new?game=wwe")
    page = conn.getresponse()
    cookie = page.getheader("Set-Cookie").split(";", 1)[0]
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.read().decode()).group(1)
    conn.close()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    form = urlencode({"csrf_token": csrf, "game": "wwe", "host_pin": "2468", "name_N": "Ann",
                      "name_E": "Bob", "at_table": "later"})
    conn.request("POST", f"/games?lang={lang}", form,
                 {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    answer = conn.getresponse()
    status, text = answer.status, answer.read().decode()
    conn.close()
    return status, text


def test_one_address_and_all_addresses_within_the_rate(real, caplog):  # noqa: F811
    """Planted fault: common.may_create not called -> the seventh game of one address is
    created (303)."""
    app, server = real
    port = int(server.url.rsplit(":", 1)[1])
    caplog.set_level(logging.INFO)
    service = context.of(app).service
    for _ in range(6):
        assert create(port, "127.0.3.1")[0] == 303
    before = len(service.all())
    status, text = create(port, "127.0.3.1", lang="pl")
    assert status == 400 and "zbyt wiele nowych gier" in text
    assert len(service.all()) == before
    for i in range(14):  # 20 in all from every address
        assert create(port, f"127.0.3.{10 + i}")[0] == 303
    assert create(port, "127.0.3.40")[0] == 400  # a new address: the rate of all of them
    refusals = [r for r in caplog.records if "refused a new game" in r.getMessage()]
    assert len(refusals) == 2 and not any(r.exc_info for r in caplog.records)


def test_a_lobby_of_too_many_unfinished_games_takes_no_more(real, monkeypatch):  # noqa: F811
    """Planted fault: the cap left out of may_create -> a game over the cap is created."""
    app, server = real
    port = int(server.url.rsplit(":", 1)[1])
    open_games = sum(1 for g in context.of(app).service.all() if g.status != "finished")
    monkeypatch.setattr(common, "MAX_OPEN_GAMES", open_games)
    status, text = create(port, "127.0.3.90", lang="de")
    assert status == 400 and "Partien sind nicht beendet" in text

"""Issue 21: a logout ends every host connection of that token at once, and a new PIN ends
every host session. Real HTTP (requests) and real Socket.IO clients against a live server."""
from __future__ import annotations

import re

import pytest
import requests
import socketio

from companion import context
from companion.app import create_app
from companion.game.events_bus import TokensRevoked
from tests.companion.conftest import LiveServer, Spy
from tests.waiting import wait_for

GAMES = ("wwe", "pillars", "monasterium")


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("logout") / "data"),
                      "TESTING": True})
    server = LiveServer(app)
    yield app, server
    server.stop()
    context.of(app).service.store.close()


def new_game(app, name: str) -> str:
    setup = {"players": [{"seat": s, "name": s} for s in ("N", "E")], "seed": 3}
    return context.of(app).service.create(name, setup, "2468").id


def browser(url: str) -> tuple[requests.Session, str]:
    """A browser session with its CSRF token, as the pages embed it."""
    http = requests.Session()
    page = http.get(f"{url}/new", timeout=10).text
    return http, re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def log_in(url: str, game_id: str, pin: str = "2468") -> tuple[requests.Session, str, str]:
    http, csrf = browser(url)
    answer = http.post(f"{url}/host/{game_id}/login", data={"pin": pin, "csrf_token": csrf},
                       allow_redirects=False, timeout=30)
    assert answer.status_code == 303, answer.text[:300]
    return http, csrf, http.cookies[f"tc_host_{game_id}"]


def gone(spy: Spy) -> bool:
    return wait_for(lambda: not spy.sio.connected, what="the socket closed")


@pytest.mark.parametrize("name", GAMES)
def test_logout_ends_the_host_sockets_of_that_token(real, name):
    app, server = real
    service = context.of(app).service
    game_id = new_game(app, name)
    http, csrf, token = log_in(server.url, game_id)
    _, _, other_token = log_in(server.url, game_id)  # another host device stays logged in
    hosts = [Spy(server.url, {"role": "host", "game": game_id, "host_token": token})
             for _ in range(2)]
    other = Spy(server.url, {"role": "host", "game": game_id, "host_token": other_token})
    try:
        assert hosts[0].call("host", {"op": "pause"})["ok"]
        assert hosts[1].call("host", {"op": "resume"})["ok"]
        answer = http.post(f"{server.url}/host/{game_id}/logout",
                           data={"csrf_token": csrf}, allow_redirects=False, timeout=10)
        assert answer.status_code == 303
        assert all(gone(spy) for spy in hosts)  # both sockets of that token, at once
        with pytest.raises(socketio.exceptions.ConnectionError):
            Spy(server.url, {"role": "host", "game": game_id, "host_token": token})
        assert other.sio.connected and other.call("host", {"op": "pause"})["ok"]
        assert service.get(game_id).status == "paused"
    finally:
        for spy in (*hosts, other):
            spy.close()


def test_a_socket_missed_by_the_disconnect_is_refused_all_the_same(real):
    """Belt and braces: a host socket whose token is gone gets `not_host` for every op."""
    app, server = real
    service = context.of(app).service
    game_id = new_game(app, "monasterium")
    _, _, token = log_in(server.url, game_id)
    host = Spy(server.url, {"role": "host", "game": game_id, "host_token": token})
    bus = context.of(app).bus
    dropping = context.of(app).socketio.server.namespace_handlers["/"].tokens_revoked
    assert bus.subscribed(TokensRevoked, dropping)
    bus.unsubscribe(TokensRevoked, dropping)  # as if the disconnect had not reached it
    try:
        service.access.revoke_token(token)
        for message in ({"op": "pause"}, {"op": "new_join_code", "seat": "N"},
                        {"op": "undo"}, {"op": "end"}):
            ack = host.call("host", message)
            assert ack["ok"] is False and ack["code"] == "not_host", ack
        ack = host.call("act", {"action": {"type": "adjust", "seat": "N", "item": "soup",
                                           "delta": 1}})
        assert ack["code"] == "not_host"
        assert service.get(game_id).status == "active" and service.get(game_id).version == 0
    finally:
        bus.subscribe(TokensRevoked, dropping)
        host.close()


@pytest.mark.parametrize("name", GAMES)
def test_a_new_pin_ends_every_host_session(real, name):
    app, server = real
    service = context.of(app).service
    game_id = new_game(app, name)
    http, csrf, token = log_in(server.url, game_id)
    _, _, other_token = log_in(server.url, game_id)
    hosts = [Spy(server.url, {"role": "host", "game": game_id, "host_token": t})
             for t in (token, other_token)]
    try:
        bad = http.post(f"{server.url}/host/{game_id}/pin",
                        data={"pin": "12", "csrf_token": csrf}, allow_redirects=False,
                        timeout=30)
        assert bad.status_code == 400 and all(spy.sio.connected for spy in hosts)
        answer = http.post(f"{server.url}/host/{game_id}/pin",
                           data={"pin": "97531", "csrf_token": csrf}, allow_redirects=False,
                           timeout=30)
        assert answer.status_code == 303
        assert all(gone(spy) for spy in hosts)
        for old in (token, other_token):
            assert service.access.identify(game_id, old, "host") is None
        refused = http.post(f"{server.url}/host/{game_id}/login",
                            data={"pin": "2468", "csrf_token": csrf}, timeout=30)
        assert refused.status_code == 403
        log_in(server.url, game_id, "97531")
    finally:
        for spy in hosts:
            spy.close()

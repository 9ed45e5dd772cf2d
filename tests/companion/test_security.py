"""Secrets never reach the logs; tokens are long and random; limiter windows."""
from __future__ import annotations

import base64
import io
import logging

from companion import context
from companion.server import security


def test_tokens_have_at_least_128_random_bits():
    tokens = {security.new_token() for _ in range(200)}
    assert len(tokens) == 200
    for token in tokens:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= 128
    assert security.token_hash("a") != security.token_hash("b")


def test_pin_hash_is_salted_and_slow():
    one, two = security.hash_pin("1234"), security.hash_pin("1234")
    assert one != two and one.startswith("pbkdf2:sha256:")
    assert security.check_pin(one, "1234") and not security.check_pin(one, "1235")


def test_redact_removes_codes_tokens_and_cookies():
    token = security.new_token()
    lines = ["GET /join/g1/N?code=ABCDEFGH23 HTTP/1.1",
             f"auth {{'role': 'seat', 'token': '{token}'}}",
             f'{{"host_token": "{token}"}}',
             f"Cookie: tc_seat_g1={token}; lang=pl",
             f"/socket.io/?EIO=4&token={token}&transport=websocket"]
    for line in lines:
        cleaned = security.redact(line)
        assert token not in cleaned and "ABCDEFGH23" not in cleaned, cleaned
    assert security.redact("North played grain.") == "North played grain."


def test_every_logger_is_redacted(tmp_path):
    from tests.companion.conftest import make_app

    make_app(tmp_path)  # installs the redaction
    token = security.new_token()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    for name in ("gunicorn.access", "werkzeug", "companion.anything"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        try:
            logger.info('"GET /join/%s/N?code=%s HTTP/1.1" 303 -', "g1", "QWERTYUP23")
            logger.info("cookie tc_host_g1=%s", token)
        finally:
            logger.removeHandler(handler)
    text = stream.getvalue()
    assert text.count("[redacted]") == 6
    assert token not in text and "QWERTYUP23" not in text


def test_rate_limiter_counts_failures_per_key():
    limiter = security.RateLimiter(limit=2, window=60)
    key, other = ("1.2.3.4", "g", "join"), ("5.6.7.8", "g", "join")
    assert not limiter.blocked(key)
    limiter.fail(key)
    limiter.fail(key)
    assert limiter.blocked(key) and not limiter.blocked(other)
    limiter.window = 0  # the window has passed
    assert not limiter.blocked(key)


def test_concurrent_pin_guesses_check_at_most_the_limit(tmp_path):
    """Issue 10: 200 guesses at once from one address check at most the limit's PINs (the
    attempt is reserved before the slow hash), then every guess is refused."""
    import threading

    from companion.app import create_app
    from tests.companion.conftest import create_game, csrf

    app = create_app({"DATA_DIR": str(tmp_path / "d"), "TESTING": True,
                      "RATE_LIMIT": (5, 600.0)})
    game_id = create_game(app.test_client(), pin="97531")
    service = context.of(app).service
    checked = []
    real = service.access.check_pin

    def counting(game, pin):
        checked.append(pin)
        return real(game, pin)

    service.access.check_pin = counting
    statuses = []
    clients = [app.test_client() for _ in range(200)]
    tokens = [csrf(c) for c in clients]  # each guesser its own session, one address

    def guess(i):
        response = clients[i].post(f"/host/{game_id}/login", json={"pin": f"{i:04d}"},
                                   headers={"X-CSRF-Token": tokens[i]})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(checked) <= 5
    assert statuses.count(429) >= 195 and 500 not in statuses


def test_malformed_login_bodies_get_a_clear_error(client, app):
    from tests.companion.conftest import create_game, csrf

    game_id = create_game(client)
    token = csrf(client)
    for body in ("[1]", '"1234"', "1234", "true", "[" * 3000 + "]" * 3000, "{not json"):
        response = client.post(f"/host/{game_id}/login", data=body,
                               headers={"X-CSRF-Token": token,
                                        "Content-Type": "application/json"})
        assert response.status_code in (403, 429), (body[:10], response.status_code)
        assert response.get_json()["code"] in ("wrong_pin", "rate_limited")


def test_a_logged_out_host_token_stops_working(client, app):
    from tests.companion.conftest import create_game, csrf

    game_id = create_game(client)
    token = csrf(client)
    response = client.post(f"/host/{game_id}/login", json={"pin": "2468"},
                           headers={"X-CSRF-Token": token})
    host_token = response.get_json()["host_token"]
    bearer = {"Authorization": f"Bearer {host_token}"}
    assert client.get(f"/games/{game_id}/record.json", headers=bearer).status_code == 200
    client.set_cookie(f"tc_host_{game_id}", host_token)
    assert client.post(f"/host/{game_id}/logout", data={"csrf_token": token}).status_code == 303
    assert client.get(f"/games/{game_id}/record.json", headers=bearer).status_code in (401, 403)
    assert store_has_no(app, host_token)


def test_the_session_cookie_is_secure_under_https(tmp_path):
    from companion.app import create_app

    app = create_app({"DATA_DIR": str(tmp_path / "d"), "TESTING": True,
                      "CERTFILE": str(tmp_path / "c.pem"), "KEYFILE": str(tmp_path / "k.pem")})
    assert app.config["SESSION_COOKIE_SECURE"] is True
    plain = create_app({"DATA_DIR": str(tmp_path / "e"), "TESTING": True})
    assert not plain.config.get("SESSION_COOKIE_SECURE")


def store_has_no(app, token) -> bool:
    from companion.server.security import token_hash

    return context.of(app).service.store.token(token_hash(token)) is None

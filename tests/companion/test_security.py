"""Secrets never reach the logs; tokens are long and random; limiter windows."""
from __future__ import annotations

import base64
import io
import logging

from companion import security


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

"""Every too-large body gets the app's own translated 413 (issue 67, minor 7): with a
Content-Length over the limit, and chunked (no length: it was cut at the limit and answered
"not a picture"). Over real HTTP to a live server."""
from __future__ import annotations

import pytest
import requests

from tests.companion.test_logout import browser, log_in, new_game, real  # noqa: F401

LIMIT = 4 * 1024 * 1024


def chunks(total: int):
    piece = b"\0" * 65536
    for _ in range(total // len(piece)):
        yield piece


def post(http, url, **kwargs):
    try:
        return http.post(url, timeout=60, **kwargs)
    except requests.ConnectionError as error:  # the server closed as it answered
        pytest.fail(f"no answer: {error}")


def test_a_chunked_upload_over_the_limit_is_a_translated_413(real):  # noqa: F811
    """Planted fault: ChunkedLimit not installed -> the body cut at the limit reaches the
    route: 422 not_an_image."""
    app, server = real
    game_id = new_game(app, "wwe")
    http, csrf, _ = log_in(server.url, game_id)
    url = f"{server.url}/host/{game_id}/deck/card_face/upload?game=wwe&entry=x&lang=de"
    answer = post(http, url, data=chunks(LIMIT + 2 * 65536),
                  headers={"X-CSRF-Token": csrf, "Accept": "application/json"})
    assert answer.status_code == 413, answer.text[:300]
    assert answer.json()["code"] == "too_big"
    assert answer.json()["message"].startswith("Zu viele Daten")
    assert "close" in answer.headers["Connection"].lower()


def test_a_body_with_a_length_over_the_limit_is_the_app_s_413_page(real):  # noqa: F811
    """Planted fault: no 413 handler -> Werkzeug's English "Request Entity Too Large"."""
    _, server = real
    http, csrf = browser(server.url)
    answer = post(http, f"{server.url}/games/import?lang=it",
                  files={"record": ("r.json", b"{" + b" " * LIMIT + b"}")},
                  data={"csrf_token": csrf, "host_pin": "2468"})
    assert answer.status_code == 413
    assert "Request Entity Too Large" not in answer.text
    assert 'lang="it"' in answer.text and "Troppi dati" in answer.text

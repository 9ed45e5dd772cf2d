"""Refusals before exceptions (issue 67, minor 8): an import naming an unknown game and a
setup whose options are a list are refused, translated, with no traceback in the log; sent
over real HTTP to a live server."""
from __future__ import annotations

import io
import json
import logging

import pytest

from companion import context
from tests.companion.test_logout import browser, new_game, real  # noqa: F401


def import_record(url: str, record: dict, lang: str = "en"):
    http, csrf = browser(url)
    return http.post(f"{url}/games/import?lang={lang}",
                     data={"csrf_token": csrf, "host_pin": "2468"},
                     files={"record": ("r.json", io.BytesIO(json.dumps(record).encode()))},
                     allow_redirects=False, timeout=30)


@pytest.mark.parametrize("change", ["unknown_game", "options_list", "options_unknown"])
def test_refused_translated_and_no_traceback(real, change, caplog):  # noqa: F811
    """Planted faults: without service.import_record's one-line refusal the unknown game logs
    a traceback; without limits.check_options the list reaches the game's option code (an
    AttributeError logged with its traceback); an unknown option's name is refused by the
    shape check too (the rules refused it before as well: no fault to plant there)."""
    app, server = real
    service = context.of(app).service
    record = service.record(new_game(app, "wwe"))
    games_before = len(service.all())
    if change == "unknown_game":
        record["game"] = "../../etc/passwd"
    elif change == "options_list":
        record["setup"]["options"] = ["x", "y"]
    else:
        record["setup"]["options"] = {"no_such_option": True}
    caplog.set_level(logging.INFO)
    answer = import_record(server.url, record, lang="it")
    assert answer.status_code == 400, answer.text[:300]
    assert "Traceback" not in answer.text
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]
    assert 'lang="it"' in answer.text
    assert len(service.all()) == games_before  # nothing created

"""A game declares the languages its texts are translated into (`GameInfo.languages`); its
pages offer those and no other, and a socket asking for another one gets English (issue 47:
Liar's dice lite speaks English and German)."""
from __future__ import annotations

import re

import pytest

from companion import context
from companion.app import create_app
from tests.companion.conftest import LiveServer, Spy, csrf
from tests.liarsdice import liars_game


@pytest.fixture
def app(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True,
                      "GAMES": {"liars": (liars_game(), {})}})
    yield app
    context.of(app).service.store.close()


def new_liars_game(client) -> str:
    form = {"csrf_token": csrf(client), "game": "liars", "host_pin": "2468",
            "name_A": "Ann", "name_B": "Bo"}
    answer = client.post("/games", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:400]
    return answer.headers["Location"].rsplit("/", 1)[-1]


def offered(page: str) -> list[str]:
    select = re.search(r'<select name="lang" id="lang-select".*?</select>', page, re.S).group(0)
    return re.findall(r'<option value="(\w+)"', select)


def test_a_games_pages_offer_only_its_languages(app):
    client = app.test_client()
    game_id = new_liars_game(client)
    for url in (f"/table/{game_id}", f"/host/{game_id}"):
        page = client.get(url + "?lang=de").get_data(as_text=True)
        assert offered(page) == ["en", "de"] and '<html lang="de">' in page
    table = client.get(f"/table/{game_id}?lang=de").get_data(as_text=True)
    assert "Das Gebot" in table  # the game's own German
    # Polish is the app's but not the game's: the page is English, the cookie kept as it was
    client.set_cookie("lang", "pl")
    page = client.get(f"/table/{game_id}").get_data(as_text=True)
    assert '<html lang="en">' in page and "The bid" in page
    assert '"lang": "en"' in page  # what the page's socket asks for
    # the lobby still offers every language of the app
    assert offered(client.get("/new?lang=pl").get_data(as_text=True)) == [
        "en", "it", "pl", "es", "de"]


def test_a_socket_asking_for_a_language_the_game_lacks_gets_english(app):
    client = app.test_client()
    game_id = new_liars_game(client)
    service = context.of(app).service
    token = service.access.claim_seat(game_id, "A", service.store.join_codes(game_id)["A"])
    server = LiveServer(app)
    try:
        spy = Spy(server.url, {"role": "seat", "game": game_id, "token": token, "lang": "pl"})
        view = spy.wait_for(lambda v: True)
        assert view["lang"] == "en" and view["prompts"][0]["text"] == "Ann bids or calls."
        assert spy.call("set_lang", {"lang": "de"})["ok"]
        german = spy.wait_for(lambda v: v["lang"] == "de")
        assert german["prompts"][0]["text"] == "Ann bietet oder zweifelt an."
        assert spy.call("set_lang", {"lang": "it"})["ok"]
        assert spy.wait_for(lambda v: v["lang"] == "en", since=len(spy.views) - 1)
        spy.close()
    finally:
        server.stop()

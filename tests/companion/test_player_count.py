"""The new-game page says the player count the game declares (`GameInfo.min_players`,
`max_players`) and the app holds the form to it (issue 47: the page said "2 to 4 players"
whatever the game). Every game of the project plays 2 to 4, so the test gives the app a copy
of Liar's dice lite declared for 3 to 4 players, whose own rules would take 2."""
from __future__ import annotations

import dataclasses
import re
from types import SimpleNamespace

import pytest

from companion import context
from companion.app import create_app
from tests.companion.conftest import csrf
from tests.liarsdice import liars_game


@pytest.fixture
def app(tmp_path):
    game = liars_game()
    three = SimpleNamespace(**{**vars(game), "info": dataclasses.replace(
        game.info, min_players=3, max_players=4)})
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True,
                      "GAMES": {"liars": (three, {})}})
    yield app
    context.of(app).service.store.close()


def count_line(page: str) -> str:
    return re.search(r'<p class="muted small" id="player-count">([^<]*)</p>', page).group(1)


def test_the_new_game_page_says_the_games_count(app):
    client = app.test_client()
    assert count_line(client.get("/new?game=liars").get_data(as_text=True)).startswith(
        "One player per seat (3 to 4 players).")
    german = client.get("/new?game=liars&lang=de").get_data(as_text=True)
    assert "3" in count_line(german) and "4" in count_line(german)
    assert "2" not in count_line(german)


def test_a_form_with_fewer_players_than_the_game_declares_is_refused(app):
    client = app.test_client()
    form = {"csrf_token": csrf(client), "game": "liars", "host_pin": "2468",
            "name_A": "Ann", "name_B": "Bo"}
    answer = client.post("/games", data=form)
    assert answer.status_code == 400
    assert "3 to 4 players" in answer.get_data(as_text=True)
    assert context.of(app).service.all() == []
    answer = client.post("/games", data=dict(form, name_C="Cy"))
    assert answer.status_code == 303
    assert len(context.of(app).service.all()) == 1

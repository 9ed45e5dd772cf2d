"""The start player chosen on the new-game form starts the game, for every game: Pillars and
Monasterium read it through `engine.api.table_from_setup`, World Without End itself (issue 36:
the helper once read another key and the form's choice was silently ignored)."""
from __future__ import annotations

import pytest

from tests.companion.conftest import csrf

# where each game's state keeps who starts the first round
START_KEY = {"wwe": "active", "pillars": "start", "monasterium": "first"}


def new_game_from_the_form(client, game: str, start_seat: str) -> str:
    form = {"csrf_token": csrf(client), "game": game, "host_pin": "2468",
            "name_N": "Ann", "name_E": "Bob", "name_S": "Cid", "start_seat": start_seat}
    response = client.post("/games", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return response.headers["Location"].rsplit("/", 1)[-1]


@pytest.mark.parametrize("game", sorted(START_KEY))
@pytest.mark.parametrize("start_seat", ["E", "S"])
def test_the_forms_start_player_starts(games_app, game, start_seat):
    client = games_app.test_client()
    live = games_app.extensions["companion"].get(new_game_from_the_form(client, game,
                                                                         start_seat))
    assert live.state[START_KEY[game]] == start_seat


@pytest.mark.parametrize("game", sorted(START_KEY))
def test_a_start_player_not_at_the_table_is_refused(games_app, game):
    client = games_app.test_client()
    form = {"csrf_token": csrf(client), "game": game, "host_pin": "2468",
            "name_N": "Ann", "name_E": "Bob", "start_seat": "W"}
    assert client.post("/games", data=form).status_code == 400
    assert games_app.extensions["companion"].all() == []

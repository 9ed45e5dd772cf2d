"""The start player chosen on the new-game form starts the game, for every game: Pillars,
Monasterium and the toy plug-in read it through `engine.api.table_from_setup`, World Without
End itself (issue 36: the helper once read another key and the form's choice was silently
ignored; issue 47: the toy, the guide's example, ignored it). "Pick at random" reaches the
game as one of the seats taken, and that seat is the first asked."""
from __future__ import annotations

import random

import pytest

from companion import context
from tests.companion.conftest import csrf

# where each game's state keeps who starts the first round
START_KEY = {"wwe": "active", "pillars": "start", "monasterium": "first", "toy": "active"}
SEATS = {"toy": ("A", "B", "C")}


def new_game_from_the_form(client, game: str, start_seat: str) -> str:
    seats = SEATS.get(game, ("N", "E", "S"))
    start_seat = {"E": seats[1], "S": seats[2]}.get(start_seat, start_seat)
    form = {"csrf_token": csrf(client), "game": game, "host_pin": "2468",
            "start_seat": start_seat, **dict(zip([f"name_{s}" for s in seats],
                                                 ("Ann", "Bob", "Cid"), strict=True))}
    response = client.post("/games", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return response.headers["Location"].rsplit("/", 1)[-1]


@pytest.mark.parametrize("game", sorted(START_KEY))
@pytest.mark.parametrize("start_seat", ["E", "S"])
def test_the_forms_start_player_starts(games_app, game, start_seat):
    client = games_app.test_client()
    live = context.of(games_app).service.get(new_game_from_the_form(client, game,
                                                                         start_seat))
    seats = SEATS.get(game, ("N", "E", "S"))
    assert live.state[START_KEY[game]] == {"E": seats[1], "S": seats[2]}[start_seat]


@pytest.mark.parametrize("game", sorted(START_KEY))
def test_a_random_start_player_is_a_seat_taken_and_is_asked_first(games_app, game):
    from engine.contract.turns import first_asked

    client = games_app.test_client()
    seats = SEATS.get(game, ("N", "E", "S"))
    chosen = set()
    for _ in range(6):
        live = context.of(games_app).service.get(new_game_from_the_form(client, game,
                                                                             "random"))
        start = live.row["setup"]["start_seat"]
        assert start in seats and live.state[START_KEY[game]] == start
        assert first_asked(live.kind.module, live.state, list(seats), random.Random(1)) == start
        chosen.add(start)
    assert chosen  # (drawn by the app: SystemRandom, so no particular spread is promised)


@pytest.mark.parametrize("game", sorted(START_KEY))
def test_a_start_player_not_at_the_table_is_refused(games_app, game):
    client = games_app.test_client()
    seats = SEATS.get(game, ("N", "E", "S"))
    form = {"csrf_token": csrf(client), "game": game, "host_pin": "2468",
            f"name_{seats[0]}": "Ann", f"name_{seats[1]}": "Bob", "start_seat": seats[2]}
    assert client.post("/games", data=form).status_code == 400
    assert context.of(games_app).service.all() == []

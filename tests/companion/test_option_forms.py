"""Issue 21: the new-game form. A fixed option (one allowed value) is not a checkbox; a field
not sent takes the option's default, so a table is created from the game and the PIN alone."""
from __future__ import annotations

import re

import pytest

from tests.companion.conftest import csrf


@pytest.fixture
def client(games_app):
    """A client of the app with every game (the conftest's `client` has only the toy)."""
    return games_app.test_client()


def created(client, form: dict) -> dict:
    answer = client.post("/games", data={"csrf_token": csrf(client), "host_pin": "2468",
                                         "name_N": "Ann", "name_E": "Bo", **form})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:400]
    game_id = answer.headers["Location"].rsplit("/", 1)[-1]
    return client.application.extensions["companion"].get(game_id).row["setup"]["options"]


@pytest.mark.parametrize("game", ["pillars", "wwe", "monasterium"])
def test_no_option_fields_take_every_default(client, game):
    options = created(client, {"game": game})
    info = client.application.extensions["companion"]._kinds(game).module.info
    assert options == {o.id: o.default for o in info.options}


def test_fixed_options_are_facts_and_checkboxes_say_off(client):
    page = client.get("/new?game=pillars").get_data(as_text=True)
    info = client.application.extensions["companion"]._kinds("pillars").module.info
    fixed = [o for o in info.options if len(o.choices) == 1]
    assert len(fixed) >= 10
    for option in fixed:
        assert not re.search(rf'<input[^>]+name="option_{option.id}"', page)
        assert f'<p class="fixed-option" id="option_{option.id}">' in page
    free = next(o for o in info.options if o.choices == (False, True) and o.default is True)
    assert f'<input type="checkbox" id="option_{free.id}"' in page
    # an unticked box sends only its hidden "0": off; a fixed option sent as off stays on
    options = created(client, {"game": "pillars", f"option_{free.id}": "0",
                               f"option_{fixed[0].id}": "0"})
    assert options[free.id] is False and options[fixed[0].id] == fixed[0].choices[0]
    options = created(client, {"game": "pillars", f"option_{free.id}": ["0", "1"]})
    assert options[free.id] is True
    answer = client.post("/games", data={"csrf_token": csrf(client), "host_pin": "2468",
                                         "name_N": "Ann", "name_E": "Bo", "game": "pillars",
                                         "option_court_metal": "anywhere"})
    assert answer.status_code == 400

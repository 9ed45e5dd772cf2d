"""Issue 21: the new-game form. A fixed option (one allowed value) is not a checkbox; a field
not sent takes the option's default, so a table is created from the game and the PIN alone."""
from __future__ import annotations

import re

import pytest

from companion import context
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
    return context.of(client.application).service.get(game_id).row["setup"]["options"]


@pytest.mark.parametrize("game", ["pillars", "wwe", "monasterium"])
def test_no_option_fields_take_every_default(client, game):
    options = created(client, {"game": game})
    info = context.of(client.application).kinds.get(game).module.info
    assert options == {o.id: o.default for o in info.options}


def test_fixed_options_are_facts_and_checkboxes_say_off(client):
    page = client.get("/new?game=pillars").get_data(as_text=True)
    info = context.of(client.application).kinds.get("pillars").module.info
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


def test_the_player_count_comes_from_the_game(tmp_path):
    """Issue 47: the form said "2 to 4 players" whatever the game declared."""
    import dataclasses
    from types import SimpleNamespace

    from companion.app import create_app
    from companion.game import games

    toy = games.module_of("toy")
    three = SimpleNamespace(**{**vars(toy), "info": dataclasses.replace(
        toy.info, min_players=3, max_players=4)})
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True,
                      "GAMES": {"toy": (three, None)}})
    try:
        client = app.test_client()
        page = client.get("/new?game=toy").get_data(as_text=True)
        assert "(3 to 4 players)" in page and "2 to 4" not in page
        italian = client.get("/new?game=toy&lang=it").get_data(as_text=True)
        assert "(da 3 a 4 giocatori)" in italian
    finally:
        context.of(app).service.store.close()


def test_variants_show_openly_and_readings_fold_under_rule_options(client):
    """Issue 47: every option but one game's first-game mode was folded away. A variant
    (`Option.reading` False, the default) is shown; the rules' readings are folded."""
    page = client.get("/new?game=wwe").get_data(as_text=True)
    folded = re.search(r'<details class="panel" id="rule-options">.*?</details>', page, re.S)
    assert 'id="option_first_game"' in page and 'id="option_first_game"' not in folded.group(0)
    assert 'id="option_favor_wrap"' in folded.group(0)
    toy = client.get("/new?game=toy").get_data(as_text=True)
    assert 'id="option_short"' in toy and 'id="rule-options"' not in toy

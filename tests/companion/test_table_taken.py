"""Who may move the camera and the dice, and what a spent pairing link says (issue 46 #5, #6),
through the real routes and a real SQLite file.

The hardware serves the game at the table. A new game asks whether to go there now; from
another game in play it moves only with that game's host's word (its host cookie in this
browser, or its PIN), or once that game has ended. Pairing a TV moves it only from a free
table. A pairing link opened too late says it expired and where the host makes a new one."""
from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from companion import context
from tests.companion.conftest import PLAYERS, create_game, csrf, make_app
from tests.companion.test_routes import pair


def new_game(client, at_table: str | None, table_pin: str | None = None, pin="2468",
             lang="en"):
    """POST /games as the new-game form sends it; the response."""
    form = {"csrf_token": csrf(client), "game": "toy", "host_pin": pin}
    form.update({f"name_{seat}": name for seat, name in PLAYERS.items()})
    if at_table is not None:
        form["at_table"] = at_table
    if table_pin is not None:
        form["table_pin"] = table_pin
    return client.post(f"/games?lang={lang}", data=form)


def game_count(app) -> int:
    return len(context.of(app).service.all())


def test_a_new_game_takes_the_camera_from_a_game_in_play_only_with_its_hosts_pin(tmp_path):
    app = make_app(tmp_path)
    service = context.of(app).service
    first = create_game(app.test_client(), pin="1111")  # the table was free: it went there
    assert service.access.at_table().id == first
    other = app.test_client()  # anyone else on the Wi-Fi
    form = other.get("/new").get_data(as_text=True)
    assert 'id="at_table_later" name="at_table" value="later" checked' in form
    assert 'id="table_pin"' in form and "serve Toy" in form

    # "now" without the first game's PIN, or with a wrong one: refused, no game made
    for pin, code in ((None, "Only its host moves them"), ("9999", "The PIN is wrong")):
        refused = new_game(other, "now", pin)
        assert refused.status_code == 400 and code in refused.get_data(as_text=True)
        assert game_count(app) == 1 and service.access.at_table().id == first
    # in German too
    refused = new_game(other, "now", lang="de")
    assert "Nur ihr Gastgeber" in refused.get_data(as_text=True)

    # "later": the new game is made, the camera stays
    later = new_game(other, "later")
    assert later.status_code == 303 and game_count(app) == 2
    assert service.access.at_table().id == first
    # a request that does not say never takes a table that is not free
    assert new_game(other, None).status_code == 303 and service.access.at_table().id == first

    # "now" with the first game's PIN: it moves
    taken = new_game(other, "now", "1111")
    assert taken.status_code == 303
    made = taken.headers["Location"].rsplit("/", 1)[-1]
    assert service.access.at_table().id == made

    # the browser that is the host of the game at the table needs no PIN
    host = app.test_client()
    host.post(f"/host/{made}/login", data={"csrf_token": csrf(host), "pin": "2468"})
    form = host.get("/new").get_data(as_text=True)
    assert 'id="table_pin"' not in form
    moved = new_game(host, "now")
    assert moved.status_code == 303
    assert service.access.at_table().id == moved.headers["Location"].rsplit("/", 1)[-1]
    service.store.close()


def test_once_the_game_at_the_table_has_ended_the_camera_is_free(tmp_path):
    app = make_app(tmp_path)
    service = context.of(app).service
    first = create_game(app.test_client(), pin="1111")
    service.end(first)
    other = app.test_client()
    form = other.get("/new").get_data(as_text=True)
    assert 'id="table_pin"' not in form  # nobody to ask
    assert 'id="at_table_now" name="at_table" value="now" checked' in form
    taken = new_game(other, "now")
    assert taken.status_code == 303
    assert service.access.at_table().id == taken.headers["Location"].rsplit("/", 1)[-1]
    service.store.close()


def test_pairing_a_tv_moves_the_camera_only_from_a_free_table(tmp_path):
    app = make_app(tmp_path)
    service = context.of(app).service
    first = create_game(app.test_client(), pin="1111")
    second = create_game(app.test_client(), pin="2222")  # made while the first plays
    assert service.access.at_table().id == first
    pair(app, app.test_client(), second)  # the second game's TV, through its link
    assert service.access.at_table().id == first
    # the second game's host pairs this device: it is not the first game's host
    host = app.test_client()
    host.post(f"/host/{second}/login", data={"csrf_token": csrf(host), "pin": "2222"})
    host.post(f"/host/{second}/pair-here", data={"csrf_token": csrf(host)})
    assert service.access.at_table().id == first
    # a browser that is the host of both: the camera follows its word
    host.post(f"/host/{first}/login", data={"csrf_token": csrf(host), "pin": "1111"})
    host.post(f"/host/{second}/pair-here", data={"csrf_token": csrf(host)})
    assert service.access.at_table().id == second
    service.store.close()


def age_pairing_codes(tmp_path, minutes: int) -> None:
    """Every pairing code in the SQLite file made ``minutes`` ago."""
    made = (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat()
    with sqlite3.connect(tmp_path / "data" / "companion.sqlite3") as db:
        db.execute("UPDATE tokens SET created = ? WHERE role = 'pairing'", (made,))


def test_an_expired_pairing_link_says_so_and_where_the_host_makes_a_new_one(tmp_path):
    app = make_app(tmp_path)
    service = context.of(app).service
    game = create_game(app.test_client())
    codes = [service.access.new_table_pairing(game) for _ in range(2)]
    age_pairing_codes(tmp_path, 11)
    tv = app.test_client()
    page = tv.get(f"/table/{game}/pair?code={codes[0]}", headers={"Host": "192.0.2.7:8000"})
    text = page.get_data(as_text=True)
    assert page.status_code == 403
    assert "This pairing link has expired: it works for 10 minutes, once." in text
    assert "Pair the table display" in text and "http://192.0.2.7:8000/host/" + game in text
    # not the phone's "The join code is wrong" / "Scan the QR code of your seat"
    assert "join code is wrong" not in text and "your seat" not in text
    german = tv.get(f"/table/{game}/pair?code={codes[1]}&lang=de").get_data(as_text=True)
    assert "Dieser Kopplungslink ist abgelaufen" in german and "Beitrittscode ist" not in german
    # a fresh link still works
    pair(app, tv, game)
    service.store.close()


def test_the_games_list_says_ended_early_and_ranks_no_one(tmp_path):
    app = make_app(tmp_path)
    service = context.of(app).service
    game = create_game(app.test_client())
    service.end(game)  # by the host, before the game's end: nobody won
    listed = app.test_client().get("/?lang=en").get_data(as_text=True)
    row = listed[listed.index(f'data-game="{game}"'):]
    row = row[:row.index("</tr>")]
    assert "ended early" in row and "finished" not in row
    result = row[row.index('class="game-result"'):]  # the time cell may hold "01.683"
    assert "no winner" in result and "1." not in result
    polish = app.test_client().get("/?lang=pl").get_data(as_text=True)
    assert "zakończona przedwcześnie" in polish and "bez zwycięzcy" in polish
    service.store.close()

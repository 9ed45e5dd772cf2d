"""HTTP routes through Flask's test client: create, join, rejoin, codes, CSRF, limits, host."""
from __future__ import annotations

import io
import json
from urllib.parse import urlparse

import pytest

from companion import context
from companion.server.security import token_hash
from tests.companion.conftest import create_game, csrf, make_app


def join_url(app, game_id, seat):
    code = context.of(app).service.store.join_codes(game_id)[seat]
    return f"/join/{game_id}/{seat}?code={code}"


def seat_cookie(client, game_id):
    cookie = client.get_cookie(f"tc_seat_{game_id}")
    return cookie.value if cookie else None


def test_create_game_needs_csrf(client, app):
    response = client.post("/games", data={"game": "toy", "name_A": "a", "name_B": "b",
                                           "host_pin": "1234"})
    assert response.status_code == 400
    assert context.of(app).service.all() == []


def test_create_game_and_pages(client, app):
    game_id = create_game(client)
    live = context.of(app).service.get(game_id)
    assert [p["name"] for p in live.players] == ["Ann", "Bob", "Cid"]
    assert client.get_cookie(f"tc_host_{game_id}") is not None  # the creator is the host
    assert client.get("/").status_code == 200
    table = client.get(f"/table/{game_id}")
    assert table.status_code == 200
    assert client.get("/table/nope").status_code == 404


def test_bad_setup_is_refused_and_creates_nothing(client, app):
    token = csrf(client)
    for form in ({"name_A": "only one"},  # the toy game needs two players
                 {"name_A": "a", "name_B": "b", "host_pin": "12"}):  # PIN too short
        data = {"csrf_token": token, "game": "toy", "host_pin": "1234", **form}
        assert client.post("/games", data=data).status_code == 400
    assert context.of(app).service.all() == []


def test_join_sets_cookie_and_rejoin_gives_same_seat(client, app):
    game_id = create_game(client)
    phone = app.test_client()
    response = phone.get(join_url(app, game_id, "A"))
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/play/{game_id}")
    token = seat_cookie(phone, game_id)
    assert token and len(token) >= 43  # 32 random bytes, url-safe base64
    store = context.of(app).service.store
    found = store.token(token_hash(token))
    assert {k: found[k] for k in ("game", "role", "seat")} == {"game": game_id, "role": "seat",
                                                             "seat": "A"}
    # refresh and rescan: same token, no second claim
    assert phone.get(f"/play/{game_id}").status_code == 200
    assert phone.get(join_url(app, game_id, "A")).status_code == 303
    assert seat_cookie(phone, game_id) == token
    assert store.claimed_seats(game_id) == {"A"}


def test_tokens_are_stored_hashed_only(client, app, tmp_path):
    game_id = create_game(client)
    phone = app.test_client()
    phone.get(join_url(app, game_id, "B"))
    token = seat_cookie(phone, game_id)
    raw = (tmp_path / "data" / "companion.sqlite3").read_bytes()
    wal = tmp_path / "data" / "companion.sqlite3-wal"
    raw += wal.read_bytes() if wal.exists() else b""
    assert token.encode() not in raw
    assert token_hash(token).encode() in raw


def test_wrong_code_and_unknown_seat(client, app):
    game_id = create_game(client)
    phone = app.test_client()
    assert phone.get(f"/join/{game_id}/A?code=WRONG").status_code == 403
    assert phone.get(f"/join/{game_id}/Z?code=WRONG").status_code == 404
    assert seat_cookie(phone, game_id) is None
    assert phone.get(f"/play/{game_id}").status_code == 403


def test_join_attempts_are_rate_limited(tmp_path):
    app = make_app(tmp_path, RATE_LIMIT=(3, 60.0))
    client = app.test_client()
    game_id = create_game(client)
    phone = app.test_client()
    for _ in range(3):
        assert phone.get(f"/join/{game_id}/A?code=WRONG").status_code == 403
    # now even the right code is refused for this address and game
    response = phone.get(join_url(app, game_id, "A"))
    assert response.status_code == 429
    assert seat_cookie(phone, game_id) is None


def test_rate_limit_message_is_translated(tmp_path):
    app = make_app(tmp_path, RATE_LIMIT=(1, 60.0))
    client = app.test_client()
    game_id = create_game(client)
    client.get(f"/join/{game_id}/A?code=WRONG")
    english = client.get(f"/join/{game_id}/A?code=WRONG&lang=en").get_data(as_text=True)
    assert "Too many attempts" in english


def test_host_pin_login(client, app):
    game_id = create_game(client, pin="97531")
    other = app.test_client()
    assert other.get(f"/games/{game_id}/record.json").status_code == 403
    token = csrf(other)
    bad = other.post(f"/host/{game_id}/login", json={"pin": "0000"},
                     headers={"X-CSRF-Token": token})
    assert bad.status_code == 403 and bad.get_json()["code"] == "wrong_pin"
    no_csrf = other.post(f"/host/{game_id}/login", json={"pin": "97531"})
    assert no_csrf.status_code == 400
    good = other.post(f"/host/{game_id}/login", json={"pin": "97531"},
                      headers={"X-CSRF-Token": token})
    assert good.status_code == 200
    host_token = good.get_json()["host_token"]
    record = other.get(f"/games/{game_id}/record.json",
                       headers={"Authorization": f"Bearer {host_token}"})
    assert record.status_code == 200
    assert record.get_json()["format"] == "table-companion-record"
    form = other.post(f"/host/{game_id}/login", data={"pin": "97531", "csrf_token": token})
    assert form.status_code == 303 and other.get_cookie(f"tc_host_{game_id}")


def test_pin_attempts_are_rate_limited(tmp_path):
    app = make_app(tmp_path, RATE_LIMIT=(2, 60.0))
    client = app.test_client()
    game_id = create_game(client, pin="1111")
    other = app.test_client()
    token = csrf(other)
    for _ in range(2):
        other.post(f"/host/{game_id}/login", json={"pin": "2222"},
                   headers={"X-CSRF-Token": token})
    right = other.post(f"/host/{game_id}/login", json={"pin": "1111"},
                       headers={"X-CSRF-Token": token})
    assert right.status_code == 429 and right.get_json()["code"] == "rate_limited"


def pair(app, client, game_id, host="localhost"):
    """Make ``client`` the game's table display through the host's pairing link."""
    from companion.blueprints.common import TABLE_COOKIE

    code = context.of(app).service.access.new_table_pairing(game_id)
    response = client.get(f"/table/{game_id}/pair?code={code}", headers={"Host": host})
    assert response.status_code == 303
    assert client.get_cookie(TABLE_COOKIE.format(game_id), domain=host.split(":")[0])
    again = client.get(f"/table/{game_id}/pair?code={code}", headers={"Host": host})
    assert again.status_code == 303  # this display is paired already: back to its table
    other = app.test_client().get(f"/table/{game_id}/pair?code={code}", headers={"Host": host})
    assert other.status_code == 403  # used up
    assert "used already" in other.get_data(as_text=True)


def test_only_the_paired_table_display_shows_join_codes(client, app):
    game_id = create_game(client)
    codes = context.of(app).service.store.join_codes(game_id)
    watcher = app.test_client().get(f"/table/{game_id}").get_data(as_text=True)
    assert codes["A"] not in watcher and codes["B"] not in watcher
    assert '"role": "viewer"' in watcher
    tv = app.test_client()
    assert tv.get(f"/table/{game_id}/pair?code=WRONG").status_code == 403
    pair(app, tv, game_id)
    page = tv.get(f"/table/{game_id}").get_data(as_text=True)
    assert codes["A"] in page and '"role": "table"' in page


def test_table_page_hides_codes_of_claimed_seats_host_page_shows_all(client, app):
    game_id = create_game(client)
    codes = context.of(app).service.store.join_codes(game_id)
    app.test_client().get(join_url(app, game_id, "A"))
    pair(app, client, game_id)
    table = client.get(f"/table/{game_id}").get_data(as_text=True)
    assert codes["A"] not in table and codes["B"] in table
    host = client.get(f"/host/{game_id}").get_data(as_text=True)
    assert codes["B"] in host and "<svg" in host
    store = context.of(app).service.store
    assert codes["A"] not in host and store.join_codes(game_id)["A"] not in host  # used up
    assert app.test_client().get(join_url(app, game_id, "A")).status_code == 409  # taken
    new = context.of(app).service.access.new_join_code(game_id, "A")  # the host releases it
    assert new in client.get(f"/host/{game_id}").get_data(as_text=True)
    assert new not in client.get(f"/table/{game_id}").get_data(as_text=True)  # host only
    assert app.test_client().get(join_url(app, game_id, "A")).status_code == 303
    assert app.test_client().get(join_url(app, game_id, "A")).status_code == 409  # once


def test_join_links_use_an_ip_address(tmp_path):
    """A server on every interface (the appliance) names itself by its IP, also when reached
    as companion.local: many Android phones cannot resolve .local. (A server bound to the
    loopback keeps the address it was reached at: tests/web/test_join_links.py.)"""
    app = make_app(tmp_path, HOST="0.0.0.0")
    client = app.test_client()
    game_id = create_game(client)
    pair(app, client, game_id, "companion.local:8000")
    page = client.get(f"/table/{game_id}", headers={"Host": "companion.local:8000"})
    text = page.get_data(as_text=True)
    code = context.of(app).service.store.join_codes(game_id)["B"]
    start = text.index(f"/join/{game_id}/B?code={code}")
    url = text[text.rindex("http://", 0, start):start]
    host = urlparse(url).hostname
    assert host and host != "companion.local" and host.replace(".", "").isdigit()


def test_export_import_round_trip(client, app):
    game_id = create_game(client)
    service = context.of(app).service
    from companion.game.service import Identity

    live = service.get(game_id)
    service.act(Identity("seat", game_id, "A"),
                {"type": "play", "card": live.state["hands"]["A"][0]})
    service.act(Identity("table", game_id), {"type": "roll", "value": 4})
    record = client.get(f"/games/{game_id}/record.json").get_json()
    assert len(record["actions"]) == 2
    token = csrf(client)
    data = {"csrf_token": token, "host_pin": "1357",
            "record": (io.BytesIO(json.dumps(record).encode()), "r.json")}
    response = client.post("/games/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 303
    new_id = response.headers["Location"].rsplit("/", 1)[-1]
    assert new_id != game_id
    assert service.get(new_id).state == service.get(game_id).state
    # a broken record creates nothing
    before = len(service.all())
    record["actions"].append({"type": "roll", "by": "table", "value": 9})
    data = {"csrf_token": token, "host_pin": "1357",
            "record": (io.BytesIO(json.dumps(record).encode()), "r.json")}
    response = client.post("/games/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 400
    assert len(service.all()) == before



def test_healthz_details_only_for_this_machine(client, app):
    mine = client.get("/healthz").get_json()
    other = client.get("/healthz", environ_base={"REMOTE_ADDR": "192.168.1.50"}).get_json()
    assert mine["ok"] and other["ok"] and other["games"] == mine["games"]
    for device, status in other["hardware"].items():
        assert set(status) == {"state"}, device
    assert mine["malformed_frames"] == 0 and "malformed_frames" not in other


def test_a_game_without_a_setup_guide_links_to_no_setup_page(client, app, games_app):
    """The toy declares no guide: its table and host pages have no "Setup" link (it would
    be a 404); a game with a guide (World Without End) has it, and the page opens."""
    game_id = create_game(client)
    for page in (f"/table/{game_id}", f"/host/{game_id}"):
        html = client.get(page).get_data(as_text=True)
        assert "/setup" not in html, page
    assert client.get(f"/table/{game_id}/setup").status_code == 404
    other = games_app.test_client()
    token = csrf(other)
    form = {"csrf_token": token, "game": "wwe", "host_pin": "2468",
            "name_N": "Ann", "name_S": "Bob"}
    response = other.post("/games", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:300]
    wwe = response.headers["Location"].rsplit("/", 1)[-1]
    for page in (f"/table/{wwe}", f"/host/{wwe}"):
        assert f'href="/table/{wwe}/setup"' in other.get(page).get_data(as_text=True), page
    assert other.get(f"/table/{wwe}/setup").status_code == 200


@pytest.mark.parametrize("lang", ["de", "it", "pl", "es", "en"])
def test_a_path_the_server_does_not_know_answers_in_the_phones_language(app, client, lang):
    """A mistyped or stale link gets the app's own error page in the page's language (and a
    script its JSON refusal), never Werkzeug's English "Not Found"; so does a wrong method."""
    from companion.server import i18n

    with app.app_context():
        said = i18n.text(lang, "The page you asked for does not exist.")
    page = client.get("/no/such/page", headers={"Accept-Language": lang})
    assert page.status_code == 404 and "text/html" in page.content_type
    body = page.get_data(as_text=True)
    assert said in body and "Not Found" not in body and f'lang="{lang}"' in body
    script = client.get("/no/such/answer.json", headers={"Accept-Language": lang})
    assert script.status_code == 404
    assert script.get_json()["code"] == "no_page" and script.get_json()["ok"] is False
    wrong = client.delete("/", headers={"Accept-Language": lang})
    assert wrong.status_code == 405 and "Method Not Allowed" not in wrong.get_data(as_text=True)


def test_a_join_link_keeps_its_language(client, app):
    """A join link with ``&lang=de`` (issue 68) opens the seat's page in German and keeps
    the choice; the redirect once dropped it (planted fault: `_play_url` without ``lang``
    fails the first assertion). A language the app does not speak is not carried."""
    game_id = create_game(client)
    phone = app.test_client()
    response = phone.get(join_url(app, game_id, "A") + "&lang=de")
    assert response.status_code == 303
    assert urlparse(response.headers["Location"]).query == "lang=de"
    page = phone.get(response.headers["Location"])
    assert page.status_code == 200 and '<html lang="de"' in page.get_data(as_text=True)
    assert phone.get_cookie("lang").value == "de"
    other = app.test_client().get(join_url(app, game_id, "B") + "&lang=xx")
    assert urlparse(other.headers["Location"]).query == ""

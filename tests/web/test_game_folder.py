"""A game's web folder, as the shared pages load it (companion/blueprints/game_assets.py):
the manifest's scripts, styles and partials per page kind, the folder's static files, its UI
strings merged into the page's, and its own translations looked up before the shared ones.
The game here is the toy game's rules under another id, with a web folder made in a temp dir."""
from __future__ import annotations

import dataclasses
import json
import re
import sys
from types import SimpleNamespace

import pytest

from companion import context
from companion.app import create_app
from tests.companion import toygame

PO = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: pl\\n"

msgid "Fake board"
msgstr "Sztuczna plansza"

msgid "Fake string"
msgstr "Sztuczny napis"

msgid "Seat A"
msgstr "Sztuczne miejsce A"

msgid "Host"
msgstr "Gospodarz sztucznej gry"
'''


def make_folder(root, package: str, manifest) -> None:
    folder = root / package
    (folder / "static").mkdir(parents=True)
    (folder / "templates").mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "manifest.json").write_text(
        manifest if isinstance(manifest, str) else json.dumps(manifest))
    (folder / "static" / "fake.js").write_text("TC.start({render: function () {}});\n")
    (folder / "static" / "fake.css").write_text(".fake { color: red; }\n")
    (folder / "secret.txt").write_text("not served")
    (folder / "templates" / "board.html").write_text(
        '<div id="fake-board">{{ _("Fake board") }}</div>\n')
    (folder / "templates" / "top.html").write_text('<span id="fake-top"></span>\n')
    (folder / "ui_strings.json").write_text(json.dumps({"fake_key": "Fake string"}))
    po = folder / "translations" / "pl" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(PO, encoding="utf-8")


MANIFEST = {"table": {"scripts": ["fake.js"], "styles": ["fake.css"],
                      "partials": {"main": "board.html", "topbar": "top.html"}},
            "phone": {"scripts": ["fake.js"], "partials": {"main": "board.html"}}}


@pytest.fixture
def site(tmp_path, monkeypatch):
    package = f"tc_fakeweb_{abs(hash(str(tmp_path))) % 10**8}"
    make_folder(tmp_path / "pkgs", package, MANIFEST)
    broken = package + "_broken"
    make_folder(tmp_path / "pkgs", broken, "{not json")
    monkeypatch.syspath_prepend(str(tmp_path / "pkgs"))

    def game(game_id: str, web: str):
        info = dataclasses.replace(toygame.INFO, id=game_id, web=web)
        return SimpleNamespace(**dict(vars(toygame.GAME), name=game_id, info=info)), None

    app = create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True,
                      "GAMES": {"fake": game("fake", package), "bare": game("bare", "no.such"),
                                "broken": game("broken", broken)}})
    yield app, app.test_client()
    context.of(app).service.store.close()
    for name in (package, broken):
        sys.modules.pop(name, None)


def create(client, game: str) -> str:
    page = client.get("/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)[1]
    response = client.post("/games", data={"csrf_token": token, "game": game,
                                           "host_pin": "2468", "name_A": "Ann",
                                           "name_B": "Bob"})
    assert response.status_code == 303, response.get_data(as_text=True)[:300]
    return response.headers["Location"].rsplit("/", 1)[-1]


def strings(html: str) -> dict:
    return json.loads(re.search(r'id="ui-strings">(.*?)</script>', html, re.S)[1])


def test_the_table_page_loads_what_the_manifest_names(site):
    app, client = site
    game_id = create(client, "fake")
    html = client.get(f"/table/{game_id}?lang=pl").get_data(as_text=True)
    assert '<script src="/games/fake/static/fake.js"></script>' in html
    assert '<link rel="stylesheet" href="/games/fake/static/fake.css">' in html
    assert '<div id="fake-board">Sztuczna plansza</div>' in html  # the game's own domain
    assert '<span id="fake-top"></span>' in html
    # the game's translation comes first, even for a msgid the shared pages use
    assert "Gospodarz sztucznej gry" in html
    page_strings = strings(html)
    assert page_strings["fake_key"] == "Sztuczny napis"
    assert page_strings["reconnecting"]  # the shared strings too
    assert client.get("/games/fake/static/fake.js").status_code == 200
    for path in ("/games/fake/static/../secret.txt", "/games/fake/static/%2e%2e/secret.txt",
                 "/games/fake/static/../manifest.json", "/games/bare/static/fake.js"):
        assert client.get(path).status_code == 404, path


def test_a_game_seat_name_and_phone_partial(site):
    app, client = site
    game_id = create(client, "fake")
    table = client.get(f"/table/{game_id}?lang=pl").get_data(as_text=True)
    host = client.get(f"/host/{game_id}?lang=pl").get_data(as_text=True)
    assert "Sztuczne miejsce A" in host  # the seat's name from the game's declarations
    assert "/games/fake/static/" not in host  # no "host" entry in this manifest
    assert table.count('id="fake-board"') == 1


def test_a_game_without_a_folder_or_with_a_broken_manifest_gets_the_bare_pages(site):
    app, client = site
    for game in ("bare", "broken"):
        game_id = create(client, game)
        response = client.get(f"/table/{game_id}")
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        assert "/games/" not in re.sub(r'href="[^"]*/games/[^"]*/record[^"]*"', "", html)
        assert "fake-board" not in html

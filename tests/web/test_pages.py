"""The page shells, rendered by the real app: a CSRF token in every form, every asset served
locally (no CDN, issue 3 §9), the socket auth and UI strings handed to the scripts."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"


class Page(HTMLParser):
    """Forms with their hidden inputs, asset URLs, and the JSON script blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.assets: list[str] = []
        self.scripts: dict[str, str] = {}
        self._json_id: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"method": (a.get("method") or "get").lower(),
                               "action": a.get("action"), "inputs": {}})
        elif tag == "input" and self.forms:
            self.forms[-1]["inputs"][a.get("name")] = a.get("value")
        if tag in ("script", "img") and a.get("src"):
            self.assets.append(a["src"])
        if tag == "link" and a.get("href"):
            self.assets.append(a["href"])
        if tag == "script" and a.get("type") == "application/json":
            self._json_id = a.get("id")

    def handle_data(self, data):
        if self._json_id:
            self.scripts[self._json_id] = self.scripts.get(self._json_id, "") + data

    def handle_endtag(self, tag):
        if tag == "script":
            self._json_id = None


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    return page


def post_forms(page: Page) -> list[dict]:
    return [f for f in page.forms if f["method"] == "post"]


@pytest.fixture
def site(tmp_path):
    from companion.app import create_app

    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "SECRET_KEY": "t"})
    client = app.test_client()
    new = parse(client.get("/new").get_data(as_text=True))
    token = post_forms(new)[0]["inputs"]["csrf_token"]
    r = client.post("/games", data={"csrf_token": token, "game": "wwe", "host_pin": "2468",
                                    "name_N": "Ala", "colour_N": "blue",
                                    "name_S": "Bo", "colour_S": "red"})
    assert r.status_code == 303
    game = r.headers["Location"].rstrip("/").split("/")[-1]
    assert client.post(f"/host/{game}/pair-here", data={"csrf_token": token}).status_code == 303
    table = parse(client.get(f"/table/{game}").get_data(as_text=True))
    phone = app.test_client()
    link = re.search(r"/join/[^\"?]+\?code=\w+", client.get(f"/table/{game}").get_data(
        as_text=True)).group(0)
    assert phone.get(link).status_code == 303
    return {"client": client, "phone": phone, "game": game, "table": table}


def pages(site) -> dict[str, str]:
    c, g = site["client"], site["game"]
    out = {url: c.get(url).get_data(as_text=True)
           for url in ("/", "/new", f"/table/{g}", f"/host/{g}", "/nowhere")}
    out[f"/play/{g}"] = site["phone"].get(f"/play/{g}").get_data(as_text=True)
    out["host login"] = site["phone"].get(f"/host/{g}").get_data(as_text=True)
    return out


def test_every_post_form_carries_the_csrf_token(site):
    seen = 0
    for url, html in pages(site).items():
        for form in parse(html).forms:
            if form["method"] == "post":
                seen += 1
                assert form["inputs"].get("csrf_token"), f"{url}: {form['action']}"
    assert seen >= 4  # new game, import, host login, host logout


def local_file(src: str) -> Path | None:
    """The file behind a local asset URL: the shared /static/ or a game's web folder."""
    if src.startswith("/static/"):
        return WEB / "static" / src[len("/static/"):]
    game = re.fullmatch(r"/games/(\w+)/static/(.+)", src)
    return WEB / "games" / game[1] / "static" / game[2] if game else None


def test_every_asset_is_local_and_exists(site):
    game_assets = 0
    for url, html in pages(site).items():
        for src in parse(html).assets:
            path = local_file(src)
            assert path is not None, f"{url} loads {src} from elsewhere"
            assert path.is_file(), src
            assert site["client"].get(src).status_code == 200
            game_assets += src.startswith("/games/")
        assert "//cdn" not in html and "https://" not in html
    assert game_assets, "the game's own scripts and styles come from its web folder"


def test_a_game_folder_serves_only_its_static_files(site):
    client = site["client"]
    assert client.get("/games/wwe/static/js/board.js").status_code == 200
    assert client.get("/games/wwe/static/../manifest.json").status_code == 404
    assert client.get("/games/wwe/static/%2e%2e/manifest.json").status_code == 404
    assert client.get("/games/nosuchgame/static/js/board.js").status_code == 404
    assert client.get("/static/js/board.js").status_code == 404  # moved to the game folder


def test_the_vendored_socketio_client_has_its_license():
    vendor = WEB / "static" / "vendor" / "socket.io"
    assert "Socket.IO v4." in (vendor / "socket.io.min.js").read_text()[:200]
    assert "MIT" in (vendor / "LICENSE").read_text() or "Permission is hereby granted" in (
        vendor / "LICENSE").read_text()


def test_pages_hand_auth_and_strings_to_the_scripts(site):
    g = site["game"]
    table = site["table"]
    assert json.loads(table.scripts["socket-auth"]) == {"role": "table", "game": g,
                                                        "lang": "en"}
    strings = json.loads(table.scripts["ui-strings"])
    assert strings["reconnecting"] == "Reconnecting…"
    config = json.loads(table.scripts["page-config"])
    assert config["game"] == g and config["role"] == "table"
    play = parse(site["phone"].get(f"/play/{g}?lang=pl").get_data(as_text=True))
    auth = json.loads(play.scripts["socket-auth"])
    assert auth["role"] == "seat" and "token" not in auth  # the token stays in the cookie
    assert json.loads(play.scripts["ui-strings"])["reconnecting"] == "Ponowne łączenie…"


def test_the_new_game_form_offers_seats_colours_options_and_pin(site):
    form = post_forms(parse(site["client"].get("/new").get_data(as_text=True)))[0]
    for seat in "NESW":
        assert f"name_{seat}" in form["inputs"]
    assert "host_pin" in form["inputs"]
    assert "option_first_game" in form["inputs"]


def test_world_without_end_pages_load_its_folder_by_page_kind(site):
    c, g = site["client"], site["game"]
    table = c.get(f"/table/{g}?lang=it").get_data(as_text=True)
    for script in ("board.js", "manual.js", "table.js"):
        assert f'<script src="/games/wwe/static/js/{script}"></script>' in table
    assert 'href="/games/wwe/static/css/wwe.css"' in table
    assert 'id="favor"' in table and "Arco dei Favori" in table  # its partial, its domain
    phone = site["phone"].get(f"/play/{g}?lang=pl").get_data(as_text=True)
    assert '<script src="/games/wwe/static/js/phone.js"></script>' in phone
    assert 'id="hand"' in phone and "Północ" in phone  # the seat named by the game, in Polish
    host = c.get(f"/host/{g}").get_data(as_text=True)
    assert host.index("/games/wwe/static/js/host.js") < host.index("/static/js/host.js\"")
    camera = c.get(f"/host/{g}/camera?lang=de").get_data(as_text=True)
    assert "Ratsfeld" in camera  # where World Without End's board marker goes, in German
    assert "table.js" not in camera and "phone.js" not in c.get("/new").get_data(as_text=True)


@pytest.mark.parametrize("lang", ["en", "it", "pl", "es", "de"])
def test_every_page_of_a_game_works_in_every_language(site, lang):
    from babel.messages.pofile import read_po

    def translated(domain: Path, msgid: str) -> str:
        if lang == "en":
            return msgid
        with (domain / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
            return read_po(fh, locale=lang).get(msgid).string

    c, g = site["client"], site["game"]
    game_text = translated(WEB / "games" / "wwe" / "translations", "Favor track")
    shared_text = translated(WEB / "translations", "Table display")
    for url, client in ((f"/table/{g}", c), (f"/host/{g}", c), (f"/host/{g}/camera", c),
                        (f"/host/{g}/dice", c), (f"/play/{g}", site["phone"])):
        response = client.get(f"{url}?lang={lang}")
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        assert f'lang="{lang}"' in html
        if url.startswith("/table"):
            assert game_text in html and shared_text in html
        strings = json.loads(parse(html).scripts["ui-strings"])
        assert strings["reconnecting"] and strings["houses_n"]  # shared and the game's


def test_the_games_list_names_each_game_in_the_page_language(site):
    html = site["client"].get("/?lang=pl").get_data(as_text=True)
    row = re.search(rf'<tr data-game="{site["game"]}">(.*?)</tr>', html, re.S)[1]
    assert re.search(r'<td class="game-title"[^>]*>Świat bez końca</td>', row), row


def test_a_game_without_its_pages_is_not_offered(tmp_path):
    """The Pillars of the Earth is installed (its rules) without a web folder yet: the
    new-game form does not offer it; World Without End and the toy game are offered."""
    from companion.app import create_app
    from companion.server import i18n

    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "SECRET_KEY": "t"})
    page = app.test_client().get("/new").get_data(as_text=True)
    assert 'value="wwe"' in page
    with app.app_context():
        for game in ("pillars", "monasterium"):
            if i18n.web_dir(game) is None:
                assert f'value="{game}"' not in page

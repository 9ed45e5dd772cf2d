"""The host page's and the TV's links lead where the server is reached (issue 47): a server
bound to 127.0.0.1 printed links to the machine's LAN address, where nothing listens. Through
a real `companion serve` and real HTTP."""
from __future__ import annotations

import http.cookiejar
import re
import urllib.parse
import urllib.request

from companion.server import netinfo
from tests.web.conftest import running_server


def session():
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))


def links(page: str) -> list[str]:
    return re.findall(r'href="(https?://[^"]+)"', page)


def test_links_use_the_address_a_loopback_server_is_reached_at(tmp_path):
    with running_server(tmp_path / "data", tmp_path / "server.log", "--no-hardware") as base:
        browser = session()
        new = browser.open(base + "/new?game=toy").read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', new).group(1)
        form = urllib.parse.urlencode({"csrf_token": token, "game": "toy", "host_pin": "2468",
                                       "name_A": "Ann", "name_B": "Bo"}).encode()
        host_page = browser.open(base + "/games", data=form)
        game_id = host_page.url.rstrip("/").split("/")[-1]
        page = host_page.read().decode()
        found = links(page)
        joins = [u for u in found if "/join/" in u]
        pairing = [u for u in found if "/pair?code=" in u]
        assert len(joins) == 2 and len(pairing) == 1, found
        assert all(u.startswith(f"{base}/") for u in joins + pairing), found
        lan = netinfo.lan_ip()
        assert lan == "127.0.0.1" or lan not in page
        # the TV paired through the host page's link shows the same join links
        tv = session()
        table = tv.open(pairing[0]).read().decode()
        assert tv.open(f"{base}/table/{game_id}").status == 200
        shown = [u for u in links(table) if "/join/" in u]
        assert shown and all(u.startswith(f"{base}/join/{game_id}/") for u in shown), shown

"""A game the shared web client has never heard of: the toy plug-in (tests/plugins/toygame),
with its own small web folder, played in real chromium through the same pages as World
Without End: the new-game page, the paired table display, two phones, the host page. Its
board, phone panel, script, styles, UI strings and translations all come from its folder;
a die rolled on the emulated dice reader and one entered by hand on the table change it.

The server runs this checkout's toy plug-in (its folder first on PYTHONPATH); the plug-in
must be installed (`make test` does) so that its entry point exists.
"""
from __future__ import annotations

import json
import os
import urllib.request
from importlib.metadata import entry_points

import pytest

from tests.web.conftest import ROOT, free_port, join_phone, pair_here, running_server
from tests.web.test_browser import shot

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300)]
TOY = ROOT / "tests" / "plugins" / "toygame"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if not any(e.name == "toy" for e in entry_points(group="table_companion.games")):
        pytest.skip("the toy plug-in is not installed (make test installs it)")
    data = tmp_path_factory.mktemp("toydata")
    dice_port = free_port()
    # the emulator's die "tax" plays the toy's role "d6" (the owner's mapping, as the host's
    # dice page saves it)
    (data / "config.json").write_text(json.dumps(
        {"dice": {"emulator_http_port": dice_port, "roles": {"toy": {"tax": "d6"}}}}))
    log = tmp_path_factory.mktemp("toylog") / "server.log"
    path = os.pathsep.join(p for p in (str(TOY), str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = dict(os.environ, PYTHONPATH=path, COMPANION_DICE_EMULATE="on")
    with running_server(data, log, "--threads", "20", env=env) as base:
        yield base, f"http://127.0.0.1:{dice_port}"


def pot(page) -> int:
    return page.evaluate("() => TC.view.view.pot")


def test_the_toy_game_plays_through_the_shared_pages(server, browser):
    base, dice = server
    errors: list[str] = []
    table = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    table.on("pageerror", lambda e: errors.append(f"table: {e}"))

    # the new-game page offers the toy with its own seats and options
    table.goto(base + "/new?game=toy")
    assert table.locator("#game option[value=toy]").count() == 1
    table.fill("#name_A", "Ann")
    table.fill("#name_B", "Bob")
    table.fill("#host_pin", "1357")
    table.click("#create-game")
    table.wait_for_url("**/host/**")
    game_id = table.url.rstrip("/").split("/")[-1]
    pair_here(table, base, game_id)
    table.wait_for_function("() => window.TC && window.TC.view")

    # the table page is the shared shell with the toy's partial, script and style
    scripts = table.evaluate("() => [...document.scripts].map(s => s.src).filter(Boolean)")
    assert any(s.endswith("/games/toy/static/toy.js") for s in scripts)
    assert not any("/games/wwe/" in s for s in scripts)
    assert table.evaluate("() => !window.WWE")
    styles = table.evaluate(
        "() => [...document.querySelectorAll('link[rel=stylesheet]')].map(l => l.href)")
    assert any(s.endswith("/games/toy/static/toy.css") for s in styles)
    assert table.locator("#toy-pot").inner_text() == "0"
    assert table.locator("#prompt").inner_text() == "Ann plays a card."  # the game's prompt
    links = {a.get_attribute("data-seat"): a.get_attribute("href")
             for a in table.locator("a.join-link").all()}
    assert sorted(links) == ["A", "B"]
    shot(table, "50-toy-table")

    # two phones join; Ann's phone in Polish: the toy's own translations
    phones = {seat: join_phone(browser, base, links[seat], seat, errors, lang)
              for seat, lang in (("A", "pl"), ("B", "en"))}
    ann, bob = phones["A"], phones["B"]
    # the shared table parts follow the phones for a game that knows nothing of them
    table.wait_for_function("() => document.querySelectorAll('.join-card.joined').length === 2",
                            timeout=15000)
    assert table.locator(".join-card .join-state").all_text_contents() == ["joined", "joined"]
    assert table.evaluate("() => !document.getElementById('join-panel').open")  # folded
    assert ann.locator("#toy-prompt").inner_text() == "Twoja kolej: zagraj kartę."
    assert "Miejsce A" in ann.locator(".topbar").inner_text()  # the toy's seat name in Polish
    assert ann.locator("h2", has_text="Moje karty").count() == 1  # the toy's partial, in Polish
    assert bob.locator("#toy-prompt").inner_text() == "Ann plays now."
    assert bob.locator("#toy-hand button:not([disabled])").count() == 0
    assert ann.locator("#toy-hand button:not([disabled])").count() == 3
    shot(ann, "51-toy-phone-pl")

    # Ann plays a card on her phone: the table's log and Bob's phone follow
    version = table.evaluate("() => TC.view.version")
    card = ann.locator("#toy-hand button").first.get_attribute("data-card")
    ann.locator("#toy-hand button").first.click()
    table.wait_for_function("v => TC.view.version > v", arg=version, timeout=15000)
    table.wait_for_function("c => TC.view.view.played.includes(c)", arg=card, timeout=15000)
    assert table.locator("#toy-plays").inner_text().startswith("1 card played")
    assert f"Ann played {card}." in table.locator("#log").inner_text()
    bob.wait_for_function("() => document.querySelectorAll('#toy-hand button:not([disabled])')"
                          ".length === 3", timeout=15000)
    assert bob.locator("#toy-prompt").inner_text() == "Your turn: play a card."
    assert card not in bob.locator("#toy-hand").inner_text()  # Ann's new secret stays hers

    # a die rolled on the (emulated) dice reader: the game's binding adds it to the pot
    before = pot(table)
    request = urllib.request.Request(dice + "/roll", data=json.dumps({}).encode(),
                                     method="POST",
                                     headers={"Content-Type": "application/json"})
    rolled = json.loads(urllib.request.urlopen(request, timeout=10).read())["faces"]["tax"]
    table.wait_for_function("n => TC.view.view.pot === n", arg=before + rolled, timeout=20000)
    assert table.locator("#toy-pot").inner_text() == str(before + rolled)
    assert f"The die shows {rolled}." in table.locator("#log").inner_text()

    # a die entered by hand on the table display: the faces of the game's die role
    before = pot(table)
    assert table.locator("#toy-die button").count() == 6
    table.locator("#toy-die button[data-value='4']").click()
    table.wait_for_function("n => TC.view.view.pot === n", arg=before + 4, timeout=15000)
    ann.wait_for_function("n => TC.view.view.pot === n", arg=before + 4, timeout=15000)
    assert "Kość pokazuje 4." in ann.locator("#log").text_content()  # the log, in Polish
    shot(table, "52-toy-table-after-dice")

    # the host page: the shared controls with the toy's status line and correctable count
    host = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    host.on("pageerror", lambda e: errors.append(f"host: {e}"))
    host.goto(f"{base}/host/{game_id}")
    host.fill("#pin", "1357")
    host.click("#host-login button[type=submit]")
    host.wait_for_function("() => window.TC && window.TC.view")
    assert host.locator("#host-state").inner_text().startswith(f"Pot: {before + 4}")
    assert host.locator("#adj-item option").all_inner_texts() == ["Coins"]
    coins = ann.evaluate("() => TC.view.view.coins")
    host.select_option("#adj-seat", "A")
    host.fill("#adj-delta", "5")
    host.fill("#adj-reason", "found under the table")
    host.click("#adjust-form button[type=submit]")
    ann.wait_for_function("n => TC.view.view.coins === n", arg=coins + 5, timeout=15000)
    assert ann.locator("#toy-coins").inner_text() == str(coins + 5)

    assert not errors, errors

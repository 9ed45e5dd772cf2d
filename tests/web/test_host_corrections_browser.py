"""Correcting the board from the host page in real chromium (issue 12 §2): an event card
of kind ``manual`` (one the catalog cannot express) is carried out at the table and
recorded by correcting the favor marker and a building project's materials, each checked
before and after first. The exported record replays to the same game. The form is the
shared host page's, built from the game's `corrections` schemas.
Screenshot: test-artifacts/browser/73-host-correct-board.png.
"""
from __future__ import annotations

import json
import os
import re

import pytest

from companion import context
from tests.web.conftest import running_server
from tests.web.test_accessibility_browser import check as a11y
from tests.web.test_browser import shot

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300)]
PIN = "8080"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from companion.app import create_app

    data = tmp_path_factory.mktemp("corrdata")
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    live = service.create("wwe", {"players": [{"seat": "N", "name": "Ada"},
                                              {"seat": "E", "name": "Ben"}], "seed": 4}, PIN)
    service.store.close()
    log = tmp_path_factory.mktemp("corrlog") / "server.log"
    with running_server(data, log, "--threads", "20", env=dict(os.environ)) as base:
        yield base, live.id


RAW = re.compile(r"\bindex\b|[a-z]+_[a-z_]+|\{|\}")  # a view's keys, JSON, snake_case ids


def view(page) -> dict:
    return page.evaluate("() => TC.view")


def host_page(browser, base: str, game_id: str, viewport: dict, lang: str, errors: list):
    """The host page signed in, in ``lang``, its board corrections in sight."""
    page = browser.new_context(viewport=viewport).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/host/{game_id}?lang={lang}")
    page.fill("#pin", PIN)
    page.click("#host-login button[type=submit]")
    page.wait_for_function("() => window.TC && TC.view && TC.view.host")
    page.wait_for_selector("#board-correct:not([hidden])")
    return page


def test_a_manual_event_is_recorded_as_board_corrections(server, browser):
    base, game_id = server
    errors: list[str] = []
    page = host_page(browser, base, game_id, {"width": 1100, "height": 1000}, "en", errors)
    options = page.locator("#corr-part option").all_inner_texts()
    assert "Favor marker" in options and any(o.startswith("Building project") for o in options)

    # the favor marker: moved two spaces, checked before and after, then recorded
    favor = next(c for c in view(page)["host"]["corrections"] if c["part"] == "favor")
    target = (favor["current"] + 2) % len(favor["schema"]["oneOf"])
    page.select_option("#corr-part", "favor")
    page.select_option("#corr-value", json.dumps(target))
    page.fill("#corr-reason", "manual event card: the Queen's favour")
    page.click("#corr-preview-btn")
    page.wait_for_selector("#corr-diff tbody tr")
    # before and after side by side, in the game's words: the spaces by name (issue 32 #11)
    names = {o["const"]: o["title"] for o in favor["schema"]["oneOf"]}
    space = {i: page.evaluate("id => TC.name(TC.config.names[id], id)", names[i])
             for i in (favor["current"], target)}
    assert page.locator("#corr-preview .corr-what").inner_text() == "Favor marker"
    cells = page.locator("#corr-diff tbody tr").first.locator("td").all_inner_texts()
    assert cells == [space[favor["current"]], space[target]], cells
    assert not RAW.search(page.locator("#corr-preview").inner_text())
    version = view(page)["version"]
    page.click("#corr-send")
    page.wait_for_function("v => TC.view.version > v", arg=version, timeout=15000)
    now = next(c for c in view(page)["host"]["corrections"] if c["part"] == "favor")
    assert now["current"] == target

    # a building project's materials
    project = next(c for c in view(page)["host"]["corrections"]
                   if c["part"] == "project" and c["current"]["on_board"])
    key = f"project:{project['key']}"
    page.select_option("#corr-part", key)
    page.fill("#corr-value input[data-prop=stone]", str(project["current"]["stone"] + 2))
    page.fill("#corr-reason", "manual event card: the guild gives two stone")
    page.click("#corr-preview-btn")
    page.wait_for_selector("#corr-diff tr")
    bridge = page.locator("#corr-part option:checked").inner_text()
    assert bridge.startswith("Building project (") and project["key"] not in bridge
    assert page.locator("#corr-preview .corr-what").inner_text() == f"{bridge} · Stone"
    cells = page.locator("#corr-diff tbody tr").first.locator("td").all_inner_texts()
    assert cells == [str(project["current"]["stone"]), str(project["current"]["stone"] + 2)]
    shot(page, "73-host-correct-board")
    a11y(page, "host-correct-board")
    version = view(page)["version"]
    page.click("#corr-send")
    page.wait_for_function("v => TC.view.version > v", arg=version, timeout=15000)
    after = next(c for c in view(page)["host"]["corrections"]
                 if c["part"] == "project" and c["key"] == project["key"])
    assert after["current"]["stone"] == project["current"]["stone"] + 2
    log = [e["text"] for e in view(page)["log"]]
    # the log line: what, before and after, in words
    assert (f"Correction of Favor marker: {space[favor['current']]} → {space[target]} "
            "(manual event card: the Queen's favour).") in log, log
    stone = project["current"]["stone"]
    assert (f"Correction of {bridge} · Stone: {stone} → {stone + 2} "
            "(manual event card: the guild gives two stone).") in log, log

    # a count: +1 and the count after, not "1 Grain"; a resource is its seat's secret, so
    # the log (the host's and the TV's) says the change without what it is now
    def correct_count(item: str, reason: str) -> None:
        page.select_option("#adj-seat", "N")
        page.select_option("#adj-item", item)
        page.fill("#adj-delta", "1")
        page.fill("#adj-reason", reason)
        version = view(page)["version"]
        page.click("#adjust-form button[type=submit]")
        page.wait_for_function("v => TC.view.version > v", arg=version, timeout=15000)

    correct_count("grain", "forgot the income")
    assert "res" not in view(page)["view"]["seats"]["N"]
    line = [e["text"] for e in view(page)["log"] if e["type"] == "adjusted_secret"][-1]
    assert line == "Correction for Ada: Grain +1 (forgot the income).", line
    correct_count("vp", "miscounted")
    vp = view(page)["view"]["seats"]["N"]["vp"]
    line = [e["text"] for e in view(page)["log"] if e["type"] == "adjusted"][-1]
    assert line.startswith("Correction for Ada: ") and line.endswith(
        f" +1, now {vp} (miscounted)."), line

    # an illegal value is refused before anything is recorded
    version = view(page)["version"]
    page.fill("#corr-value input[data-prop=stone]", "-5")
    page.click("#corr-preview-btn")
    page.wait_for_selector("#corr-preview .why")
    assert view(page)["version"] == version

    # the record replays to the same board
    from engine import record as records
    from engine.wwe import GAME

    record = page.evaluate("async (u) => (await fetch(u)).json()", f"/games/{game_id}/record.json")
    corrections = [a for a in record["actions"] if a.get("type") == "correct"]
    assert [a["part"] for a in corrections] == ["favor", "project"]
    from companion.box.catalog import load_catalog
    from companion.game.games import module_of

    final, _ = records.replay(module_of("wwe"), load_catalog("wwe", None), record)
    replayed = GAME.public_view(final)
    live = view(page)["view"]
    # (the page's view carries the catalog names in its language only: compare the rest)
    assert {k: v for k, v in replayed["favor"].items() if k != "cycle"} == \
        {k: v for k, v in live["favor"].items() if k != "cycle"}
    assert replayed["projects"][project["key"]]["stone"] == \
        live["projects"][project["key"]]["stone"]
    assert not errors, errors


def test_a_correction_reads_in_the_hosts_language_on_a_phone(server, browser):
    """The host on a phone in German: the parts, the preview and the log line in German
    words, before and after (issue 32 #11). Screenshot 73-host-correct-board-de-phone."""
    base, game_id = server
    errors: list[str] = []
    page = host_page(browser, base, game_id, {"width": 390, "height": 844}, "de", errors)
    supply = next(c for c in view(page)["host"]["corrections"] if c["part"] == "supply")
    page.select_option("#corr-part", "supply")
    assert page.locator("#corr-part option:checked").inner_text() == "Vorrat"
    now = page.locator("#corr-now").inner_text()  # counts as numbers, never a card's name
    assert f"Wolle: {supply['current']['wool']}" in now and "Haus" not in now, now
    wool = supply["current"]["wool"]
    page.fill("#corr-value input[data-prop=wool]", str(wool - 1))
    page.fill("#corr-reason", "ein Stein fiel vom Tisch")
    page.click("#corr-preview-btn")
    page.wait_for_selector("#corr-diff tbody tr")
    assert page.locator("#corr-preview .corr-what").inner_text() == "Vorrat · Wolle"
    assert page.locator("#corr-diff thead").inner_text().split() == ["Vorher", "Nachher"]
    cells = page.locator("#corr-diff tbody tr").first.locator("td").all_inner_texts()
    assert cells == [str(wool), str(wool - 1)]
    page.locator("#corr-preview").scroll_into_view_if_needed()
    shot(page, "73-host-correct-board-de-phone")
    version = view(page)["version"]
    page.click("#corr-send")
    page.wait_for_function("v => TC.view.version > v", arg=version, timeout=15000)
    log = [e["text"] for e in view(page)["log"]]
    assert f"Korrektur von Vorrat · Wolle: {wool} → {wool - 1} (ein Stein fiel vom Tisch)." \
        in log, log
    assert not errors, errors

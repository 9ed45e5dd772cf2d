"""The evening in real chromium against the real server, per game: the guided setup on the
paired table display (TV 1920x1080) walked step by step, one step skipped and resumed from
the list, a reload that carries on where it was, the camera (a folder of synthetic frames
with the board marker and an event card on World Without End's council space) ticking the
steps it can see, each phone (390x844) showing its own starting pieces; then a finished game
(a random legal game imported as a record, the service replaying it) in the host's list of
finished games, exported as CSV and as a BG Stats file and both parsed back. axe-core finds
no serious problem on the new pages. Screenshots: test-artifacts/browser/8*.png.
"""
from __future__ import annotations

import csv
import io
import json
import os
import random

import pytest

from tests.web.conftest import running_server, table_and_phones, write_camera_loop
from tests.web.test_accessibility_browser import check as a11y
from tests.web.test_browser import shot

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(500)]
PIN = "3579"
PLAYERS = {"N": ("Ada", "en"), "E": ("Bruno", "it"), "S": ("Cora", "pl")}
EVENT = "because_the_works"  # a chapter I event card of the shipped World Without End deck


def camera_frames(folder, event: str = EVENT) -> None:
    """The board marker, and ``event`` laid on World Without End's council space for the
    last 0.8 s of every 1.2 s loop (so it appears again while each game is current)."""
    from hardware.synthetic.scene import Placement
    from hardware.synthetic.video import MARKER_AT, board_to_table
    from hardware.tags.format import BOARD_MARKER, card_payload

    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    card = Placement(card_payload("wwe", "E", event), *board_to_table(0, 60), 3.0)
    write_camera_loop(folder, [([marker] + ([card] if i >= 12 else []), [])
                               for i in range(36)])


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("evedata")
    camera_frames(data / "frames")
    (data / "config.json").write_text(json.dumps({"camera": {"source": f"folder:{data}/frames"}}))
    log = tmp_path_factory.mktemp("evelog") / "server.log"
    with running_server(data, log, "--threads", "30", env=dict(os.environ)) as base:
        yield base


def finished_record(game: str) -> dict:
    from companion.box.catalog import load_catalog
    from companion.game.games import module_of
    from engine import record

    module = module_of(game)
    setup = {"players": [{"seat": s, "name": n, "colour": c} for (s, (n, _)), c in
                         zip(PLAYERS.items(), ("blue", "red", "green"), strict=True)],
             "seed": 11}
    state = module.setup(load_catalog(game), setup)
    rnd = random.Random(11)
    actions = []
    while not module.is_over(state):
        action = module.random_action(state, rnd)
        state, _ = module.apply(state, action)
        actions.append(action)
    return record.build(game, setup, actions, record.current_rules(module.info))


def exported(host, base: str, game: str, game_id: str, tmp_path) -> tuple[str, object]:
    """A finished ``game`` (a random legal game of PLAYERS) imported from the host's home page,
    found in the finished games of ``game_id``'s host page (German), exported there as CSV
    and as a BG Stats file, both parsed and compared. Returns (its id, its history section)."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(finished_record(game)))
    host.goto(f"{base}/")
    host.click("details summary")  # "Import a game record"
    host.set_input_files("#record", str(path))
    host.fill("#import-pin", PIN)
    host.locator("form[action='/games/import'] button[type=submit]").click()
    host.wait_for_url("**/host/**")
    done_id = host.url.rstrip("/").split("/")[-1].split("?")[0]
    host.goto(f"{base}/host/{game_id}?lang=de")
    host.click("#history-link")
    host.wait_for_selector(f".history-game[data-game='{done_id}']")
    section = host.locator(f".history-game[data-game='{done_id}']")
    assert section.locator("polyline").count() == len(PLAYERS)
    names = section.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert sorted(n.split(" (")[0].strip() for n in names) == sorted(n for n, _ in
                                                                     PLAYERS.values())
    with host.expect_download() as download:
        section.locator(".export-csv").click()
    rows = list(csv.DictReader(io.StringIO(download.value.path().read_text())))
    with host.expect_download() as download:
        section.locator(".export-bgstats").click()
    assert download.value.suggested_filename.endswith(".bgsplay")
    play_file = json.loads(download.value.path().read_text())
    by_name = {p["id"]: p["name"] for p in play_file["players"]}
    scores = {by_name[s["playerRefId"]]: s for s in play_file["plays"][0]["playerScores"]}
    assert {r["player"]: r["score"] for r in rows} == {n: s["score"] for n, s in scores.items()}
    assert {r["player"] for r in rows if r["winner"] == "yes"} == {
        n for n, s in scores.items() if s["winner"]}
    assert rows and all(r["player"] for r in rows)
    return done_id, section


def at_step(page) -> str:
    return page.locator("#setup").get_attribute("data-at")


def tap(page, selector: str) -> None:
    """Tap a button of the guide and wait for the server's answer (the step moves)."""
    before = (at_step(page), page.locator("#setup").get_attribute("data-finished"),
              page.locator("#setup-list").inner_text())
    page.click(selector)
    page.wait_for_function(
        "b => { const s = document.getElementById('setup'); return [s.dataset.at, "
        "s.dataset.finished, document.getElementById('setup-list').innerText].join('|') "
        "!== b.join('|'); }", arg=list(before), timeout=10000)


@pytest.mark.parametrize("game", ["pillars", "monasterium", "wwe"])
def test_setup_guided_then_the_finished_game_kept_and_exported(server, browser, game, tmp_path):
    base = server
    errors: list[str] = []
    table, phones, game_id = table_and_phones(browser, base, game, PLAYERS, PIN, errors)

    # ---- the guided setup on the TV -----------------------------------------------------
    table.goto(f"{base}/table/{game_id}/setup")
    table.wait_for_selector("#setup[data-at]")
    steps = table.locator("#setup-list li").evaluate_all("ls => ls.map(l => l.dataset.step)")
    assert at_step(table) == steps[0]
    text = table.locator("#setup-text").inner_text()
    assert text and "{n}" not in text
    # the rulebook's setup, named as every rule is (issue 32 #10): not "ES:29-30" or "2.1"
    cited = table.locator("#setup-rule").inner_text()
    assert cited in ("Rulebook, «Setting up the game»", "Spielregel, «Spielaufbau»"), cited
    # the first step is a diagram (an <img> has no size, so is not visible, until it loads)
    table.wait_for_selector("#setup-picture", state="visible", timeout=10000)
    shot(table, f"80-setup-{game}-tv-first")
    tall = table.evaluate("() => document.documentElement.scrollHeight - innerHeight")
    assert tall <= 0, f"the setup scrolls by {tall} px on the TV"
    # the camera sees the board marker: its step is ticked without a tap
    table.wait_for_selector("#setup-list li[data-step=camera].done", timeout=20000)
    assert table.locator("#setup-list li[data-step=camera]").get_attribute("data-by") == \
        "camera"
    tap(table, "#setup-done")
    assert at_step(table) == steps[1]
    if steps[1] == "camera":  # already ticked by the camera: on to the next
        tap(table, "#setup-done")
    skipped = at_step(table)
    assert skipped != "camera"
    tap(table, "#setup-skip")  # left for later
    assert "skipped" in table.locator(f"#setup-list li[data-step={skipped}]").get_attribute(
        "class")
    tap(table, "#setup-done")
    where = at_step(table)
    # the TV reloads (or another screen opens the guide): it carries on where it was
    table.reload()
    table.wait_for_selector("#setup[data-at]")
    assert at_step(table) == where
    assert "skipped" in table.locator(f"#setup-list li[data-step={skipped}]").get_attribute(
        "class")
    shot(table, f"81-setup-{game}-tv-resumed")
    # the skipped step resumed from the list, then done
    tap(table, f"#setup-list li[data-step={skipped}] button")
    assert at_step(table) == skipped
    tap(table, "#setup-done")
    assert "done" in table.locator(f"#setup-list li[data-step={skipped}]").get_attribute("class")
    if game == "wwe":  # the first event card lies on the council space: seen there
        table.wait_for_selector("#setup-list li[data-step=first_card].done", timeout=20000)
    a11y(table, f"setup-{game}-tv")
    # each phone: its own starting pieces while the table sets up
    for seat, phone in phones.items():
        phone.wait_for_selector("#setup-pieces:not([hidden]) li", timeout=15000)
        pieces = phone.locator("#setup-pieces li").all_inner_texts()
        assert pieces and all("{n}" not in p for p in pieces), pieces
        if game == "pillars":  # the gold disc by seat order from the start player (N)
            assert pieces[-1].endswith(str(20 + list(PLAYERS).index(seat))), pieces
    shot(phones["S"], f"82-setup-{game}-phone-pieces-pl")
    a11y(phones["E"], f"setup-{game}-phone")
    for _ in steps:  # the rest done in turn, to the end
        if table.locator("#setup").get_attribute("data-finished") == "yes":
            break
        tap(table, "#setup-done")
    assert table.locator("#setup-finished").is_visible()
    shot(table, f"83-setup-{game}-tv-finished")
    for phone in phones.values():  # the pieces go once the table is set up
        phone.wait_for_selector("#setup-pieces[hidden]", state="attached", timeout=15000)

    # ---- a finished game in the host's list, exported --------------------------------------
    done_id, section = exported(table, base, game, game_id, tmp_path)
    assert section.locator(".why-won").inner_text().strip()
    shot(table, f"84-history-{game}-tv-de")
    a11y(table, f"history-{game}")
    phone_view = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone_view.context.add_cookies(table.context.cookies())
    phone_view.goto(f"{base}/host/{game_id}/history?lang=pl")
    phone_view.wait_for_selector(f".history-game[data-game='{done_id}']")
    wide = phone_view.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"the history scrolls sideways by {wide} px on a phone"
    shot(phone_view, f"85-history-{game}-phone-pl")
    assert not errors, errors

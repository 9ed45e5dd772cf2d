"""Issue 69, point 10, in real chromium and WebKit against the real server: a tie for the
most points is said with how the game's tie-break broke it, or that it did not.

- the issue's table: Pillars ended early by the host in Phase I, 2 VP each, ranked by gold:
  the TV's closed screen and the history say "no winner" and the tie and its tie-break,
  never ranks 1 and 2 without a word (Italian, Polish; WebKit in German);
- a Pillars game finished with the two leaders level in VP and gold: one rank, a shared
  victory the TV's banner and the history say the tie-break does not break.

Screenshots: test-artifacts/browser/tie-*.png (TV 1920x1080 and 1280x720, the history),
copied to $H69A_SHOTS when set."""
from __future__ import annotations

import pytest

from companion import context
from tests.web.conftest import paired_tv, play_to, running_server
from tests.web.test_no_phone_browser import PIN, keep_webkit, snap
from tests.web.test_webkit_browser import display, webkit  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(900)]
PLAYERS = [{"seat": s, "name": n} for s, n in zip("NESW", ("Anna", "Bruno", "Chiara", "Dario"),
                                                  strict=True)]


def level_at_the_end(service, live) -> dict:
    """``live`` played to its end, then its record with the runner-up's VP raised to the
    leader's just before the last action (a host's correction): a tie at the end."""
    play_to(service, live, lambda module, state: module.is_over(state), seed=3, most=6000)
    result = live.row["result"]
    record = service.record(live.id)
    fix = {"type": "adjust", "by": "host", "seat": result[1]["seat"], "item": "vp",
           "delta": result[0]["vp"] - result[1]["vp"], "reason": "tie"}
    record["actions"] = [*record["actions"][:-1], fix, record["actions"][-1]]
    return record


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """(base, {"early": (id, table token), "level": (id, table token), "host": id})."""
    from companion.app import create_app

    data = tmp_path_factory.mktemp("tiedata")
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    early = service.create("pillars", {"players": PLAYERS, "seed": 5}, PIN, to_table=False)
    service.end(early.id)
    played = service.create("pillars", {"players": PLAYERS, "seed": 5}, PIN, to_table=False)
    level = service.import_record(level_at_the_end(service, played), PIN)
    assert level.status == "finished"
    result = level.row["result"]
    assert result[0]["vp"] == result[1]["vp"] and result[0]["rank"] == result[1]["rank"] == 1
    running = service.create("monasterium", {"players": PLAYERS[:2]}, PIN, to_table=False)
    made = {"early": (early.id, service.access.new_table_token(early.id)),
            "level": (level.id, service.access.new_table_token(level.id)),
            "webkit": (early.id, service.access.new_table_pairing(early.id)), "host": running.id}
    service.store.close()
    log = tmp_path_factory.mktemp("tielog") / "server.log"
    with running_server(data, log, "--no-hardware", "--threads", "40") as base:
        yield base, made


def tv(browser, base, game_id, token, lang, size, errors):
    return paired_tv(browser, base, game_id, token, lang, errors, size, close_lobby=False)


def test_ties_said_on_the_tv_and_in_the_history(browser, tables):
    base, made = tables
    errors: list[str] = []
    game_id, token = made["early"]
    # the table on the TV: ended early, 2 VP each, the gold decides the order
    page = tv(browser, base, game_id, token, "it", {"width": 1920, "height": 1080}, errors)
    page.wait_for_function("() => document.body.dataset.conn === 'closed'")
    words = page.locator("#closed-outcome")
    words.wait_for(state="visible")
    text = words.inner_text()
    assert "nessun vincitore" in text and "hanno 2 PV; lo spareggio mette avanti" in text
    assert "oro" in text  # the game's rule: the most gold
    snap(page, "tie-early-tv-1080-it")
    page.goto(f"{base}/table/{game_id}?lang=pl")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.wait_for_function("() => document.body.dataset.conn === 'closed'")
    assert "rozstrzygnięcie remisu stawia wyżej" in page.locator("#closed-outcome").inner_text()
    snap(page, "tie-early-tv-720-pl")

    # a tie at the end the gold does not break either: one rank, a shared victory, said
    level_id, level_token = made["level"]
    page = tv(browser, base, level_id, level_token, "pl", {"width": 1920, "height": 1080},
              errors)
    page.wait_for_function("() => TC.view.outcome && TC.view.view.over")
    banner = page.locator("#prompt").inner_text()
    assert "dzielą zwycięstwo" in banner and "remisu nie rozstrzyga" in banner, banner
    snap(page, "tie-level-tv-1080-pl")

    # the history, as the host sees it: both games, their ties in words, ranks shared
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.on("pageerror", lambda e: errors.append(f"host: {e}"))
    host.goto(f"{base}/host/{made['host']}?lang=en")
    host.fill("#pin", PIN)
    host.click("#host-login button[type=submit]")
    host.wait_for_url(f"**/host/{made['host']}")
    host.goto(f"{base}/host/{made['host']}/history?lang=en")
    early = host.locator(f'[data-game="{game_id}"]')
    why = early.locator(".why-won").inner_text()
    assert why.startswith("Ended early by the host: no winner.")
    assert "have 2 VP each; the tie-break puts" in why and "the most gold" in why
    level = host.locator(f'[data-game="{level_id}"]')
    assert "share the victory" in level.locator(".why-won").inner_text()
    assert "a tie the tie-break does not break" in level.locator(".why-won").inner_text()
    ranks = level.locator("table.scores tbody tr td:first-child").all_inner_texts()
    assert [r.replace("★", "").strip() for r in ranks][:2] == ["1", "1"], ranks
    snap(host, "tie-history-en")
    assert errors == []


def test_the_tie_on_the_tv_in_webkit(tables, webkit):  # noqa: F811 (the fixture)
    from tests.web.test_webkit_browser import errors_of, framed, phone_frame_shot, until

    base, made = tables
    game_id, pairing = made["webkit"]
    driver = webkit
    driver.get(f"{base}/table/{game_id}/pair?code={pairing}")
    until(driver, "return window.TC && TC.view")
    framed(driver, base, f"/table/{game_id}?lang=de", 1280, 720)
    until(driver, "return window.TC && TC.view && document.body.dataset.conn === 'closed'")
    text = driver.find_element("id", "closed-outcome").text
    assert "kein Sieger" in text and "die Gleichstandsregel setzt" in text, text
    phone_frame_shot(driver, "tie-early-tv-720-de", (1280, 720))
    keep_webkit("tie-early-tv-720-de")
    assert errors_of(driver) == []

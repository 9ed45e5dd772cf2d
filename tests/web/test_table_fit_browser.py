"""The table display is read from across the room and never scrolled: in every language (German
and Polish are the longest) on a 1920x1080 and a 1280x720 TV, no text is cut with "…" or
clamped, and no panel's content is cut or pushed below its column or the screen, in real
chromium against the real server. The Pillars of the Earth is walked through the round's
preparation (the fourteen privileges offered, the two craftsman questions) into the draft
(the whole supply); World Without End and Monasterium at their first step (Monasterium's
roll entered by hand). Screenshots: test-artifacts/browser/fit-*.png.
"""
from __future__ import annotations

import pytest

from tests.web import conftest
from tests.web.conftest import play_on_without_phones, running_server
from tests.web.test_browser import shot

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]
LANGS = ("de", "pl", "it", "es", "en")
TVS = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
NAMES = ("Annaowski", "Bartekowski", "Christineowski")  # long names, as real ones can be

# What a player cannot read whole: a text cut with "…" or clamped, a panel whose content
# overflows it, a panel below its column or the screen. A panel that takes the height left
# (.fill: the log, World Without End's chart) may shrink; its scrolled list is checked.
NOT_WHOLE = """() => {
  const bad = [], shown = (el) => !el.closest('[hidden]') && el.offsetParent !== null;
  const name = (el) => (el.id || el.className) + ' «' + el.textContent.trim().slice(0, 40) + '»';
  for (const el of document.querySelectorAll('body *')) {
    if (!shown(el)) continue;
    const cs = getComputedStyle(el);
    if (cs.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
      bad.push('cut with …: ' + name(el));
    const clamp = cs.webkitLineClamp && cs.webkitLineClamp !== 'none';
    if (clamp && el.scrollHeight > el.clientHeight + 1)
      bad.push('clamped: ' + name(el));
  }
  const boxes = '.table-grid .col > section:not(.fill), .table-grid .scroll, .turn-banner, ' +
    '#table-steps, .topbar';
  for (const el of document.querySelectorAll(boxes)) {
    if (!shown(el)) continue;
    if (el.scrollHeight > el.clientHeight + 2 || el.scrollWidth > el.clientWidth + 2)
      bad.push('content cut: ' + name(el));
    const col = el.closest('.col'), bottom = el.getBoundingClientRect().bottom;
    if (col && bottom > col.getBoundingClientRect().bottom + 1)
      bad.push('below its column: ' + name(el));
    if (bottom > innerHeight + 1) bad.push('below the screen: ' + name(el));
  }
  return bad;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("fitdata")
    log = tmp_path_factory.mktemp("fitlog") / "server.log"
    with running_server(data, log, "--no-hardware") as base:
        yield base


def new_table(browser, base: str, game: str):
    names = dict(zip("NES", NAMES, strict=True))  # three seats in every game
    page, _, game_id = conftest.new_table(browser, base, game, names, "2468", [])
    play_on_without_phones(page)
    return page, game_id


def open_table(page, base: str, game_id: str, lang: str) -> None:
    page.set_viewport_size(TVS[0])
    page.goto(f"{base}/table/{game_id}?lang={lang}")
    page.wait_for_function("() => window.TC && window.TC.view")
    if page.locator("#lobby-close").is_visible():  # the lobby comes back with every load
        page.click("#lobby-close")
    page.wait_for_function("() => document.getElementById('join-panel').hidden")


def assert_read_whole(page, base: str, game_id: str, label: str) -> None:
    problems = []
    for lang in LANGS:
        open_table(page, base, game_id, lang)
        for tv in TVS:
            page.set_viewport_size(tv)
            page.wait_for_timeout(150)  # one layout pass after the resize
            name = f"fit-{label}-{lang}-{tv['width']}x{tv['height']}"
            problems += [f"{name}: {p}" for p in page.evaluate(NOT_WHOLE)]
            if lang in ("de", "pl"):
                shot(page, name)
    assert not problems, "\n".join(problems)


def tap_table_input(page, base: str, game_id: str, times: int) -> None:
    """The table's own entry of what was laid out: its first offered card, ``times`` times."""
    for _ in range(times):
        open_table(page, base, game_id, "en")
        before = page.evaluate("() => JSON.stringify(window.TC.view.view)")
        page.locator("#inputs button.choice:not([disabled])").first.click()
        page.wait_for_function("(b) => JSON.stringify(window.TC.view.view) !== b", arg=before)


def test_pillars_table_reads_whole_through_the_preparation_into_the_draft(server, browser):
    page, game_id = new_table(browser, server, "pillars")
    assert page.locator('#inputs .choice-group[data-kind="reveal_privilege"] button').count() >= 10
    assert_read_whole(page, server, game_id, "pillars-privileges")
    tap_table_input(page, server, game_id, 3)  # two privileges, one craftsman to Shiring
    assert page.locator("#inputs .choice-group").count() == 2  # Shiring and the supply
    assert_read_whole(page, server, game_id, "pillars-craftsmen")
    tap_table_input(page, server, game_id, 10)  # three craftsmen, seven materials
    open_table(page, server, game_id, "en")
    assert page.locator("#inputs-panel").is_hidden()  # the draft: the phones choose
    assert page.locator("#round-cards .card-box").count() >= 9
    assert_read_whole(page, server, game_id, "pillars-draft")
    page.context.close()


@pytest.mark.parametrize("game", ["wwe", "monasterium"])
def test_the_other_tables_read_whole_at_their_first_step(server, browser, game):
    page, game_id = new_table(browser, server, game)
    assert_read_whole(page, server, game_id, game)
    page.context.close()


def test_the_page_client_gives_a_name_ending_a_sentence_no_second_period(server, browser):
    """The shared client fills UI strings as the server fills log lines
    (companion/server/i18n.py)."""
    page, _ = new_table(browser, server, "wwe")
    fmt = "([t, p]) => window.TC.fmt(t, p)"
    assert page.evaluate(fmt, ["Event: {card}.", {"card": "Because the works…"}]) == (
        "Event: Because the works…")
    assert page.evaluate(fmt, ["{a} and {b}.", {"a": "Ann B.", "b": "Bob"}]) == (
        "Ann B. and Bob.")
    assert page.evaluate(fmt, ["Round {c}.{r}", {"c": 2, "r": 3}]) == "Round 2.3"
    assert page.evaluate(fmt, ["{missing}.", {}]) == "{missing}."
    page.context.close()

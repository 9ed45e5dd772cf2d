"""A new table's evening, per game, in real chromium against the real server, as a new user
would go through it (issue 22, "Done when"): the TV (1920x1080) made the table display walks
the guided setup to its end; an Italian and a Polish phone (390x844) join; the first round
is played (World Without End: through chapter I's end), every step the table does by hand
confirmed with the button the TV shows for it; a refusal on the Italian phone and a tax,
duty or income line on the Polish phone each open their "Why?" with the rule's reference
and its text in that language; then a finished game is exported from the host's history
page as CSV and as a BG Stats file, both parsed back.

The pieces are the other browser tests' helpers, chained: the setup guide's buttons
(test_evening_browser), the phones' own inputs (test_browser's act_on_phone for World
Without End; each page's first allowed choice, sent as its buttons send it, for the others:
test_rules_cited_browser), the rule texts from the data the owner edits. Screenshots:
test-artifacts/browser/90-*.png.
"""
from __future__ import annotations

import pytest

from tests.web.conftest import table_and_phones
from tests.web.test_browser import act_on_phone, my_turn, server, shot  # noqa: F401
from tests.web.test_evening_browser import PIN, exported, tap
from tests.web.test_rules_cited_browser import GAMES, expected, play_until, words

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(900)]
PLAYERS = {"N": ("Anna", "it"), "S": ("Bartek", "pl")}
# per game: when the first round (World Without End: chapter I) is over, on the table's view
ROUND_OVER = {"wwe": "v => v.view.chapter >= 2", "pillars": "v => v.view.round >= 2",
              "monasterium": "v => v.view.round >= 2 || v.view.year >= 2"}
FALLBACK = "#table-steps .step-fallback"


def walk_setup(table, base: str, game_id: str, game: str) -> None:
    """The TV's guided setup, every step done with its button, to the end."""
    table.goto(f"{base}/table/{game_id}/setup")
    table.wait_for_selector("#setup[data-at]")
    steps = table.locator("#setup-list li").count()
    assert steps > 1
    shot(table, f"90-{game}-tv-setup")
    for _ in range(steps):
        if table.locator("#setup").get_attribute("data-finished") == "yes":
            break
        tap(table, "#setup-done")
    assert table.locator("#setup-finished").is_visible()
    table.goto(f"{base}/table/{game_id}")
    table.wait_for_function("() => window.TC && window.TC.view")


def version(page) -> int:
    return page.evaluate("() => TC.view.version")


def confirm_table_step(table) -> None:
    """A step the table does by hand, confirmed with the TV's own button (in sight)."""
    button = table.locator(FALLBACK).first
    assert button.is_visible() and button.inner_text().strip()
    before = version(table)
    button.click()
    table.wait_for_function("v => TC.view.version > v", arg=before, timeout=30000)


def play(game: str, table, phones: dict, done: str, max_steps: int = 400) -> int:
    """Move the game on until ``done`` holds: the TV's table steps by its buttons, the
    phones by their own inputs. Returns how many table steps the TV confirmed."""
    confirmed = 0
    shown = f"document.querySelector('{FALLBACK}')"
    for _ in range(max_steps):
        if table.evaluate(f"() => ({done})(TC.view)"):
            return confirmed
        if table.evaluate(f"() => !!{shown}"):
            confirm_table_step(table)
            confirmed += 1
        elif game == "wwe":
            step_wwe(table, phones)
        else:  # the pages' own choices until done, or until the TV shows a table step
            play_until(game, table, phones, f"v => ({done})(v) || !!{shown}", max_steps)
    pytest.fail(f"{game}: {done} still false after {max_steps} steps")


def step_wwe(table, phones: dict) -> None:
    """One decision of World Without End: the tax die tapped on the TV, or the phone that
    owes one deciding through its screen (test_browser's act_on_phone)."""
    now = version(table)
    for page in phones.values():
        page.wait_for_function("v => TC.view.version >= v", arg=now, timeout=30000)
    if table.evaluate("() => TC.view.view.phase") == "roll_tax":
        table.locator("#die-input button").first.click()
        table.wait_for_function("v => TC.view.version > v", arg=now, timeout=30000)
        return
    owing = [s for s, page in phones.items() if my_turn(page)]
    assert owing, table.evaluate("() => TC.view.prompts")
    act_on_phone(phones[owing[0]], owing[0], {})
    table.wait_for_function("v => TC.view.version > v", arg=now, timeout=30000)


def why_of_a_refusal(game: str, table, phones: dict) -> None:
    """While Bartek owes a decision, Anna's phone sends his move (a stale page): refused by
    the game's rule of turns, its "Why?" shows the rule in Italian."""
    italian, polish = phones["N"], phones["S"]
    for page in phones.values():
        page.wait_for_function("v => TC.view.version >= v", arg=version(table), timeout=30000)
    move = polish.evaluate("() => TC.view.choices.find(c => !c.refused).action")
    move["by"] = "N"
    italian.evaluate("a => TC.act(a)", move)
    toast = italian.locator("#toast")
    toast.locator("details.rule-why > summary").wait_for(timeout=15000)
    summary = toast.locator("details.rule-why > summary")
    assert summary.inner_text() == "Perché?"
    summary.click()
    shown = words(toast.locator(".rule-text").inner_text())
    assert shown
    rule = next(r for r in rules_of(game) if words(" ".join(expected(game, "it", r))) == shown)
    assert not expected(game, "it", rule)[0].startswith("App"), rule  # a rule of the game
    shot(italian, f"90-{game}-phone-it-why-refusal")
    # read, the "Why?" is closed again: the message goes with it (it lay over the phone's
    # buttons for 6 more seconds before)
    summary.click()
    toast.wait_for(state="hidden", timeout=3000)


def rules_of(game: str) -> list[str]:
    import json

    from tests.web.conftest import ROOT

    return list(json.loads((ROOT / "engine" / game / "data" / "rules.json").read_text())["rules"])


def why_of_a_bookkeeping_line(game: str, table, phones: dict) -> None:
    """A tax, duty or income line on the Polish phone: its "Why?" shows the rule in Polish."""
    polish = phones["S"]
    kinds = GAMES[game]["events"]
    seen = f"v => v.log.some(e => {list(kinds)!r}.includes(e.type))".replace("'", '"')
    play(game, table, phones, seen)
    kind = next(k for k in kinds if k in table.evaluate("() => TC.view.log.map(e => e.type)"))
    polish.wait_for_function("k => TC.view.log.some(e => e.type === k)", arg=kind,
                             timeout=30000)
    entry = polish.evaluate("k => TC.view.log.filter(e => e.type === k).pop()", kind)
    polish.evaluate("() => { document.getElementById('log').closest('details').open = true; }")
    line = polish.locator("#log li", has_text=entry["text"]).first
    why = line.locator("details.rule-why > summary")
    assert why.inner_text() == "Dlaczego?"
    why.click()
    ref, text = expected(game, "pl", entry["rule"])  # a view cites its rule by id
    line.locator(".rule-text").wait_for()
    assert words(line.locator(".rule-text").inner_text()) == words(f"{ref} {text}")
    line.scroll_into_view_if_needed()
    shot(polish, f"90-{game}-phone-pl-why-{kind}")


@pytest.mark.parametrize("game", ["pillars", "monasterium", "wwe"])
def test_an_evening_from_setup_to_export(server, browser, game, tmp_path):  # noqa: F811
    errors: list[str] = []
    table, phones, game_id = table_and_phones(browser, server, game, PLAYERS, PIN, errors,
                                              start="N")
    walk_setup(table, server, game_id, game)
    confirmed = play(game, table, phones, "v => (v.prompts || []).some(p => p.seat === 'S')")
    why_of_a_refusal(game, table, phones)
    confirmed += play(game, table, phones, ROUND_OVER[game])
    shot(table, f"90-{game}-tv-first-round-over")
    shot(phones["S"], f"90-{game}-phone-pl-first-round-over")
    if game == "pillars":  # the round preparation is the table's by hand
        assert confirmed > 0
    why_of_a_bookkeeping_line(game, table, phones)
    host = table.context.new_page()  # the TV's browser made the game: it is the host
    _, section = exported(host, server, game, game_id, tmp_path)
    shot(host, f"90-{game}-host-history-exported")
    assert not errors, errors

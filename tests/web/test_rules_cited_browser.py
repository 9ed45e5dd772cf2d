"""Every rule cited, in real chromium for each game (docs/rules-cited.md): a refusal on the
Italian phone and a tax, duty or income line on the Polish phone each have a "Why?" that,
tapped, shows the rule's reference in that player's edition and its text in that language;
the table display shows the rule of the step owed now. Screenshots at phone (390x844) and TV
(1920x1080) size go to test-artifacts/browser/rules-*.png; axe-core finds no serious
problem on either page with the rule open. A refusal's message closes by itself when the
state moves on, and with its ×.

The game is moved on by each page's own choices (the first one allowed, sent with TC.act as
the page's buttons do); what is checked is the "Why?" the pages show."""
from __future__ import annotations

import json

import pytest

from tests.rules_reference import shown_ref
from tests.web.conftest import FIRST_CHOICE, ROOT, table_and_phones
from tests.web.test_accessibility_browser import check as a11y
from tests.web.test_browser import server, shot  # noqa: F401 (server is a fixture)
from web import i18n_tool

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]
PIN = "8642"

# per game: the log events whose "Why?" the Polish player taps (the first one seen)
GAMES = {
    "wwe": {"events": ("duties_paid", "tax_rolled"), "max_steps": 160},
    "pillars": {"events": ("tax_rolled",), "max_steps": 200},
    "monasterium": {"events": ("paid", "gain"), "max_steps": 120},
}

# the first choice this page may send, as its buttons send it (conftest.FIRST_CHOICE)
STEP = FIRST_CHOICE


def expected(game: str, lang: str, rule_id: str) -> tuple[str, str]:
    """The reference and the text a player reading ``lang`` must see for ``rule_id``: from
    the game's rules.json and its .po file (the data the owner edits)."""
    rule = json.loads((ROOT / "engine" / game / "data" / "rules.json").read_text())
    rule = rule["rules"][rule_id]
    ref = shown_ref(game, rule, lang)  # "Instrukcja, «Przebieg rundy», krok 3"
    if lang == "en":
        return ref, rule["text"]
    catalog = i18n_tool.read(lang, i18n_tool.domain(game))
    return ref, catalog.get(rule["text"]).string


def words(text: str) -> list[str]:
    return text.split()


def log_types(page) -> list[str]:
    return page.evaluate("() => (TC.view.log || []).map(e => e.type)")


def play_until(game: str, table, phones: dict, done: str, max_steps: int) -> None:
    """Move the game on until ``done`` (a JS predicate on the table's view) holds."""
    pages = [*phones.values(), table]

    def caught_up() -> None:
        """Every phone has the table's version (the table may have moved on since a step)."""
        for p in phones.values():
            p.wait_for_function("v => TC.view.version >= v",
                                arg=table.evaluate("() => TC.view.version"))

    for _ in range(max_steps):
        if table.evaluate(f"() => ({done})(TC.view)"):
            return
        for _attempt in range(3):  # under load a phone's view may still be on its way
            sent = next((s for s in (page.evaluate(STEP) for page in pages) if s is not None),
                        None)
            if sent is not None:
                table.wait_for_function("v => TC.view.version > v", arg=sent, timeout=20000)
                caught_up()
                break
            caught_up()
            pages[0].wait_for_timeout(500)
        else:
            pytest.fail(f"{game}: nobody has a choice; prompts "
                        f"{table.evaluate('() => TC.view.prompts')}")
    pytest.fail(f"{game}: {done} still false after {max_steps} steps")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_why_shows_the_rule_of_a_refusal_and_of_a_bookkeeping_line(server, browser,  # noqa: F811
                                                                   game):
    spec = GAMES[game]
    errors: list[str] = []
    table, phones, _ = table_and_phones(
        browser, server, game, {"N": ("Anna", "it"), "S": ("Bartek", "pl")}, PIN, errors,
        start="N")
    italian, polish = phones["N"], phones["S"]

    # The table display: the rule of the step owed now, under the turn banner, in the
    # table's language (English), from the first prompt's rule.
    table.wait_for_selector("#step-rule:not([hidden])")
    cited = table.evaluate("() => TC.view.prompts[0].rule")
    assert isinstance(cited, str)  # views cite by id; the socket's `rules` has the words
    prompt_rule = table.evaluate("id => TC.rule(id)", cited)
    ref, text = expected(game, "en", cited)
    assert prompt_rule == {"id": cited, "ref": ref, "text": text}
    assert table.locator("#step-rule").inner_text().count(ref) == 1
    assert prompt_rule["text"] in table.locator("#step-rule").inner_text()

    # A refusal on the Italian phone: while Bartek owes a decision, Anna sends it out of her
    # turn (as a stale page would); the game's rule of turns refuses it, with a "Why?".
    play_until(game, table, phones, "v => (v.prompts || []).some(p => p.seat === 'S')",
               spec["max_steps"])
    for page in phones.values():
        page.wait_for_function("v => TC.view.version >= v",
                               arg=table.evaluate("() => TC.view.version"))
    move = polish.evaluate("() => TC.view.choices.find(c => !c.refused).action")
    move["by"] = "N"
    ack = italian.evaluate("a => new Promise(r => TC.socket.emit('act', {action: a}, r))", move)
    assert ack["ok"] is False and ack["rule"], ack
    assert not ack["rule"]["ref"].startswith("App"), ack  # a rule of the game
    ref, text = expected(game, "it", ack["rule"]["id"])
    assert ack["rule"] == {"id": ack["rule"]["id"], "ref": ref, "text": text}
    italian.evaluate("a => TC.act(a)", move)
    toast = italian.locator("#toast")
    italian.wait_for_function("t => !document.getElementById('toast').hidden && "
                              "document.getElementById('toast').innerText.includes(t)",
                              arg=ack["message"])
    summary = toast.locator("details.rule-why > summary")
    assert summary.inner_text() == "Perché?"
    summary.click()
    assert words(toast.locator(".rule-text").inner_text()) == words(f"{ref} {text}")
    shot(italian, f"rules-{game}-phone-it-refusal")
    a11y(italian, f"rules-{game}-phone-it-refusal")

    # The refusal belongs to its moment: the state moves on (Bartek plays) and it closes by
    # itself, its "Why?" open or not; a new one closes with its visible ×.
    assert toast.locator(".toast-close").is_visible()
    sent = polish.evaluate(STEP)
    assert sent is not None
    italian.wait_for_function("v => TC.view.version > v", arg=sent)
    italian.wait_for_function("() => document.getElementById('toast').hidden")
    italian.evaluate("a => TC.act(a)", move)  # stale: refused again
    italian.wait_for_function("() => !document.getElementById('toast').hidden")
    toast.locator(".toast-close").click()
    italian.wait_for_function("() => document.getElementById('toast').hidden")

    # A bookkeeping line (a tax, a duty, an income, a payment) reaches the Polish phone.
    wanted = json.dumps(spec["events"])
    play_until(game, table, phones, f"v => v.log.some(e => {wanted}.includes(e.type))",
               spec["max_steps"])
    types = log_types(table)
    kind = next(k for k in spec["events"] if k in types)
    polish.wait_for_function("k => TC.view.log.some(e => e.type === k)", arg=kind)
    entry = polish.evaluate("k => TC.view.log.filter(e => e.type === k).pop()", kind)
    ref, text = expected(game, "pl", entry["rule"])
    assert polish.evaluate("id => TC.rule(id)", entry["rule"]) == {
        "id": entry["rule"], "ref": ref, "text": text}
    polish.evaluate("() => { document.getElementById('log').closest('details').open = true; }")
    line = polish.locator("#log li", has_text=entry["text"]).first
    why = line.locator("details.rule-why > summary")
    assert why.inner_text() == "Dlaczego?"
    why.click()
    shown = line.locator(".rule-text")
    shown.wait_for()
    assert words(shown.inner_text()) == words(f"{ref} {text}")
    line.scroll_into_view_if_needed()
    shot(polish, f"rules-{game}-phone-pl-{kind}")
    a11y(polish, f"rules-{game}-phone-pl")

    # The TV at 1920x1080 with the step's rule.
    table.wait_for_selector("#step-rule:not([hidden])")
    shot(table, f"rules-{game}-table")
    a11y(table, f"rules-{game}-table")
    # ... and in Polish: the same form, the Polish edition's section (or the section's
    # subject in Polish), never "§4.3" (issue 32 #10)
    tv = table.context.new_page()
    tv.set_viewport_size({"width": 1920, "height": 1080})
    tv.on("pageerror", lambda e: errors.append(f"tv pl: {e}"))
    tv.goto(table.url.split("?")[0] + "?lang=pl")
    tv.wait_for_selector("#step-rule:not([hidden])")
    cited = tv.evaluate("() => TC.view.prompts[0].rule")
    ref, text = expected(game, "pl", cited)
    assert ref.startswith("Instrukcja, «")
    assert words(tv.locator("#step-rule").inner_text()) == words(f"Zasada: {ref} {text}")
    shot(tv, f"rules-{game}-table-pl")
    tv.close()
    assert not errors, errors

"""Accessibility in real chromium: axe-core (vendored under tests/web/vendor/axe-core, a test
asset that is never served) finds no serious or critical violation on the table, phone,
host, new-game, camera and dice pages, text contrast included (WCAG 2 AA, 4.5:1); and every
control one taps is at least 44 px high and wide."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.web.conftest import ROOT, pair_here
from tests.web.test_browser import PHONE, server, shot  # noqa: F401 (server is a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300)]

AXE = ROOT / "tests" / "web" / "vendor" / "axe-core" / "axe.min.js"

RUN_AXE = """async () => {
  const r = await axe.run(document, {runOnly: {type: 'tag',
    values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}, resultTypes: ['violations']});
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 4).map(n =>
      n.target.join(' ') + ' ' + (n.failureSummary || '').replace(/\\s+/g, ' ')).join(' | '));
}"""

# Controls one taps: buttons, fields, selects, summaries, links styled as buttons or standing
# alone (a link inside running text is exempt, WCAG 2.5.8).
SMALL_TARGETS = """() => {
  const out = [];
  const sel = 'button, select, input:not([type=hidden]), textarea, summary, a.button, ' +
    '.topbar a, nav a';
  for (const el of document.querySelectorAll(sel)) {
    // a checkbox's target is its whole label
    const box = el.matches('input[type=checkbox], input[type=radio]');
    const target = box && el.closest('label') || el;
    const r = target.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.closest('[hidden], .lobby[hidden]')) continue;
    if (r.height < 44 || r.width < 44) {
      out.push((el.id ? '#' + el.id : el.tagName.toLowerCase() + '.' + el.className) +
        ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
    }
  }
  return out;
}"""


def check(page, name: str) -> None:
    # axe through DevTools' evaluate, not a <script> tag: the pages' Content-Security-Policy
    # (issue 67) rightly refuses an inline script, and the check is of the page as served
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    problems = page.evaluate(RUN_AXE)
    small = page.evaluate(SMALL_TARGETS)
    shot(page, f"a11y-{name}")
    assert not problems, f"{name}: {problems}"
    assert not small, f"{name}: tap targets under 44 px: {small}"


def test_pages_pass_axe_and_tap_targets(server, browser):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = ctx.new_page()
    page.goto(server + "/new?game=wwe")
    page.wait_for_selector("#create-game")
    check(page, "new-game")
    page.fill("#name_N", "Ala")
    page.fill("#name_E", "Bruno")
    page.fill("#host_pin", "2468")
    page.click("#create-game")
    page.wait_for_url("**/host/**")
    game_id = page.url.rstrip("/").split("/")[-1]
    page.wait_for_function("() => window.TC && window.TC.view")
    check(page, "host")
    page.goto(f"{server}/host/{game_id}/camera")
    page.wait_for_load_state("networkidle")
    check(page, "camera")
    page.goto(f"{server}/host/{game_id}/dice")
    page.wait_for_load_state("networkidle")
    check(page, "dice")

    pair_here(page, server, game_id)
    page.wait_for_function("() => window.TC && window.TC.view")
    check(page, "table-lobby")
    links = {a.get_attribute("data-seat"): a.get_attribute("href")
             for a in page.locator("a.join-link").all()}
    phones = []
    for seat in ("N", "E"):
        phone = browser.new_context(**PHONE).new_page()
        parts = urlsplit(links[seat])
        phone.goto(f"{server}{parts.path}?{parts.query}")
        phone.wait_for_function("() => window.TC && window.TC.view")
        phones.append(phone)
    page.wait_for_function("() => document.getElementById('join-panel').hidden")
    check(page, "table")
    start = page.evaluate("() => TC.view.view.active")
    phone = phones[0] if start == "N" else phones[1]
    phone.wait_for_selector("#event-search")
    check(phone, "phone-turn")
    other = phones[1] if phone is phones[0] else phones[0]
    check(other, "phone-waiting")
    # Any other screen only watches the board: on a phone it is one column that scrolls.
    watcher = browser.new_context(**PHONE).new_page()
    watcher.goto(f"{server}/table/{game_id}")
    watcher.wait_for_function("() => window.TC && window.TC.view")
    assert watcher.evaluate("() => TC.config.paired") is False
    assert watcher.evaluate("() => document.documentElement.scrollHeight > innerHeight")
    assert watcher.evaluate("() => [innerWidth, document.documentElement.scrollWidth]") == \
        [390, 390], "nothing wider than the phone"
    clipped = watcher.evaluate("() => [...document.querySelectorAll('.table-grid .col > *')]"
                               ".filter(e => e.scrollHeight > e.clientHeight + 1).map(e => e.id"
                               " || e.className)")
    assert not clipped, f"in one column nothing is cut off: {clipped}"
    check(watcher, "table-viewer-phone")

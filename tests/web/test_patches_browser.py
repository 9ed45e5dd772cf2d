"""Patches applied by the page equal the server's whole view, in real chromium: a game is
played from the pages' own choices, and now and then every page asks for its whole view
(`resync`) and compares it with the view it had built from patches (client.js applies
"s", "d", "t", "a" at paths through objects and into lists: a table step's count, one
player's row). The rules of the views' ids are in the page's `rules` message."""
from __future__ import annotations

import pytest

from tests.web.conftest import table_and_phones
from tests.web.test_browser import server  # noqa: F401 (a fixture)
from tests.web.test_rules_cited_browser import STEP

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]

# the view as patched, then the whole view the server sends on `resync` (same state)
RESYNC = """() => new Promise((resolve, reject) => {
  const current = TC.view, patched = JSON.parse(JSON.stringify(current));
  TC.socket.emit("resync", {});
  const start = Date.now();
  (function wait() {
    if (TC.view !== current) return resolve([patched, JSON.parse(JSON.stringify(TC.view))]);
    if (Date.now() - start > 10000) return reject(new Error("no whole view"));
    setTimeout(wait, 20);
  })();
})"""


def same_as_whole(page, who: str) -> None:
    patched, whole = page.evaluate(RESYNC)
    patched.pop("n"), whole.pop("n")  # (a patched view keeps its first whole view's n)
    assert patched == whole, who
    for entry in whole["log"] + whole["prompts"]:  # cited by id, the words in `rules`
        if entry.get("rule") is not None:
            assert page.evaluate("id => TC.rule(id).text.length > 0", entry["rule"]), entry


@pytest.mark.parametrize("game", ["pillars", "wwe"])
def test_views_built_from_patches_equal_the_whole_view(server, browser, game):  # noqa: F811
    errors: list[str] = []
    table, phones, _ = table_and_phones(browser, server, game,
                                        {"N": ("Anna", "it"), "S": ("Bartek", "pl")}, "8642",
                                        errors, start="N")
    pages = {"table": table, **phones}
    played = 0
    for step in range(40):
        for page in pages.values():
            sent = page.evaluate(STEP)
            if sent is not None:
                table.wait_for_function("v => TC.view.version > v", arg=sent, timeout=20000)
                version = table.evaluate("() => TC.view.version")
                for p in phones.values():
                    p.wait_for_function("v => TC.view.version >= v", arg=version)
                played += 1
                break
        if step % 8 == 7:
            for who, page in pages.items():
                same_as_whole(page, f"{game} {who} after {played} actions")
    assert played >= 20
    assert not errors, errors

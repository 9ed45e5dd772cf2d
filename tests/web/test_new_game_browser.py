"""Issue 21 in chromium: the new-game form of The Pillars of the Earth shows its fixed options
as facts (no box to untick), and a table is created with the defaults and one box unticked."""
from __future__ import annotations

import json

import pytest

from tests.web.conftest import running_server

pytestmark = pytest.mark.browser


def test_pillars_form_creates_a_table_with_fixed_options_as_facts(browser, tmp_path):
    with running_server(tmp_path / "data", tmp_path / "server.log", "--no-hardware") as base:
        page = browser.new_context().new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/new?game=pillars")
        page.click("#rule-options summary")
        fixed = page.locator("p.fixed-option")
        assert fixed.count() >= 10 and fixed.first.is_visible()
        assert page.locator("#option_workers_fungible").evaluate("e => e.tagName") == "P"
        assert page.locator("input[type=checkbox][name=option_workers_fungible]").count() == 0
        page.uncheck("#option_placement_needs_gold")
        page.fill("#name_N", "Ann")
        page.fill("#name_E", "Bo")
        page.fill("#host_pin", "2468")
        page.click("#create-game")
        page.wait_for_url("**/host/**")
        game_id = page.url.rstrip("/").split("/")[-1]
        record = json.loads(page.request.get(f"{base}/games/{game_id}/record.json").text())
        options = record["setup"]["options"]
        assert options["placement_needs_gold"] is False
        assert options["workers_fungible"] is True and options["spaces_any_order"] is True
        assert not errors

"""docs/engine.md's walk-through, followed: Liar's dice lite (tests/plugins/liarsdice) is
copied to a temporary folder, every excerpt the walk-through shows is found in it word for
word, it is installed with pip into a folder of its own (as `pip install -e` would, without
touching the app's environment), and the walk-through's commands run on it as written:
`web.i18n_tool update` and `check` (German only: the game declares English and German) and
`companion contract`. Then `companion serve` offers it and two phones play it in chromium
to its end: the new-game page's count and variant, the languages offered, the winner line.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.liarsdice import FOLDER
from tests.web.conftest import ROOT, join_phone, new_table, running_server
from tests.web.test_browser import shot

DOC = ROOT / "docs" / "engine.md"
BIN = Path(sys.executable).parent
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def walkthrough() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text[text.index("### Walk-through: Liar's dice lite"):]


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", walkthrough(), re.S)


def test_every_excerpt_of_the_walkthrough_is_in_the_game():
    excerpts = blocks("python") + blocks("toml") + blocks("javascript")
    assert len(excerpts) >= 7
    for block in excerpts:
        first, _, body = block.partition("\n")
        path = FOLDER / first.lstrip("#/ ").strip()
        source = path.read_text(encoding="utf-8")
        for part in body.split("...\n"):
            assert part.strip() and part in source, f"{path.name} lacks:\n{part}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The walk-through's game copied and installed with pip into a folder of its own;
    (the environment that finds it, the copy's folder)."""
    work = tmp_path_factory.mktemp("walkthrough")
    package = work / "tc-liarsdice"
    shutil.copytree(FOLDER, package, ignore=shutil.ignore_patterns("__pycache__", "build",
                                                                  "*.egg-info"))
    target = work / "site"
    subprocess.run([str(BIN / "pip"), "install", "--quiet", "--no-deps", "--target",
                    str(target), str(package)], check=True, timeout=300)
    path = os.pathsep.join(p for p in (str(target), os.environ.get("PYTHONPATH")) if p)
    return dict(os.environ, PYTHONPATH=path), target


def run(step: str, env: dict) -> subprocess.CompletedProcess:
    """One command of the walk-through's step 5, as written (the .venv of this checkout)."""
    words = shlex.split(step.split("#")[0])
    words[0] = str(BIN / Path(words[0]).name)
    return subprocess.run(words, env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_the_walkthroughs_commands_pass_on_the_installed_game(installed):
    env, target = installed
    steps = [line for line in blocks("sh")[0].splitlines() if line.strip()]
    assert "pip install" in steps[0]  # done by the fixture, into a folder of its own
    for step in steps[1:]:
        done = run(step, env)
        assert done.returncode == 0, (step, done.stdout[-3000:], done.stderr[-3000:])
        assert done.stdout.strip().endswith(("all translations complete",
                                             "liars keeps the plug-in contract (3 random "
                                             "games per player count, seed 0)")), done.stdout
    translations = target / "tc_liarsdice" / "web" / "translations"
    assert sorted(p.name for p in translations.iterdir() if p.is_dir()) == ["de"]
    # a German text taken away: the check and the kit say so, and fail
    po = translations / "de" / "LC_MESSAGES" / "messages.po"
    kept = po.read_text(encoding="utf-8")
    try:
        po.write_text(kept.replace('msgstr "Es gibt noch kein Gebot zum Anzweifeln."',
                                   'msgstr ""'), encoding="utf-8")
        check = run(steps[2], env)
        assert check.returncode == 1 and "de: empty 'There is no bid to call yet.'" in \
            check.stdout
        kit = run(steps[3], env)
        assert kit.returncode == 1 and "refusal 'no_bid_yet' has no de text" in kit.stdout
    finally:
        po.write_text(kept, encoding="utf-8")


@pytest.mark.browser
def test_the_installed_game_plays_on_the_shared_pages(installed, browser, tmp_path):
    env, _target = installed
    errors: list[str] = []
    with running_server(tmp_path / "data", tmp_path / "server.log", "--no-hardware",
                        env=env) as base:
        page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        page.on("pageerror", lambda e: errors.append(f"table: {e}"))
        page.goto(base + "/new?game=liars")
        assert page.locator("#player-count").inner_text().startswith(
            "One player per seat (2 to 4 players).")
        assert page.locator("#option_points_to_win").is_visible()  # a variant, not folded
        assert page.locator("#rule-options").count() == 0
        shot(page, "47-liars-new-720")
        page.context.close()
        # one round wins: the TV says it in the app's words for a finished game (issue 69)
        table, links, _game_id = new_table(browser, base, "liars", {"A": "Ann", "B": "Bo"},
                                           "2468", errors, start="B",
                                           options={"points_to_win": "1"})
        phones = {seat: join_phone(browser, base, links[seat], seat, errors, lang)
                  for seat, lang in (("A", "en"), ("B", "de"))}
        langs = table.eval_on_selector_all("#lang-select option", "os => os.map(o => o.value)")
        assert langs == ["en", "de"]
        assert table.locator("#prompt").inner_text() == "Bo bids or calls."  # B starts
        # Bo bids on a German phone, Ann calls on hers: one round wins the game
        bo, ann = phones["B"], phones["A"]
        assert "Meine Würfel" in bo.inner_text("body")
        shot(bo, "47-liars-phone-de")
        bo.locator("#liars-moves button").first.click()
        ann.wait_for_function("() => TC.view.view.active === 'A'")
        ann.get_by_role("button", name="Call the bid").click()
        table.wait_for_function("() => TC.view.view.over === true")
        table.wait_for_function("() => /wins/.test("
                                "document.getElementById('prompt').innerText)")
        winner = table.locator("#prompt").inner_text()
        # the app's words for a finished game (issue 69: a tie and its tie-break said too)
        assert re.fullmatch(r"(Ann|Bo) wins with the most VP \(1\)\.", winner), winner
        shot(table, "47-liars-table-end")
        bo.wait_for_function("() => /gewinnt/.test("
                             "document.getElementById('liars-prompt').innerText)")
        assert re.fullmatch(r"(Ann|Bo) gewinnt mit dem besten Ergebnis: 1 SP\.?",
                            bo.locator("#liars-prompt").inner_text().strip())
        for size in ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720}):
            table.set_viewport_size(size)
            shot(table, f"47-liars-table-{size['height']}")
    assert not errors

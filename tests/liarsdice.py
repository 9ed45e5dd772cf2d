"""Liar's dice lite (tests/plugins/liarsdice): the outside game of docs/engine.md's walk-through,
in English and German. Not installed in the test environment (the app would offer it to every
test): the tests that play it load it from its folder and give it to the app as a configured
game (``GAMES``), or install it into a folder of their own
(tests/web/test_walkthrough_browser.py)."""
from __future__ import annotations

import sys
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "plugins" / "liarsdice"


def liars_game():
    """The game module, imported from its folder."""
    if str(FOLDER) not in sys.path:
        sys.path.append(str(FOLDER))
    for name in [m for m in sys.modules if m == "tc_liarsdice" or m.startswith("tc_liarsdice.")]:
        module = sys.modules[name]
        if not str(getattr(module, "__file__", "") or "").startswith(str(FOLDER)):
            del sys.modules[name]  # a copy of the zoo's, from another folder
    from tc_liarsdice import GAME

    return GAME

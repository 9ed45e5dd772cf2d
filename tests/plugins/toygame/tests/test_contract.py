"""The toy plug-in runs the app's contract kit from its own tests, as an outside game would
(docs/engine.md, "The contract kit"): the same checks as `companion contract toy`, its
translations included. Nothing here knows the app's shipped games."""
from __future__ import annotations

from tc_toygame import GAME

from companion.box.catalog import load_catalog
from companion.commands.contract import check_module


def test_the_toy_game_keeps_the_plugin_contract():
    assert check_module(GAME, load_catalog(GAME.info.id), games=5) == []

"""The toy plug-in runs the app's contract kit from its own tests, as an outside game would
(docs/engine.md, "Writing a game"): nothing here knows the app's shipped games."""
from __future__ import annotations

from tc_toygame import GAME

from companion.box.catalog import load_catalog
from companion.game.reasons import SERVER_REASONS
from engine.contract import assert_game_keeps_contract


def test_the_toy_game_keeps_the_plugin_contract():
    assert_game_keeps_contract(GAME, load_catalog(GAME.info.id), app_reasons=SERVER_REASONS,
                               unique_ids=True, games=5)

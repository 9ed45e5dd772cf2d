"""The toy game plug-in (tests/plugins/toygame), as the generic server tests use it."""
from tc_toygame import GAME, INFO  # noqa: F401
from tc_toygame.rules import *  # noqa: F403
from tc_toygame.rules import EVENT_TEXTS, REASONS  # noqa: F401

info = INFO

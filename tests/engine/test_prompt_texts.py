"""PROMPT_TEXTS: every prompt kind has an English template the prompt's params fill."""
from __future__ import annotations

import random
import re
import string
from pathlib import Path

import pytest

from engine.wwe import GAME
from engine.wwe.texts import PROMPT_TEXTS
from tests.engine.wwe_helpers import new_game

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "wwe"


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# await_step("kind", <seat>, name=..., ...): the kind and the params a prompt carries
AWAIT = re.compile(r'await_step\(\s*"(\w+)",([^()]*(?:\([^()]*\)[^()]*)*)\)')


def test_every_kind_in_the_engine_source_has_a_filled_template():
    """Every prompt the engine can owe, including rare ones (a Hospital cure), read from the
    await_step calls: its template uses only the params that call gives (plus seat)."""
    kinds: dict[str, set] = {}
    for path in ENGINE.glob("*.py"):
        for kind, args in AWAIT.findall(path.read_text(encoding="utf-8")):
            kinds.setdefault(kind, set()).update(re.findall(r"(\w+)=", args))
    assert len(kinds) >= 13 and set(kinds) == set(PROMPT_TEXTS)
    for kind, params in kinds.items():
        assert placeholders(PROMPT_TEXTS[kind]) <= params | {"seat"}, kind


@pytest.mark.parametrize("seats, options, seed", [
    (("N", "E", "S", "W"), {}, 1),
    (("N", "S"), {"random_discards": "table", "plague_values": "app"}, 2),
    (("N", "E", "S"), {"first_game": True}, 3),
    (("N", "E", "S", "W"), {"random_discards": "table"}, 4),
    (("E", "W"), {}, 5),
])
def test_prompts_of_random_games_are_filled(catalog, seats, options, seed):
    # one card picks its victim (choose_target), which no shipped demo card does
    feast = next(c for c in catalog["event_cards"] if c["id"] == "demo_feast")
    feast["effects"] = [{"type": "gain", "who": "chosen", "items": {"vp": 2}}]
    s = new_game(catalog, seats=seats, options=options)
    rnd = random.Random(seed)
    seen = {}
    while True:
        for prompt in GAME.prompts(s):
            template = PROMPT_TEXTS[prompt.kind]
            params = dict(prompt.params, seat=prompt.seat)
            assert placeholders(template) <= set(params), (prompt.kind, params)
            assert "{" not in template.format(**params)
            if "{seat}" not in template:  # only table decisions leave the seat unnamed
                assert prompt.kind in ("reveal_plague", "resolve_manual", "return_houses",
                                       "roll_tax")
            seen[prompt.kind] = params
        action = GAME.random_action(s, rnd)
        if action is None:
            break
        s, _ = GAME.apply(s, action)
    assert {"reveal_event", "orient_event", "play_card", "roll_tax",
            "choose_protection"} <= set(seen)

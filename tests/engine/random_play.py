"""Positions of a random legal game, for tests that check something at many positions."""
from __future__ import annotations


def every_kth_position(game, s: dict, rnd, every: int):
    """``s`` and every ``every``-th position after it while ``game`` plays its own random
    legal actions (``rnd``: a random.Random) to the end."""
    k = 0
    while not game.is_over(s):
        if k % every == 0:
            yield s
        s, _ = game.apply(s, game.random_action(s, rnd))
        k += 1

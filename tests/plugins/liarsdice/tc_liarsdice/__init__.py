"""Liar's dice lite as a Table Companion plug-in (docs/engine.md, "Writing a game").

The rules are in rules.py; here are the declarations the app needs (engine.api.GameInfo) and
the module object the entry point names (pyproject.toml).
"""
from __future__ import annotations

from types import SimpleNamespace

from engine.api import Bindings, GameInfo, Option, SeatInfo, Texts, secret_paths
from engine.shapes import TEXT, action, ints, one_of
from tc_liarsdice import rules

SHAPES = {
    "bid": action({"count": ints(1, 12), "face": ints(1, 6)}),
    "call": action(),
    "adjust": action({"seat": one_of(*rules.SEATS), "item": one_of("points"),
                      "delta": ints(-10, 10)}, {"reason": TEXT}),
}

INFO = GameInfo(
    id="liars",
    names={"en": "Liar's dice lite", "de": "Lügenwürfel light"},
    languages=("en", "de"),
    seats=(SeatInfo("A", "Seat A", "blue"), SeatInfo("B", "Seat B", "red"),
           SeatInfo("C", "Seat C", "green"), SeatInfo("D", "Seat D", "yellow")),
    min_players=2,
    max_players=4,
    options=(Option("points_to_win", 2, (1, 2, 3), "Points to win the game"),),
    start_rule="Whoever lost the last game starts.",
    texts=Texts(reasons=rules.REASONS, events=rules.EVENT_TEXTS, prompts=rules.PROMPT_TEXTS),
    catalog="tc_liarsdice",  # no printed cards: a catalog of no parts
    parts=(),
    stickers=(),
    bindings=Bindings(),  # no camera, no dice reader: the app rolls
    web="tc_liarsdice.web",
    host_actions=frozenset({"adjust"}),
    action_shapes=SHAPES,
    # what not everyone may see: each seat's dice; the seed (the next rolls) nobody
    secrets=secret_paths("dice.{seat}", "seed"),
)

GAME = SimpleNamespace(
    name="liars", info=INFO, setup=rules.setup, apply=rules.apply, prompts=rules.prompts,
    choices=rules.choices, public_view=rules.public_view, seat_view=rules.seat_view,
    private_view=rules.private_view, scores=rules.scores, is_over=rules.is_over,
    preview=rules.preview)

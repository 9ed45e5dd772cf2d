"""The toy game as a Table Companion plug-in: the example of docs/engine.md, "Writing a game".

A plug-in is an object with the rules (engine.api.GameModule) and ``info``, the declarations
the app needs (engine.api.GameInfo). It is found through the entry point
``table_companion.games`` in this folder's pyproject.toml; nothing in the app names it.
"""
from __future__ import annotations

from types import SimpleNamespace

from engine.api import (
    Act,
    Bindings,
    CatalogPart,
    DieRole,
    GameInfo,
    Option,
    SeatInfo,
    StickerKind,
    Texts,
    Zone,
    secret_paths,
)
from tc_toygame import rules, shapes

PILE = "pile"
CARDS_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Toy game: coins",
    "type": "array",
    "items": {"type": "object", "required": ["id", "names", "points"],
              "additionalProperties": False,
              "properties": {"id": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
                             "names": {"type": "object", "required": ["en"],
                                       "additionalProperties": {"type": "string"}},
                             "points": {"type": "integer", "minimum": 1, "maximum": 10},
                             "demo": {"type": "boolean"}}},
}


def check_catalog(catalog: dict) -> list[dict]:
    """The game's own fact: coin ids are unique."""
    seen, out = set(), []
    for card in catalog.get("cards") or []:
        if isinstance(card, dict) and card.get("id") in seen:
            out.append({"file": "cards.json", "entry": card["id"], "field": "id",
                        "code": "duplicate_id", "params": {},
                        "reason": "duplicate_id: this id is used twice"})
        seen.add(card.get("id") if isinstance(card, dict) else None)
    return out


def sighting(state: dict, seen) -> list:
    """A coin card laid on the pile adds its points to the pot (once, when it appears)."""
    if seen.kind == "coin" and seen.zone == PILE and seen.change in ("appeared", "moved"):
        return [Act({"type": "coin", "by": "table", "card": seen.card})]
    return []


def roll(state: dict, dice) -> list:
    """The table's die, when the game is running, adds its face to the pot."""
    faces = [d.face for d in dice if d.role == "d6"]
    if state["over"] or not faces:
        return []
    return [Act({"type": "roll", "by": "table", "value": faces[0]})]


INFO = GameInfo(
    id="toy",
    names={"en": "Toy game", "it": "Gioco giocattolo", "pl": "Gra zabawka",
           "es": "Juego de prueba", "de": "Spielzeugspiel"},
    seats=(SeatInfo("A", "Seat A", "blue"), SeatInfo("B", "Seat B", "red"),
           SeatInfo("C", "Seat C", "green"), SeatInfo("D", "Seat D", "yellow")),
    min_players=2,
    max_players=4,
    options=(Option("short", False, (False, True), "A short game (not used by the rules)."),),
    texts=Texts(reasons=rules.REASONS, events=rules.EVENT_TEXTS,
                older_events=rules.OLDER_EVENT_TEXTS, prompts={"play": "{seat} plays a card."}),
    catalog="tc_toygame.data",
    parts=(CatalogPart("cards", CARDS_SCHEMA, title="Coins", stickers="coin"),),
    stickers=(StickerKind("C", "coin", "cards"),),
    bindings=Bindings(zones=(Zone(PILE, "Pile", (-50, 20, 50, 100)),),
                      dice=(DieRole("d6", "Pot die"),), sighting=sighting, roll=roll,
                      roll_actions=frozenset(("roll",))),
    web="tc_toygame.web",
    check_catalog=check_catalog,
    catalog_state=rules.catalog_state,
    start_rule="The youngest player starts.",
    table_actions=frozenset(("roll", "coin")),
    host_actions=frozenset(("adjust",)),
    action_shapes=shapes.SHAPES,
    rules_version=rules.RULES_VERSION,
    migrations=rules.MIGRATIONS,
    # what not everyone may see: each seat's hand and coins; the seed (the next cards) nobody
    secrets=secret_paths("hands.{seat}", "coins.{seat}", "seed"),
)

GAME = SimpleNamespace(
    name="toy", info=INFO, setup=rules.setup, apply=rules.apply, prompts=rules.prompts,
    choices=rules.choices, public_view=rules.public_view, seat_view=rules.seat_view,
    scores=rules.scores, is_over=rules.is_over, preview=rules.preview,
    REASONS=rules.REASONS, EVENT_TEXTS=rules.EVENT_TEXTS)

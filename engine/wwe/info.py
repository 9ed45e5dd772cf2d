"""World Without End's declarations for the app (engine/api.py `GameInfo`).

Everything the server, the pages, the camera and the dice need to offer this game, as data:
titles, seats, options, texts, the catalog's files with their JSON Schemas, sticker kinds,
camera zones and die roles. The rules themselves are elsewhere in this package.
"""
from __future__ import annotations

from engine import citations
from engine.api import (
    COMPASS_SEATS,
    Bindings,
    GameInfo,
    Option,
    StickerKind,
    Texts,
)
from engine.canonical import by_reads
from engine.wwe import (
    actions,
    bindings,
    canonical,
    catalog,
    corrections,
    options,
    reasons,
    shapes,
    state,
    table_steps,
    texts,
    views,
)
from engine.wwe.schemas import PARTS

NAMES = {"en": "World Without End", "it": "Mondo senza fine", "pl": "Świat bez końca",
         "es": "Mundo sin fin", "de": "Die Tore der Welt"}
SEATS = COMPASS_SEATS


INFO = GameInfo(
    id="wwe",
    names=NAMES,
    seats=SEATS,
    min_players=2,
    max_players=4,
    options=Option.table(options.OPTIONS, variants=("first_game",)),  # the rest: readings
    texts=Texts(**citations.declared("engine.wwe.data"),  # every rule cited
                reasons=reasons.REASONS, events=texts.EVENT_TEXTS,
                older_events=texts.OLDER_EVENT_TEXTS,
                prompts=texts.PROMPT_TEXTS, catalog=catalog.REASONS, ui=table_steps.TEXTS,
                # a correction's part in its log line ("part:favor" -> "Favor marker")
                terms={**texts.TERMS, **{f"part:{k}": v for k, v in corrections.TITLES.items()},
                       **{f"field:{k}": v for k, v in corrections.FIELD_TITLES.items()}}),
    catalog="engine.wwe.data",
    table_guide="engine.wwe:table_guide.json",
    parts=PARTS,
    stickers=(StickerKind("E", "event", "event_cards"),
              StickerKind("A", "action", "action_cards")),
    bindings=Bindings(zones=bindings.ZONES, dice=bindings.DICE, sighting=bindings.sighting,
                      roll=bindings.roll, roll_actions=frozenset(("roll_tax",)),
                      table_steps=table_steps.table_steps,
                      demo_scene=table_steps.demo_scene, zone_cards=bindings.zone_cards,
                      face_parts=bindings.FACE_PARTS,
                      face_looks=bindings.FACE_LOOKS),
    web="web.games.wwe",
    check_catalog=catalog.validate,
    catalog_state=state.index_catalog,
    demo_entries=catalog.demo_entries,
    start_rule="Whoever built something last starts.",
    table_actions=frozenset(("reveal_event", "reveal_plague", "record_discard",
                             "resolve_manual", "return_houses", "roll_tax")),
    host_actions=frozenset(("adjust", "set_start_player", "correct")),
    corrections=corrections.corrections,
    correction_form=corrections.form,
    action_shapes=shapes.SHAPES,
    catalog_shapes=shapes.catalog_shapes,
    # a played card's params as its performance reads them, then only the fields the
    # rules read (engine/canonical.py)
    canonical=lambda state, action: by_reads(actions.apply, state,
                                             canonical.canonical(state, action)),
    secrets=views.secrets,  # what not everyone may see (the contract kit checks it)
    # the log tells everyone an event card's loss (who pays, how much, paid from the hidden
    # resources): the amount paid, and who pays nothing, tell what a seat had (issue 68).
    # At the table too: what an event takes is handed from behind the screen to the supply
    # in everyone's view, and "a player holding none of them loses nothing" (the rules'
    # event table, Ralph Fitzgerald; world-without-end.md §9) is seen by all.
    announced=frozenset({"lose"}),
)

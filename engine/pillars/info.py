"""The Pillars of the Earth's declarations for the app (engine/api.py `GameInfo`)."""
from __future__ import annotations

from engine import citations
from engine.api import COMPASS_SEATS, Bindings, GameInfo, Option, StickerKind, Texts, secret_paths
from engine.canonical import by_reads
from engine.pillars import (
         bindings,
         canonical,
         catalog,
         corrections,
         migrations,
         options,
         rules,
         shapes,
         table_steps,
         texts,
)

NAMES = {"en": "The Pillars of the Earth", "it": "I pilastri della terra",
         "pl": "Filary Ziemi", "es": "Los pilares de la Tierra", "de": "Die Säulen der Erde"}
SEATS = COMPASS_SEATS  # the colours are state.COLOURS



INFO = GameInfo(
    id="pillars",
    names=NAMES,
    seats=SEATS,
    min_players=2,
    max_players=4,
    options=Option.table(options.OPTIONS),
    texts=Texts(**citations.declared("engine.pillars.data"),  # every rule cited
                reasons=texts.REASONS, events=texts.EVENT_TEXTS,
                older_events=texts.OLDER_EVENT_TEXTS, prompts=texts.PROMPT_TEXTS,
                ui={**texts.UI, **table_steps.TEXTS},
                terms={**texts.TERMS, **{f"part:{k}": v for k, v in corrections.TITLES.items()}}),
    catalog="engine.pillars.data",
    table_guide="engine.pillars:table_guide.json",
    parts=catalog.PARTS,
    stickers=(StickerKind("C", "craftsman", "craftsmen"),
              StickerKind("B", "material", "materials"),
              StickerKind("V", "privilege", "privileges"),
              StickerKind("K", "event", "events")),
    bindings=Bindings(zones=bindings.ZONES, dice=bindings.DICE, sighting=bindings.sighting,
                      roll=bindings.roll, roll_actions=frozenset(("roll_tax",)),
                      table_steps=table_steps.table_steps, demo_scene=table_steps.demo_scene,
                      face_parts=bindings.FACE_PARTS, face_looks=bindings.FACE_LOOKS),
    web="web.games.pillars",
    check_catalog=catalog.check_catalog,
    catalog_state=catalog.index,
    start_rule="Whoever most recently visited a cathedral starts.",
    table_actions=rules.TABLE_ACTIONS,
    host_actions=rules.HOST_ACTIONS,
    demo_entries=catalog.demo_entries,
    sticker_namespace="pillar",
    corrections=corrections.corrections,
    correction_form=corrections.form,
    action_shapes=shapes.SHAPES,
    catalog_shapes=shapes.catalog_shapes,
    # the place and the craftsmen the rules chose, then only the fields they read
    canonical=lambda state, action: by_reads(rules.apply, state,
                                             canonical.canonical(state, action)),
    rules_version=migrations.RULES_VERSION,  # docs/record-format.md, Rules versions
    migrations=migrations.MIGRATIONS,
    # every holding is on the table for all to see; only the seed of the app's draws is
    # nobody's (the contract kit checks no view shows it)
    secrets=secret_paths("seed"),
)

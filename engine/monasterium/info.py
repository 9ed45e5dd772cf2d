"""Monasterium's declarations for the app (engine/api.py `GameInfo`)."""
from __future__ import annotations

from engine import canonical, citations
from engine.api import COMPASS_SEATS, Bindings, GameInfo, Option, Texts, secret_paths
from engine.monasterium import (
    bindings,
    catalog,
    corrections,
    migrations,
    options,
    rules,
    shapes,
    state,
    table_steps,
    texts,
)

NAMES = {"en": "Monasterium", "it": "Monasterium", "pl": "Monasterium", "es": "Monasterium",
         "de": "Monasterium"}
SEATS = COMPASS_SEATS  # the colours are state.COLOURS

INFO = GameInfo(
    id="monasterium",
    names=NAMES,
    seats=SEATS,
    min_players=2,
    max_players=4,
    options=Option.table(options.OPTIONS),
    texts=Texts(**citations.declared("engine.monasterium.data"),  # every rule cited
                reasons=texts.REASONS, events=texts.EVENT_TEXTS,
                older_events=texts.OLDER_EVENT_TEXTS, prompts=texts.PROMPT_TEXTS,
                terms={**texts.TERMS,
                       **{f"part:{k}": v for k, v in corrections.TITLES.items()}},
                catalog=catalog.REASONS, ui={**table_steps.TEXTS, **{
                    f"correction_key:{i}": t for i, t in enumerate(corrections.KEY_TEXTS)}}),
    catalog="engine.monasterium.data",
    table_guide="engine.monasterium:table_guide.json",
    setup_drawn=state.setup_drawn,
    score_name="prestige",  # what the game scores (history, exports)
    parts=catalog.PARTS,
    stickers=(),  # cards and boards carry no stickers: the dice are what the table reads
    bindings=Bindings(dice=bindings.DICE, roll=bindings.roll, roll_actions=frozenset(("roll",)),
                      table_steps=table_steps.table_steps,
                      demo_scene=table_steps.demo_scene, owed_dice=bindings.owed_dice),
    web="web.games.monasterium",
    check_catalog=catalog.check_catalog,
    catalog_state=state.index,
    start_rule="Whoever most recently visited a monastery starts; else the youngest.",
    table_actions=rules.TABLE_ACTIONS,
    host_actions=rules.HOST_ACTIONS,
    demo_entries=catalog.demo_entries,
    corrections=corrections.corrections,
    correction_form=corrections.form,
    action_shapes=shapes.SHAPES,
    # the stored action keeps only the fields the rules read (engine/canonical.py)
    canonical=lambda state, action: canonical.by_reads(rules.apply, state, action),
    rules_version=migrations.RULES_VERSION,  # docs/record-format.md, Rules versions
    migrations=migrations.MIGRATIONS,
    # every holding is on the table for all to see; only the seed of the app's rolls is
    # nobody's (the contract kit checks no view shows it)
    secrets=secret_paths("seed"),
)

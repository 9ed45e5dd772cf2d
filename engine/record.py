"""The game record: setup + action list, enough to rebuild any game exactly.

``{"format": "table-companion-record", "version": 2, "game": "wwe", "rules": 1,
"setup": {...}, "actions": [{"type": ..., "by": ..., ...}, ...]}``. Readable and writable by
a person (actions are named in words). Replaying it with the same catalog gives an identical
state. ``rules`` is the game's rules version it was played by (``GameInfo.rules_version``):
an older record is first migrated to today's meaning (`upgrade`); a version 1 record, from
before rules versions, was played by rules version 1.
Format documented in docs/record-format.md. Pure: no file I/O here; the caller finds the
game module (the app through its entry points, companion/game/games.py).
"""
from __future__ import annotations

import copy
from typing import Any

from engine.api import Refused

FORMAT = "table-companion-record"
VERSION = 2
VERSIONS = (1, 2)  # 1: no "rules" (played by rules version 1)


class RecordError(ValueError):
    """A record that cannot be replayed; ``problems`` lists what is wrong."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def build(game: str, setup: dict, actions: list[dict], rules: int = 1) -> dict:
    """A record for ``game`` from its setup and the accepted actions, in order, played by
    the game's rules version ``rules`` (a game played now: `current_rules(info)`; a
    record of a game played now that says 1 would be migrated as an old one)."""
    return {"format": FORMAT, "version": VERSION, "game": game, "rules": rules,
            "setup": setup, "actions": list(actions)}


def validate(record: Any) -> list[str]:
    """Shape problems of a record (empty when it is well formed)."""
    if not isinstance(record, dict):
        return ["a record is a JSON object"]
    problems = []
    if record.get("format") != FORMAT:
        problems.append(f"format must be {FORMAT!r}")
    version = record.get("version")
    if type(version) is not int or version not in VERSIONS:
        problems.append(f"version must be one of {', '.join(map(str, VERSIONS))}")
    elif version >= 2 and (type(record.get("rules")) is not int or record["rules"] < 1):
        problems.append("rules must be the game's rules version (1, 2, ...)")
    if not isinstance(record.get("game"), str):
        problems.append("game must be a game name such as 'wwe'")
    if not isinstance(record.get("setup"), dict):
        problems.append("setup must be an object")
    actions = record.get("actions")
    if not isinstance(actions, list):
        problems.append("actions must be a list")
    else:
        for i, action in enumerate(actions, 1):
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                problems.append(f"action {i} must be an object with a type")
            elif "by" not in action:
                problems.append(f"action {i} has no 'by'")
    return problems


def current_rules(info) -> int:
    """The rules version a game's declarations name (1 for a game that names none)."""
    return getattr(info, "rules_version", 1)


def upgrade(info, setup: dict, actions: list[dict], rules: int | None
            ) -> tuple[dict, list[dict]]:
    """``setup`` and ``actions`` played by rules version ``rules`` (None: stored before rules
    versions, so 1) in today's meaning: the game's migrations, one version step each.

    Raises RecordError saying why a game cannot be taken to today's rules (a newer version
    than this app's, a missing step, a step refusing it); nothing given is changed."""
    current = current_rules(info)
    version = 1 if rules is None else rules
    if version > current:
        raise RecordError([f"played by rules version {version} of {info.id}; this app has "
                           f"version {current}"])
    for step in range(version, current):
        migrate_step = getattr(info, "migrations", {}).get(step)
        if migrate_step is None:
            raise RecordError([f"{info.id} has no migration from rules version {step}"])
        try:
            setup, actions = migrate_step(copy.deepcopy(setup), copy.deepcopy(actions))
        except Refused as r:
            raise RecordError([f"cannot be taken from rules version {step} to {step + 1}: "
                               f"{r}"]) from r
    return setup, actions


def rules_of(record: dict) -> int:
    """The rules version a well-formed record was played by."""
    return record.get("rules", 1) if record.get("version", 1) >= 2 else 1


def migrate(module, record: dict) -> dict:
    """A well-formed record in today's meaning and format (raises RecordError)."""
    problems = validate(record)
    if problems:
        raise RecordError(problems)
    setup, actions = upgrade(module.info, record["setup"], record["actions"], rules_of(record))
    return build(record["game"], setup, actions, current_rules(module.info))


def replay(module, catalog: dict, record: dict) -> tuple[dict, list[dict]]:
    """Rebuild the final state (an older record migrated first); returns (state, all events
    in order).

    Raises RecordError when the record is malformed, cannot be migrated or an action is
    refused (which action, and why)."""
    record = migrate(module, record)
    try:
        state = module.setup(catalog, record["setup"])
    except Refused as r:
        raise RecordError([f"setup refused: {r}"]) from r
    events: list[dict] = []
    for i, action in enumerate(record["actions"], 1):
        try:
            state, new = module.apply(state, action)
        except Refused as r:
            raise RecordError([f"action {i} ({action.get('type')}) refused: {r}"]) from r
        events.extend(new)
    return state, events

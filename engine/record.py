"""The game record: setup + action list, enough to rebuild any game exactly.

``{"format": "table-companion-record", "version": 1, "game": "wwe", "setup": {...},
"actions": [{"type": ..., "by": ..., ...}, ...]}``. Readable and writable by a person
(actions are named in words). Replaying it with the same catalog gives an identical state.
Format documented in docs/record-format.md. Pure: no file I/O here; the caller finds the
game module (the app through its entry points, companion/game/games.py).
"""
from __future__ import annotations

from typing import Any

from engine.api import Refused

FORMAT = "table-companion-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be replayed; ``problems`` lists what is wrong."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def build(game: str, setup: dict, actions: list[dict]) -> dict:
    """A record for ``game`` from its setup and the accepted actions, in order."""
    return {"format": FORMAT, "version": VERSION, "game": game, "setup": setup,
            "actions": list(actions)}


def validate(record: Any) -> list[str]:
    """Shape problems of a record (empty when it is well formed)."""
    if not isinstance(record, dict):
        return ["a record is a JSON object"]
    problems = []
    if record.get("format") != FORMAT:
        problems.append(f"format must be {FORMAT!r}")
    if record.get("version") != VERSION:
        problems.append(f"version must be {VERSION}")
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


def replay(module, catalog: dict, record: dict) -> tuple[dict, list[dict]]:
    """Rebuild the final state; returns (state, all events in order).

    Raises RecordError when the record is malformed or an action is refused (which action,
    and why)."""
    problems = validate(record)
    if problems:
        raise RecordError(problems)
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

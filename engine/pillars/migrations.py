"""Migrations of stored Pillars of the Earth games to today's rules (docs/record-format.md, "Rules
versions"): ``MIGRATIONS[v]`` takes a setup and its actions from rules version v to v + 1."""
from __future__ import annotations

from engine import upgrades
from engine.pillars.state import SEAT_ORDER

RULES_VERSION = 2


def start_seat_read(setup: dict, actions: list[dict]) -> tuple[dict, list[dict]]:
    """1 -> 2: the form's start player starts (commit 683e53d); before, the first seat did."""
    return upgrades.start_seat_as_played(setup, actions, SEAT_ORDER)


MIGRATIONS = {1: start_seat_read}

"""The step queue every rule pushes onto, and the events standing on the board.

Below the rules (effects, projects, duties, cards) and the sequence (flow.py), so each of
them can queue a decision without importing the sequence that runs it.
"""
from __future__ import annotations


def await_step(kind: str, seat: str, **params) -> dict:
    return {"do": "await", "kind": kind, "seat": seat, **params}


def push_front(s: dict, steps: list[dict]) -> None:
    s["queue"][0:0] = steps


def head(s: dict) -> dict | None:
    return s["queue"][0] if s["queue"] else None


def in_force(s: dict) -> list[str]:
    """Permanent events acting in step 5: the slots plus this round's blue card (A-24)."""
    cards = list(s["slots"])
    ev_card = s["event"]
    if (ev_card and s["cat"]["events"][ev_card].get("permanent")
            and (s["options"]["permanent_third_acts"] or len(cards) < 2)):
        cards.append(ev_card)
    return cards

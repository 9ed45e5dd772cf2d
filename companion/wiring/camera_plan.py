"""What the camera does with its rules' decisions, as a pure function: the decisions
(`CameraRules` outcomes for a sighting) and the game as it is now in, the steps out, each
one thing the wiring carries out (apply an action for a seat or the table, show a preview,
pre-select a card on a phone, keep a warning, or, when the camera does not act, show the
host what it would have done). No threads, no locks, no service: `CameraWiring.execute`
takes its locks and carries the steps out in order; a step that applies an action puts the
steps of the rules' next tick first (a reveal may open the next prompt).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.game.live import Identity
from engine.api import Act, Refused, Select, Warn

# English templates of the camera's own warning codes (gettext msgids, like engine REASONS)
MESSAGES = {
    "camera_other_game": "A card of another game ({game}) was seen on the table.",
    "camera_marker_not_seen": "The board marker is not in view of the camera.",
}


@dataclass(frozen=True)
class Preview:
    """A rules' decision: show ``action`` (a proposal) as the table's preview."""

    action: dict


@dataclass(frozen=True)
class TableGame:
    """What the plan needs of the game the camera serves."""

    id: str
    seats: tuple[str, ...]
    reasons: Mapping[str, str]  # the game's refusal codes -> English templates


# ---- the steps -------------------------------------------------------------------------
@dataclass(frozen=True)
class Apply:
    """Apply ``action`` as ``identity`` (the seat it is for, else the table)."""

    identity: Identity
    action: dict


@dataclass(frozen=True)
class KeepWarning:
    """Keep a warning for the views (``template``: its English text)."""

    code: str
    params: dict
    template: str


@dataclass(frozen=True)
class WouldDo:
    """Not acting (the simulated camera): the host's camera page shows what it would do."""

    kind: str  # "act" | "preview"
    action: dict


# a `Preview` (show it as the table's preview) and an engine `Select` (pre-select a card on
# a seat's phone; None clears it) are steps as the rules decided them
Step = Apply | Preview | Select | KeepWarning | WouldDo


def table_game(live) -> TableGame:
    """The `TableGame` of a `companion.game.live.LiveGame` now."""
    return TableGame(live.id, tuple(live.seats), live.kind.reasons)


def plan(decisions: Iterable, game: TableGame, acting: bool) -> list[Step]:
    """The steps for the rules' ``decisions`` in ``game``, in their order. Not ``acting``,
    actions and previews become `WouldDo` and pre-selections are dropped."""
    steps: list[Step] = []
    for decision in decisions:
        if isinstance(decision, Act | Preview) and not acting:
            steps.append(WouldDo("act" if isinstance(decision, Act) else "preview",
                                 decision.action))
        elif isinstance(decision, Act):
            by = decision.action.get("by")
            identity = (Identity("seat", game.id, by) if by in game.seats
                        else Identity("table", game.id))
            steps.append(Apply(identity, decision.action))
        elif isinstance(decision, Preview):
            steps.append(decision)
        elif isinstance(decision, Select):
            if acting:
                steps.append(decision)
        elif isinstance(decision, Warn):
            template = game.reasons.get(decision.code) or MESSAGES.get(decision.code)
            steps.append(KeepWarning(decision.code, decision.params,
                                 template or decision.code))
    return steps


def refused(refusal: Refused, action: dict, game: TableGame) -> KeepWarning:
    """The warning of an action the game refused (a card the rules do not take now)."""
    return KeepWarning(refusal.code, dict(refusal.params, action=action["type"]),
                   game.reasons.get(refusal.code, refusal.code))

"""The game-module interface: the one contract between the rules and everything else.

Every game (World Without End now; The Pillars of the Earth and Monasterium next) is a
module object implementing `GameModule`. The server, the CLI, the replayer and the tests
talk to games only through it. Documented for people in docs/engine.md.

Conventions shared by every game:
- All values crossing this interface are plain JSON data (dict, list, str, int, float,
  bool, None), so the state, actions and events round-trip through JSON exactly.
- An *action* is a dict with at least ``{"type": <name in words>, "by": <actor>}``.
  ``by`` is a seat id (``"N"``, ``"E"``, ``"S"``, ``"W"`` in World Without End) or
  ``"table"`` for what the table records (an event card revealed, a die rolled) or
  ``"host"`` for host corrections.
- An *event* is a dict ``{"type": <name>, ...params}`` telling what happened, in order.
  Events carrying a seat's private information have ``"private": <seat>``.
- A refusal is raised as `Refused(code, **params)`; the state is never changed by it.
  ``code`` is a stable snake_case key the UI translates; params fill in the message.
- Determinism: the same setup and actions give the same state. Chance decided at the
  table enters as recorded actions; randomness the app itself must produce comes from
  a seeded generator whose seed lives in the state (never in any view).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

JSON = Any
State = dict[str, JSON]
Action = dict[str, JSON]
Event = dict[str, JSON]


class Refused(Exception):
    """An illegal action, refused with a translatable reason code and its parameters."""

    def __init__(self, code: str, **params: JSON) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def to_json(self) -> dict[str, JSON]:
        return {"code": self.code, "params": self.params}

    def __str__(self) -> str:
        detail = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.code}({detail})" if detail else self.code


@dataclass(frozen=True)
class Prompt:
    """Who must decide what right now. Several seats may owe a decision at once."""

    seat: str  # a seat id, or "table" for something the table must record
    kind: str  # e.g. "orient_event", "play_card", "answer_trade", "choose_protection"
    params: dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "kind": self.kind, "params": self.params}


@dataclass(frozen=True)
class Choice:
    """One option for a seat: the action to send, its cost and a preview of its effect.

    When ``refused`` is set the option is shown as not possible, with the reason.
    """

    action: Action
    cost: dict[str, JSON] = field(default_factory=dict)
    effect: dict[str, JSON] = field(default_factory=dict)
    refused: dict[str, JSON] | None = None  # Refused.to_json() when not possible

    def to_json(self) -> dict[str, JSON]:
        out = {"action": self.action, "cost": self.cost, "effect": self.effect}
        if self.refused is not None:
            out["refused"] = self.refused
        return out


class GameModule(Protocol):
    """What every game implements. Pure functions of their arguments."""

    name: str  # short id used in records, e.g. "wwe"

    def setup(self, catalog: JSON, setup: dict[str, JSON]) -> State:
        """A new game. ``setup`` holds players (name, colour, seat), options and seed."""

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        """The new state and the events, or raise `Refused`. Never mutates ``state``."""

    def prompts(self, state: State) -> list[Prompt]:
        """Every decision owed right now, by whom."""

    def choices(self, state: State, seat: str) -> list[Choice]:
        """The options of ``seat`` now, possible ones and refused ones with reasons."""

    def public_view(self, state: State) -> dict[str, JSON]:
        """What everyone at the table may see."""

    def seat_view(self, state: State, seat: str) -> dict[str, JSON]:
        """Everything ``seat`` may see (public view included) and nothing more."""

    def scores(self, state: State) -> list[dict[str, JSON]]:
        """Standings with tie-breakers, final once the game is over."""

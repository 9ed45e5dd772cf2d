"""What the table's camera and dice mean to World Without End (pure, no hardware imports).

- An event card laid on the council space while the game waits for ``reveal_event`` is
  revealed by the table. While the active player turns it (``orient_event`` owed), its
  rotation is proposed; the app applies the proposal once the card lay still long enough.
- An action card laid face up in a seat's play area pre-selects it on that seat's phone.
- The tax die, when the chapter end asks for it, is recorded as ``roll_tax``.
"""
from __future__ import annotations

from engine.api import Act, DieFace, DieRole, Propose, Select, Sighting, Warn, Zone
from engine.wwe import views

COUNCIL = "council"
SEAT_ZONE = "seat:"

# DEMO layout in board millimetres around a 30 mm marker by the council space (it matches
# the synthetic camera); an owner fits the zones to a real table in config.json.
ZONES = (
    Zone(COUNCIL, "Council space", (-50, 20, 50, 100)),
    Zone("seat:N", "North play area", (-200, -60, -60, 60)),
    Zone("seat:E", "East play area", (60, -60, 200, 60)),
    Zone("seat:S", "South play area", (60, 60, 200, 200)),
    Zone("seat:W", "West play area", (-200, 60, -60, 200)),
)
# the tax die shows gold (2-5), not pips: the camera learns its faces from the owner's pictures
# the cards that can be known by their printed face (docs/camera.md): the event cards (their
# turn matters) and the action cards (the seat's play area says whose card it is, as for a
# sticker, which names the action alone); how they are printed: card_faces.json
FACE_PARTS = ("event_cards", "action_cards")
FACE_LOOKS = "engine.wwe:card_faces.json"
DICE = (DieRole("tax", "Tax die", faces=(2, 3, 4, 5), faces_from="game.tax_die.faces",
                taught=True),)


def _head(state: dict) -> tuple[str | None, str | None]:
    prompts = views.prompts(state)
    return (prompts[0].kind, prompts[0].seat) if prompts else (None, None)


def _current_event(state: dict) -> str | None:
    event = state.get("event")
    return event if isinstance(event, str) else None


def sighting(state: dict, seen: Sighting) -> list:
    if seen.kind == "event":
        return _event(state, seen)
    if seen.kind == "action":
        return _action(seen)
    return []


def _event(state: dict, seen: Sighting) -> list:
    if seen.zone != COUNCIL or seen.change == "removed":
        return []
    kind, seat = _head(state)
    if seen.change in ("appeared", "moved"):
        if kind == "reveal_event":
            return [Act({"type": "reveal_event", "by": "table", "card": seen.card})]
        if seen.card != _current_event(state):
            return [Warn("camera_event_not_expected", {"card": seen.card})]
    if kind == "orient_event" and seen.card == _current_event(state):
        return [Propose({"type": "orient_event", "by": seat, "rotation": seen.rotation % 4})]
    return []


def _action(seen: Sighting) -> list:
    zone = seen.zone or ""
    if not zone.startswith(SEAT_ZONE):
        return []
    seat = zone[len(SEAT_ZONE):]
    return [Select(seat, None if seen.change == "removed" else seen.card)]


def roll(state: dict, dice: list[DieFace]) -> list:
    kind, _seat = _head(state)
    taxes = [d for d in dice if d.role == "tax"]
    if kind != "roll_tax" or not taxes:
        return []
    faces = sorted(set(state["cat"]["game"]["tax_die"]["faces"]))
    value = taxes[0].face
    if value not in faces:
        return [Warn("bad_die_value", {"value": value, "faces": faces})]
    return [Act({"type": "roll_tax", "by": "table", "value": value})]


def zone_cards(state: dict) -> dict[str, list[str]]:
    """The event cards the game has on the council space: this round's and the immediate
    ones of the chapter's earlier rounds (cleared at the chapter's end, E3). The setup's
    "first event card" step is ticked only when the game has revealed one there."""
    cards = [c for c in state.get("council") or [] if isinstance(c, str)]
    event = _current_event(state)
    if event is not None and event not in cards:
        cards.append(event)
    return {COUNCIL: cards}

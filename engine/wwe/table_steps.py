"""What the table does by hand in World Without End (engine/api.py `TableStep`): who reveals
the event card or rolls the tax die, what the camera or the dice reader confirms, where the
table display or the phone takes it by hand; and the simulated camera's demo scene
(`DemoCard`): the next event card of the chapter on the council space.
"""
from __future__ import annotations

from engine.api import DemoCard, Refused, TableStep
from engine.wwe import actions
from engine.wwe.bindings import COUNCIL
from engine.wwe.steps import head


def table_steps(s: dict) -> list:
    h = head(s)
    if s["over"] or h is None:
        return []
    who = h["seat"] if h["seat"] != "table" else s["active"]
    if h["kind"] == "reveal_event":
        return [TableStep("reveal_event",
                          "{who}: reveal the next event card and lay it on the council space.",
                          who, confirms=("camera",), zone=COUNCIL,
                          by_hand="Or pick it on the table display or on {who}'s phone.")]
    if h["kind"] == "roll_tax":
        return [TableStep("roll_tax", "{who}: roll the tax die.", who, confirms=("dice",),
                          by_hand="Or tap the face rolled on the table display or on "
                                  "{who}'s phone.")]
    if h["kind"] == "reveal_plague":
        return [TableStep("reveal_plague",
                          "{who}: turn the plague token at location {location} over.", who,
                          {"location": h.get("location")},
                          by_hand="Enter its value on {who}'s phone.")]
    return []


def _next_event(s: dict) -> str | None:
    for card, spec in s["cat"]["events"].items():
        if int(spec.get("chapter", 0)) != s["chapter"]:
            continue
        try:
            actions.apply(s, {"type": "reveal_event", "by": "table", "card": card})
        except Refused:
            continue
        return card
    return None


def demo_scene(catalog, s: dict | None) -> list:
    """The simulated camera lays the chapter's next event card on the council space while
    the game waits for it, and shows the revealed one there (never while it is being
    turned: that is the active player's decision)."""
    h = head(s) if s is not None else None
    if s is None or s["over"] or h is None:
        return []
    if h["kind"] == "reveal_event":
        card = _next_event(s)
        return [DemoCard("event_cards", COUNCIL, card)] if card else []
    if h["kind"] != "orient_event" and isinstance(s.get("event"), str):
        return [DemoCard("event_cards", COUNCIL, s["event"])]
    return []


# every text above, for the game's translations (GameInfo.texts.ui)
TEXTS = {f"step:{i}": text for i, text in enumerate((
    "{who}: reveal the next event card and lay it on the council space.",
    "Or pick it on the table display or on {who}'s phone.",
    "{who}: roll the tax die.",
    "Or tap the face rolled on the table display or on {who}'s phone.",
    "{who}: turn the plague token at location {location} over.",
    "Enter its value on {who}'s phone."))}

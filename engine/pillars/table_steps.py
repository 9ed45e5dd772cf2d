"""What the table does by hand in The Pillars of the Earth, one step at a time (engine/api.py
`TableStep`): who lays out or draws, what the camera or the dice reader confirms, what the
host page taps where nothing can ("Let the app draw"); and the simulated camera's demo
scene (`DemoCard`): the next card the current step wants, lying in its zone.
"""
from __future__ import annotations

from engine.api import DemoCard, TableStep
from engine.pillars import rules
from engine.pillars.flow import prep_missing
from engine.pillars.state import board

DEAL = {"type": "deal", "by": "table"}
DRAW = "Let the app draw"
DRAW_REST = "Let the app draw the rest"
TAP_CARD = "Or tap the card on the table display."

# the kind of card laid out -> (its camera zone, English step text)
_LAY = {
    "privilege": ("kingsbridge",
                  "{who}: lay out privilege {n} of {of} on the Kingsbridge spaces."),
    "shiring": ("shiring", "{who}: lay out craftsman {n} of {of}, on Shiring."),
    "supply_craftsman": ("supply_craftsmen",
                         "{who}: lay out craftsman {n} of {of}, in the supply."),
    "material": ("supply_materials",
                 "{who}: lay out building material {n} of {of} in the supply."),
}


def _prep_step(s) -> TableStep | None:
    """The next card to lay out: privileges, then craftsmen (Shiring's first), then
    materials, the order in which the app draws them."""
    b = board(s)
    missing = prep_missing(s)
    craftsmen = b["shiring_craftsmen"] + b["supply_craftsmen"]
    counts = {"privilege": b["privileges_per_round"], "shiring": craftsmen,
              "supply_craftsman": craftsmen, "material": b["supply_materials"]}
    for what in ("privilege", "shiring", "supply_craftsman", "material"):
        if missing[what] <= 0:
            continue
        of = counts[what]
        left = missing[what] + (missing["supply_craftsman"] if what == "shiring" else 0)
        done = of - left
        zone, text = _LAY[what]
        return TableStep("lay_out", text, s["start"], {"n": done + 1, "of": of},
                         ("camera",), zone, done, of, DEAL, DRAW, TAP_CARD, DRAW_REST)
    return None


def table_steps(s) -> list:
    """Every step the table owes now (empty when a player decides on a phone)."""
    if s["over"] or s["pending"] is not None:
        return []
    ph, start = s["phase"], s["start"]
    if ph == "prep":
        step = _prep_step(s)
        return [step] if step else []
    if ph == "architects" and s["arch"]["drawn"] is None:
        return [TableStep("draw_architect",
                          "{who}: draw an architect from the bag and show its colour.",
                          start, fallback=DEAL, fallback_text=DRAW,
                          by_hand="Or tap its colour on the table display or on {who}'s "
                                  "phone.")]
    if ph == "event" and s["event"] is None:
        return [TableStep("reveal_event", "{who}: reveal the top event card.", start,
                          confirms=("camera",), zone="events", fallback=DEAL,
                          fallback_text=DRAW, by_hand=TAP_CARD)]
    if ph == "tax" and s["tax"] is None:
        return [TableStep("roll_tax", "{who}: roll the tax die.", start, confirms=("dice",),
                          fallback=DEAL, fallback_text="Let the app roll",
                          by_hand="Or tap the face rolled on the table display.")]
    return []


def demo_scene(catalog, s) -> list:
    """What the simulated camera shows: the card the current step wants, in its zone (so
    the demo plays the round preparation and the event card like a real table)."""
    if s is None:
        return []
    for kind, values in rules.deal_options(s):
        if not values:
            continue
        if kind == "reveal_privilege":
            return [DemoCard("privileges", "kingsbridge", values[0])]
        if kind == "reveal_craftsman":
            zone = "shiring" if prep_missing(s)["shiring"] > 0 else "supply_craftsmen"
            return [DemoCard("craftsmen", zone, values[0])]
        if kind == "reveal_material":
            return [DemoCard("materials", "supply_materials", values[0])]
        if kind == "reveal_event":
            return [DemoCard("events", "events", values[0])]
    if s["event"]:
        return [DemoCard("events", "events", s["event"])]
    return []


# every text above, for the game's translations (GameInfo.texts.ui)
TEXTS = {f"step:{i}": text for i, text in enumerate((
    DRAW, TAP_CARD, *(text for _, text in _LAY.values()),
    "{who}: draw an architect from the bag and show its colour.",
    "Or tap its colour on the table display or on {who}'s phone.",
    "{who}: reveal the top event card.", "{who}: roll the tax die.", "Let the app roll",
    "Or tap the face rolled on the table display.", DRAW_REST))}

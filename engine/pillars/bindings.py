"""What the table's hardware means to The Pillars of the Earth (pure functions).

Camera zones in board millimetres (demo rectangles until the owner calibrates the printed
board), the tax die role, and what a seen card or a settled roll means now.
"""
from __future__ import annotations

from engine.api import Act, DieRole, Propose, Refused, Warn, Zone
from engine.pillars import rules
from engine.pillars import state as _state

# the cards that can be known by their printed face (docs/camera.md): the craftsmen and the
# round's cards (the event, the Kingsbridge privileges, the building materials); none
# turns (a quarter turn means nothing here); how they are printed: card_faces.json
FACE_PARTS = ("craftsmen", "events", "privileges", "materials")
FACE_LOOKS = "engine.pillars:card_faces.json"
# DEMO layout in board millimetres around the 30 mm board marker, inside the simulated
# camera's view (about x -190..190, y -30..180): the round's cards in a row below the
# marker, the players' areas below them; an owner fits the zones to the printed board.
# Kingsbridge and Shiring sit higher, beside the marker: the demo's dice tray (left, below
# them; companion/wiring/demo_scene.py TRAY_MM) would cover a card laid lower there.
ZONES = (
    Zone("kingsbridge", "Kingsbridge privileges", (-190, -5, -115, 65)),
    Zone("shiring", "Shiring craftsmen", (-110, -5, -40, 65)),
    Zone("events", "Event cards", (-35, 20, 35, 95)),
    Zone("supply_craftsmen", "Supply craftsmen", (40, 20, 110, 95)),
    Zone("supply_materials", "Supply building materials", (115, 20, 190, 95)),
    *(Zone(f"player_{seat}", f"Player {seat}", (x, 100, x + 90, 180))
      for seat, x in zip(_state.SEAT_ORDER, (-190, -95, 0, 95), strict=True)),
)
DICE = (DieRole("tax", "Tax die", faces=(2, 3, 3, 4, 4, 5), faces_from="board.tax_die.faces"),)

_REVEAL = {("privilege", "kingsbridge"): ("reveal_privilege", None),
           ("craftsman", "shiring"): ("reveal_craftsman", "shiring"),
           ("craftsman", "supply_craftsmen"): ("reveal_craftsman", "supply"),
           ("material", "supply_materials"): ("reveal_material", None),
           ("event", "events"): ("reveal_event", None)}


def _legal(state, action) -> bool:
    """Whether the rules accept ``action`` now; a bug in the rules (anything but a refusal)
    is raised, not read as "not legal"."""
    try:
        rules.apply(state, action)
    except Refused:
        return False
    return True


def sighting(state, seen) -> list:
    if state["over"] or seen.change not in ("appeared", "moved"):
        return []
    zone = seen.zone or ""
    hit = _REVEAL.get((seen.kind, zone))
    if hit is not None:
        kind, to = hit
        if seen.kind == "privilege" and seen.card in state["kingsbridge"]:
            return []
        if seen.card in state["shiring"] + state["supply_craftsmen"] + \
                state["supply_materials"] or seen.card == state["event"]:
            return []
        action = {"type": kind, "by": "table", "card": seen.card}
        if to:
            action["to"] = to
        if _legal(state, action):
            return [Act(action)]
        return [Warn("unexpected_card", {"card": seen.card, "zone": zone})]
    if zone.startswith("player_") and seen.kind in ("craftsman", "material"):
        seat = zone[len("player_"):]
        kind = "take_craftsman" if seen.kind == "craftsman" else "take_material"
        action = {"type": kind, "by": seat, "card": seen.card}
        if seat in state["players"] and _legal(state, action):
            return [Propose(action)]
        held = seat in state["players"] and (
            seen.card in state["players"][seat]["craftsmen"] or
            seen.card in state["players"][seat]["materials"])
        return [] if held else [Warn("unexpected_card", {"card": seen.card, "zone": zone})]
    return []


def roll(state, dice) -> list:
    faces = [d.face for d in dice if d.role == "tax"]
    if not faces or state["over"] or state["phase"] != "tax" or state["pending"]:
        return []
    action = {"type": "roll_tax", "by": "table", "face": faces[0]}
    if _legal(state, action):
        return [Act(action)]
    return [Warn("bad_die_value", {"value": str(faces[0]),
                                   "faces": ", ".join(map(str, _state.board(state)["tax_die"]
                                                          ["faces"]))})]


"""The camera's decisions -> steps, as a pure function (companion/wiring/camera_plan.py,
issue 65): tested without threads, locks, camera or service."""
from __future__ import annotations

from companion.game.live import Identity
from companion.wiring.camera_plan import (
    Apply,
    KeepWarning,
    Preview,
    TableGame,
    WouldDo,
    plan,
    refused,
)
from engine.api import Act, Refused, Select, Warn

GAME = TableGame("g1", ("N", "S"), {"not_your_card": "Not {seat}'s card."})


def test_an_action_for_a_seat_is_applied_as_that_seat_and_any_other_as_the_table():
    """Planted fault caught: every camera action applied as the table (a seat's reveal
    would be recorded as the table's, or refused as not the table's to send)."""
    steps = plan([Act({"type": "reveal", "by": "N"}), Act({"type": "event"}),
                  Act({"type": "x", "by": "W"})], GAME, acting=True)
    assert steps == [Apply(Identity("seat", "g1", "N"), {"type": "reveal", "by": "N"}),
                     Apply(Identity("table", "g1"), {"type": "event"}),
                     Apply(Identity("table", "g1"), {"type": "x", "by": "W"})]


def test_the_steps_keep_the_decisions_order():
    decisions = [Select("N", "c1"), Preview({"type": "turn"}), Warn("not_your_card",
                                                                    {"seat": "S"}),
                 Select("S", None), Warn("camera_other_game", {"game": "pillars"}),
                 Warn("no_template_anywhere")]
    assert plan(decisions, GAME, acting=True) == [
        Select("N", "c1"), Preview({"type": "turn"}),
        KeepWarning("not_your_card", {"seat": "S"}, "Not {seat}'s card."),
        Select("S", None),
        KeepWarning("camera_other_game", {"game": "pillars"},
                    "A card of another game ({game}) was seen on the table."),
        KeepWarning("no_template_anywhere", {}, "no_template_anywhere")]


def test_a_camera_that_does_not_act_only_shows_what_it_would_do():
    """Planted fault caught: the simulated camera (not acting) applying an action or
    pre-selecting a card on a phone."""
    steps = plan([Act({"type": "reveal", "by": "N"}), Preview({"type": "turn"}),
                  Select("N", "c1"), Warn("not_your_card", {})], GAME, acting=False)
    assert steps == [WouldDo("act", {"type": "reveal", "by": "N"}),
                     WouldDo("preview", {"type": "turn"}),
                     KeepWarning("not_your_card", {}, "Not {seat}'s card.")]


def test_a_refused_action_becomes_a_warning_naming_the_action():
    warning = refused(Refused("not_your_card", seat="S"), {"type": "reveal"}, GAME)
    assert warning == KeepWarning("not_your_card", {"seat": "S", "action": "reveal"},
                                  "Not {seat}'s card.")
    assert refused(Refused("odd"), {"type": "x"}, GAME).template == "odd"


def test_companion_sets_no_attribute_of_the_camera_s_parts():
    """companion/ configures hardware/ through its methods, never by assigning to its
    parts (issue 65: `recognizer.zones = ...`). Planted fault caught: that assignment back
    in companion/wiring/camera.py `use_zones`."""
    import ast
    from pathlib import Path

    parts = {"recognizer", "capture", "tracker", "source", "camera"}
    root = Path(__file__).resolve().parents[2]
    found = []
    for path in sorted((root / "companion").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = (node.targets if isinstance(node, ast.Assign)
                       else [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign)
                       else [])
            for target in targets:
                chain, value = [], target
                while isinstance(value, ast.Attribute):
                    chain.append(value.attr)
                    value = value.value
                if len(chain) > 1 and parts & set(chain[1:]):
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert not found, found

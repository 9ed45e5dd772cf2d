"""What the table does by hand in Monasterium (engine/api.py `TableStep`): the active
player rolls their dice; the dice reader confirms the roll, or the host page lets the app
roll. The cards carry no stickers: the simulated camera's demo scene is empty."""
from __future__ import annotations

from engine.api import TableStep
from engine.monasterium.choices import whose_turn

ROLL = {"type": "roll", "by": "table"}


def table_steps(s) -> list:
    if whose_turn(s) != "table":
        return []
    if s["pending"]:
        return [TableStep("roll_extra", "{who}: roll the new personal die.", s["active"],
                          confirms=("dice",), fallback=ROLL, fallback_text="Let the app roll",
                          by_hand="Or enter the face on the table display.")]
    dice = len(s["place"]["reroll"] or ()) or None
    text = ("{who}: roll the dice again." if dice else "{who}: roll the dice.")
    return [TableStep("roll", text, s["active"], confirms=("dice",), fallback=ROLL,
                      fallback_text="Let the app roll",
                      by_hand="Or enter the faces on the table display.")]


def demo_scene(catalog, s) -> list:
    return []


# every text above, for the game's translations (GameInfo.texts.ui)
TEXTS = {f"step:{i}": text for i, text in enumerate((
    "{who}: roll the new personal die.", "Let the app roll",
    "Or enter the face on the table display.", "{who}: roll the dice again.",
    "{who}: roll the dice.", "Or enter the faces on the table display."))}

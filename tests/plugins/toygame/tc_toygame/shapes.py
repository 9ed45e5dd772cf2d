"""The shape of every action the toy game accepts (engine/shapes.py). Declaring them in
``GameInfo.action_shapes`` is all a game does to have the app refuse a wrong field before
its rules run."""
from __future__ import annotations

from engine.shapes import ID, TEXT, action, ints, one_of

SHAPES = {
    "play": action({"card": ID}),
    "roll": action({"value": ints(0, 99)}),  # the rules refuse a face other than 1-6
    "coin": action({"card": ID}),
    "adjust": action({"seat": one_of("A", "B", "C", "D"), "delta": ints(-1000, 1000)},
                     {"item": ID, "reason": TEXT}),
}

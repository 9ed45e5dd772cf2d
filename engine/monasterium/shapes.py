"""The shape of every action Monasterium accepts (engine/shapes.py): the fields each action
type may carry, their types and ranges. The app checks them before the rules run; the rules
check what they mean (engine/monasterium/rules.py, effects.py). A list or an object where a
monastery, a place or a die is named never reaches the rules (issue 21)."""
from __future__ import annotations

from engine.shapes import (
    ANY,
    BOOL,
    ID,
    NONE,
    TEXT,
    action,
    either,
    ints,
    list_of,
    object_of,
    one_of,
)

SEATS = one_of("N", "E", "S", "W")
RES = ("influence", "soup", "rosary", "tool", "book")
COLUMN = one_of("A", "B", "C", "D", "E")
FACE = ints(1, 6)
DICE = list_of(ID, 3, least=1, unique=True)
# a stained-glass tile: whose monastery, which window row, which bonus (engine/monasterium/
# effects.py `glass`); a novice sent: which novice, to which monastery, where in it
GLASS = {"monastery": ID, "row": ints(0, 9), "bonus": one_of("row", "column")}
SEND = {"novice": ID, "to": ID, **GLASS}

SHAPES = {
    "roll": action(optional={"faces": either(object_of(FACE, most=24), NONE)}),
    "reroll": action({"dice": list_of(ID, 12, least=1, unique=True)}),
    "place": action({"face": FACE}),
    "take": action({"space": FACE, "dice": DICE}, {"column": COLUMN}),
    "use": action({"act": one_of("std", "I", "II", "III")},
                  {"die": either(ID, NONE), "column": COLUMN, "item": one_of(*RES),
                   "from": one_of(*RES), "choice": ID, **SEND}),
    "lose": action({"die": ID}),
    "bonus": action(optional={"choice": ID, **GLASS}),
    "extra_die": action({"take": BOOL}),
    "extra_novice": action(optional={"forfeit": BOOL, **SEND}),
    "adjust": action({"seat": SEATS, "item": one_of(*RES, "prestige"), "delta": ints(-20, 20)},
                     {"reason": TEXT}),
    "correct": action({"part": ID, "value": ANY}, {"key": either(ID, NONE), "reason": TEXT}),
}

"""The shape of every action The Pillars of the Earth accepts (engine/shapes.py): the fields
each action type may carry, their types and ranges. The app checks them before the rules
run; the rules check what they mean (engine/pillars/rules.py)."""
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
    object_of,
    one_of,
)

SEATS = one_of("N", "E", "S", "W")
CUBES = ("wood", "stone", "sand", "metal")
BUYABLE = ("wood", "stone", "sand")
ADJUST = ints(-10, 10)  # engine/pillars/rules.py ADJUST_MAX
COUNTS = object_of(ints(0, 999))  # {craftsman or cube: how many}

SHAPES = {
    "reveal_privilege": action({"card": ID}),
    "reveal_craftsman": action({"card": ID}, {"to": either(one_of("shiring", "supply"), NONE)}),
    "reveal_material": action({"card": ID}),
    "reveal_event": action({"card": ID}),
    "deal": action(),
    "draw_architect": action({"seat": SEATS}),
    "roll_tax": action({"face": ints(1, 99)}),
    "take_material": action({"card": ID}),
    "take_craftsman": action({"card": ID}),
    "pass": action(),
    "discard_craftsman": action({"card": ID}),
    "place": action({"space": ID}),
    "pass_architect": action(),
    "refuse_draw": action(),
    "bishop_choice": action({"choice": one_of("protect", "cube")},
                            {"cube": one_of(*BUYABLE)}),
    "use_exemption": action({"use": BOOL}),
    "buy": action({"cube": one_of(*BUYABLE), "amount": ints(1, 100)}),
    "sell": action({"cube": one_of(*CUBES), "amount": ints(1, 100)}),
    "leave_market": action(),
    "build": action({"uses": COUNTS}),  # catalog_shapes: the catalog's craftsmen
    "return_cubes": action({"cubes": object_of(ints(0, 999), one_of(*CUBES))}),
    # a change per item ({"gold": 2}) or the host page's one item and its change
    "adjust": action({"seat": SEATS}, {**{item: ADJUST for item in ("gold", "vp", *CUBES)},
                                       "item": one_of("gold", "vp", *CUBES), "delta": ADJUST,
                                       "reason": TEXT}),
    "set_start_player": action({"seat": SEATS}),
    "correct": action({"part": ID, "value": ANY}, {"key": either(ID, NONE), "reason": TEXT}),
}


def catalog_shapes(catalog: dict) -> dict:
    """The shapes naming this catalog's ids (``GameInfo.catalog_shapes``): a build uses the
    catalog's craftsmen, each at most as often as the largest capacity; a revealed card is
    one of the catalog's cards of its kind."""
    craftsmen = [c["id"] for c in catalog["craftsmen"] if isinstance(c.get("id"), str)]
    most = max([c.get("capacity", 0) for c in catalog["craftsmen"]
                if type(c.get("capacity")) is int] or [0])
    out = {"build": action({"uses": object_of(ints(0, most), one_of(*craftsmen))})}
    for kind, part in (("reveal_craftsman", "craftsmen"), ("reveal_material", "materials"),
                       ("reveal_privilege", "privileges"), ("reveal_event", "events")):
        ids = [c["id"] for c in catalog[part] if isinstance(c.get("id"), str)]
        shape = SHAPES[kind]
        out[kind] = dict(shape, properties=dict(shape["properties"], card=one_of(*ids)))
    return out

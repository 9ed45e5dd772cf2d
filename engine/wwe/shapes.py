"""The shape of every action World Without End accepts (engine/shapes.py): the fields each
action type may carry, their types and ranges. The app checks them before the rules run;
the rules check what they mean (engine/wwe/actions.py)."""
from __future__ import annotations

from engine.shapes import ANY, BOOL, ID, NONE, TEXT, action, either, fields, ints, list_of, one_of

SEATS = one_of("N", "E", "S", "W")
ITEMS = ("stone", "wood", "grain", "piety", "metal", "wool", "cloth", "loyalty", "mk", "gold")
PLACE = either(ID, ints(0, 999))  # a building site or a plague location: an id or a number
COUNT = ints(0, 999)  # an amount of one item a card spends
KEY = either(ID, ints(-999, 999), NONE)  # what a correction's part is about

PARAMS_FIELDS = {  # what a card's performance needs (engine/wwe/cards.py)
    "item": one_of(*ITEMS), "project": ID, "stone": COUNT, "wood": COUNT, "wool": COUNT,
    "cloth": COUNT, "site": PLACE, "sites": list_of(PLACE, 50), "mode": one_of("help", "cure"),
    "locations": list_of(PLACE, 50)}
PARAMS = fields(optional=PARAMS_FIELDS)


def play_card(params: dict) -> dict:
    return action({"card": ID}, {"perform": BOOL, "params": either(params, NONE),
                                 "discard": either(ID, NONE)})

SHAPES = {
    "reveal_event": action({"card": ID}),
    "reveal_plague": action({"value": ints(0, 99)}),
    "orient_event": action({"rotation": ints(0, 3)}),
    "play_card": play_card(PARAMS),
    "answer_trade": action({"accept": BOOL}, {"count": ints(1, 99), "card": ID,
                                              "index": ints(0, 99)}),
    "roll_tax": action({"value": ints(0, 99)}),
    "choose_protection": action({"cancel": list_of(ID, 20)}),
    "record_discard": action({"card": ID}),
    "choose_target": action({"seat": SEATS}),
    "resolve_manual": action(),
    "cure": action(optional={"location": either(PLACE, NONE),
                             "locations": either(list_of(PLACE, 50), NONE)}),
    "place_free_house": action(optional={"site": either(PLACE, NONE)}),
    "return_houses": action({"sites": list_of(PLACE, 50)}),
    "adjust": action({"seat": SEATS, "item": one_of(*ITEMS, "vp"), "delta": ints(-1000, 1000)},
                     {"reason": TEXT}),
    "set_start_player": action({"seat": SEATS}),
    "correct": action({"part": ID, "value": ANY}, {"key": KEY, "reason": TEXT}),
}


def catalog_shapes(catalog: dict) -> dict:
    """The shapes naming this catalog's ids (``GameInfo.catalog_shapes``): a card's
    ``project`` is one of the catalog's projects."""
    projects = [p["id"] for p in catalog["projects"] if isinstance(p.get("id"), str)]
    return {"play_card": play_card(fields(optional={**PARAMS_FIELDS,
                                                    "project": one_of(*projects)}))}

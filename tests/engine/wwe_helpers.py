"""Helpers to set up World Without End positions for tests."""
from __future__ import annotations

import json
import re

from engine.api import Refused
from engine.wwe import GAME

COLOURS = ["blue", "red", "green", "yellow"]


def new_game(catalog, seats=("N", "E", "S", "W"), **setup):
    players = [{"seat": s, "name": s, "colour": c} for s, c in zip(seats, COLOURS, strict=False)]
    return GAME.setup(catalog, {"players": players, "seed": 7, **setup})


def act(state, **action):
    new, _events = GAME.apply(state, action)
    return new


def act_ev(state, **action):
    return GAME.apply(state, action)


def refused(state, **action) -> Refused:
    """Apply an illegal action: it must raise and leave the state exactly as it was."""
    before = json.dumps(state, sort_keys=True)
    try:
        GAME.apply(state, action)
    except Refused as r:
        assert json.dumps(state, sort_keys=True) == before
        return r
    raise AssertionError(f"not refused: {action}")


def res(state, seat):
    return state["players"][seat]["res"]


def vp(state, seat):
    return state["players"][seat]["vp"]


def head(state):
    return state["queue"][0] if state["queue"] else None


def plain(catalog):
    """The catalog with every event effect removed: rounds then need no extra decisions."""
    for card in catalog["event_cards"]:
        card["effects"] = []
        card["permanent"] = False
    return catalog


def set_res(state, seat, item, n):
    """Give a player exactly ``n`` of ``item``, moving the difference from/to the supply."""
    have = state["players"][seat]["res"][item]
    state["players"][seat]["res"][item] = n
    if state["supply"].get(item) is not None:
        state["supply"][item] -= n - have
        assert state["supply"][item] >= 0


def zero_rotation(state):
    """A rotation whose favor value is 0 (always legal, moves nothing)."""
    card = state["cat"]["events"][state["event"]]
    values = state["cat"]["game"]["council"]["side_values"]
    return next(r for r in range(4) if values[(card["arrow"] + r) % 4] == 0)


def passive(state, tax=2, plague=1):
    """A do-nothing action for whatever is owed now (cards played without effect)."""
    h = head(state)
    kind, seat = h["kind"], h["seat"]
    if kind == "reveal_event":
        used = {c for cs in state["revealed"].values() for c in cs}
        card = next(c for c, spec in state["cat"]["events"].items()
                    if spec["chapter"] == state["chapter"] and c not in used
                    and (spec.get("starred") or not state["options"]["first_game"]))
        return {"type": "reveal_event", "by": "table", "card": card}
    if kind == "reveal_plague":
        return {"type": "reveal_plague", "by": "table", "value": plague}
    if kind == "orient_event":
        return {"type": "orient_event", "by": seat, "rotation": zero_rotation(state)}
    if kind == "play_card":
        choices = [c for c in GAME.choices(state, seat)
                   if c.refused is None and c.action["type"] == "play_card"
                   and c.action["perform"] is False]
        return dict(choices[0].action)
    if kind == "roll_tax":
        return {"type": "roll_tax", "by": "table", "value": tax}
    if kind == "choose_protection":
        return {"type": "choose_protection", "by": h["seats"][0], "cancel": []}
    if kind == "answer_trade":
        return {"type": "answer_trade", "by": seat, "accept": False}
    if kind == "resolve_manual":
        return {"type": "resolve_manual", "by": "table"}
    if kind == "choose_target":
        return {"type": "choose_target", "by": seat, "seat": seat}
    if kind == "cure":
        return {"type": "cure", "by": seat, "location": None}
    if kind == "place_free_house":
        return {"type": "place_free_house", "by": seat, "site": None}
    if kind == "record_discard":
        return {"type": "record_discard", "by": seat, "card": state["players"][seat]["hand"][0]}
    if kind == "return_houses":
        return {"type": "return_houses", "by": "table", "sites": []}
    raise AssertionError(kind)


def run_until(state, done, **kw):
    """Apply passive actions until ``done(state)`` holds."""
    for _ in range(2000):
        if done(state):
            return state
        state = act(state, **passive(state, **kw))
    raise AssertionError("never reached")


def at(kind, chapter=None, round_=None):
    def done(state):
        h = head(state)
        return (h is not None and h["kind"] == kind
                and (chapter is None or state["chapter"] == chapter)
                and (round_ is None or state["round"] == round_))
    return done


def discard_for(state, seat, card):
    """A legal face-down discard for ``seat`` playing ``card`` now (None when none is due)."""
    for choice in GAME.choices(state, seat):
        if choice.action.get("card") == card:
            options = choice.effect.get("discard_options") or [None]
            return options[0]
    raise AssertionError(f"{card} not playable")


def complete_hospital(state):
    """The active seat completes the Hospital with its last stone (its seal on it, 2 MK to
    give): the state waits for its cure. Returns (state, seat)."""
    a = state["active"]
    spec = state["cat"]["projects"]["hospital"]
    state["projects"]["hospital"] = {"stone": spec["stone"] - 1, "wood": spec["wood"],
                                     "substitutes": 0, "spire": None, "seals": [a],
                                     "complete": False}
    state["players"][a]["seals"] = ["hospital"]
    set_res(state, a, "mk", 2)
    set_res(state, a, "stone", 1)
    state = act(state, type="play_card", by=a, card="building_project",
                discard=discard_for(state, a, "building_project"),
                params={"project": "hospital", "stone": 1, "wood": 0})
    assert head(state)["kind"] == "cure"
    return state, a


def no_effect(state, **action):
    """R4.1.2: a card that cannot be carried out is still played and simply does nothing.
    Returns the new state and the reason code of the `card_no_effect` event."""
    new, events = GAME.apply(state, action)
    seat = action["by"]
    found = [e for e in events if e["type"] == "card_no_effect"]
    assert found and found[0]["card"] == action["card"], events
    assert new["players"][seat]["played"][-1] == action["card"]
    assert new["players"][seat]["performed"][-1] is False
    assert action["card"] not in new["players"][seat]["hand"]
    return new, found[0]["reason"]


def english(template, params: dict) -> str:
    """The English text of a template with ``params``; of a plural pair the form its count
    asks for (its third element names the counting param, else n, count or amount), as the
    app picks it (companion/server/i18n.text)."""
    if isinstance(template, list | tuple):
        count = params.get(template[2]) if len(template) > 2 else next(
            (params[k] for k in ("n", "count", "amount") if k in params), 1)
        template = template[0] if count == 1 else template[1]
    # a name's grammatical form ({space.of}) shows as the plain name when the engine's
    # params give none (the app's i18n.fill does the same; the forms are catalog data)
    template = re.sub(r"\{(\w+)\.\w+\}", r"{\1}", template)
    return template.format(**params)

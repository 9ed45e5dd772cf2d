"""What a phone shows beside a World Without End choice is what the choice then does
(issue 51).

At positions of random legal games every choice offered to any seat (the table included) is
carried out with `GAME.apply` on the state it was offered at: the asker's holdings move by
exactly the cost and gain shown. An event card's orientation shows more than its own
holdings: every seat's income (`income_preview`), the favor's value, the space it lands on
and what the favor gives; each is compared with the events the orientation emits."""
from __future__ import annotations

import random

import pytest

from companion.box.catalog import load_catalog
from engine.api import Refused
from engine.wwe import GAME
from engine.wwe.steps import head

CATALOG = load_catalog("wwe")
# the decisions only their seat may send (the table answers reveals, rolls and some steps
# for the acting seat; these are the player's own)
SEAT_ONLY = ("orient_event", "play_card", "answer_trade", "choose_target", "cure",
             "place_free_house")


def holdings(s, seat) -> dict:
    p = s["players"][seat]
    return {**p["res"], "vp": p["vp"]}


def moved(before: dict, after: dict) -> tuple[dict, dict]:
    cost = {k: before[k] - after[k] for k in before if after[k] < before[k]}
    gain = {k: after[k] - before[k] for k in before if after[k] > before[k]}
    return cost, gain


def check_orientation(s, choice, new, ev) -> None:
    """Every seat's holdings move by its income shown, the active seat's by the favor too."""
    eff = choice.effect
    oriented = [e for e in ev if e["type"] == "event_oriented"]
    assert [e["favor"] for e in oriented] == [eff["favor"]]
    favors = [e for e in ev if e["type"] == "favor"]
    if eff["space"] is None:
        assert favors == []
    else:
        assert [(f["seat"], f["space"], f["gain"]) for f in favors] \
            == [(s["active"], eff["space"], eff["favor_gain"])], (choice.action, favors)
    for seat in s["seats"]:
        want = dict(eff["income"].get(seat, {}))
        if seat == s["active"]:
            for k, n in eff["favor_gain"].items():
                want[k] = want.get(k, 0) + n
        before, after = holdings(s, seat), holdings(new, seat)
        got = {k: after[k] - before[k] for k in before if after[k] != before[k]}
        assert got == {k: n for k, n in want.items() if n}, (choice.action, seat, ev)
    assert eff["public"] == {"favor": eff["favor"], "space": eff["space"],
                             "income": eff["income"]}


@pytest.mark.parametrize("seats,seed,options", [
    ("NES", 3, {}), ("NESW", 8, {"income_partial": False, "random_discards": "app"}),
    ("NE", 5, {"outlaws_check": "after_income"})])
def test_every_preview_is_what_the_choice_does(seats, seed, options):
    s = GAME.setup(CATALOG, {"players": [{"seat": x} for x in seats], "seed": seed,
                             "options": options})
    rnd = random.Random(seed)
    kinds: set = set()
    k = 0
    while not s["over"]:
        if k % 4 == 0 or head(s)["kind"] == "orient_event":
            for asker in [*s["seats"], "table"]:
                for choice in GAME.choices(s, asker):
                    if choice.refused is not None:
                        continue
                    new, ev = GAME.apply(s, choice.action)
                    if asker != "table" and choice.action["type"] in SEAT_ONLY:
                        # a player's own decision: the table cannot send it for them
                        with pytest.raises(Refused) as e:
                            GAME.apply(s, {**choice.action, "by": "table"})
                        assert e.value.code == "not_your_turn", choice.action
                        kinds.add("not_the_table")
                    if asker != "table":  # (the table holds nothing: its menu shows none)
                        cost, gain = moved(holdings(s, asker), holdings(new, asker))
                        shown = {x: n for x, n in choice.effect.items()
                                 if x in holdings(s, asker)}
                        assert (cost, gain) == (choice.cost, shown), choice.action
                    if choice.action["type"] == "orient_event":
                        check_orientation(s, choice, new, ev)
                    kinds.add(choice.action["type"])
        s, _ = GAME.apply(s, GAME.random_action(s, rnd))
        k += 1
    assert kinds >= {"orient_event", "play_card", "reveal_event", "not_the_table"}, kinds

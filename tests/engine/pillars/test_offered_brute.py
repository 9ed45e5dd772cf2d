"""The phone offers every legal decision, and nothing illegal (issue 34).

At positions of random legal games (2 to 4 players, random options), each seat's offered
choices are compared with a brute force: every action of a domain wider than the rules
allow (every card, space, cube and amount of the catalog) is tried with `GAME.apply`. The
ones carried out must be exactly the ones offered as legal, and every choice offered as
refused must be refused. The build decision is left out: its menu is the advisor's best
allocation and a few others by design (`test_advisor.py` checks it against a search)."""
from __future__ import annotations

import json
import random
from itertools import product

import pytest

from engine.api import Refused
from engine.pillars import GAME, state
from engine.pillars.choices import choices
from engine.pillars.options import OPTIONS
from tests.engine.pillars.helpers import new_game
from tests.engine.random_play import every_kth_position

NOT_BRUTE = {"build", "deal"}  # build: the advisor's menu; deal: "let the app draw"


def _key(action) -> str:
    return json.dumps(action, sort_keys=True)


def _all_spaces(s) -> list[str]:
    return [sp for loc in s["cat"]["locations"] for sp in state.spaces_of(s, loc)]


def domain(s, seat) -> list[dict]:
    """Every decision ``seat`` could name now, legal or not."""
    cat, p = s["cat"], s["players"][seat]
    a = [{"type": "pass"}, {"type": "pass_architect"}, {"type": "refuse_draw"},
         {"type": "leave_market"}]
    a += [{"type": "take_material", "card": c} for c in cat["materials"]]
    a += [{"type": "take_craftsman", "card": c} for c in cat["craftsmen"]]
    a += [{"type": "discard_craftsman", "card": c} for c in cat["craftsmen"]]
    a += [{"type": "place", "space": sp} for sp in _all_spaces(s)]
    a += [{"type": "draw_architect", "seat": x} for x in s["seats"]]
    a += [{"type": "bishop_choice", "choice": "protect"}]
    a += [{"type": "bishop_choice", "choice": "cube", "cube": c} for c in state.CUBES]
    a += [{"type": "use_exemption", "use": u} for u in (True, False)]
    most = max([*p["cubes"].values(), *s["market"].values()]) + 1  # one past any holding
    a += [{"type": kind, "cube": c, "amount": n} for kind in ("buy", "sell")
          for c in state.CUBES for n in range(1, most + 1)]
    if s["phase"] == "store":  # every way to return one cube fewer, as many or one more
        excess = state.storage_count(s, seat) - state.board(s)["storage_limit"]
        ranges = [range(0, min(p["cubes"][c], excess + 1) + 1) for c in state.CUBES]
        a += [{"type": "return_cubes", "cubes": {c: n for c, n in zip(state.CUBES, combo,
                                                                       strict=True) if n}}
              for combo in product(*ranges) if sum(combo) > 0 and abs(sum(combo) - excess) <= 1]
    return [{**x, "by": seat} for x in a]


def legal(s, seat) -> set[str]:
    out = set()
    for action in domain(s, seat):
        try:
            GAME.apply(s, action)
        except Refused:
            continue
        out.add(_key(action))
    return out


def positions(n: int, seed: int, every: int = 7):
    """Every ``every``-th position of a random legal game, with random options."""
    rnd = random.Random(seed)
    options = {name: rnd.choice(allowed) for name, (_d, allowed, *_r) in OPTIONS.items()}
    return every_kth_position(GAME, new_game(n, seed=seed, options=options), rnd, every)


@pytest.mark.parametrize("n,seed", [(2, 3), (2, 17), (3, 11), (3, 8), (4, 5), (4, 29)])
def test_every_legal_decision_is_offered_and_nothing_else(n, seed):
    checked = 0
    for s in positions(n, seed):
        for seat in s["seats"]:
            menu = [c for c in choices(s, seat) if c.action["type"] not in NOT_BRUTE]
            if s["phase"] == "build" and s["active"] == seat:
                continue
            offered = {_key(c.action) for c in menu if c.refused is None}
            for c in menu:
                if c.refused is not None:
                    with pytest.raises(Refused):
                        GAME.apply(s, c.action)
            if s["phase"] == "store" and len(offered) >= 60:
                # the menu stops at 60 ways to return cubes: each is legal
                assert offered <= legal(s, seat)
                continue
            assert offered == legal(s, seat), (s["phase"], seat,
                                               offered ^ legal(s, seat))
            checked += bool(offered)
    assert checked > 10  # the positions did include decisions

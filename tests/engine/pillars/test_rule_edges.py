"""Rule edges a sampled mutant changed with no test noticing (issue 34): every malformed
cube return is refused, the bishop's cube needs one in the market, a refused draw undoes
the draw's count."""
from __future__ import annotations

import pytest

from engine.api import Refused
from engine.pillars import GAME, state
from tests.engine.pillars.helpers import act, by, new_game, t
from tests.engine.pillars.test_examples import at_build, at_event
from tests.engine.pillars.test_option_variants import to_arch


def _storing():
    s = at_build(new_game(2), "N", [], {"wood": 4, "stone": 2, "metal": 1})
    s, _ = act(s, by("N", "build", uses={}))
    assert s["phase"] == "store" and GAME.prompts(s)[0].params["excess"] == 2
    return s


@pytest.mark.parametrize("cubes", [
    {"gold": 2},                    # not a cube
    {"wood": 3, "stone": -1},       # a negative count
    {"stone": 3, "wood": -1},
    {"wood": "2"},                  # not a number
    {"wood": 1.0, "stone": 1},
    {"sand": 2},                    # more than held (none)
])
def test_a_malformed_return_of_cubes_is_refused(cubes):
    s = _storing()
    with pytest.raises(Refused) as e:
        GAME.apply(s, by("N", "return_cubes", cubes=cubes))
    assert e.value.code == "bad_field"


def test_metal_returns_only_when_metal_counts_for_storage():
    s = _storing()
    s["options"]["metal_counts_storage"] = False
    s["players"]["N"]["cubes"]["metal"] = 1
    excess = state.storage_count(s, "N") - state.board(s)["storage_limit"]
    with pytest.raises(Refused) as e:
        GAME.apply(s, by("N", "return_cubes", cubes={"metal": 1, "wood": excess - 1}))
    assert e.value.code == "bad_field"


@pytest.mark.parametrize("left,ok", [(0, False), (1, True)])
def test_the_bishops_cube_needs_one_in_the_market(left, ok):
    s = at_event(1, bishop="N")
    s, _ = act(s, t("reveal_event", card="pay_4_gold"))
    s["market"]["sand"] = left
    action = by("N", "bishop_choice", choice="cube", cube="sand")
    if ok:
        after, _ = act(s, action)
        assert after["market"]["sand"] == 0 and after["players"]["N"]["cubes"]["sand"] == 1
    else:
        with pytest.raises(Refused) as e:
            GAME.apply(s, action)
        assert e.value.code == "market_empty"


def test_a_refused_draw_takes_back_its_count():
    s = to_arch(2)
    before = dict(s["arch"]["count"])
    s, _ = act(s, t("draw_architect", seat="E"))
    assert s["arch"]["count"]["E"] == before["E"] + 1
    s, _ = act(s, by("N", "refuse_draw"))
    assert s["arch"]["count"] == before

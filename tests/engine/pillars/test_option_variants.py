"""The alternative readings of the options behave as documented."""
from __future__ import annotations

import random

import pytest

from engine.api import Refused
from engine.pillars import GAME, state
from tests.engine.pillars.helpers import act, by, layout, new_game, position, t
from tests.engine.pillars.test_examples import at_build, market_position


def to_arch(n=2, **opts):
    s = new_game(n, options=opts or None)
    s, _ = layout(s, privileges=["gold_8", "vp_2"])
    for seat in state.order_from(s, s["start"]):
        s, _ = act(s, by(seat, "pass"))
    return s


def test_bad_options_refused():
    with pytest.raises(Refused) as e:
        new_game(2, options={"nope": True})
    assert e.value.code == "bad_option"
    with pytest.raises(Refused) as e:
        new_game(2, options={"vp_floor_zero": 1})
    assert e.value.code == "bad_option_value"


def test_free_draws_may_pass_when_allowed():
    s = to_arch(3, free_draws_must_place=False)
    s["arch"]["marker"] = 7
    s, _ = act(s, t("draw_architect", seat="E"), by("E", "pass_architect"))
    assert s["arch"]["wheel"] == ["E"]
    s2 = to_arch(3)
    s2["arch"]["marker"] = 7
    s2, _ = act(s2, t("draw_architect", seat="E"))
    with pytest.raises(Refused) as e:
        GAME.apply(s2, by("E", "pass_architect"))
    assert e.value.code == "must_place_free"


def test_placement_without_gold_uses_shortfall():
    s = to_arch(2, placement_needs_gold=False)
    s["players"]["N"]["gold"] = 3
    s, _ = act(s, t("draw_architect", seat="N"), by("N", "place", space="prior1"))
    assert s["players"]["N"]["gold"] == 0 and s["players"]["N"]["vp"] == 2 - 2


def test_refusal_moves_marker_option():
    for moves, cost in ((False, 7), (True, 6)):
        s = to_arch(2, refusal_moves_marker=moves)
        s, _ = act(s, t("draw_architect", seat="E"), by("N", "refuse_draw"))
        assert state.draw_cost(s) == cost and s["arch"]["bag"]["E"] == 3


def test_refusal_of_own_colour_option():
    s = to_arch(2, refusal_any_colour=False)
    s, _ = act(s, t("draw_architect", seat="N"))
    with pytest.raises(Refused) as e:
        GAME.apply(s, by("N", "refuse_draw"))
    assert e.value.code == "refuse_own"


def test_two_architect_event_limits_next_round():
    s = to_arch(2)
    s["limit"] = 2
    # the board shows no architect set aside until the third of N's is drawn
    assert GAME.public_view(s)["architects"]["aside"] == {"N": 0, "E": 0}
    s, ev = act(s, t("draw_architect", seat="N"), by("N", "pass_architect"),
                t("draw_architect", seat="N"), by("N", "pass_architect"),
                t("draw_architect", seat="N"))
    assert {"type": "architect_aside", "seat": "N"} in ev
    assert GAME.public_view(s)["architects"]["aside"] == {"N": 1, "E": 0}
    assert s["arch"]["drawn"] is None and state.draw_cost(s) == 5
    ig = to_arch(2, architect_limit_event="ignore")
    ig["limit"] = 2
    ig, _ = act(ig, t("draw_architect", seat="N"), by("N", "pass_architect"),
                t("draw_architect", seat="N"), by("N", "pass_architect"),
                t("draw_architect", seat="N"))
    assert ig["arch"]["drawn"] == "N"
    ev_state = position(new_game(2), "event")
    ev_state, _ = act(ev_state, t("reveal_event", card="two_architects"))
    assert ev_state["limit_next"] == 2


def test_spaces_in_order_and_one_per_location():
    s = to_arch(2, spaces_any_order=False, same_player_two_spaces=False)
    s, _ = act(s, t("draw_architect", seat="N"))
    with pytest.raises(Refused) as e:
        GAME.apply(s, by("N", "place", space="prior2"))
    assert e.value.code == "space_order"
    s, _ = act(s, by("N", "place", space="prior1"), t("draw_architect", seat="N"))
    with pytest.raises(Refused) as e:
        GAME.apply(s, by("N", "place", space="prior2"))
    assert e.value.code == "one_per_location"


def test_court_metal_first_placed():
    s = new_game(2, options={"court_metal": "first_placed"})
    s = position(s, "tax", queue=[], spaces={"court2": "E", "court1": "N"},
                 placed=["court2", "court1"])
    s, ev = act(s, t("roll_tax", face=3))
    assert s["players"]["E"]["cubes"]["metal"] == 1
    # the log says the one cube the court gave, to whom
    court = {"type": "gain", "seat": "E", "item": "metal", "amount": 1, "source": "court"}
    assert [e for e in ev if e.get("source") == "court"] == [court]
    d = position(new_game(2), "tax", queue=[], spaces={"court2": "E", "court1": "N"},
                 placed=["court2", "court1"])
    d, ev = act(d, t("roll_tax", face=3))
    assert d["players"]["N"]["cubes"]["metal"] == 1
    assert [e for e in ev if e.get("source") == "court"] == [{**court, "seat": "N"}]


def test_gold_cap_only_at_mill():
    s = market_position()
    s["options"]["gold_cap_all_gains"] = False
    s["players"]["N"]["gold"] = 28
    s, _ = act(s, by("N", "sell", cube="metal", amount=1))
    assert s["players"]["N"]["gold"] == 33


def test_vp_may_go_negative():
    s = new_game(2, options={"vp_floor_zero": False})
    s = position(s, "tax", queue=[])
    s["players"]["N"]["gold"] = 0
    s["players"]["N"]["vp"] = 1
    s, _ = act(s, t("roll_tax", face=5))
    assert s["players"]["N"]["vp"] == -1


def test_metal_outside_storage_limit():
    s = at_build(new_game(2, options={"metal_counts_storage": False}), "N", [],
                 {"wood": 5, "metal": 2})
    s, _ = act(s, by("N", "build", uses={}))
    assert s["phase"] != "store" and s["players"]["N"]["cubes"]["metal"] == 2


def test_no_buy_back_after_selling_when_set():
    s = market_position()
    s["options"]["sell_then_buy"] = False
    s, _ = act(s, by("N", "sell", cube="metal", amount=1), by("E", "leave_market"))
    s["players"]["N"]["cubes"]["sand"] = 1
    s["sites"]["sand"] -= 1
    s, _ = act(s, by("N", "sell", cube="sand", amount=1))
    with pytest.raises(Refused) as e:
        GAME.apply(s, by("N", "buy", cube="sand", amount=1))
    assert e.value.code == "bought_after_sold"


def test_master_carpenter_may_buy_wood_when_set():
    s = market_position()
    s["players"]["N"]["craftsmen"] = ["master_carpenter_2"]
    with pytest.raises(Refused):
        GAME.apply(s, by("N", "buy", cube="wood", amount=1))
    s["options"]["master_carpenter_counts"] = True
    s, _ = act(s, by("N", "buy", cube="wood", amount=1))
    assert s["players"]["N"]["cubes"]["wood"] == 1


@pytest.mark.parametrize("mode", ["owe", "lose"])
def test_site_shortage(mode):
    s = new_game(2, options={"site_shortage": mode})
    s = position(s, "event")
    s["players"]["N"]["materials"] = ["sand_4"]
    s["players"]["N"]["cubes"]["sand"] += s["sites"]["sand"] - 1
    s["sites"]["sand"] = 1
    s, ev = act(s, t("reveal_event", card="scandal"))
    assert s["players"]["N"]["owed"]["sand"] == (3 if mode == "owe" else 0)
    assert any(e["type"] == ("cubes_owed" if mode == "owe" else "cubes_lost") for e in ev)


@pytest.mark.parametrize("beside", [1, 0])
def test_the_court_metal_corrected_from_the_last_cube_beside_the_board(beside):
    # the King's court gets its metal cube from beside the board: with exactly one there
    # it moves; with none the correction is refused and nothing changes
    s = new_game(3)
    s["court_metal"], s["sites"]["metal"] = 0, beside
    action = {"type": "correct", "by": "host", "part": "court_metal", "value": 1,
              "reason": "knocked off"}
    if beside:
        s2, ev = act(s, action)
        assert (s2["court_metal"], s2["sites"]["metal"]) == (1, 0)
        assert (ev[0]["before"], ev[0]["after"]) == (0, 1)
        s3, _ = act(s2, {**action, "value": 0})  # and back beside the board
        assert (s3["court_metal"], s3["sites"]["metal"]) == (0, 1)
    else:
        with pytest.raises(Refused) as e:
            GAME.apply(s, action)
        assert e.value.code == "bad_correction"


def test_a_finished_game_takes_no_corrections():
    from engine.pillars.corrections import corrections

    s = new_game(2)
    rnd = random.Random(2)
    while not s["over"]:
        s, _ = GAME.apply(s, GAME.random_action(s, rnd))
    assert corrections(s) == []
    for part, value in (("market", dict(s["market"])), ("court_metal", 0),
                        ("start_player", s["seats"][0])):
        with pytest.raises(Refused):
            GAME.apply(s, {"type": "correct", "by": "host", "part": part, "value": value})


def test_owed_cubes_are_given_once_at_the_next_production():
    # N is owed 2 sand and 1 metal from an earlier shortage; the sites now hold enough:
    # production gives them (source "owed") and N is owed nothing more
    s = position(new_game(2, options={"site_shortage": "owe"}), "event")
    s["players"]["N"]["owed"].update(sand=2, metal=1)
    s["players"]["N"]["materials"] = []
    s["sites"]["sand"], s["sites"]["metal"] = 5, 3
    s, ev = act(s, t("reveal_event", card="scandal"))
    assert [(e["item"], e["amount"]) for e in ev
            if e["type"] == "gain" and e.get("source") == "owed"] == [("sand", 2), ("metal", 1)]
    assert s["players"]["N"]["owed"] == dict.fromkeys(s["players"]["N"]["owed"], 0)


def test_tax_exemption_privilege_used_by_choice():
    s = position(new_game(2), "tax", queue=[])
    s["players"]["N"]["privileges"] = ["tax_exemption"]
    s, _ = act(s, t("roll_tax", face=5))
    assert s["phase"] == "exemption" and GAME.prompts(s)[0].kind == "use_exemption"
    keep, _ = act(s, by("N", "use_exemption", use=False))
    assert keep["players"]["N"]["gold"] == 15 and keep["players"]["N"]["privileges"]
    used, _ = act(s, by("N", "use_exemption", use=True))
    assert used["players"]["N"]["gold"] == 20 and not used["players"]["N"]["privileges"]


def test_host_corrections_of_the_board():
    from engine.pillars.corrections import corrections

    s = new_game(3)
    forms = {c["part"]: c for c in corrections(s)}
    assert set(forms) == {"market", "court_metal", "start_player"}
    assert forms["market"]["current"] == {"wood": 4, "stone": 4, "sand": 4}
    site = s["sites"]["sand"]
    s2, ev = act(s, {**forms["market"]["action"], "value": {"wood": 4, "stone": 4, "sand": 1},
                     "reason": "miscounted"})
    assert s2["market"]["sand"] == 1 and s2["sites"]["sand"] == site + 3
    assert ev[0]["type"] == "corrected" and ev[0]["before"]["sand"] == 4
    s3, _ = act(s, {**forms["start_player"]["action"], "value": "S"})
    assert s3["start"] == "S" and s3["players"]["S"]["gold"] == 20
    for bad in ({"wood": 5, "stone": 4, "sand": 4}, {"wood": 4}, 3, True):
        with pytest.raises(Refused) as e:
            GAME.apply(s, {**forms["market"]["action"], "value": bad})
        assert e.value.code == "bad_correction"
    # a yes/no where a count belongs is the whole value's fault, as the form shows it (the
    # schema alone would name the cube: JSON Schema's integers leave out booleans)
    for part, bad in (("market", {"wood": True, "stone": 4, "sand": 4}), ("court_metal", True),
                      ("market", False)):
        with pytest.raises(Refused) as e:
            GAME.apply(s, {"type": "correct", "by": "host", "part": part, "value": bad})
        assert (e.value.code, e.value.params["field"]) == ("bad_correction", "value")
    with pytest.raises(Refused) as e:
        GAME.apply(s, {"type": "correct", "by": "N", "part": "market", "value": {}})
    assert e.value.code == "wrong_actor"
    s4, _ = layout(s, privileges=["gold_8", "vp_2"])
    assert "start_player" not in {c["part"] for c in corrections(s4)}


def test_a_market_correction_naming_what_the_market_does_not_sell_is_refused():
    """The market sells wood, stone and sand: a correction that also names metal (or gold,
    or junk) would be silently half-applied, so it is refused and changes nothing."""
    s = new_game(3)
    action = {"type": "correct", "by": "host", "part": "market", "reason": "miscounted"}
    for extra in ({"metal": 1}, {"gold": 3}, {"Wood": 2}):
        value = {"wood": 4, "stone": 4, "sand": 1, **extra}
        with pytest.raises(Refused) as e:
            GAME.apply(s, {**action, "value": value})
        assert (e.value.code, e.value.params["field"]) == ("bad_correction", "value"), extra
    assert s["market"] == {"wood": 4, "stone": 4, "sand": 4}

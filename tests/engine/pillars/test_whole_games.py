"""Hand-worked whole games for 2, 3 and 4 players.

Every figure asserted here was worked out by hand from the rules (the comments show the
arithmetic), then compared with the engine. The cards are revealed explicitly; round
craftsmen are laid out in catalog order (first 2 to Shiring, the next 2 to the supply) and
the materials are always wood_2, wood_3, wood_4, stone_2, stone_3, stone_4, sand_2.
"""
from __future__ import annotations

from engine.pillars import GAME
from tests.engine.pillars.helpers import act, by, layout, new_game, t


def draws(s, schedule):
    """schedule: [(seat, answer)] with answer "pass" or a space id."""
    for seat, answer in schedule:
        s, _ = act(s, t("draw_architect", seat=seat))
        if answer == "pass":
            s, _ = act(s, by(seat, "pass_architect"))
        else:
            s, _ = act(s, by(seat, "place", space=answer))
    return s


def deferred(s, spaces):
    for space in spaces:
        s, _ = act(s, by(s["active"], "place", space=space))
    assert s["phase"] == "event"
    return s


def all_pass(s):
    while s["phase"] == "draft":
        s, _ = act(s, by(s["active"], "pass"))
    return s


def builds_best(s, returns=None):
    """Step 13 with the advisor's best allocation for everybody; ``returns``: seat -> cubes."""
    while s["phase"] in ("build", "store"):
        seat = s["active"]
        if s["phase"] == "store":
            s, _ = act(s, by(seat, "return_cubes", cubes=returns[seat]))
            continue
        best = GAME.choices(s, seat)[0].action
        s, _ = act(s, best)
    return s


def check(s, want):
    for seat, (gold, vp, cubes) in want.items():
        p = s["players"][seat]
        got = {k: v for k, v in p["cubes"].items() if v}
        assert (p["gold"], p["vp"], got) == (gold, vp, cubes), (seat, p["gold"], p["vp"], got)


# ---- 2 players ------------------------------------------------------------------------------

def test_whole_game_two_players():
    s = new_game(2, start="N")
    plan = [  # privileges, event; start and other alternate the start player each round
        (["gold_8", "vp_2"], "gift_vp_1"), (["vp_3", "gold_5"], "gift_gold_3"),
        (["gold_6", "bonus_wood_2"], "pay_4_gold"), (["bonus_stone_2", "bonus_sand_3"], "scandal"),
        (["patron_wood", "patron_stone"], "gift_stone"), ([], "pay_2_gold")]
    want = [
        # R1 (N starts): +1 VP event; mill 12 (N 32->30, E 33->30); N gold_8 (capped),
        # E vp_2; prior N +2, E +1; N metal at court1; nobody can build.
        {"N": (30, 5, {"metal": 1}), "E": (30, 6, {})},
        # R2 (E starts): gift gold capped; E vp_3, prior E +2, N +1; E metal.
        {"N": (30, 6, {"metal": 1}), "E": (30, 11, {"metal": 1})},
        # R3 (N starts): pay 4 (26) then mill back to 30; E 2 wood -> Carpenter +1.
        {"N": (30, 8, {"metal": 2}), "E": (30, 13, {"metal": 1})},
        # R4 (E starts): scandal -1 each; E 2 stone -> Stone carver +1; N 3 sand -> Mortar +1.
        {"N": (30, 9, {"metal": 2}), "E": (30, 15, {"metal": 2})},
        # R5 (N starts): +1 stone each; patrons give N 1 wood, E 1 stone at once.
        {"N": (30, 11, {"wood": 1, "stone": 1, "metal": 3}), "E": (30, 17, {"metal": 2})},
        # R6 (E starts): final_metal to E, final_stone_wood to N; patrons again; N builds 2.
        {"N": (30, 14, {"wood": 1, "metal": 3}), "E": (30, 19, {"stone": 1, "metal": 4})},
    ]
    for r, (privs, event) in enumerate(plan, start=1):
        assert s["round"] == r
        start = s["start"]
        other = "E" if start == "N" else "N"
        s, _ = layout(s, privileges=privs)
        s = all_pass(s)
        s = draws(s, [(start, "pass"), (other, "pass")] * 3)
        s = deferred(s, ["prior1", "prior2", "court1", "court2", "kingsbridge1",
                         "kingsbridge2"])
        s, _ = act(s, t("reveal_event", card=event), t("roll_tax", face=5))
        s = builds_best(s)
        check(s, want[r - 1])
    assert GAME.is_over(s)
    sc = GAME.scores(s)
    assert [(x["seat"], x["vp"], x["winner"]) for x in sc] == [("E", 19, True), ("N", 14, False)]


# ---- 3 players ------------------------------------------------------------------------------

def test_whole_game_three_players():
    s = new_game(3, start="N")
    # Round 1 in detail.
    s, _ = layout(s, privileges=["gold_8", "vp_2"])
    assert s["shiring"] == ["mason_1", "potter_1"]
    s, _ = act(s, by("N", "take_craftsman", card="structural_engineer_1"),  # N 20-5 = 15
               by("E", "take_material", card="stone_3"),  # 8 workers, 4 left
               by("S", "take_material", card="wood_4"),  # 5 workers
               by("N", "take_material", card="sand_2"),  # 2 workers
               by("E", "pass"),
               by("S", "take_material", card="wood_2"),  # 3 workers, 4 left
               by("N", "take_material", card="stone_2"),  # 6 workers, 4 left
               by("S", "pass"), by("N", "pass"))
    assert "toolmaker_1" in s["removed"]
    assert [s["players"][x]["mill"] for x in "NES"] == [4, 4, 4]
    s, _ = act(s, t("draw_architect", seat="E"), by("E", "place", space="prior1"),  # 7
               t("draw_architect", seat="N"), by("N", "pass_architect"),  # at 6
               t("draw_architect", seat="S"), by("S", "place", space="shiring1"),  # 5
               t("draw_architect", seat="S"), by("N", "refuse_draw"),  # back to the bag
               t("draw_architect", seat="N"), by("N", "place", space="bishop1"),  # 4
               t("draw_architect", seat="S"), by("S", "place", space="castle1"),  # 3
               t("draw_architect", seat="E"), by("E", "pass_architect"),  # at 2
               t("draw_architect", seat="N"), by("N", "place", space="market1"),  # 1
               t("draw_architect", seat="E"), by("E", "place", space="court1"),  # free
               t("draw_architect", seat="S"), by("S", "place", space="cathedral1"))  # free
    s = deferred(s, ["kingsbridge1", "market2"])  # N then E, in pass order
    s, _ = act(s, t("reveal_event", card="pay_4_gold"), by("N", "bishop_choice",
                                                            choice="protect"))
    s, _ = act(s, t("roll_tax", face=3))
    assert s["phase"] == "market" and s["active"] == "N"
    s, _ = act(s, by("N", "sell", cube="stone", amount=2),  # +8
               by("E", "buy", cube="sand", amount=3),  # -6
               by("N", "buy", cube="sand", amount=1),  # -2
               by("E", "leave_market"), by("N", "leave_market"))
    assert s["market"] == {"wood": 4, "stone": 4, "sand": 0}
    # N: 20-5-4-1 = 10, mill 14, gold_8 22, tax 19, +8 -2 = 25; 3 sand: Mortar +1, Engineer +1
    # E: 21-7 = 14, event 10, mill 14, exempt, -6 = 8; Mortar +1, Stone carver +1, prior +2
    # S: 22-5-3 = 14, event 10, mill 14, tax 11; 6 wood: Carpenter 3 uses
    s = builds_best(s)
    check(s, {"N": (25, 4, {}), "E": (8, 6, {"stone": 1, "metal": 1}), "S": (11, 5, {})})
    assert s["players"]["S"]["craftsmen"][-1] == "mason_1"
    assert s["players"]["S"]["grey"] == 2 and s["start"] == "S"  # cathedral space
    # Rounds 2-6: everybody passes the draft; draws from the start player in turn, the 7
    # priced ones pass, the 2 free ones go to the market; passed architects in pass order.
    plan = [(["vp_3", "gold_5"], "gift_vp_1"), (["gold_6", "bonus_wood_2"], "gift_gold_3"),
            (["bonus_stone_2", "bonus_sand_3"], "scandal"),
            (["patron_wood", "patron_stone"], "gift_stone"), ([], "pay_2_gold")]
    want = [
        # R2 (S, N, E): S mill 14 (grey workers); E vp_3; S gold_5; E metal; N Engineer.
        {"N": (30, 7, {}), "E": (20, 10, {"stone": 1, "metal": 2}), "S": (30, 8, {})},
        # R3 (N, E, S): N 2 wood -> Carpenter + Engineer; S metal.
        {"N": (30, 11, {}), "E": (30, 11, {"stone": 1, "metal": 2}), "S": (30, 8, {"metal": 1})},
        # R4 (E, S, N): scandal; E 3 sand -> Mortar; N 2 stone -> Stone carver + Engineer.
        {"N": (30, 12, {"metal": 1}), "E": (30, 13, {"stone": 1, "metal": 2}),
         "S": (30, 8, {"metal": 1})},
        # R5 (S, N, E): +1 stone; patrons; S 2 stone -> Mason x2; E 2 stone -> carver.
        {"N": (30, 14, {"stone": 1, "metal": 1}), "E": (30, 14, {"wood": 1, "metal": 3}),
         "S": (30, 12, {"metal": 1})},
        # R6 (N, E, S): finals to S (metal) and N (stone, wood); patrons; builds.
        {"N": (28 + 2, 18, {"wood": 1, "metal": 1}), "E": (30, 16, {"metal": 3}),
         "S": (30, 13, {"metal": 3})},
    ]
    for r, (privs, event) in enumerate(plan, start=2):
        p0 = s["start"]
        order = s["seats"][s["seats"].index(p0):] + s["seats"][:s["seats"].index(p0)]
        p0, p1, p2 = order
        s, _ = layout(s, privileges=privs)
        s = all_pass(s)
        s = draws(s, [(p0, "pass"), (p1, "pass"), (p2, "pass")] * 2 + [
            (p0, "pass"), (p1, "market1"), (p2, "market2")])
        s = deferred(s, ["prior1", "prior2", "court1", "court2", "court3", "kingsbridge1",
                         "kingsbridge2"])
        s, _ = act(s, t("reveal_event", card=event), t("roll_tax", face=4),
                   by(p1, "leave_market"), by(p2, "leave_market"))
        s = builds_best(s)
        check(s, want[r - 2])
    assert GAME.is_over(s)
    assert [(x["seat"], x["vp"]) for x in GAME.scores(s)] == [("N", 18), ("E", 16), ("S", 13)]


# ---- 4 players ------------------------------------------------------------------------------

def test_whole_game_four_players():
    s = new_game(4, start="N")
    assert [s["players"][x]["gold"] for x in "NESW"] == [20, 21, 22, 23]
    # Every round: all pass the draft (12 workers to the mill); draws N E S W N E S pass,
    # then W market1, N cathedral1 (N stays start player), E bishop1, S shiring1, W castle1;
    # passed architects: N prior1, E prior2, S court1 (metal), W court2, N court3,
    # E kingsbridge1, S kingsbridge2. Only E pays tax. E takes sand after a positive event
    # and protection after a negative one; S discards every hire beyond 5 craftsmen.
    plan = [  # privileges, event, tax face, E uses the exemption
        (["gold_8", "vp_2"], "gift_gold_3", 5, None),
        (["vp_3", "gold_5"], "pay_4_gold", 2, None),
        (["gold_6", "tax_exemption"], "gift_vp_1", 3, None),
        (["tax_exemption_b", "black_worker"], "scandal", 4, False),
        (["bonus_sand_3", "patron_sand"], "storm", 4, True),
        ([], "pay_2_gold", 3, None)]
    want = [
        # R1: +3 gold, mill caps all at 30; E gold_8, pays 5 -> 25; S vp_2; prior N+2 E+1.
        {"N": (30, 4, {}), "E": (25, 3, {"sand": 1}), "S": (30, 4, {"metal": 1}),
         "W": (30, 2, {})},
        # R2: E protected; W mill 14; E vp_3, tax 2 -> 28; S gold_5.
        {"N": (30, 6, {}), "E": (28, 7, {"sand": 1}), "S": (30, 4, {"metal": 2}),
         "W": (30, 2, {})},
        # R3: +1 VP all; E sand; E gold_6, tax 3 -> 27; S discards goldsmith_3.
        {"N": (30, 9, {}), "E": (27, 9, {"sand": 2}), "S": (30, 5, {"metal": 3}),
         "W": (30, 3, {})},
        # R4: scandal (E protected); E keeps the exemption, pays 4 -> 26; S black worker.
        {"N": (30, 10, {}), "E": (26, 10, {"sand": 2}), "S": (30, 4, {"metal": 4}),
         "W": (30, 2, {})},
        # R5: storm hits nobody's wood; E 5 sand -> Mortar +1; E exempt by privilege;
        # S patron sand +1, 6 cubes -> returns 1 sand.
        {"N": (30, 12, {}), "E": (30, 12, {"sand": 2}), "S": (30, 4, {"metal": 5}),
         "W": (30, 2, {})},
        # R6: pay 2 (E protected); finals: E metal, S stone + wood; S Mason +1, returns 3.
        {"N": (30, 14, {}), "E": (27, 13, {"sand": 2, "metal": 1}),
         "S": (30, 5, {"wood": 1, "sand": 1, "metal": 3}), "W": (30, 2, {})},
    ]
    returns = [{}, {}, {}, {}, {"S": {"sand": 1}}, {"S": {"metal": 3}}]
    for r, (privs, event, face, exempt) in enumerate(plan, start=1):
        s, _ = layout(s, privileges=privs)
        s = all_pass(s)
        assert all(p["mill"] == 12 + p["grey"] + p["black"] for p in s["players"].values())
        s = draws(s, [(x, "pass") for x in "NESWNES"] + [
            ("W", "market1"), ("N", "cathedral1"), ("E", "bishop1"), ("S", "shiring1"),
            ("W", "castle1")])
        s = deferred(s, ["prior1", "prior2", "court1", "court2", "court3", "kingsbridge1",
                         "kingsbridge2"])
        s, _ = act(s, t("reveal_event", card=event))
        if s["phase"] == "bishop":
            positive = s["cat"]["events"][event]["positive"]
            s, _ = act(s, by("E", "bishop_choice", choice="cube", cube="sand") if positive
                       else by("E", "bishop_choice", choice="protect"))
        s, _ = act(s, t("roll_tax", face=face))
        if exempt is not None:
            s, _ = act(s, by("E", "use_exemption", use=exempt))
        while s["pending"]:
            s, _ = act(s, by("S", "discard_craftsman", card=s["players"]["S"]["craftsmen"][-1]))
        s, _ = act(s, by("W", "leave_market"))
        s = builds_best(s, returns[r - 1])
        check(s, want[r - 1])
        assert s["start"] == "N" or GAME.is_over(s)
        assert len(s["players"]["S"]["craftsmen"]) == min(5, 3 + r)
    assert GAME.is_over(s)
    assert [(x["seat"], x["vp"], x["rank"]) for x in GAME.scores(s)] == [
        ("N", 14, 1), ("E", 13, 2), ("S", 5, 3), ("W", 2, 4)]
    # the table's round summary: what each player gained and paid in round 6
    assert s["last_round"]["E"] == {"gold": -3, "vp": 1, "wood": 0, "stone": 0, "sand": 0,
                                    "metal": 1}


def test_round_ledger_of_the_three_player_round_one():
    """The table's round summary: what each player gained and paid, by source."""
    s = new_game(3, start="N")
    s, _ = layout(s, privileges=["gold_8", "vp_2"])
    s, _ = act(s, by("N", "take_material", card="sand_2"), by("E", "pass"), by("S", "pass"),
               by("N", "pass"))
    s = draws(s, [("N", "prior1"), ("E", "pass"), ("S", "pass"), ("N", "pass"), ("E", "pass"),
                  ("S", "pass"), ("N", "pass"), ("E", "market2"), ("S", "market1")])
    s = deferred(s, ["kingsbridge1", "court1", "castle1", "bishop1", "court2", "court3"])
    s, _ = act(s, t("reveal_event", card="pay_4_gold"),
               by("E", "bishop_choice", choice="protect"),
               t("roll_tax", face=2), by("S", "leave_market"), by("E", "leave_market"))
    s = builds_best(s)
    view = GAME.public_view(s)["players"]
    # N: prior1 at 7 gold, pays the event (4), 10 workers at the mill, Prior +2, 2 sand,
    # exempt from tax (court3): 20 - 7 - 4 + 10 = 19.
    assert view["N"]["last_ledger"] == {"gold-architect": 7, "gold-event": 4,
                                        "gold+mill": 10, "vp+prior": 2, "sand+production": 2}
    assert view["N"]["last_round"]["gold"] == 19 - 20
    # E: protected by the Bishop, gold_8 (21 + 12 + 8 = 41 -> 30 at the mill cap... the mill
    # caps 33 at 30, then gold_8 is capped too), pays the tax 2.
    e = view["E"]["last_ledger"]
    assert e["gold+mill"] == 12 and e["gold-tax"] == 2 and "gold-event" not in e
    assert e["gold-cap"] == 3 + 8
    assert view["N"]["ledger"] == {}

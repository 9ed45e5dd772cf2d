"""Hand-worked whole games of Monasterium for 2, 3 and 4 players (demo catalog, seed 1:
missions a2, a1, b3, b1, c4, c5).

Every figure asserted here was worked out by hand from the rules and the demo catalog
before the engine ran (the comments show the arithmetic). Resources are written
(influence, soup, rosary, tool, book). The demo player board: standard actions A send,
B +1 soup, C +1 influence, D +1 rosary, E messenger 1; row I alternatives A messenger,
B +1 influence, C +1 rosary, D swap, E +1 soup; row III alternatives a stained-glass tile.
The demo road: 1 A, 2 AB, 3 B R2, 4 BC, 5 C R3, 6 CD, 7 D R1, 8 DE, 9 E R4, 10 EA, 11 AC,
12 BD R5. Building costs 1 Influence + 2 (row I) of soup (lay), tool (workshop) or book
(hall); chapel 1, 2, 3 Influence; cloister 1, 2, 3 Rosary.
"""
from __future__ import annotations

from engine.monasterium import rules as R
from tests.engine.monasterium.helpers import GAME, apply, new_game


def place_all(s, faces: dict) -> dict:
    """Phase 1 with every player's dice all showing ``faces[seat]``: one placement each."""
    while s["phase"] == "place":
        seat = s["active"]
        s, _ = apply(s, type="roll", by="table", faces={d: faces[seat] for d in R.hand(s, seat)})
        s, _ = apply(s, type="place", by=seat, face=faces[seat])
    assert s["phase"] == "act"
    return s


def take(s, seat, space, dice) -> dict:
    assert s["active"] == seat, (s["active"], seat)
    s, _ = apply(s, type="take", by=seat, space=space, dice=dice)
    return s


def use(s, seat, die, act="std", **more) -> dict:
    s, _ = apply(s, type="use", by=seat, die=die, act=act, **more)
    return s


def gains(s, seat, space, dice, **more) -> dict:
    """A turn of plain standard actions (gains or messenger steps without a bonus)."""
    s = take(s, seat, space, dice)
    for d in dice:
        s = use(s, seat, d, **more)
    return s


def check(s, want: dict) -> None:
    """want: seat -> (prestige, (influence, soup, rosary, tool, book), road space)."""
    for seat, (prestige, res, road) in want.items():
        p = s["players"][seat]
        got = (p["prestige"], tuple(p["res"][r] for r in R.RES), p["road"])
        assert got == (prestige, res, road), (seat, got)


# ---- 2 players ------------------------------------------------------------------------------

def test_whole_game_two_players():
    s = new_game(2, seed=1)
    assert s["missions"] == ["a2", "a1", "b3", "b1", "c4", "c5"]
    # N holds n1-n5 + N1, E holds n6-n10 + E1, every round.

    # Year 1, round 1 (N first): N's dice all 2 (soup), E's all 3 (influence).
    s = place_all(s, {"N": 2, "E": 3})
    s = gains(s, "N", 2, ["N1", "n1", "n2"])  # soup 2+3
    s = gains(s, "E", 3, ["E1", "n6", "n7"])  # influence 2+3
    s = gains(s, "N", 2, ["n3", "n4", "n5"])  # soup 8
    s = gains(s, "E", 3, ["n8", "n9", "n10"])  # influence 8
    check(s, {"N": (0, (2, 8, 1, 0, 0), 1), "E": (0, (8, 2, 1, 0, 0), 1)})
    assert (s["year"], s["round"], s["first"], s["phase"]) == (1, 2, "E", "place")

    # Year 1, round 2 (E first): E's dice all 1 (send), N's all 5 (messenger).
    s = place_all(s, {"E": 1, "N": 5})
    s = take(s, "E", 1, ["E1", "n6", "n7"])  # E's messenger on 1: monastery A
    s = use(s, "E", "E1", novice="III:A", monastery="A", to="chapel")  # 1 inf: 7
    s = use(s, "E", "n6", novice="I:C", monastery="A", to="A.lay1")  # 1 inf 2 soup; +1 P +tool
    s = use(s, "E", "n7", novice="III:B", monastery="A", to="chapel")  # 2nd chapel: 2 inf
    check(s, {"E": (1, (4, 0, 1, 1, 0), 1)})
    s = take(s, "N", 5, ["N1", "n1", "n2"])
    s = use(s, "N", "N1")  # road 2
    s = use(s, "N", "n1")  # road 3: R2
    s, _ = apply(s, type="bonus", by="N", choice="influence")
    s = use(s, "N", "n2")  # road 4
    check(s, {"N": (0, (3, 8, 1, 0, 0), 4)})
    s = take(s, "E", 1, ["n8", "n9", "n10"])
    s = use(s, "E", "n8", novice="III:C", monastery="A", to="chapel")  # 3rd chapel: 3 inf -> 1
    # III:A has left, so column A's row-III alternative (a tile) is open; E has a chapel
    # novice in A: tile A into row 0, the row's bonus (+1 influence) -> 2
    s = use(s, "E", "n9", act="III", monastery="A", row=0, bonus="row")
    # 1 Rosary: a cloister next to E's lay brother; column A's tile turns yellow (nothing on
    # it but the die in use)
    s = use(s, "E", "n10", novice="IV:A", monastery="A", to="A.cl1")
    check(s, {"E": (1, (2, 0, 0, 1, 0), 1)})
    assert s["players"]["E"]["yellow"] == ["A"]
    assert s["players"]["E"]["window"][0] == ["A", None, None] and s["mon"]["A"]["glass"] == 3
    s = take(s, "N", 5, ["n3", "n4", "n5"])
    s = use(s, "N", "n3")  # road 5: R3
    s, _ = apply(s, type="bonus", by="N", choice="soup")  # soup 9
    s = use(s, "N", "n4")  # road 6
    s = use(s, "N", "n5")  # road 7: R1, an extra action without a die
    s, _ = apply(s, type="use", by="N", die=None, column="C", act="std")  # influence 4
    check(s, {"N": (0, (4, 9, 1, 0, 0), 7), "E": (1, (2, 0, 0, 1, 0), 1)})
    assert (s["year"], s["round"], s["first"]) == (2, 1, "N")

    # Year 2, round 1 (N first): N's dice all 1 (send), E's all 4 (rosary).
    s = place_all(s, {"N": 1, "E": 4})
    s = take(s, "N", 1, ["N1", "n1", "n2"])  # N's messenger on 7: monastery D
    s = use(s, "N", "N1", novice="I:A", monastery="D", to="D.lay1")  # inf 3 soup 7; +1 P tool
    s = use(s, "N", "n1", novice="I:B", monastery="D", to="D.lay2")  # inf 2 soup 5; +1 P tool
    s = use(s, "N", "n2", novice="I:C", monastery="D", to="D.work1")  # inf 1 tool 0; +2 P book
    check(s, {"N": (4, (1, 5, 1, 0, 1), 7)})
    s = gains(s, "E", 4, ["E1", "n6", "n7"])  # rosary 3
    s = take(s, "N", 1, ["n3", "n4", "n5"])
    s = use(s, "N", "n3", novice="III:A", monastery="D", to="chapel")  # 1 inf -> 0
    s = use(s, "N", "n4", novice="IV:B", monastery="D", to="D.cl1")  # 1 rosary; B yellow
    s = use(s, "N", "n5", act="III", monastery="D", row=0, bonus="column")  # column 1: +soup
    s = gains(s, "E", 4, ["n8", "n9", "n10"])  # rosary 6
    check(s, {"N": (4, (0, 6, 0, 0, 1), 7), "E": (1, (2, 0, 6, 1, 0), 1)})
    assert s["players"]["N"]["yellow"] == ["B"]

    # Year 2, round 2 (E first): E's dice all 5 (messenger), N's all 2 (soup, yellow for N).
    s = place_all(s, {"E": 5, "N": 2})
    s = take(s, "E", 5, ["E1", "n6", "n7"])
    s = use(s, "E", "E1")  # road 2
    s = use(s, "E", "n6")  # road 3: R2
    s, _ = apply(s, type="bonus", by="E", choice="rosary")  # 7
    s = use(s, "E", "n7")  # road 4
    s = take(s, "N", 2, ["N1", "n1", "n2"])  # yellow column: +3 prestige -> 7
    s = use(s, "N", "N1")  # soup 7
    s = use(s, "N", "n1", act="I")  # I:B has left: +1 influence
    s = use(s, "N", "n2", act="I")  # influence 2
    check(s, {"N": (7, (2, 7, 0, 0, 1), 7)})
    s = take(s, "E", 5, ["n8", "n9", "n10"])
    s = use(s, "E", "n8")  # road 5: R3
    s, _ = apply(s, type="bonus", by="E", choice="soup")  # soup 1
    s = use(s, "E", "n9")  # road 6
    s = use(s, "E", "n10")  # road 7: R1
    s, _ = apply(s, type="use", by="E", die=None, column="D", act="std")  # rosary 8
    s = gains(s, "N", 2, ["n3", "n4", "n5"])  # +3 prestige (yellow) -> 10, soup 10
    check(s, {"N": (10, (2, 10, 0, 0, 1), 7), "E": (1, (2, 1, 8, 1, 0), 7)})
    assert (s["year"], s["round"], s["first"]) == (3, 1, "N")

    # Year 3, round 1 (N first): N's dice all 3 (influence), E's all 4 (rosary).
    s = place_all(s, {"N": 3, "E": 4})
    s = gains(s, "N", 3, ["N1", "n1", "n2"])
    s = gains(s, "E", 4, ["E1", "n6", "n7"])
    s = gains(s, "N", 3, ["n3", "n4", "n5"])
    s = gains(s, "E", 4, ["n8", "n9", "n10"])
    check(s, {"N": (10, (8, 10, 0, 0, 1), 7), "E": (1, (2, 1, 14, 1, 0), 7)})

    # Year 3, round 2 (E first): E's dice all 1 (send), N's all 2 (soup).
    s = place_all(s, {"E": 1, "N": 2})
    s = take(s, "E", 1, ["E1"])  # one die is a turn too; column A is yellow for E: 2 P
    # 2nd cloister: 2 Rosary -> 12; A by E's chapel novices; column B turns yellow for E
    s = use(s, "E", "E1", novice="IV:B", monastery="A", to="A.cl2")
    s = gains(s, "N", 2, ["N1", "n1", "n2"])  # yellow: 13 P; soup 13
    s = gains(s, "E", 2, ["n3", "n4", "n5"])  # N's neutral dice; yellow for E now: 5 P, soup 4
    check(s, {"N": (13, (8, 13, 0, 0, 1), 7), "E": (5, (2, 4, 12, 1, 0), 7)})
    s = take(s, "N", 1, ["n6", "n7", "n8"])
    s = use(s, "N", "n6", novice="III:B", monastery="D", to="chapel")  # 2 inf -> 6
    s = use(s, "N", "n7", novice="III:C", monastery="D", to="chapel")  # 3 inf -> 3
    s = use(s, "N", "n8", novice="III:D", monastery="D", to="chapel")  # 3 inf -> 0; D full
    assert s["mon"]["D"]["chapel"] == ["N"] * 4
    s = take(s, "E", 1, ["n9", "n10"])  # yellow column A: 7 P
    s = use(s, "E", "n9", novice="I:A", monastery="A", to="A.lay2")  # inf 1 soup 2; 8 P tool 2
    # inf 0 tool 0; +2 P (10) +1 book; 3 buildings in A: mission a1 in year 3, +2 -> 12
    s, ev = apply(s, type="use", by="E", die="n10", act="std", novice="I:B", monastery="A",
                  to="A.work1")
    assert {"type": "mission", "seat": "E", "mission": "a1", "points": 2} in ev
    assert s["over"] and s["phase"] == "over"
    # Final scoring. Majorities: A E 8 novices (3 buildings, 3 chapel, 2 cloister), D N 8
    # (3, 4, 1): 5 each. Chapels in one monastery: 1 each. Cloisters: N 2x1x4 = 8, E 2x2x3 =
    # 12. Resources: N 0 tool + 2x1 book + (0+13+0)//2 = 8; E 0 + 2 + (0+2+12)//2 = 9.
    assert s["final"] == {
        "N": {"majorities": 5, "chapels": 1, "cloisters": 8, "resources": 8},
        "E": {"majorities": 5, "chapels": 1, "cloisters": 12, "resources": 9}}
    scores = GAME.scores(s)
    assert [(x["seat"], x["vp"], x["winner"]) for x in scores] == \
        [("E", 39, True), ("N", 35, False)]  # 12 + 27 against 13 + 22

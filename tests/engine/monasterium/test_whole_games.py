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

import pytest

from engine.api import Refused
from engine.monasterium import state
from tests.engine.monasterium.helpers import GAME, apply, new_game


def place_all(s, faces: dict) -> dict:
    """Phase 1: ``faces[seat]`` is the face every die of the seat shows, or {die: face} (each
    placement then rolls the dice still in hand and places the lowest face)."""
    while s["phase"] == "place":
        seat = s["active"]
        want = faces[seat]
        rolled = {d: want if isinstance(want, int) else want[d] for d in state.hand(s, seat)}
        s, _ = apply(s, type="roll", by="table", faces=rolled)
        s, _ = apply(s, type="place", by=seat, face=min(rolled.values()))
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


def plain_turn(s, seat, space) -> dict:
    """Take up to 3 of one's own dice on ``space`` (personal first), a standard action each."""
    mine = [d for d in state.on_space(s, space) if s["dice"][d]["holder"] == seat]
    mine.sort(key=lambda d: (s["dice"][d]["owner"] is None, d))
    return gains(s, seat, space, mine[:3])


def play_round(s, faces: dict, scripted: dict | None = None) -> dict:
    """Phase 1 with ``faces``, then every turn plain on the seat's own space except the
    ``scripted`` ones (seat -> its turns in order, each a function of the state)."""
    scripted = {seat: list(turns) for seat, turns in (scripted or {}).items()}
    year, round_ = s["year"], s["round"]
    s = place_all(s, faces)
    while (s["year"], s["round"]) == (year, round_) and not s["over"]:
        seat = s["active"]
        turn = scripted[seat].pop(0) if scripted.get(seat) else None
        s = turn(s) if turn else plain_turn(s, seat, faces[seat])
    assert not any(scripted.values()), scripted
    return s


def check(s, want: dict) -> None:
    """want: seat -> (prestige, (influence, soup, rosary, tool, book), road space)."""
    for seat, (prestige, res, road) in want.items():
        p = s["players"][seat]
        got = (p["prestige"], tuple(p["res"][r] for r in state.RES), p["road"])
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


# ---- 3 players ------------------------------------------------------------------------------

def test_whole_game_three_players():
    s = new_game(3, seed=1)
    # N holds n1-n3 + N1, E n4-n6 + E1, S n7-n9 + S1; A.lay2, C.lay2, E.lay2 are blocked.
    assert s["mon"]["A"]["buildings"]["A.lay2"] == "#"
    s = play_round(s, {"N": 2, "E": 2, "S": 2})  # all on one space: +4 soup each
    s = play_round(s, {"N": 3, "E": 3, "S": 3})  # +4 influence each
    for seat in "NES":
        check(s, {seat: (0, (6, 6, 1, 0, 0), 1)})

    def n_sends(s):
        s = take(s, "N", 1, ["N1", "n1", "n2"])
        s = use(s, "N", "N1", novice="I:A", monastery="A", to="A.lay1")  # 5 inf 4 soup; P1 tool
        s = use(s, "N", "n1", novice="III:A", monastery="A", to="chapel")  # 4 inf
        return use(s, "N", "n2", act="I")  # I:A has left: the messenger, road 2

    def n_cloister(s):
        s = take(s, "N", 1, ["n3"])
        return use(s, "N", "n3", novice="IV:C", monastery="A", to="A.cl1")  # 1 rosary; C yellow

    # Year 1, round 3 (S first): N sends, E and S take rosary.
    s = play_round(s, {"S": 4, "N": 1, "E": 4}, {"N": [n_sends, n_cloister]})
    check(s, {"N": (1, (4, 4, 0, 1, 0), 2), "E": (0, (6, 6, 5, 0, 0), 1),
              "S": (0, (6, 6, 5, 0, 0), 1)})
    assert s["players"]["N"]["yellow"] == ["C"] and (s["year"], s["first"]) == (2, "N")

    # Year 2, round 1 (N first; in 3 years of 3 rounds each player is first once a
    # year): N's 4 dice on its yellow column C: +4 prestige, +4 influence
    s = play_round(s, {"E": 2, "S": 2, "N": 3})
    check(s, {"N": (5, (8, 4, 0, 1, 0), 2), "E": (0, (6, 10, 5, 0, 0), 1),
              "S": (0, (6, 10, 5, 0, 0), 1)})

    def s_chapels(s):
        s = take(s, "S", 1, ["S1", "n7", "n8"])
        with pytest.raises(Refused) as blocked:  # the 3-player game blocks A.lay2
            use(s, "S", "S1", novice="I:A", monastery="A", to="A.lay2")
        assert blocked.value.code == "space_taken"
        s = use(s, "S", "S1", novice="III:A", monastery="A", to="chapel")  # 1: inf 5
        s = use(s, "S", "n7", novice="III:B", monastery="A", to="chapel")  # 2: inf 3
        return use(s, "S", "n8", novice="III:C", monastery="A", to="chapel")  # 3: 0; full

    def e_chapels(s):
        s = take(s, "E", 1, ["E1", "n4", "n5"])
        s = use(s, "E", "E1", novice="III:A", monastery="A", to="chapel")  # inf 5
        s = use(s, "E", "n4", act="III", monastery="A", row=0, bonus="row")  # +1 inf: 6
        return use(s, "E", "n5", novice="III:B", monastery="A", to="chapel")  # 2: inf 4

    def s_glass(s):
        s = take(s, "S", 1, ["n9"])
        return use(s, "S", "n9", act="III", monastery="A", row=0, bonus="column")  # +1 soup

    def e_stuck(s):
        s = take(s, "E", 1, ["n6"])
        with pytest.raises(Refused) as full:  # 6 = 2 x 3 players
            use(s, "E", "n6", novice="III:C", monastery="A", to="chapel")
        assert full.value.code == "chapel_full"
        assert GAME.choices(s, "E")[0].action["type"] == "lose"  # nothing else is possible
        s, ev = apply(s, type="lose", by="E", die="n6")
        assert ev[0] == {"type": "die_lost", "seat": "E", "column": "A"}
        return s

    # Year 2, round 2 (E first): E and S fill A's chapel, N takes rosary.
    s = play_round(s, {"E": 1, "S": 1, "N": 4},
                   {"S": [s_chapels, s_glass], "E": [e_chapels, e_stuck]})
    assert s["mon"]["A"]["chapel"] == ["N", "E", "E", "S", "S", "S"]
    check(s, {"N": (5, (8, 4, 4, 1, 0), 2), "E": (0, (4, 10, 5, 0, 0), 1),
              "S": (0, (0, 11, 5, 0, 0), 1)})

    s = play_round(s, {"S": 3, "N": 2, "E": 3})  # Y2R3 (S first)
    s = play_round(s, {"N": 4, "E": 4, "S": 4})  # Y3R1 (N first)
    s = play_round(s, {"E": 2, "S": 2, "N": 3})  # Y3R2: N's yellow C again, +4 P
    check(s, {"N": (9, (12, 8, 8, 1, 0), 2), "E": (0, (8, 14, 9, 0, 0), 1),
              "S": (0, (4, 15, 9, 0, 0), 1)})
    s = play_round(s, {"S": 4, "N": 3, "E": 4})  # Y3R3
    assert s["over"]
    # Majority of A: N 3 (lay brother, chapel, cloister) ties S 3 (chapel): 5 each; E 2.
    # Chapels: one monastery each, 1. Cloisters: N 2 x 1 x 1. Resources: N 1 tool +
    # (16+8+8)//2 = 17; E (8+14+13)//2 = 17; S (4+15+13)//2 = 16.
    assert s["final"] == {
        "N": {"majorities": 5, "chapels": 1, "cloisters": 2, "resources": 17},
        "E": {"majorities": 0, "chapels": 1, "cloisters": 0, "resources": 17},
        "S": {"majorities": 5, "chapels": 1, "cloisters": 0, "resources": 16}}
    assert [(x["seat"], x["vp"], x["winner"]) for x in GAME.scores(s)] == \
        [("N", 38, True), ("S", 22, False), ("E", 18, False)]  # 13 + 25, 0 + 22, 0 + 18


# ---- 4 players ------------------------------------------------------------------------------

def test_whole_game_four_players():
    s = new_game(4, seed=1)
    # N holds n1 n2 N1, E n3 n4 E1, S n5 n6 S1, W n7 n8 W1. N, E and S take soup, influence
    # and rosary every round (+3 a round); W walks the whole road, then sends.
    s, _ = apply(s, type="roll", by="table", faces={"N1": 1, "n1": 2, "n2": 6})
    s, _ = apply(s, type="reroll", by="N", dice=["N1", "n2"])  # once a round
    with pytest.raises(Refused) as once:
        apply(s, type="reroll", by="N", dice=["n1"])
    assert once.value.code == "wrong_phase"  # the reroll's faces come first
    s, _ = apply(s, type="roll", by="table", faces={"N1": 2, "n2": 2})
    s, _ = apply(s, type="place", by="N", face=2)
    assert s["players"]["N"]["reroll_used"] and s["active"] == "E"

    def walk(*bonuses):
        """W's turn: its dice on space 5, a messenger step each; ``bonuses``: what to answer
        after each step (None: nothing to decide)."""
        def turn(s):
            dice = sorted(d for d in state.on_space(s, 5) if s["dice"][d]["holder"] == "W")
            s = take(s, "W", 5, dice)
            for die, answer in zip(dice, bonuses, strict=True):
                s = use(s, "W", die)
                if answer is not None:
                    s = answer(s)
            return s
        return turn

    def bonus(**a):
        return lambda s: apply(s, type="bonus", by="W", **a)[0]

    # Y1R1: W 1 -> 2 -> 3 (R2: influence) -> 4
    s = play_round(s, {"E": 3, "S": 4, "W": 5, "N": 2},
                   {"W": [walk(None, bonus(choice="influence"), None)]})
    check(s, {"W": (0, (3, 2, 1, 0, 0), 4), "N": (0, (2, 5, 1, 0, 0), 1)})
    # Y1R2: 4 -> 5 (R3: soup) -> 6 -> 7 (R1: an extra action, column C: +1 influence)
    extra = lambda s: apply(s, type="use", by="W", die=None, column="C", act="std")[0]  # noqa: E731
    s = play_round(s, {"E": 3, "S": 4, "W": 5, "N": 2},
                   {"W": [walk(bonus(choice="soup"), None, extra)]})
    check(s, {"W": (0, (4, 3, 1, 0, 0), 7)})
    # Y1R3: 7 -> 8 -> 9 (R4: a tile of any monastery, A into row 0, the row's +1 influence)
    s = play_round(s, {"S": 4, "W": 5, "N": 2, "E": 3},
                   {"W": [walk(None, bonus(choice="tile", monastery="A", row=0, bonus="row"),
                               None)]})
    check(s, {"W": (0, (5, 3, 1, 0, 0), 10)})
    assert s["players"]["W"]["window"][0] == ["A", None, None]

    # Y1R4 (W first): 10 -> 11 -> 12 (R5: a second personal die, rolled at once: a 5) -> 1
    def new_die(s):
        s, _ = apply(s, type="extra_die", by="W", take=True)
        s, ev = apply(s, type="roll", by="table", faces={"W2": 5})
        assert {"type": "die_placed", "seat": "W", "die": "W2", "space": 5} in ev
        return s

    def w2(s):  # W's second turn this round: the new die, 1 -> 2
        return gains(s, "W", 5, ["W2"])

    s = play_round(s, {"W": 5, "N": 2, "E": 3, "S": 4}, {"W": [walk(None, new_die, None), w2]})
    check(s, {"W": (0, (5, 3, 1, 0, 0), 2), "N": (0, (2, 14, 1, 0, 0), 1),
              "E": (0, (14, 2, 1, 0, 0), 1), "S": (0, (2, 2, 13, 0, 0), 1)})
    assert s["players"]["W"]["personal"] == 2 and (s["year"], s["first"]) == (2, "N")

    # W's 4th die must be a personal one on a space of its own: a neutral die left after
    # W's turn would be N's to take (no passing). W2 shows a 6: the joker, any column.
    def w_sends(s):  # road 2: A and B
        s = take(s, "W", 1, ["W1", "n7", "n8"])
        s = use(s, "W", "W1", novice="I:A", monastery="A", to="A.lay1")  # 4 inf 1 soup; P1 tool
        s = use(s, "W", "n7", novice="III:A", monastery="A", to="chapel")  # 1: inf 3
        return use(s, "W", "n8", novice="III:B", monastery="B", to="chapel")  # 2: inf 1

    def joker(column, **use_):
        def turn(s):
            s, _ = apply(s, type="take", by="W", space=6, dice=["W2"], column=column)
            return use(s, "W", "W2", **use_)
        return turn

    w_dice = {"W1": 1, "n7": 1, "n8": 1, "W2": 6}
    s = play_round(s, {"N": 2, "E": 3, "S": 4, "W": w_dice},
                   {"W": [w_sends, joker("A", novice="IV:A", monastery="A", to="A.cl1")]})
    check(s, {"W": (1, (1, 1, 0, 1, 0), 2)})  # the cloister: 1 rosary
    w_dice = {"W1": 2, "n7": 2, "n8": 2, "W2": 6}
    for _ in range(7):  # Y2R2 ... Y3R4: W's 4 dice on soup too (the joker in column B)
        s = play_round(s, {"N": 2, "E": 3, "S": 4, "W": w_dice},
                       {"W": [lambda s: plain_turn(s, "W", 2), joker("B")]})
    assert s["over"]
    for seat, res in {"N": (2, 38, 1, 0, 0), "E": (38, 2, 1, 0, 0), "S": (2, 2, 37, 0, 0),
                      "W": (1, 29, 0, 1, 0)}.items():  # +3 (W +4) a round
        assert tuple(s["players"][seat]["res"][r] for r in state.RES) == res, seat
    # W: majorities of A and B 5 + 5; chapels in 2 monasteries 3; cloisters 2 x 1 x 1 in A;
    # resources 1 tool + (1+29+0)//2 = 16. N, E, S: nothing but (2+38+1)//2 = 20 each.
    assert s["final"]["W"] == {"majorities": 10, "chapels": 3, "cloisters": 2, "resources": 16}
    assert all(s["final"][x] == {"majorities": 0, "chapels": 0, "cloisters": 0,
                                 "resources": 20} for x in "NES")
    assert [(x["seat"], x["vp"], x["rank"], x["winner"]) for x in GAME.scores(s)] == \
        [("W", 32, 1, True), ("N", 20, 2, False), ("E", 20, 2, False), ("S", 20, 2, False)]


def test_the_last_action_of_a_year_claims_its_mission_at_that_years_points():
    """a1 (3 buildings in A) pays 6/4/2 by the year: completed by the round's last die of
    year 1, it pays 6, although the year has turned by the time the action is done."""
    from tests.engine.monasterium.helpers import act_phase

    s = new_game(2, seed=1)
    s["round"] = 2  # the last round of year 1
    s = act_phase(s, "N", {"n1": 1})  # the only die left on the board
    s["mon"]["A"]["buildings"].update({"A.lay1": "N", "A.lay2": "N"})
    s["players"]["N"]["res"]["tool"] = 2
    s = take(s, "N", 1, ["n1"])
    s, ev = apply(s, type="use", by="N", die="n1", act="std", novice="I:A", monastery="A",
                  to="A.work1")
    assert {"type": "mission", "seat": "N", "mission": "a1", "points": 6} in ev
    assert s["players"]["N"]["claimed"] == {"a1": 1} and s["year"] == 2
    assert s["players"]["N"]["prestige"] == 2 + 6  # the workshop, the mission


def test_the_box_count_warns_or_limits_a_gain():
    """M-A18: soup is 30 pieces in the demo box. Unlimited by default, with a warning when
    the players' total passes it; limited when the catalog says so."""
    from tests.engine.monasterium.helpers import CAT, act_phase

    s = act_phase(new_game(2, seed=1), "N", {"n1": 2, "n2": 2})
    s["players"]["N"]["res"]["soup"], s["players"]["E"]["res"]["soup"] = 20, 9  # 29 held
    s = take(s, "N", 2, ["n1", "n2"])
    s, ev = apply(s, type="use", by="N", die="n1", act="std")
    assert not [e for e in ev if e["type"].startswith("supply")]  # 30: the box's count
    s, ev = apply(s, type="use", by="N", die="n2", act="std")
    assert {"type": "supply_exceeded", "item": "soup", "held": 31, "supply": 30} in ev
    assert s["players"]["N"]["res"]["soup"] == 22

    limited = dict(CAT, board=dict(CAT["board"], resources=dict(CAT["board"]["resources"],
                                                                  limited=True)))
    t = GAME.setup(limited, {"players": [{"seat": "N"}, {"seat": "E"}], "seed": 1})
    t = act_phase(t, "N", {"n1": 2, "n2": 2})
    t["players"]["N"]["res"]["soup"], t["players"]["E"]["res"]["soup"] = 20, 9
    t = take(t, "N", 2, ["n1", "n2"])
    t, _ = apply(t, type="use", by="N", die="n1", act="std")
    t, ev = apply(t, type="use", by="N", die="n2", act="std")  # none left: the gain is 0
    assert {"type": "supply_empty", "item": "soup", "supply": 30} in ev
    assert t["players"]["N"]["res"]["soup"] == 21 and not [e for e in ev if e["type"] == "gain"]


def test_a_send_choice_says_what_it_brings_and_opens():
    """The phone shows a send's reward before it is chosen: a lay building's +1 prestige
    and tool, the alternative its novice opens; a cloister turns its column yellow."""
    from tests.engine.monasterium.helpers import act_phase

    s = act_phase(new_game(2, seed=1), "N", {"n1": 1})
    s = take(s, "N", 1, ["n1"])
    menu = {(c.action.get("novice"), c.action.get("to")): c for c in GAME.choices(s, "N")
            if c.action.get("novice")}
    lay = menu[("I:B", "A.lay1")]
    assert lay.effect == {"kind": "send", "prestige": 1, "tool": 1, "opens": "I:B"}
    assert lay.cost == {"influence": 1, "soup": 2}
    chapel = menu[("III:C", "chapel")]
    assert chapel.effect == {"kind": "send", "opens": "III:C"}
    s["mon"]["A"] = {**s["mon"]["A"], "buildings": {**s["mon"]["A"]["buildings"],
                                                    "A.lay1": "N"}}
    cloister = {c.action["to"]: c for c in GAME.choices(s, "N")
                if c.action.get("novice") == "IV:D"}
    assert cloister["A.cl1"].effect == {"kind": "send", "yellow": "D"}

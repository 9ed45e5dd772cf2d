"""Final scoring (§12) line by line against ends counted by hand (issue 51): each seat's
majorities, chapels, cloisters and resources, the total added to its prestige and the
`final_score` lines the log shows. The rules reference's own examples (M-EX6, M-D1-D3,
M-D12) check single lines in test_examples.py; these check whole breakdowns."""
from __future__ import annotations

import pytest

from engine.monasterium.scoring import breakdown, final_scoring
from tests.engine.monasterium.helpers import new_game


def three_player_end(options=None):
    """Three seats, five monasteries (A, C, E have a blocked lay building in 3-player)."""
    s = new_game(3, **(options or {}))
    mon = s["mon"]
    # A: N on lay1 + cloister 1, 2 + one chapel; E on work1, work2; S one chapel
    mon["A"]["buildings"].update({"A.lay1": "N", "A.work1": "E", "A.work2": "E"})
    mon["A"]["cloister"].update({"A.cl1": "N", "A.cl2": "N"})
    mon["A"]["chapel"] = ["N", "S"]
    # B: E on lay1 + one chapel; S on the hall + two chapels
    mon["B"]["buildings"].update({"B.lay1": "E", "B.hall1": "S"})
    mon["B"]["chapel"] = ["E", "S", "S"]
    # C: E three cloisters + two chapels; N four buildings
    mon["C"]["cloister"].update({"C.cl1": "E", "C.cl2": "E", "C.cl3": "E"})
    mon["C"]["chapel"] = ["E", "E"]
    mon["C"]["buildings"].update({"C.lay1": "N", "C.work1": "N", "C.work2": "N",
                                  "C.hall1": "N"})
    # D: N and S one building each (a tie); E: nobody
    mon["D"]["buildings"].update({"D.lay1": "N", "D.lay2": "S"})
    res = {"N": {"tool": 3, "book": 1, "influence": 2, "soup": 2, "rosary": 1},
           "E": {"tool": 0, "book": 2, "influence": 1, "soup": 0, "rosary": 0},
           "S": {"tool": 1, "book": 0, "influence": 3, "soup": 3, "rosary": 3}}
    for seat, r in res.items():
        s["players"][seat]["res"] = r
    s["players"]["N"]["prestige"], s["players"]["E"]["prestige"] = 40, 31
    s["players"]["S"]["prestige"] = 0
    return s


# Counted by hand (§12):
# majorities: A N 4 (lay1, cl1, cl2, chapel) > E 2 > S 1 -> N 5; B S 3 > E 2 -> S 5;
#   C E 5 (3 cloisters + 2 chapels) > N 4 -> E 5; D N 1 = S 1 -> both 5; E nobody: no one
#   (M-A12: a novice is needed).  N 10, E 5, S 10.
# chapels: N in A (1 monastery) -> 1; E in B, C (2) -> 3; S in A, B (2) -> 3.
# cloisters: N in A 2 x 2 cloister x 1 chapel = 4 (C: no cloister novice) -> 4;
#   E in C 2 x 3 x 2 = 12 (A, B: no cloister novice) -> 12; S no cloister novice -> 0.
# resources: N 3 tools + 2 x 1 book + (2 + 2 + 1) // 2 = 3 + 2 + 2 = 7;
#   E 0 + 2 x 2 + 1 // 2 = 4; S 1 + 0 + (3 + 3 + 3) // 2 = 1 + 4 = 5.
# totals: N 10 + 1 + 4 + 7 = 22; E 5 + 3 + 12 + 4 = 24; S 10 + 3 + 0 + 5 = 18.
HAND_COUNTED = {
    "N": {"majorities": 10, "chapels": 1, "cloisters": 4, "resources": 7},
    "E": {"majorities": 5, "chapels": 3, "cloisters": 12, "resources": 4},
    "S": {"majorities": 10, "chapels": 3, "cloisters": 0, "resources": 5},
}
TOTALS = {"N": 22, "E": 24, "S": 18}


def test_a_hand_counted_end_line_by_line():
    s = three_player_end()
    assert breakdown(s) == HAND_COUNTED
    ev: list = []
    final_scoring(s, ev)
    assert ev == [{"type": "final_score", "seat": seat, **HAND_COUNTED[seat],
                   "total": TOTALS[seat]} for seat in ("N", "E", "S")]
    # added to the prestige each seat had: N 40, E 31, S 0
    assert {x: s["players"][x]["prestige"] for x in s["seats"]} == {"N": 62, "E": 55, "S": 18}
    assert s["final"] == HAND_COUNTED


def test_without_the_novice_rule_an_empty_monastery_gives_everyone_its_majority():
    # M-A12 off: monastery E (nobody) is a three-way tie at 0: every seat +5
    s = three_player_end({"majority_needs_novice": False})
    got = breakdown(s)
    assert {x: got[x]["majorities"] for x in s["seats"]} == {"N": 15, "E": 10, "S": 15}
    assert {x: got[x] for x in s["seats"]} == {
        x: {**HAND_COUNTED[x], "majorities": HAND_COUNTED[x]["majorities"] + 5}
        for x in s["seats"]}


@pytest.mark.parametrize("monasteries,points", [(0, 0), (1, 1), (3, 6), (4, 10), (5, 15)])
def test_a_chapel_in_every_monastery_scores_the_tables_top(monasteries, points):
    # the chapel table: 0 1 3 6 10 15; one chapel novice each, no cloister novice (0 x n = 0);
    # each of those monasteries is N's alone (1 novice > 0): 5 each; no resources left
    s = new_game(2)
    for m in list(s["mon"])[:monasteries]:
        s["mon"][m]["chapel"] = ["N"]
    for seat in s["seats"]:
        s["players"][seat]["res"] = dict.fromkeys(s["players"][seat]["res"], 0)
    assert breakdown(s)["N"] == {"majorities": 5 * monasteries, "chapels": points,
                                 "cloisters": 0, "resources": 0}
    assert breakdown(s)["E"] == dict.fromkeys(("majorities", "chapels", "cloisters",
                                               "resources"), 0)

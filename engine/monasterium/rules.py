"""Monasterium's rules: `apply` and its handlers, phase by phase (pure; rules reference
../shared/rules/monasterium.md, §2-§12). The position and its helpers: state.py.

The state is plain JSON. Chance comes from the table: every roll is a ``roll`` action by
``"table"`` with the faces of the dice rolled (a dice reader, or entered by hand); without
faces the engine rolls with the game's seeded generator (the app's "let the app roll").
A turn in the action phase is ``take`` (dice from one dice space onto the column's action
tile) then one ``use`` per die; bonuses of the road ask their own decision first.
"""
from __future__ import annotations

from engine.api import Refused
from engine.monasterium import corrections, effects, missions
from engine.monasterium.moves import die_uses, extra_sends
from engine.monasterium.scoring import final_scoring
from engine.monasterium.state import (
    COLUMNS,
    RES,
    board,
    clone_player,
    column_of,
    deal_dice,
    effect_of,
    gain,
    hand,
    next_seat,
    on_space,
    order_from,
    roller,
    seeded_rng,
    set_die,
    takeable,
)

TABLE_ACTIONS = frozenset(("roll",))
HOST_ACTIONS = frozenset(("adjust", "correct"))
SEAT_ACTIONS = frozenset(("reroll", "place", "take", "use", "lose", "bonus", "extra_die",
                          "extra_novice"))


# ---- apply -------------------------------------------------------------------------------
def apply(state: dict, action) -> tuple[dict, list]:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise Refused("bad_action")
    if state["over"]:
        raise Refused("game_over")
    kind, by = action["type"], action.get("by")
    handler = HANDLERS.get(kind)
    if handler is None:
        raise Refused("unknown_action", action=str(kind)[:40])
    if kind == "roll" and by != "table" and by != roller(state):
        if roller(state) is None:
            raise Refused("nothing_to_roll")
        raise Refused("not_for_seat", seat=roller(state))  # the table or the rolling player
    if kind in SEAT_ACTIONS and by not in state["players"]:
        raise Refused("unknown_seat", seat=str(by)[:8])
    # a new state: what an action may change is copied, the rest shared (apply never
    # changes its input; the property tests check it at every step of random games)
    s = dict(state)
    s["place"] = {**state["place"], "reroll": None if state["place"]["reroll"] is None
                  else list(state["place"]["reroll"])}
    s["pending"] = [dict(p) for p in state["pending"]]
    turn = state["turn"]
    if turn is not None:
        s["turn"] = {**turn, "dice": list(turn["dice"]),
                     **({"flipped": list(turn["flipped"])} if "flipped" in turn else {})}
    s["dice"] = dict(state["dice"])  # each die replaced whole when it changes (`set_die`)
    # players: only the one acting (or corrected) is copied now; the others when a round
    # ends (`_own_players`); the monasteries only for what can send a novice or build glass
    s["players"] = dict(state["players"])
    who = action.get("seat") if by == "host" else by
    if who in s["players"]:
        s["players"][who] = clone_player(state["players"][who])
    s["mon"] = dict(state["mon"])  # a monastery is copied when it changes (own_monastery)
    ev: list = []
    handler(s, action, by, ev)
    missions.check(s, ev)
    return s, ev


def _pending_first(s, by) -> None:
    if s["pending"]:
        p = s["pending"][0]
        if p["seat"] == "table":  # a die the table rolls (a new personal die), no choice
            raise Refused("new_die_first", kind=p["kind"])
        raise Refused("decide_first", seat=p["seat"], kind=p["kind"])


# Phase 1 ----------------------------------------------------------------------------------
def _h_roll(s, a, by, ev) -> None:
    """The table rolls: the active player's dice in hand (or the reroll's subset, or a new
    personal die); ``faces`` {die id: 1-6}, or none to let the app roll."""
    if s["pending"] and s["pending"][0]["kind"] == "roll_extra":
        want = [s["pending"][0]["die"]]
    elif s["phase"] == "place" and not s["pending"]:
        seat = s["active"]
        want = s["place"]["reroll"] if s["place"]["reroll"] is not None else (
            [] if s["place"]["rolled"] else hand(s, seat))
        if not want:
            raise Refused("nothing_to_roll")
    else:
        raise Refused("nothing_to_roll")
    faces = a.get("faces")
    if faces is None:
        r = seeded_rng(s)
        faces = {d: r.randint(1, 6) for d in want}
    if not isinstance(faces, dict) or sorted(faces) != sorted(want):
        raise Refused("wrong_dice", need=", ".join(want))
    for f in faces.values():
        if type(f) is not int or not 1 <= f <= 6:
            raise Refused("bad_face", value=str(f)[:8])
    for d, f in sorted(faces.items()):
        set_die(s, d, face=f)
    ev.append({"type": "rolled", "seat": s["dice"][want[0]]["holder"],
               "faces": {d: faces[d] for d in sorted(faces)},
               "shown": ", ".join(str(f) for f in sorted(faces.values()))})
    if s["pending"] and s["pending"][0]["kind"] == "roll_extra":
        p = s["pending"].pop(0)
        set_die(s, p["die"], at="space")
        owner = s["dice"][p["die"]]["owner"]
        ev.append({"type": "die_placed", "seat": owner, "die": p["die"],
                   "space": faces[p["die"]]})
        _after_use(s, owner, ev)
        return
    s["place"]["rolled"] = True
    s["place"]["reroll"] = None


def _h_reroll(s, a, by, ev) -> None:
    if s["phase"] != "place" or by != s["active"] or not s["place"]["rolled"] \
            or s["place"]["reroll"] is not None:
        raise Refused("wrong_phase", phase=s["phase"])
    p = s["players"][by]
    if p["reroll_used"]:
        raise Refused("reroll_used")
    dice = a.get("dice")
    mine = hand(s, by)
    if not isinstance(dice, list) or not dice or any(d not in mine for d in dice) \
            or len(set(dice)) != len(dice):
        raise Refused("bad_field", field="dice")
    p["reroll_used"] = True
    s["place"]["reroll"] = sorted(dice)
    ev.append({"type": "reroll", "seat": by, "count": len(dice)})


def _h_place(s, a, by, ev) -> None:
    if s["phase"] != "place" or by != s["active"]:
        raise Refused("not_your_turn", seat=by, active=s["active"])
    if not s["place"]["rolled"] or s["place"]["reroll"] is not None:
        raise Refused("roll_first")
    face = a.get("face")
    showing = [d for d in hand(s, by) if s["dice"][d]["face"] == face]
    if type(face) is not int or not showing:
        raise Refused("no_die_shows", face=str(face)[:4])
    for d in showing:
        set_die(s, d, at="space")
    for d in hand(s, by):
        set_die(s, d, face=None)  # rolled again on the next turn
    ev.append({"type": "dice_placed", "seat": by, "space": face, "count": len(showing)})
    s["place"] = {"rolled": False, "reroll": None}
    for seat in order_from(s, by)[1:] + [by]:
        if hand(s, seat):
            s["active"] = seat
            return
    s["phase"] = "act"
    ev.append({"type": "actions_started"})
    _next_taker(s, s["first"], ev, include=True)


# Phase 2 ----------------------------------------------------------------------------------
def can_take(s, seat) -> bool:
    return any(takeable(s, seat, sp) for sp in range(1, 7))


def _next_taker(s, seat, ev, include=False) -> None:
    """The next player (clockwise) who can take a die; none: the round ends (M-A9)."""
    seats = order_from(s, seat) if include else order_from(s, seat)[1:] + [seat]
    for x in seats:
        if can_take(s, x):
            s["active"] = x
            s["turn"] = None
            return
        if any(d["at"] == "space" for d in s["dice"].values()):
            ev.append({"type": "skipped", "seat": x})
    _end_round(s, ev)


def _h_take(s, a, by, ev) -> None:
    if s["phase"] != "act" or by != s["active"] or s["turn"] is not None:
        raise Refused("not_your_turn", seat=by, active=s["active"])
    _pending_first(s, by)
    space, dice = a.get("space"), a.get("dice")
    if type(space) is not int or not 1 <= space <= 6:
        raise Refused("bad_field", field="space")
    there = on_space(s, space)
    if not isinstance(dice, list) or not dice or len(set(dice)) != len(dice) \
            or any(d not in there for d in dice):
        raise Refused("bad_field", field="dice")
    if any(s["dice"][d]["owner"] not in (None, by) for d in dice):
        raise Refused("not_your_die")
    most = 1 if space == 6 else 3
    if len(dice) > most:
        raise Refused("too_many_dice", most=most)
    mine_there = [d for d in there if s["dice"][d]["owner"] == by]
    taken_mine = [d for d in dice if s["dice"][d]["owner"] == by]
    if any(s["dice"][d]["owner"] is None for d in dice) and \
            len(taken_mine) < min(len(mine_there), most):
        raise Refused("personal_first")
    col = column_of(space) or a.get("column")
    if col not in COLUMNS:
        raise Refused("bad_field", field="column")
    for d in dice:
        set_die(s, d, at="tile", holder=by, col=col)
    s["turn"] = {"dice": sorted(dice), "col": col}
    s["players"][by]["once"] = []
    ev.append({"type": "dice_taken", "seat": by, "space": space, "count": len(dice),
               "column": col})
    if col in s["players"][by]["yellow"] and (space != 6 or
                                               s["options"]["joker_on_yellow_scores"]):
        gain(s, by, {"prestige": len(dice)}, ev, "yellow")


def _h_use(s, a, by, ev) -> None:
    """One die (or a road R1 extra action, ``die`` null) for one action of its column."""
    extra = a.get("die") is None
    if s["phase"] != "act" or by != s["active"]:
        raise Refused("not_your_turn", seat=by, active=s["active"])
    if extra:
        if not s["pending"] or s["pending"][0]["kind"] != "extra_action" \
                or s["pending"][0]["seat"] != by:
            raise Refused("bad_field", field="die")
        col = a.get("column")
        if col not in COLUMNS:
            raise Refused("bad_field", field="column")
    else:
        _pending_first(s, by)
        turn = s["turn"]
        die = a.get("die")
        if turn is None or die not in turn["dice"]:
            raise Refused("bad_field", field="die")
        col = turn["col"]
    act = a.get("act")
    eff = effect_of(s, by, col, act)
    if eff is None:
        raise Refused("action_closed", act=str(act)[:4], column=col)
    key = f"{act}:{col}" if act in ("II", "III") else None
    if extra and not s["options"]["extra_action_once_limits"]:
        key = None
    if key and key in s["players"][by]["once"]:
        raise Refused("once_per_turn", act=act, column=col)
    if not extra:
        s["turn"]["using"] = a["die"]
    effects.perform(s, by, eff, a, ev)
    if not extra:
        s["turn"].pop("using", None)
    if key:
        s["players"][by]["once"].append(key)
    if extra:
        s["pending"].pop(0)
    else:
        s["turn"]["dice"].remove(a["die"])
        set_die(s, a["die"], at="used")
        ev.append({"type": "die_used", "seat": by, "column": col, "act": act})
        if s["options"]["yellow_scores_twice"] and a["die"] in s["turn"].get("flipped", []):
            gain(s, by, {"prestige": 1}, ev, "yellow")
    _after_use(s, by, ev)


def _h_lose(s, a, by, ev) -> None:
    """A die with no possible action is lost (§5.2); refused while any action is possible."""
    if s["phase"] != "act" or by != s["active"] or s["turn"] is None:
        raise Refused("not_your_turn", seat=by, active=s["active"])
    _pending_first(s, by)
    die = a.get("die")
    if die not in s["turn"]["dice"]:
        raise Refused("bad_field", field="die")
    if die_uses(s, by, die, first_only=True):
        raise Refused("action_possible")
    s["turn"]["dice"].remove(die)
    set_die(s, die, at="used")
    ev.append({"type": "die_lost", "seat": by, "column": s["turn"]["col"]})
    _after_use(s, by, ev)


def _after_use(s, seat, ev) -> None:
    if s["pending"] or s["turn"] is None or s["turn"]["dice"]:
        return
    s["players"][seat]["once"] = []
    _next_taker(s, seat, ev)


def _h_bonus(s, a, by, ev) -> None:
    if not s["pending"] or s["pending"][0]["seat"] != by or \
            s["pending"][0]["kind"] not in ("road_bonus",):
        raise Refused("nothing_to_decide")
    p = s["pending"][0]
    effects.road_bonus(s, by, p["bonus"], a, ev)
    s["pending"].pop(0)
    _after_use(s, by, ev)


def _h_extra_die(s, a, by, ev) -> None:
    """R5: take the next personal die (rolled by the table at once) or +5 prestige."""
    if not s["pending"] or s["pending"][0]["seat"] != by or \
            s["pending"][0]["kind"] != "extra_die":
        raise Refused("nothing_to_decide")
    s["pending"].pop(0)
    p = s["players"][by]
    if a.get("take") is True and p["personal"] < board(s)["personal_dice_max"]:
        p["personal"] += 1
        die = f"{by}{p['personal']}"
        s["dice"][die] = {"owner": by, "holder": by, "at": "rolling", "face": None}
        s["pending"].insert(0, {"seat": "table", "kind": "roll_extra", "die": die})
        ev.append({"type": "extra_die", "seat": by, "die": die})
    else:
        gain(s, by, {"prestige": board(s)["extra_die_prestige"]}, ev, "road")
    _after_use(s, by, ev)


def _h_extra_novice(s, a, by, ev) -> None:
    """A completed row's extra novice: sent at once for free (§6.7), or forfeited."""
    if not s["pending"] or s["pending"][0]["seat"] != by or \
            s["pending"][0]["kind"] != "extra_novice":
        raise Refused("nothing_to_decide")
    row = s["pending"][0]["row"]
    if a.get("forfeit") is True:
        if extra_sends(s, by, row) and s["options"]["extra_novice_forfeit_only_if_stuck"]:
            raise Refused("action_possible")
        s["players"][by]["extras"].remove(row)
        ev.append({"type": "extra_forfeit", "seat": by, "row": row})
    else:
        effects.send(s, by, dict(a, novice=f"extra:{row}"), ev, discount=0, extra=True)
    s["pending"].pop(0)
    _after_use(s, by, ev)


def _h_adjust(s, a, by, ev) -> None:
    if by != "host":
        raise Refused("host_only")
    seat = a.get("seat")
    if seat not in s["players"]:
        raise Refused("unknown_seat", seat=str(seat)[:8])
    item, delta = a.get("item"), a.get("delta")
    if item not in RES + ("prestige",) or type(delta) is not int or not -20 <= delta <= 20:
        raise Refused("bad_field", field="delta")
    p = s["players"][seat]
    have = p["prestige"] if item == "prestige" else p["res"][item]
    if have + delta < 0:
        raise Refused("bad_field", field="delta")
    if item == "prestige":
        p["prestige"] += delta
    else:
        p["res"][item] += delta
    ev.append({"type": "adjusted", "seat": seat, "item": item, "delta": delta,
               "after": have + delta, "reason": str(a.get("reason", ""))[:120]})


# End of round, year and game --------------------------------------------------------------
def _own_players(s) -> None:
    """Copy the players not copied yet by `apply` (a round's end changes them all)."""
    s["players"] = {seat: clone_player(p) for seat, p in s["players"].items()}


def _end_round(s, ev) -> None:
    _own_players(s)
    # what the round's last action completed is claimed in its own year, before the final
    # scoring (the check after every action comes too late for that action)
    missions.check(s, ev)
    ev.append({"type": "round_ended", "year": s["year"], "round": s["round"]})
    s["turn"] = None
    if s["round"] >= len(s["seats"]):
        if s["year"] >= board(s)["years"]:
            final_scoring(s, ev)
            s["phase"], s["over"], s["active"] = "over", True, None
            ev.append({"type": "game_over"})
            return
        s["year"] += 1
        s["round"] = 1
        ev.append({"type": "year_started", "year": s["year"]})
    else:
        s["round"] += 1
    s["first"] = next_seat(s, s["first"])
    for p in s["players"].values():
        p["reroll_used"] = False
        p["once"] = []
    deal_dice(s)
    s["phase"], s["active"] = "place", s["first"]
    s["place"] = {"rolled": False, "reroll": None}
    ev.append({"type": "round_started", "year": s["year"], "round": s["round"],
               "first": s["first"]})


def _h_correct(s, a, by, ev) -> None:
    corrections.correct(s, a, by, ev)


HANDLERS = {"correct": _h_correct, "roll": _h_roll, "reroll": _h_reroll, "place": _h_place,
            "take": _h_take,
            "use": _h_use, "lose": _h_lose, "bonus": _h_bonus, "extra_die": _h_extra_die,
            "extra_novice": _h_extra_novice, "adjust": _h_adjust}

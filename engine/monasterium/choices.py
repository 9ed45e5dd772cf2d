"""Every legal decision now, with cost and effect (the phone's menu), and a random legal
action (property tests). Choices are enumerated per die: the same die of a column has the
same actions, so one die's list is the menu ("this die is lost" only when it is empty)."""
from __future__ import annotations

from itertools import combinations

from engine.api import Choice, Refused
from engine.monasterium import effects, moves, rules, state


def _ok(action, cost=None, effect=None):
    return Choice(action, cost or {}, effect or {})


def choices(s, seat) -> list:
    if s["over"]:
        return []
    if s["pending"]:
        return _pending_choices(s, seat, s["pending"][0])
    if seat == "table":
        if s["phase"] == "place" and (not s["place"]["rolled"] or s["place"]["reroll"]):
            return [_ok({"type": "roll", "by": "table"})]
        return []
    if seat != s["active"]:
        return []
    if s["phase"] == "place":
        if not s["place"]["rolled"] or s["place"]["reroll"] is not None:
            return []
        mine = state.hand(s, seat)
        faces = sorted({s["dice"][d]["face"] for d in mine})
        out = [_ok({"type": "place", "by": seat, "face": f}, {},
                   {"dice": sum(s["dice"][d]["face"] == f for d in mine)}) for f in faces]
        if not s["players"][seat]["reroll_used"]:
            out.append(_ok({"type": "reroll", "by": seat, "dice": mine}))
        return out
    if s["turn"] is None:
        return _takes(s, seat)
    die = s["turn"]["dice"][0]
    uses = moves.die_uses(s, seat, die)
    if not uses:
        return [_ok({"type": "lose", "by": seat, "die": die})]
    memo: dict = {}
    return [_use_choice(s, seat, a, memo) for a in uses]


def _use_choice(s, seat, a, memo: dict | None = None) -> Choice:
    """A use with what it brings in words the phone shows (the catalog's effect).
    ``memo``: kept over one menu, where many sends share the column's action."""
    col = a.get("column") or s["turn"]["col"]
    if memo is None:
        eff = state.effect_of(s, seat, col, a["act"]) or {}
    else:
        eff = memo.get((col, a["act"]))
        if eff is None:
            eff = memo[(col, a["act"])] = state.effect_of(s, seat, col, a["act"]) or {}
    effect = {"kind": eff.get("kind")}
    if eff.get("kind") == "gain":
        effect.update(eff["items"])
    elif eff.get("kind") == "prestige":
        effect["prestige"] = eff["amount"]
    elif eff.get("kind") == "two_of_kind":
        effect[a["item"]] = eff["amount"]
    elif eff.get("kind") == "messenger":
        effect["steps"] = eff["steps"]
    cost = {}
    if a.get("novice"):
        row = a["novice"].split(":")[0]
        cost = effects.send_cost(s, seat, row, a["to"], eff.get("discount", 0), a["monastery"])
        effect = _send_gives(s, a)
    elif eff.get("kind") == "swap":
        cost = {a["from"]: 1}
        effect[a["to"]] = 1
    return _ok(a, cost, effect)


def _send_gives(s, a) -> dict:
    """What a send brings at once and what it opens: a building's reward (a common hall's
    tile too), the column's tile turning yellow (a cloister), the alternative action of the
    novice's own space (rows I-III)."""
    row, col = a["novice"].split(":", 1)
    effect: dict = {"kind": "send"}
    building = s["cat"]["buildings"].get(a["to"])
    if building is not None:
        effect.update(state.board(s)["building_reward"][building["type"]])
    elif a["to"] != "chapel" and row != "extra":
        effect["yellow"] = col
    if row in ("I", "II", "III"):
        effect["opens"] = f"{row}:{col}"
    return effect


def _takes(s, seat) -> list:
    out = []
    placed: dict = {}  # space -> the dice on it (`state.on_space` of every space, one pass)
    for d, x in s["dice"].items():
        if x["at"] == "space":
            placed.setdefault(x["face"], []).append(d)
    for space in range(1, 7):
        can = [d for d in sorted(placed.get(space, ()))
               if s["dice"][d]["owner"] in (None, seat)]  # (`state.takeable`)
        if not can:
            continue
        mine = [d for d in can if s["dice"][d]["owner"] == seat]
        neutral = [d for d in can if s["dice"][d]["owner"] is None]
        ordered = mine + neutral  # personal first
        most = 1 if space == 6 else 3
        for k in range(1, min(most, len(ordered)) + 1):
            dice = ordered[:k]
            if space == 6:
                for col in state.COLUMNS:
                    out.append(_ok({"type": "take", "by": seat, "space": 6, "dice": dice,
                                    "column": col}))
            else:
                out.append(_ok({"type": "take", "by": seat, "space": space, "dice": dice},
                               {}, {"column": state.column_of(space), "actions": k}))
    return out


def _pending_choices(s, seat, p) -> list:
    if p["seat"] != seat:
        return []
    if p["kind"] == "roll_extra":
        return [_ok({"type": "roll", "by": "table"})]
    if p["kind"] == "extra_die":
        return [_ok({"type": "extra_die", "by": seat, "take": True}),
                _ok({"type": "extra_die", "by": seat, "take": False}, {}, {"prestige": 5})]
    if p["kind"] == "extra_action":
        out = []
        memo: dict = {}
        for c in state.COLUMNS:
            out += [_use_choice(s, seat, a, memo)
                    for a in moves.die_uses(s, seat, None, column=c)]
        return out
    if p["kind"] == "extra_novice":
        got = [_ok({"type": "extra_novice", "by": seat, **x})
               for x in moves.extra_sends(s, seat, p["row"])]
        if not got or not s["options"]["extra_novice_forfeit_only_if_stuck"]:
            got.append(_ok({"type": "extra_novice", "by": seat, "forfeit": True}))
        return got
    bonus = p["bonus"]
    if bonus == "R2":
        return [_ok({"type": "bonus", "by": seat, "choice": c}, {}, {c: 1})
                for c in ("influence", "rosary")]
    if bonus == "R3":
        res = s["players"][seat]["res"]
        out = [_ok({"type": "bonus", "by": seat, "choice": "soup"}, {}, {"soup": 1})]
        if res["soup"]:
            out.append(_ok({"type": "bonus", "by": seat, "choice": "soup_tool"}))
        if res["tool"]:
            out.append(_ok({"type": "bonus", "by": seat, "choice": "tool_book"}))
        return out
    tiles = [_ok({"type": "bonus", "by": seat, "choice": "tile", **g})
             for g in moves.glass_params(s, seat, list(s["mon"]))]
    return tiles or [_ok({"type": "bonus", "by": seat, "choice": "none"})]


def preview(s, action):
    try:
        _, ev = rules.apply(s, action)
    except Refused:
        return None
    return {"events": ev}


def whose_turn(s) -> str | None:
    if s["over"]:
        return None
    if s["pending"]:
        return s["pending"][0]["seat"]
    if s["phase"] == "place" and (not s["place"]["rolled"] or s["place"]["reroll"]):
        return "table"
    return s["active"]


def random_action(s, rnd) -> dict:
    seat = whose_turn(s)
    opts = [c.action for c in choices(s, seat)]
    if seat != "table" and s["phase"] == "place" and not s["pending"]:
        rerolls = [a for a in opts if a["type"] == "reroll"]
        if rerolls and rnd.random() < 0.2:
            dice = rerolls[0]["dice"]
            k = rnd.randint(1, len(dice))
            return dict(rerolls[0], dice=sorted(rnd.choice(list(combinations(dice, k)))))
        opts = [a for a in opts if a["type"] != "reroll"] or opts
    return rnd.choice(opts)

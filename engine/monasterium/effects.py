"""What an action does (the player board's effects, §5.3, §6-§8): resources, swaps, the
messenger and its road bonuses, sending a novice, a stained-glass tile into the window."""
from __future__ import annotations

from engine.api import Refused
from engine.monasterium import state


def perform(s, seat, eff: dict, a: dict, ev: list) -> None:
    kind = eff["kind"]
    if kind == "gain":
        state.gain(s, seat, eff["items"], ev, "action")
    elif kind == "prestige":
        state.gain(s, seat, {"prestige": eff["amount"]}, ev, "action")
    elif kind == "two_of_kind":
        item = a.get("item")
        if item not in eff["items"]:
            raise Refused("bad_field", field="item")
        state.gain(s, seat, {item: eff["amount"]}, ev, "action")
    elif kind == "swap":
        swap(s, seat, eff["pairs"], a, ev)
    elif kind == "messenger":
        move(s, seat, eff["steps"], ev)
    elif kind == "send":
        send(s, seat, a, ev, discount=eff.get("discount", 0))
    elif kind == "glass":
        m = a.get("monastery")
        if m not in s["mon"] or seat not in s["mon"][m]["chapel"]:
            raise Refused("no_chapel_novice", monastery=str(m)[:4])
        if not glass(s, seat, m, a.get("row"), a.get("bonus"), ev):
            raise Refused("window_full_for", monastery=m)
    else:  # pragma: no cover - the catalog's schema allows only the kinds above
        raise Refused("bad_action")


def swap(s, seat, pairs, a, ev) -> None:
    pair = [a.get("from"), a.get("to")]
    if pair not in pairs:
        raise Refused("bad_field", field="from")
    state.pay(s, seat, {pair[0]: 1}, ev, "swap")
    state.gain(s, seat, {pair[1]: 1}, ev, "swap")


# ---- the messenger --------------------------------------------------------------------
def move(s, seat, steps: int, ev) -> None:
    """Forward ``steps`` spaces, looping after the last; every bonus space passed or reached
    asks its decision (R5 = the last space: a new personal die or +5)."""
    p = s["players"][seat]
    length = s["cat"]["road_length"]
    for step in range(1, steps + 1):
        p["road"] = p["road"] % length + 1
        bonus = s["cat"]["road"][str(p["road"])].get("bonus")
        if bonus == "R5" and step < steps and not s["options"]["new_die_when_passing"]:
            continue  # M-A13's other reading: only a messenger stopping there
        if bonus == "R5":
            if p["personal"] >= state.board(s)["personal_dice_max"]:
                state.gain(s, seat, {"prestige": state.board(s)["extra_die_prestige"]}, ev, "road")
            else:
                s["pending"].append({"seat": seat, "kind": "extra_die"})
        elif bonus == "R1":
            s["pending"].append({"seat": seat, "kind": "extra_action"})
        elif bonus:
            s["pending"].append({"seat": seat, "kind": "road_bonus", "bonus": bonus})
    ev.append({"type": "messenger", "seat": seat, "space": p["road"], "steps": steps})


def road_bonus(s, seat, bonus: str, a: dict, ev) -> None:
    choice = a.get("choice")
    if bonus == "R2":
        if choice not in ("influence", "rosary"):
            raise Refused("bad_field", field="choice")
        state.gain(s, seat, {choice: 1}, ev, "road")
    elif bonus == "R3":
        if choice == "soup":
            state.gain(s, seat, {"soup": 1}, ev, "road")
        elif choice in ("soup_tool", "tool_book"):
            give, get = choice.split("_")
            state.pay(s, seat, {give: 1}, ev, "road")
            state.gain(s, seat, {get: 1}, ev, "road")
        else:
            raise Refused("bad_field", field="choice")
    elif bonus == "R4":
        if choice == "none":
            if glass_options(s, seat, any_monastery=True):
                raise Refused("action_possible")
            ev.append({"type": "bonus_lost", "seat": seat, "bonus": bonus})
            return
        m = a.get("monastery")
        if m not in s["mon"] or not glass(s, seat, m, a.get("row"), a.get("bonus"), ev):
            raise Refused("window_full_for", monastery=str(m)[:4])
    else:
        raise Refused("bad_field", field="bonus")


# ---- the cathedral window ---------------------------------------------------------------
def window_cell(s, seat, m: str, row) -> int | None:
    """The cell a tile of monastery ``m`` takes in ``row`` (leftmost empty), if legal."""
    if type(row) is not int or row not in (0, 1, 2):  # (JSON true is no row)
        return None
    w = s["players"][seat]["window"]
    if None not in w[row]:
        return None
    col = w[row].index(None)
    if m in w[row] or any(w[r][col] == m for r in range(3)):
        return None
    return col


def glass(s, seat, m: str, row, bonus, ev) -> bool:
    """Take a tile of ``m`` and build it in ``row`` with the row's or column's bonus.
    False (nothing taken) when the monastery has none left or the cell is not legal."""
    if s["mon"][m]["glass"] <= 0:
        return False
    col = window_cell(s, seat, m, row)
    if col is None:
        return False
    if bonus not in ("row", "column"):
        raise Refused("bad_field", field="bonus")
    w = s["players"][seat]["window"]
    w[row][col] = m
    state.own_monastery(s, m)["glass"] -= 1
    ev.append({"type": "glass", "seat": seat, "monastery": m, "row": row, "column": col})
    win = state.board(s)["window"]
    got = win["row_bonus"][row] if bonus == "row" else win["column_bonus"][col]
    for k, v in got.items():
        if k == "messenger":
            move(s, seat, v, ev)
        else:
            state.gain(s, seat, {k: v}, ev, "window")
    if None not in w[row]:
        state.gain(s, seat, {"prestige": win["rows"][row]}, ev, "window_row")
    if all(w[r][col] is not None for r in range(3)):
        state.gain(s, seat, {"prestige": win["columns"][col]}, ev, "window_column")
    return True


# ---- sending a novice ---------------------------------------------------------------------
def access(s, seat, m: str) -> bool:
    p = s["players"][seat]
    return m in s["cat"]["road"][str(p["road"])]["monasteries"] or seat in s["mon"][m]["chapel"]


def send_cost(s, seat, row: str, dest: str, discount: int, monastery: str | None = None) -> dict:
    p = s["players"][seat]
    b = state.board(s)
    if row == "extra":
        return {}
    if dest == "chapel":
        sent = p["chapel_sent"]
        if s["options"]["chapel_cost"] == "per_chapel" and monastery is not None:
            sent = s["mon"][monastery]["chapel"].count(seat)
        cost = b["chapel_cost"][min(sent, len(b["chapel_cost"]) - 1)]
        return {"influence": max(0, cost - discount)}
    if dest in s["cat"]["buildings"]:
        kind = s["cat"]["buildings"][dest]["type"]
        return {"influence": max(0, 1 - discount),
                b["building_resource"][kind]: b["building_cost"][row]}
    cost = b["cloister_cost"][min(p["cloister_sent"], len(b["cloister_cost"]) - 1)]
    return {"rosary": cost}


def send_refusal(s, seat, novice, m, dest, discount: int = 0, extra: bool = False
                 ) -> Refused | None:
    """Why this send is not possible now (None: it is). ``extra``: the send is a completed
    row's bonus (§6.7), the only way an extra novice is sent (M-A21)."""
    refused = novice_refusal(s, seat, novice, extra)
    if refused is not None:
        return refused
    return place_refusal(s, seat, novice.split(":", 1)[0], m, dest, discount)


def novice_refusal(s, seat, novice, extra: bool = False) -> Refused | None:
    """Why ``novice`` cannot be sent at all (not one of the seat's, or an extra novice sent
    by a die: M-A21, extra novices only via §6.7): `send_refusal`'s first checks."""
    p = s["players"][seat]
    if not isinstance(novice, str) or ":" not in novice:
        return Refused("bad_field", field="novice")
    row, col = novice.split(":", 1)
    if row == "extra":
        if not extra or col not in p["extras"]:
            return Refused("no_novice", novice=novice[:12])
    elif row not in state.ROWS or col not in p["novices"][row]:
        return Refused("no_novice", novice=novice[:12])
    return None


def place_refusal(s, seat, row: str, m, dest, discount: int = 0) -> Refused | None:
    """Why one of the seat's novices of ``row`` cannot go to ``dest`` of monastery ``m``:
    `send_refusal`'s other checks, the same for every novice of the row."""
    p = s["players"][seat]
    if m not in s["mon"]:
        return Refused("bad_field", field="monastery")
    if not access(s, seat, m):
        return Refused("no_access", monastery=m)
    mon = s["mon"][m]
    if dest == "chapel":
        if row not in ("III", "extra"):
            return Refused("wrong_row", row=row, place="chapel")
        if len(mon["chapel"]) >= 2 * len(s["seats"]):
            return Refused("chapel_full", monastery=m)
    elif dest in mon["buildings"]:
        if row not in ("I", "II", "extra"):
            return Refused("wrong_row", row=row, place="building")
        if mon["buildings"][dest] is not None:
            return Refused("space_taken", space=dest)
    elif dest in mon["cloister"]:
        if row not in ("IV", "extra"):
            return Refused("wrong_row", row=row, place="cloister")
        if mon["cloister"][dest] is not None:
            return Refused("space_taken", space=dest)
        mine = [b for b, who in mon["buildings"].items() if who == seat]
        if not any(dest in s["cat"]["buildings"][b]["cloister"] for b in mine):
            return Refused("no_supporter", space=dest)
    else:
        return Refused("bad_field", field="to")
    cost = send_cost(s, seat, "extra" if row == "extra" else row, dest, discount, m)
    for k, v in cost.items():
        if p["res"][k] < v:
            return Refused("cannot_afford", item=k, need=v, have=p["res"][k])
    return None


def _tile_refusal(s, seat, a, m, dest) -> Refused | None:
    """A building whose reward is a tile (a common hall) needs a cell for it when the window
    can take one: the tile is built at once (§8) and lost only when it cannot be (M-A19),
    so a missing or impossible cell is refused, never taken as giving the tile up."""
    building = s["cat"]["buildings"].get(dest)
    if building is None or not state.board(s)["building_reward"][building["type"]].get("glass") \
            or not glass_options(s, seat, [m]):
        return None
    if window_cell(s, seat, m, a.get("row")) is None:
        return Refused("bad_field", field="row")
    if a.get("bonus") not in ("row", "column"):
        return Refused("bad_field", field="bonus")
    return None


def send(s, seat, a, ev, discount: int = 0, extra: bool = False) -> None:
    novice, m, dest = a.get("novice"), a.get("monastery"), a.get("to")
    refused = send_refusal(s, seat, novice, m, dest, discount, extra) or \
        _tile_refusal(s, seat, a, m, dest)
    if refused:
        raise refused
    p = s["players"][seat]
    row, col = novice.split(":", 1)
    state.pay(s, seat, send_cost(s, seat, row, dest, discount, m), ev, "send")
    if row == "extra":
        p["extras"].remove(col)
    else:
        p["novices"][row].remove(col)
    p["sent"] += 1
    mon = state.own_monastery(s, m)
    place = "chapel" if dest == "chapel" else (
        s["cat"]["buildings"][dest]["type"] if dest in mon["buildings"] else "cloister")
    ev.append({"type": "novice_sent", "seat": seat, "novice": novice, "monastery": m,
               "to": dest, "place": place})
    counts = row != "extra" or s["options"]["extra_novice_counts_cost"]
    if dest == "chapel":
        mon["chapel"].append(seat)
        if counts:
            p["chapel_sent"] += 1
    elif dest in mon["buildings"]:
        mon["buildings"][dest] = seat
        kind = s["cat"]["buildings"][dest]["type"]
        reward = dict(state.board(s)["building_reward"][kind])
        tile = reward.pop("glass", 0)
        state.gain(s, seat, reward, ev, "building")
        if tile and not glass(s, seat, m, a.get("row"), a.get("bonus"), ev):
            ev.append({"type": "glass_lost", "seat": seat, "monastery": m})
    else:
        mon["cloister"][dest] = seat
        if counts:
            p["cloister_sent"] += 1
        if row != "extra":
            _flip(s, seat, col, ev)
    if row != "extra" and not p["novices"][row] and row in p["extras"]:
        s["pending"].append({"seat": seat, "kind": "extra_novice", "row": row})


def _flip(s, seat, col: str, ev) -> None:
    """The row-IV novice of a column left: its action tile turns yellow (§7.2); the dice
    still on it score at once."""
    p = s["players"][seat]
    if col in p["yellow"]:
        return
    p["yellow"].append(col)
    ev.append({"type": "tile_yellow", "seat": seat, "column": col})
    turn = s["turn"]
    if turn and turn["col"] == col and turn["dice"]:
        # the dice still lying on the tile: not the one being used now
        on_tile = [d for d in turn["dice"] if d != turn.get("using")]
        if on_tile:
            state.gain(s, seat, {"prestige": len(on_tile)}, ev, "yellow")
            turn["flipped"] = on_tile  # M-A7's literal reading scores them again when used


def glass_options(s, seat, monasteries=None, any_monastery=False) -> list:
    """(monastery, row) where a tile can be built now."""
    ms = list(s["mon"]) if any_monastery or monasteries is None else monasteries
    return [(m, row) for m in ms for row in range(3)
            if s["mon"][m]["glass"] > 0 and window_cell(s, seat, m, row) is not None]

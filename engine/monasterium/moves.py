"""The legal parameters of a die's use and of a novice's send, enumerated from the position
(without trying them): what `rules` asks when a die may be lost or an extra novice forfeited,
and what `choices` offers and tries."""
from __future__ import annotations

from engine.monasterium import effects, state


def glass_params(s, seat, ms) -> list:
    return [{"monastery": m, "row": row, "bonus": b}
            for m, row in effects.glass_options(s, seat, ms) for b in ("row", "column")]


def sends(s, seat, discount=0, novices=None, extra=False) -> list:
    """Every legal send: novice x monastery x destination (+ the tile of a common hall).
    Whether a place takes a novice depends on its row only (`effects.place_refusal`), so it
    is asked once per row, monastery and place, not once per novice."""
    p = s["players"][seat]
    if novices is None:
        novices = [f"{r}:{c}" for r in state.ROWS for c in p["novices"][r]]
    open_to = [m for m in s["mon"] if effects.access(s, seat, m)]
    places: dict = {}  # row -> [(monastery, [(place, its base action's tail)])]
    tiles: dict = {}  # monastery -> the glass tiles of a common hall there
    out = []
    for nov in novices:
        if effects.novice_refusal(s, seat, nov, extra) is not None:
            continue
        row = nov.split(":")[0]
        found = places.get(row)
        if found is None:
            found = places[row] = _places(s, seat, row, open_to, discount)
        for m, dests in found:
            for dest, hall in dests:
                base = {"novice": nov, "monastery": m, "to": dest}
                if hall:
                    got = tiles.get(m)
                    if got is None:
                        got = tiles[m] = glass_params(s, seat, [m])
                    out += [dict(base, **t) for t in got] or [base]
                else:
                    out.append(base)
    return out


def _places(s, seat, row, open_to, discount) -> list:
    """Where a novice of ``row`` may go: [(monastery, [(place, is a common hall)])]."""
    found = []
    for m in open_to:
        mon = s["mon"][m]
        dests = []
        if row in ("I", "II", "extra"):
            dests += [b for b, who in mon["buildings"].items() if who is None]
        if row in ("III", "extra"):
            dests.append("chapel")
        if row in ("IV", "extra"):
            dests += [c for c, who in mon["cloister"].items() if who is None]
        found.append((m, [(dest, s["cat"]["buildings"].get(dest, {}).get("type") == "hall")
                          for dest in dests
                          if effects.place_refusal(s, seat, row, m, dest, discount) is None]))
    return found


def extra_sends(s, seat, row) -> list:
    return sends(s, seat, novices=[f"extra:{row}"], extra=True)


def _effect_params(s, seat, eff) -> list:
    k = eff["kind"]
    p = s["players"][seat]
    if k in ("gain", "prestige", "messenger"):
        return [{}]
    if k == "two_of_kind":
        return [{"item": i} for i in eff["items"]]
    if k == "swap":
        return [{"from": a, "to": b} for a, b in eff["pairs"] if p["res"][a] >= 1]
    if k == "send":
        return sends(s, seat, discount=eff.get("discount", 0))
    if k == "glass":
        ms = [m for m in s["mon"] if seat in s["mon"][m]["chapel"]]
        return glass_params(s, seat, ms)
    return []


def die_uses(s, seat, die, first_only=False, column=None) -> list:
    """Every legal ``use`` of ``die`` (or of an R1 extra action in ``column``)."""
    col = column or s["turn"]["col"]
    p = s["players"][seat]
    out = []
    cols = [column] if column else [col]
    for c in cols:
        for act in ("std", "I", "II", "III"):
            eff = state.effect_of(s, seat, c, act)
            limited = die is not None or s["options"]["extra_action_once_limits"]
            if eff is None or (limited and act in ("II", "III") and f"{act}:{c}" in p["once"]):
                continue
            for params in _effect_params(s, seat, eff):
                a = {"type": "use", "by": seat, "die": die, "act": act, **params}
                if die is None:
                    a["column"] = c
                out.append(a)
                if first_only:
                    return out
    return out

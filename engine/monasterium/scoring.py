"""Final scoring (§12): majorities, chapels, cloisters, leftover resources."""
from __future__ import annotations

from engine.monasterium.missions import novices_in


def breakdown(s) -> dict:
    b = s["cat"]["board"]
    out: dict = {seat: {"majorities": 0} for seat in s["seats"]}  # the rest set below
    for m in s["mon"]:
        counts = {seat: novices_in(s, seat, m, "any") for seat in s["seats"]}
        best = max(counts.values())
        if best >= 1 or not s["options"]["majority_needs_novice"]:  # M-A12; ties all score
            for seat, n in counts.items():
                if n == best:
                    out[seat]["majorities"] += b["majority_points"]
    for seat in s["seats"]:
        p = s["players"][seat]
        with_chapel = [m for m in s["mon"] if seat in s["mon"][m]["chapel"]]
        out[seat]["chapels"] = b["chapel_points"][min(len(with_chapel),
                                                      len(b["chapel_points"]) - 1)]
        out[seat]["cloisters"] = sum(2 * novices_in(s, seat, m, "cloister") *
                                     novices_in(s, seat, m, "chapel") for m in s["mon"])
        r = p["res"]
        out[seat]["resources"] = r["tool"] + 2 * r["book"] + \
            (r["influence"] + r["soup"] + r["rosary"]) // 2
    return out


def final_scoring(s, ev: list) -> None:
    parts = breakdown(s)
    for seat, got in parts.items():
        total = sum(got.values())
        s["players"][seat]["prestige"] += total
        ev.append({"type": "final_score", "seat": seat, **got, "total": total})
    s["final"] = parts

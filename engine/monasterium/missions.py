"""Missions (§9): checked after every action; a completed mission is claimed at once (M-A14:
claiming never costs anything and A/B pay less later, so the app claims for the player)."""
from __future__ import annotations


def novices_in(s, seat, m: str, area: str) -> int:
    mon = s["mon"][m]
    n = {"building": sum(who == seat for who in mon["buildings"].values()),
         "chapel": mon["chapel"].count(seat),
         "cloister": sum(who == seat for who in mon["cloister"].values())}
    return sum(n.values()) if area == "any" else n[area]


def done(s, seat, mission: dict) -> bool:
    p = s["players"][seat]
    if mission["type"] in ("A", "B"):
        return novices_in(s, seat, mission["monastery"], mission["area"]) >= mission["count"]
    cond = mission["condition"]
    if cond == "sent_12":
        return p["sent"] >= 12
    if cond == "halls_3":
        return sum(who == seat for b, who in _buildings(s)
                   if s["cat"]["buildings"][b]["type"] == "hall") >= 3
    if cond == "cloisters_6":
        return sum(who == seat for mon in s["mon"].values()
                   for who in mon["cloister"].values()) >= 6
    if cond == "window_5":
        return len({c for row in p["window"] for c in row if c}) >= 5
    if cond == "dice_3":
        return p["personal"] >= 3
    return False


def _buildings(s):
    return [(b, who) for mon in s["mon"].values() for b, who in mon["buildings"].items()]


# What can complete a mission: a novice placed, a tile built, a new personal die.
PROGRESS = frozenset(("novice_sent", "glass", "extra_die"))


def check(s, ev: list) -> None:
    """Claim what the players whose position moved on have just completed."""
    if s.get("over"):
        return
    seats = {e["seat"] for e in ev if e.get("type") in PROGRESS}
    for mid in s["missions"]:
        mission = s["cat"]["missions"][mid]
        for seat in sorted(seats, key=s["seats"].index):
            p = s["players"][seat]
            if mid in p["claimed"] or not done(s, seat, mission):
                continue
            points = mission["points"][s["year"] - 1] if mission["type"] in ("A", "B") \
                else mission["points"]
            p["claimed"][mid] = s["year"]
            p["prestige"] += points
            ev.append({"type": "mission", "seat": seat, "mission": mid, "points": points})

"""The game's sequence: rounds (§3), chapter end (§5), game end (§8).

The state holds a ``queue`` of steps. Automatic steps run at once; an ``await`` step stops
the game until the action it names arrives (a card revealed, a rotation chosen, a card
played, a trade answered, ...). `advance` runs automatic steps until the queue's head is an
await. Rules that need a decision push await steps at the head of the queue.
"""
from __future__ import annotations

from engine.wwe import effects, projects
from engine.wwe import state as st
from engine.wwe.steps import await_step, push_front


def advance(s: dict, ev: list) -> None:
    """Run automatic steps until a decision is owed or the game is over."""
    while s["queue"]:
        step = s["queue"][0]
        if step["do"] == "await":
            if not moot(s, step, ev):
                return
            s["queue"].pop(0)
            continue
        s["queue"].pop(0)
        do = step["do"]
        if do == "effect":
            effects.run_effect(s, step, ev)
        elif do == "actions":
            start_actions(s, ev)
        elif do == "end_round":
            end_round(s, ev)
        elif do == "chapter_end":
            chapter_end(s, ev)
        elif do == "after_duties":
            after_duties(s, ev)
        else:  # pragma: no cover - a programming error, never data
            raise ValueError(f"unknown step {do}")


def moot(s: dict, step: dict, ev: list) -> bool:
    """An owed decision with nothing to decide is skipped (a Hospital donor with nobody
    curable, a free house with no legal site)."""
    if step["kind"] == "cure" and not projects.curable(s, step["seat"]):
        ev.append({"type": "cure_skipped", "seat": step["seat"]})
        return True
    if step["kind"] == "place_free_house" and not projects.can_place_any_house(s, step["seat"]):
        ev.append({"type": "free_house_skipped", "seat": step["seat"]})
        return True
    return (step["kind"] == "return_houses" and step["seat"] != "table"
            and not s["players"][step["seat"]]["houses"])


def setup(catalog: dict, setup: dict) -> dict:
    """A new game (state.new_game) with its first chapter started, up to the first decision."""
    s = st.new_game(catalog, setup)
    start_chapter(s, [], first=True)
    advance(s, [])
    return s


# ---------------------------------------------------------------- chapters and rounds

def start_chapter(s: dict, ev: list, first: bool = False) -> None:
    """E9: everyone takes all cards back; round 1 with any pending punishments."""
    s["round"] = 1
    for seat in s["seats"]:
        st.deal_hand(s, seat)
    ev.append({"type": "chapter_started", "chapter": s["chapter"]})
    start_round(s, ev)


def start_round(s: dict, ev: list) -> None:
    s["round_flags"] = {seat: {} for seat in s["seats"]}
    s["round_trades"] = []
    s["round_mods"] = []
    s["rotation"] = None
    s["event"] = None
    records = []
    if s["round"] == 1:
        for seat in s["seats"]:
            player = s["players"][seat]
            flags = s["round_flags"][seat]
            for p in player["punish"]:
                flags[p] = True
            if "penance" in player["punish"]:
                if s["options"]["random_discards"] == "app":
                    penance(s, seat, ev)
                else:  # the table draws the card and records it
                    records.append(await_step("record_discard", seat))
            player["punish"] = []
    ev.append({"type": "round_started", "chapter": s["chapter"], "round": s["round"],
               "active": s["active"]})
    s["queue"] = records + [await_step("reveal_event", s["active"])]


def penance(s: dict, seat: str, ev: list) -> None:
    """§5.5 / A-11: one random card of the hand goes face down at the start of round 1."""
    player = s["players"][seat]
    if not player["hand"]:
        return
    card = st.rng(s).choice(sorted(player["hand"]))
    player["hand"].remove(card)
    player["discards"].append(card)
    ev.append({"type": "penance_discard", "seat": seat})
    ev.append({"type": "penance_card", "seat": seat, "card": card, "private": seat})


def start_actions(s: dict, ev: list) -> None:
    """Step 5: each player plays one card, clockwise from the active player (R3.6.1)."""
    steps = [await_step("play_card", seat) for seat in st.clockwise_from(s, s["active"])]
    push_front(s, steps)


def end_round(s: dict, ev: list) -> None:
    """§3.7: file a permanent event; pass the start player; next round or chapter end."""
    s["vp_history"] = s.get("vp_history", []) + [
        {"chapter": s["chapter"], "round": s["round"],
         "vp": {seat: s["players"][seat]["vp"] for seat in s["seats"]}}]
    card = s["event"]
    if card:
        if s["cat"]["events"][card].get("permanent"):
            s["slots"].append(card)
            if len(s["slots"]) > 2:
                gone = s["slots"].pop(0)
                ev.append({"type": "permanent_discarded", "card": gone})
                s["targets"].pop(gone, None)
        else:
            s["council"].append(card)
    s["event"] = None
    if s["round"] < 6:
        pass_start_player(s, ev)
        s["round"] += 1
        start_round(s, ev)
        return
    if s["options"]["extra_start_pass_at_chapter_end"]:
        pass_start_player(s, ev)
    s["queue"] = [{"do": "chapter_end"}]


def pass_start_player(s: dict, ev: list) -> None:
    s["active"] = st.next_seat(s, s["active"])
    ev.append({"type": "start_player", "seat": s["active"]})


# ---------------------------------------------------------------- chapter end (§5.2)

def chapter_end(s: dict, ev: list) -> None:
    ev.append({"type": "chapter_ended", "chapter": s["chapter"]})
    last = s["chapter"] == 4
    if not last or s["options"]["chapter4_end_steps"]:
        projects.chapter_progress(s, ev)          # E1 (may queue Hospital cures)
        s["queue"].append({"do": "effect", "internal": "uncover_and_clear"})   # E2, E3
    s["queue"].append(await_step("roll_tax", s["active"]))                    # E4
    # The roll_tax handler queues the protection choices and then "after_duties".


def after_duties(s: dict, ev: list) -> None:
    """E5-E9: keep leftovers, pass the start player, new cards, Tower and plague, next."""
    if s["chapter"] == 4:
        finish(s, ev)
        return
    pass_start_player(s, ev)                                                   # E6
    for pid, spec in s["cat"]["projects"].items():                             # E8 Tower
        if spec.get("enters_after_chapter") == s["chapter"] and pid not in s["projects"]:
            s["projects"][pid] = st.new_project()
            ev.append({"type": "project_introduced", "project": pid})
    if s["chapter"] == 2:                                                      # E8 plague
        projects.place_plague_tokens(s, ev)
    s["chapter"] += 1
    s["tax"] = None
    start_chapter(s, ev)                                                       # E7, E9


def finish(s: dict, ev: list) -> None:
    """§8: final scoring (1 VP per stone and wood, ½ VP per gold), kept in half points."""
    final = {}
    for seat in s["seats"]:
        p = s["players"][seat]
        res = p["res"]
        final[seat] = 2 * (p["vp"] + res["stone"] + res["wood"]) + res["gold"]
    s["final"] = final
    s["over"] = True
    s["queue"] = []
    ev.append({"type": "game_over", "final": {k: v / 2 for k, v in final.items()}})

"""Who owes which decision now: the prompts of a position (GameModule.prompts), read by
the legal moves (choices.py) and shown by the views."""
from __future__ import annotations

from engine.api import Prompt
from engine.pillars import flow, state


def prompts(s) -> list:
    if s["over"]:
        return []
    pend = s["pending"]
    if pend is not None:
        return [Prompt(pend["seat"], pend["kind"], {"seat": pend["seat"]})]
    ph, act = s["phase"], s["active"]
    if ph == "prep":
        return [Prompt("table", "lay_out", flow.prep_missing(s))]
    if ph == "draft":
        return [Prompt(act, "draft", {"seat": act})]
    if ph == "architects":
        a = s["arch"]
        if a["drawn"] is None:
            return [Prompt("table", "draw_architect", {"start": s["start"]})]
        out = [Prompt(a["drawn"], "place_architect",
                      {"seat": a["drawn"], "cost": state.draw_cost(s)})]
        if not a["refused"] and (s["options"]["refusal_any_colour"] or a["drawn"] != s["start"]):
            out.append(Prompt(s["start"], "refuse_draw", {"seat": s["start"],
                                                         "drawn": a["drawn"]}))
        return out
    if ph == "deferred":
        return [Prompt(act, "place_deferred", {"seat": act})]
    if ph == "event":
        return [Prompt("table", "reveal_event", {})]
    if ph == "bishop":
        return [Prompt(act, "bishop_choice", {"seat": act, "event": s["event"]})]
    if ph == "tax":
        return [Prompt("table", "roll_tax", {"roller": s["start"]})]
    if ph == "exemption":
        return [Prompt(act, "use_exemption", {"seat": act, "tax": s["tax"]})]
    if ph == "market":
        return [Prompt(act, "market", {"seat": act})]
    if ph == "build":
        return [Prompt(act, "build", {"seat": act})]
    if ph == "store":
        excess = state.storage_count(s, act) - state.board(s)["storage_limit"]
        return [Prompt(act, "return_cubes", {"seat": act, "excess": excess})]
    return []

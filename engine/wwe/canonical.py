"""The action as the rules use it (``GameInfo.canonical``, issue 31): what the app stores.

A played card's ``params`` are what its performance needs (engine/wwe/cards.py); a card
not performed (by choice, or its action lost to an event) needs none, and a performed card
reads only some of them. The stored action keeps exactly the params the card reads, so a
replay never depends on a value no rule looked at."""
from __future__ import annotations

from engine.api import Refused
from engine.canonical import Reads
from engine.wwe import cards, effects
from engine.wwe import state as st


def canonical(s: dict, action: dict) -> dict:
    """``action`` with the fields the rules do not use in ``s`` dropped (a played card's
    unused params); the action itself when nothing changes."""
    if action.get("type") != "play_card" or "params" not in action:
        return action
    params = action["params"]
    seat = action.get("by")
    if seat not in s.get("players", {}):
        return action
    performed = action.get("perform", True) is True and effects.action_lost(s, seat) is None
    if not performed or not isinstance(params, dict) or not params:
        return {k: v for k, v in action.items() if k != "params"}
    reads = Reads(params)  # the params that remember which of them the card looked at
    try:
        cards.perform_refusal(s, seat, action.get("card"), reads)  # read-only: its check
        cards.perform(st.fast_copy(s), seat, action.get("card"), reads, [])
    except Refused:
        pass  # refused, or no effect (R4.1.2): what it read to find out is what it uses
    used = {k: v for k, v in params.items() if reads.everything or k in reads.read}
    if used == params:
        return action
    out = {k: v for k, v in action.items() if k != "params"}
    return dict(out, params=used) if used else out

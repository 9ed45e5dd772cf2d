"""The action as the rules use it (``GameInfo.canonical``, issue 31): what the app stores.

A revealed craftsman without ``to`` (or ``to: null``) goes where the rules put it (the
Shiring row while it lacks cards, else the supply): the stored action names that place. A
build's ``uses`` keeps only the craftsmen it puts to work (a held craftsman used 0 times is
not used). A replay then never depends on a default or a value no rule looked at."""
from __future__ import annotations

from engine.pillars.flow import prep_missing


def canonical(s: dict, action: dict) -> dict:
    """``action`` as the rules use it in ``s``; the action itself when nothing changes."""
    kind = action.get("type")
    if kind == "reveal_craftsman" and action.get("to") is None:
        try:
            missing = prep_missing(s)
            to = "shiring" if missing["shiring"] > 0 else "supply"
        except (KeyError, TypeError, IndexError):
            return action  # not the time to reveal one: the rules refuse it
        return dict(action, to=to)
    if kind == "build" and isinstance(action.get("uses"), dict):
        player = (s.get("players") or {}).get(action.get("by"))
        held = player.get("craftsmen", ()) if isinstance(player, dict) else ()
        uses = {c: n for c, n in action["uses"].items() if not (n == 0 and c in held)}
        if uses != action["uses"]:
            return dict(action, uses=uses)
    return action

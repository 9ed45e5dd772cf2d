"""The steps the table owes by hand (a game's `Bindings.table_steps`), said the same way on
the table display, the phones and the host page: who does it, what confirms it (the camera
or the dice reader, when one is running), and the fallback the host page or the table
display may tap where nothing confirms it.

Every view carries ``steps``: ``[{kind, who, who_name, text, zone, done, of, devices:
[{device, present, text}], by_hand, fallback (the action, or None), fallback_text,
rest_text}]`` in the recipient's language; the host's op ``table_step`` and the table
display's ``table_step`` message (with ``kind``, and ``rest``: until the step is done) send
the step's fallback as the table.
"""
from __future__ import annotations

from typing import Any

from companion.server import i18n
from engine.api import Refused

# Shared words (gettext msgids of the shared domain, extracted by web/i18n_tool.py).
TEXTS: dict[str, str] = {
    "camera_on": "The camera records it when the card lies on “{zone}”.",
    "camera_off": "No camera is running: nothing records it by itself.",
    "dice_on": "The dice reader records the roll.",
    "dice_off": "No dice reader is running: nothing records the roll by itself.",
    "dice_camera_on": "The camera reads the dice once they lie still in the tray.",
    "dice_camera_off": "The camera is chosen for the dice but cannot read the tray: nothing "
                       "records the roll by itself.",
    "dice_phones_off": "The dice are entered by hand: nothing reads them.",
    "dice_camera_untaught": "The camera has not learnt these dice yet (the host's deck page): "
                            "enter the roll by hand.",
    "dice_camera_untaught_some": "The camera reads the other dice once they lie still in the "
                                 "tray; it has not learnt {dice} yet (the host's deck page), "
                                 "so the phone of whoever rolls asks for it.",
    "dice_camera_unmapped": "The camera cannot tell which of its dice this game uses (the "
                            "host's “Dice reader” page gives them roles): enter the roll by "
                            "hand.",
    "camera_elsewhere": "The camera is with {game}, the game at the table: nothing records "
                        "this step by itself.",
    "dice_elsewhere": "The dice reader is with {game}, the game at the table: nothing "
                      "records the roll by itself.",
    "free_elsewhere": "The camera and the dice reader serve no game now: nothing records "
                      "this step by itself.",
    "anyone": "Someone at the table",
}

# the device records the step: "untaught_some" too, the camera's roll asking the rolling
# player's phone for the dice it has not learnt yet (companion/wiring/dice.py)
_RUNNING = frozenset(("ok", "starting", "untaught_some"))


def _steps_of(live) -> list:
    listed = live.kind.module.info.bindings.table_steps
    if listed is None or live.state is None or live.status == "finished":
        return []
    return list(listed(live.state))


def entries(live, lang: str, namer, hardware: dict | None) -> list[dict]:
    """The table steps owed now, in ``lang`` (the devices' state from ``hardware``)."""
    out = []
    game = live.kind.name
    zones = {z.id: z.name for z in live.kind.module.info.bindings.zones}
    hardware = hardware if isinstance(hardware, dict) else {}
    for step in _steps_of(live):
        who = step.who if step.who != "table" else None
        who_name = namer(who) if who else i18n.text(lang, TEXTS["anyone"])
        params = {k: namer(v, k) for k, v in step.params.items()}
        params.update(who=who_name)
        devices = []
        where = hardware.get("table") or {}
        for device in step.confirms:
            state = (hardware.get(device) or {}).get("state")
            present = state in _RUNNING
            source = (hardware.get(device) or {}).get("source") if device == "dice" else None
            chosen = f"{device}_{source}" if source in ("camera", "phones") else device
            key = f"{chosen}_{'on' if present else 'off'}"
            if state in ("untaught", "untaught_some", "unmapped"):  # some die has no role
                key = f"dice_camera_{state}"
            if state == "elsewhere":  # readings go to the game at the table, not here
                key = f"{device}_elsewhere" if where.get("game") else "free_elsewhere"
            zone = i18n.text(lang, zones.get(step.zone, step.zone or ""), game=game)
            title = where.get("title") or {}
            devices.append({"device": device, "present": present,
                            "elsewhere": state == "elsewhere",
                            "text": i18n.text(lang, TEXTS[key], {
                                "zone": zone, "dice": _untaught_names(live, hardware, lang),
                                "game": i18n.in_lang(title, lang)})})
        out.append({
            "kind": step.kind, "who": step.who, "who_name": who_name,
            "text": i18n.text(lang, step.text, params, game=game),
            "zone": step.zone, "done": step.done, "of": step.of, "devices": devices,
            "by_hand": i18n.text(lang, step.by_hand, params, game=game) if step.by_hand else "",
            "fallback": dict(step.fallback, by="table") if step.fallback is not None else None,
            "fallback_text": (i18n.text(lang, step.fallback_text, game=game)
                              if step.fallback is not None else ""),
            "rest_text": (i18n.text(lang, step.rest_text, game=game)
                          if step.fallback is not None and step.rest_text else ""),
        })
    return out


def _untaught_names(live, hardware: dict, lang: str) -> str:
    """The dice the camera has not learnt yet (the dice status's ``untaught`` role ids), by
    their roles' names in ``lang``."""
    untaught = (hardware.get("dice") or {}).get("untaught") or ()
    names = {role.id: role.name for role in live.kind.module.info.bindings.dice}
    return ", ".join(i18n.text(lang, names[role], game=live.kind.name)
                     for role in untaught if role in names)


# "the rest" never loops for ever, whatever a game's steps say (13 draws in Pillars)
MOST_REPEATS = 200


def take(service, identity, live, kind: Any, rest: bool = False) -> int:
    """The fallback of the step ``kind`` owed now, sent as the table (``identity``); with
    ``rest`` again and again while a step of that kind is owed and offers "the rest": each
    draw is an action of its own, recorded and shown as if tapped one by one. Returns the
    version; `Refused` when no such step is owed (or, for ``rest``, none offers it)."""
    if rest and not any(s.kind == kind and s.rest_text for s in _steps_of(live)):
        raise Refused("no_table_step")
    version = service.act(identity, fallback(live, kind))
    for _ in range(MOST_REPEATS if rest else 0):
        owed = [s for s in _steps_of(live) if s.kind == kind and s.fallback is not None]
        if not owed or not owed[0].rest_text:
            break
        version = service.act(identity, dict(owed[0].fallback, by="table"))
    return version


def fallback(live, kind: Any) -> dict:
    """The action the host's ``table_step`` op sends: the fallback of the step ``kind``
    owed now, by the table; `Refused` when no such step is owed."""
    if not isinstance(kind, str):
        raise Refused("bad_request")
    for step in _steps_of(live):
        if step.kind == kind and step.fallback is not None:
            return dict(step.fallback, by="table")
    raise Refused("no_table_step")

"""Host corrections of the public board: one recorded action, ``correct``.

``{"type": "correct", "by": "host", "part": <part>, "key": <which one, for parts with
several>, "value": <the new value>, "reason": <free text, optional>}``

The parts, what ``key`` names and the shape of ``value`` (each one bounded by the catalog):

- ``favor``: the favor marker; value = index into the favor cycle.
- ``covers``: the cover tiles; value = {"favor": [spaces], "market": ["wool"|"cloth"],
  "project": [project ids]}, at most ``cover_tiles`` in all.
- ``project`` (key: project id): value = {"on_board": bool, "stone": n, "wood": n,
  "complete": bool}; materials within the project's spaces. Donation seals stay with their
  owners (they are holdings); a project with seals cannot leave the board.
- ``plague`` (key: location, from chapter III): value = {"state": "hidden"|"sick"|"removed",
  "value": 1-5 or null}; a face-up token needs its value. A hidden token corrected to hidden
  with value null keeps the value the app may have dealt it (never shown).
- ``site`` (key: site id): value = the seat whose house stands there, or null. The seat needs
  a house in reserve (the same-rent rule is for Build House, not for the board as it is).
- ``slots``: the permanent events in force from earlier rounds, oldest first (at most 2).
- ``supply``: value = {item: count} for the limited supplies (0 to the catalog's size).
- ``start_player``: value = a seat; only before the round's event card is revealed (A-8).

Every value is checked against the same JSON Schema that `corrections` gives the app for
its form; a wrong part, key or value is refused (``bad_correction`` names the field) and the
state is unchanged. Each accepted correction emits ``corrected`` with the value before and
after, for the audit trail; this is also how a ``manual`` event card's effects on the board
are entered at the table before ``resolve_manual``.
"""
from __future__ import annotations

from jsonschema import Draft202012Validator

from engine.api import Refused
from engine.wwe import cards
from engine.wwe import state as st

PARTS = ("favor", "covers", "project", "plague", "site", "slots", "supply", "start_player")
TITLES = {"favor": "Favor marker", "covers": "Cover tiles", "project": "Building project",
          "plague": "Plague token", "site": "House on a building site",
          "slots": "Permanent events in force", "supply": "Supply",
          "start_player": "Start player"}
PLAGUE_STATES = ("hidden", "sick", "removed")
# The labels of a correction form's fields and choices (English msgids; the app translates
# every "title" of a schema; catalog ids it names by the catalog's names)
FIELD_TITLES = {"on_board": "On the board", "complete": "Complete", "state": "Token",
                "value": "Value", "hidden": "face down", "sick": "face up (sick)",
                "removed": "removed", "favor": "Favor spaces", "market": "Market",
                "project": "Building projects"}


def _titled(values: list, labels: list | None = None) -> dict:
    """An enum with a title per value (a form shows the titles)."""
    labels = labels if labels is not None else [str(v) for v in values]
    return {"oneOf": [{"const": v, "title": t} for v, t in zip(values, labels, strict=True)]}


def _plague_values(s: dict) -> list[int]:
    return sorted(set(s["cat"]["plague_tokens"] or st.PLAGUE_VALUES))


def _limited(s: dict) -> dict[str, int]:
    return {item: int(spec["size"]) for item, spec in
            (s["cat"]["game"].get("supplies") or {}).items()
            if isinstance(spec, dict) and spec.get("size") is not None}


def schema(s: dict, part: str, key=None) -> dict:
    """The JSON Schema of a correction's ``value`` (for the form and for the check)."""
    cycle = cards.favor_cycle(s)
    seats = list(s["seats"])
    if part == "favor":
        return {"type": "integer", **_titled(list(range(len(cycle))), cycle)}
    if part == "covers":
        tiles = int(s["cat"]["game"].get("cover_tiles", 5))

        def listing(values):
            return {"type": "array", "uniqueItems": True, "maxItems": tiles,
                    "items": {"type": "string", "enum": values}}
        return {"type": "object", "additionalProperties": False,
                "required": ["favor", "market", "project"],
                "properties": {"favor": {**listing(sorted(set(cycle))),
                                         "title": FIELD_TITLES["favor"]},
                               "market": {**listing(["wool", "cloth"]),
                                          "title": FIELD_TITLES["market"]},
                               "project": {**listing(sorted(s["cat"]["projects"])),
                                           "title": FIELD_TITLES["project"]}}}
    if part == "project":
        cap = st.project_capacity(s, key)
        return {"type": "object", "additionalProperties": False,
                "required": ["on_board", "stone", "wood", "complete"],
                "properties": {"on_board": {"type": "boolean",
                                            "title": FIELD_TITLES["on_board"]},
                               "stone": {"type": "integer", "minimum": 0,
                                         "maximum": cap["stone"]},
                               "wood": {"type": "integer", "minimum": 0,
                                        "maximum": cap["wood"]},
                               "complete": {"type": "boolean",
                                            "title": FIELD_TITLES["complete"]}}}
    if part == "plague":
        return {"type": "object", "additionalProperties": False, "required": ["state", "value"],
                "properties": {"state": {"type": "string", "title": FIELD_TITLES["state"],
                                         **_titled(list(PLAGUE_STATES),
                                                   [FIELD_TITLES[x] for x in PLAGUE_STATES])},
                               "value": {"type": ["integer", "null"],
                                         "title": FIELD_TITLES["value"],
                                         "enum": [*_plague_values(s), None]}}}
    if part == "site":
        return {"type": ["string", "null"], "enum": [*seats, None]}
    if part == "slots":
        permanent = sorted(c for c, spec in s["cat"]["events"].items() if spec.get("permanent"))
        return {"type": "array", "uniqueItems": True, "maxItems": 2,
                "items": {"type": "string", "enum": permanent}}
    if part == "supply":
        limited = _limited(s)
        return {"type": "object", "additionalProperties": False, "required": sorted(limited),
                "properties": {item: {"type": "integer", "minimum": 0, "maximum": size}
                               for item, size in sorted(limited.items())}}
    if part == "start_player":
        return {"type": "string", "enum": seats}
    raise Refused("bad_correction", part=part, field="part")


def keys(s: dict, part: str) -> list:
    """The keys a part takes (``[None]`` for a part with no key)."""
    if part == "project":
        return sorted(s["cat"]["projects"])
    if part == "plague":
        return sorted(s["plague"], key=int)
    if part == "site":
        return list(s["sites"])
    if part == "start_player" and not _before_reveal(s):
        return []
    return [None]


def _before_reveal(s: dict) -> bool:
    return bool(s["queue"]) and s["queue"][0]["kind"] == "reveal_event" and not s["over"]


def current(s: dict, part: str, key=None):
    """The public board's value of a part, in the shape ``value`` has."""
    if part == "favor":
        return s["favor"]["index"]
    if part == "covers":
        return {k: list(s["covers"].get(k, [])) for k in ("favor", "market", "project")}
    if part == "project":
        proj = s["projects"].get(key)
        if proj is None:
            return {"on_board": False, "stone": 0, "wood": 0, "complete": False}
        return {"on_board": True, "stone": proj["stone"], "wood": proj["wood"],
                "complete": proj["complete"]}
    if part == "plague":
        tok = s["plague"][key]
        return {"state": tok["state"], "value": None if tok["state"] == "hidden" else tok["value"]}
    if part == "site":
        return s["sites"][key]
    if part == "slots":
        return list(s["slots"])
    if part == "supply":
        return {item: s["supply"][item] for item in sorted(_limited(s))}
    if part == "start_player":
        return s["active"]
    raise Refused("bad_correction", part=part, field="part")


def corrections(s: dict) -> list[dict]:
    """Every correction the host can make now: part, key, title, the current value, the
    JSON Schema of a new value and the action to send (add ``"value"``)."""
    if s["over"]:
        return []
    out = []
    for part in PARTS:
        for key in keys(s, part):
            action = {"type": "correct", "by": "host", "part": part}
            if key is not None:
                action["key"] = key
            out.append({"part": part, "key": key, "title": TITLES[part],
                        "current": current(s, part, key), "schema": schema(s, part, key),
                        "action": action})
    return out


def form(s: dict, part: str, key=None) -> dict | None:
    """What a correction of ``part`` is called and the schema of its value, whether or not
    it can be made now (GameInfo.correction_form: the log words old corrections with it)."""
    if part not in PARTS:
        return None
    return {"title": TITLES[part], "schema": schema(s, part, key)}


def _check(s: dict, a: dict) -> tuple[str, object, object]:
    part = a.get("part")
    if part not in PARTS:
        raise Refused("bad_correction", part=str(part), field="part")
    key = a.get("key")
    allowed = keys(s, part)
    if part == "start_player" and not allowed:
        raise Refused("wrong_phase", expected=s["queue"][0]["kind"], got="start_player")
    if key not in allowed:
        raise Refused("bad_correction", part=part, field="key")
    if "value" not in a:
        raise Refused("bad_correction", part=part, field="value")
    value = a["value"]
    error = next(iter(Draft202012Validator(schema(s, part, key)).iter_errors(value)), None)
    if error is not None:
        path = ".".join(str(x) for x in error.absolute_path)
        raise Refused("bad_correction", part=part, field=f"value.{path}" if path else "value")
    if not isinstance(a.get("reason", ""), str):
        raise Refused("bad_params", field="reason")
    return part, key, value


def correct(s: dict, a: dict, ev: list) -> None:
    """The ``correct`` action (host only; see the module docstring)."""
    if s["over"]:
        raise Refused("game_over")
    if a.get("by") != "host":
        raise Refused("host_only")
    part, key, value = _check(s, a)
    before = current(s, part, key)
    APPLY[part](s, key, value)
    ev.append({"type": "corrected", "part": part, "key": key, "before": before,
               "after": current(s, part, key), "reason": a.get("reason", "")})


def _favor(s, _key, value):
    s["favor"]["index"] = value


def _covers(s, _key, value):
    tiles = int(s["cat"]["game"].get("cover_tiles", 5))
    used = sum(len(v) for v in value.values())
    if used > tiles:
        raise Refused("too_many_covers", count=used, max=tiles)
    s["covers"] = {k: list(v) for k, v in value.items()}


def _project(s, key, value):
    proj = s["projects"].get(key)
    if not value["on_board"]:
        if value["stone"] or value["wood"] or value["complete"]:
            raise Refused("bad_correction", part="project", field="value.on_board")
        if proj is not None and proj["seals"]:
            raise Refused("project_has_seals", project=key)
        s["projects"].pop(key, None)
        return
    if proj is None:
        proj = s["projects"][key] = st.new_project()
    proj["stone"], proj["wood"], proj["complete"] = value["stone"], value["wood"], value["complete"]


def _plague(s, key, value):
    tok = s["plague"][key]
    if value["state"] != "hidden" and value["value"] is None:
        raise Refused("bad_correction", part="plague", field="value.value")
    if value["state"] == "hidden" and value["value"] is None and tok["state"] == "hidden":
        return  # unchanged: keep a value the app dealt face down
    s["plague"][key] = {"state": value["state"], "value": value["value"]}


def _site(s, key, seat):
    owner = s["sites"][key]
    if owner == seat:
        return
    if seat is not None:
        houses = s["players"][seat]["houses"]
        if len(houses) >= int(s["cat"]["game"].get("houses_per_player", 4)):
            raise Refused("no_house_left")
        houses.append(key)
    if owner is not None:
        s["players"][owner]["houses"].remove(key)
    s["sites"][key] = seat


def _slots(s, _key, value):
    for card in s["slots"]:
        if card not in value and card != s["event"]:
            s["targets"].pop(card, None)
    for card in value:
        s["targets"].setdefault(card, {"active": s["active"], "chosen": None})
        if not any(card in shown for shown in s["revealed"].values()):
            s["revealed"][str(s["chapter"])].append(card)
    s["slots"] = list(value)


def _supply(s, _key, value):
    s["supply"].update(value)


def _start_player(s, _key, seat):
    s["active"] = seat
    s["queue"][0]["seat"] = seat


APPLY = {"favor": _favor, "covers": _covers, "project": _project, "plague": _plague,
         "site": _site, "slots": _slots, "supply": _supply, "start_player": _start_player}

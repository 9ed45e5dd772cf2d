"""Host corrections of Monasterium's board (``correct``), and the forms the host page builds
for them: what a knocked-over piece or a misread roll put wrong.

``{"type": "correct", "by": "host", "part", "key", "value", "reason"}`` sets one part and
emits ``{"type": "corrected", "part", "key", "before", "after", "reason"}``;
`corrections(state)` lists every correction possible now with the JSON Schema of a value.

| part | key | value |
|---|---|---|
| messenger | a seat | the road space, 1 … the road's length |
| space | a building or cloister space | the seat on it, or null (blocked spaces stay) |
| chapel | a monastery | the seats of its chapel novices (within capacity) |
| glass | a monastery | the stained-glass tiles left there |
| die | a die on the dice spaces or in hand | its face 1-6 |
"""
from __future__ import annotations

from jsonschema import Draft202012Validator

from engine.api import Refused
from engine.monasterium import state

PARTS = ("messenger", "space", "chapel", "glass", "die")
# the words of a correction's key (`form`), for the game's translations
KEY_TEXTS = ("{monastery}, {place} {n}", "{monastery}", "neutral die {n}", "die {n} of {seat}")
TITLES = {"messenger": "Messenger", "space": "Novice on a space", "chapel": "Chapel novices",
          "glass": "Stained glass left", "die": "A die's face"}


def keys(s, part) -> list:
    if part == "messenger":
        return list(s["seats"])
    if part == "space":
        return sorted(k for m in s["mon"].values()
                      for k, who in [*m["buildings"].items(), *m["cloister"].items()]
                      if who != "#")
    if part in ("chapel", "glass"):
        return sorted(s["mon"])
    return sorted(d for d, x in s["dice"].items() if x["at"] in ("space", "hand")
                  and x["face"] is not None)


def _mon_of(key: str) -> str:
    return key.split(".")[0]


def current(s, part, key):
    if part == "messenger":
        return s["players"][key]["road"]
    if part == "space":
        m = s["mon"][_mon_of(key)]
        return m["buildings"].get(key, m["cloister"].get(key))
    if part == "chapel":
        return list(s["mon"][key]["chapel"])
    if part == "glass":
        return s["mon"][key]["glass"]
    return s["dice"][key]["face"]


def schema(s, part, key) -> dict:
    seat = {"enum": list(s["seats"])}
    if part == "messenger":
        return {"type": "integer", "minimum": 1, "maximum": s["cat"]["road_length"]}
    if part == "space":
        return {"enum": [*s["seats"], None]}
    if part == "chapel":
        return {"type": "array", "items": seat, "maxItems": 2 * len(s["seats"])}
    if part == "glass":
        return {"type": "integer", "minimum": 0,
                "maximum": s["cat"]["board"]["glass_per_player"] * len(s["seats"])}
    return {"type": "integer", "minimum": 1, "maximum": 6}


def form(s, part, key=None) -> dict | None:
    """What a correction of ``part`` is called and the schema of its value, whether or not
    it can be made now (GameInfo.correction_form: the log words old corrections with it)."""
    if part not in PARTS:
        return None
    out = {"title": TITLES[part], "schema": schema(s, part, key)}
    named = _key_words(key) if part != "messenger" else None
    if named:
        out["key"] = named
    return out


def _key_words(key) -> dict | None:
    """A space, a monastery or a die in words (the app names each param with the game's
    scoped terms: "monastery:A", "place:lay"): "Monastery A, lay building 1"."""
    if not isinstance(key, str):
        return None
    mon, _, space = key.partition(".")
    if space:
        place = space.rstrip("0123456789")
        place = {"cl": "cloister", "work": "workshop"}.get(place, place)
        return {"text": "{monastery}, {place} {n}",
                "params": {"monastery": mon, "place": place, "n": space[len(space.rstrip(
                    "0123456789")):]}}
    if len(key) == 1:
        return {"text": "{monastery}", "params": {"monastery": key}}
    if key[:1] == "n":
        return {"text": "neutral die {n}", "params": {"n": key[1:]}}
    return {"text": "die {n} of {seat}", "params": {"seat": key[:1], "n": key[1:]}}


def corrections(s) -> list:
    if s["over"]:
        return []
    return [{"part": part, "key": key, "title": TITLES[part], "current": current(s, part, key),
             "schema": schema(s, part, key),
             "action": {"type": "correct", "by": "host", "part": part, "key": key}}
            for part in PARTS for key in keys(s, part)]


def correct(s, a, by, ev) -> None:
    if by != "host":
        raise Refused("host_only")
    part, key = a.get("part"), a.get("key")
    if part not in PARTS or key not in keys(s, part):
        raise Refused("bad_field", field="key" if part in PARTS else "part")
    if "value" not in a or type(a["value"]) is bool:
        raise Refused("bad_field", field="value")
    value = a["value"]
    if next(iter(Draft202012Validator(schema(s, part, key)).iter_errors(value)), None):
        raise Refused("bad_field", field="value")
    reason = a.get("reason", "")
    if not isinstance(reason, str) or not reason.strip():
        raise Refused("bad_field", field="reason")
    before = current(s, part, key)
    if part == "messenger":
        s["players"][key] = state.clone_player(s["players"][key])
        s["players"][key]["road"] = value
    elif part == "space":
        m = state.own_monastery(s, _mon_of(key))
        (m["buildings"] if key in m["buildings"] else m["cloister"])[key] = value
    elif part == "chapel":
        state.own_monastery(s, key)["chapel"] = list(value)
    elif part == "glass":
        state.own_monastery(s, key)["glass"] = value
    else:
        state.set_die(s, key, face=value)
    ev.append({"type": "corrected", "part": part, "key": key, "before": before,
               "after": current(s, part, key), "reason": reason[:120]})

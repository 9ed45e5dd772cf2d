"""Targeted probes: actions built from the game's own action shapes (engine/shapes.py), the
kind the app lets through to the rules, sent by every kind of sender at positions of the
kit's random games. Random legal play never bids lower than the last bid or plays a card
out of turn; these do, so the refusals the rules raise for them are met and their texts
checked. A value is drawn from the shape itself: an enum's members, a number's bounds and
what lies between, the ids the game's views and choices name, a list of such values.
"""
from __future__ import annotations

from typing import Any

# values a plug-in meets in a field that still fits the field's shape (wrong id, zero, blank)
ODD_VALUES: tuple[Any, ...] = ("", "no_such_id", 0, -1, 999, True, False, None, [], {})
SKIP = object()
# the reason the kit's own corrections and probes give: no game's words, so an event that
# repeats the reason (as the docs ask) names nothing of the game
NEUTRAL_REASON = "contract kit probe"


class Values:
    """Values of a JSON Schema, drawn with ``rnd``, ids taken from ``words``."""

    def __init__(self, rnd: Any) -> None:
        self.rnd = rnd
        self.words: list[str] = ["no_such_id"]

    def learn(self, *nodes: Any) -> None:
        """Take the texts of views, choices and prompts as ids to try."""
        from engine.contract.privacy import strings

        for node in nodes:
            for word in strings(node):
                if word not in self.words and len(self.words) < 400 and len(word) <= 64:
                    self.words.append(word)

    def make(self, schema: Any, depth: int = 0) -> Any:
        rnd = self.rnd
        if not isinstance(schema, dict) or depth > 6:
            return SKIP
        if "enum" in schema:
            return rnd.choice(schema["enum"]) if schema["enum"] else SKIP
        if "const" in schema:
            return schema["const"]
        for key in ("anyOf", "oneOf"):
            if schema.get(key):
                return self.make(rnd.choice(schema[key]), depth + 1)
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = rnd.choice(kind) if kind else None
        if kind is None:
            if "properties" in schema or "additionalProperties" in schema:
                kind = "object"
            elif "items" in schema:
                kind = "array"
            else:  # any JSON
                return rnd.choice([*ODD_VALUES, rnd.choice(self.words)])
        maker = getattr(self, f"_{kind}", None)
        return maker(schema, depth) if maker else SKIP

    def reason(self, schema: Any) -> Any:
        """A reason field gets the kit's neutral words when its shape takes them (never a
        word of the game's, which an event repeating the reason would then seem to show)."""
        fits = isinstance(schema, dict) and schema.get("type") in ("string", None) and \
            schema.get("minLength", 0) <= len(NEUTRAL_REASON) <= schema.get("maxLength", 64) \
            and "pattern" not in schema and "enum" not in schema
        return NEUTRAL_REASON if fits else self.make(schema)

    def _integer(self, schema: dict, depth: int) -> int:
        lo, hi = schema.get("minimum", -2), schema.get("maximum", 12)
        if lo > hi:
            return lo
        near = [n for n in (lo, lo + 1, hi - 1, hi, 0, 1, 2, 3) if lo <= n <= hi]
        return self.rnd.choice([*near, self.rnd.randint(lo, min(hi, lo + 40))])

    def _number(self, schema: dict, depth: int) -> float | int:
        return self._integer({k: int(v) for k, v in schema.items()
                              if k in ("minimum", "maximum")}, depth)

    def _string(self, schema: dict, depth: int) -> str:
        lo, hi = schema.get("minLength", 0), schema.get("maxLength", 64)
        fit = [w for w in self.words if lo <= len(w) <= hi]
        if "pattern" in schema:
            return SKIP if not fit else self.rnd.choice(fit)
        extra = ["" if lo == 0 else "x" * lo, NEUTRAL_REASON[:hi]]
        return self.rnd.choice(fit + [e for e in extra if lo <= len(e) <= hi] or ["x" * lo])

    def _boolean(self, schema: dict, depth: int) -> bool:
        return self.rnd.random() < 0.5

    def _null(self, schema: dict, depth: int) -> None:
        return None

    def _array(self, schema: dict, depth: int) -> list | object:
        lo = schema.get("minItems", 0)
        hi = min(schema.get("maxItems", lo + 3), lo + 3)
        out: list = []
        for _ in range(self.rnd.randint(lo, max(lo, hi)) * 3):
            if len(out) >= hi:
                break
            item = self.make(schema.get("items", {}), depth + 1)
            if item is SKIP:
                return SKIP
            if not (schema.get("uniqueItems") and item in out):
                out.append(item)
        return out if len(out) >= lo else SKIP

    def _object(self, schema: dict, depth: int) -> dict | object:
        out = {}
        props = schema.get("properties", {})
        for key, sub in props.items():
            if key in schema.get("required", ()) or self.rnd.random() < 0.5:
                value = self.reason(sub) if key == "reason" else self.make(sub, depth + 1)
                if value is SKIP:
                    if key in schema.get("required", ()):
                        return SKIP
                    continue
                out[key] = value
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for _ in range(self.rnd.randint(0, 2)):
                key = self._string(schema.get("propertyNames", {"maxLength": 64}), depth)
                value = self.make(extra, depth + 1)
                if key is not SKIP and value is not SKIP:
                    out[key] = value
        return out


def senders(info: Any, seats: list[str]) -> list[str]:
    return [*seats, "table", "host"]


def probe_actions(info: Any, values: Values, legal: list[dict], seats: list[str],
                  count: int) -> list[dict]:
    """``count`` actions of the game's shapes near the legal ones: a field of a legal action
    changed, a legal action sent by someone else, or any type from any sender."""
    rnd = values.rnd
    shapes = info.action_shapes
    out = []
    for _ in range(count * 3):
        if len(out) >= count:
            break
        roll = rnd.random()
        if legal and roll < 0.45:
            action = dict(rnd.choice(legal))
            fields = [k for k in action if k not in ("type", "by")]
            props = (shapes.get(action.get("type")) or {}).get("properties", {})
            optional = [k for k in props if k not in ("type", "by") and k not in action]
            if not fields and not optional:
                continue
            name = rnd.choice(fields + optional)
            value = values.reason(props.get(name, {})) if name == "reason" else \
                values.make(props.get(name, {}))
            if value is SKIP:
                continue
            action[name] = value
        elif legal and roll < 0.6:
            action = dict(rnd.choice(legal), by=rnd.choice(senders(info, seats)))
        else:
            kind = rnd.choice(sorted(shapes)) if shapes else None
            if kind is None:
                break
            made = values.make(shapes[kind])
            if made is SKIP or not isinstance(made, dict):
                continue
            by = "host" if kind in info.host_actions and rnd.random() < 0.8 else \
                rnd.choice(senders(info, seats))
            action = {**made, "type": kind, "by": by}
        out.append(action)
    return out


def unasked_actions(info: Any, values: Values, seat: str, own: Any, legal: list[dict],
                    allowed: set) -> list[tuple[str, dict]]:
    """(kind, action) from ``seat`` for every action kind it is not offered (``allowed``):
    its own choice of that kind, refused; else another's legal action of that kind, sent by
    this seat; else (one kind a position, drawn at random: such probes are mostly refused
    for their values) one made from the kind's shape. The host's corrections (the app
    refuses them from a phone) and roll actions (a phone enters a roll when no reader reads
    the dice, issue 45) are left out."""
    skip = set(info.host_actions) | set(getattr(info.bindings, "roll_actions", ()) or ())
    out, made_from_shape = [], []
    for kind in sorted(info.action_shapes):
        if kind in allowed or kind in skip:
            continue
        mine = [c.action for c in own if c.action.get("type") == kind and c.refused is not None]
        theirs = [a for a in legal if a.get("type") == kind]
        if mine or theirs:
            out.append((kind, dict(values.rnd.choice(mine or theirs), by=seat)))
        else:
            made_from_shape.append(kind)
    if made_from_shape:
        kind = values.rnd.choice(made_from_shape)
        made = values.make(info.action_shapes[kind])
        if made is not SKIP and isinstance(made, dict):
            out.append((kind, {**made, "type": kind, "by": seat}))
    return out

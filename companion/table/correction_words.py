"""A host's correction in words, in the reader's language and the game's own words: what was
corrected ("Building project (Bridge)") and each changed field before and after ("Stone":
1 → 3), for the host's preview and for the log line of the `corrected` event.

Knows no game: the game says what a part is called and the JSON Schema of its value
(``GameInfo.correction_form``, docs/engine.md); every "title" of that schema is the game's
word for a field or a choice (an English msgid of its domain), and ids (seats, cards, spaces)
are named as everywhere else (`views.Namer`).
"""
from __future__ import annotations

import json
from typing import Any

from companion.server import i18n

# Shared words (gettext msgids of the shared domain, extracted by web/i18n_tool.py).
TEXTS: dict[str, str] = {
    "yes": "yes",
    "no": "no",
    "none": "none",
    "part_key": "{part} ({key})",
}


def _obj(x: Any) -> dict:
    return x if isinstance(x, dict) else {}


class Words:
    """Values of one game in one language, worded after their schema."""

    def __init__(self, live, lang: str, namer) -> None:
        self.live, self.lang, self.namer = live, lang, namer
        self.game = live.kind.name

    def t(self, msgid: str, params: dict | None = None) -> str:
        return i18n.text(self.lang, msgid, params, game=self.game)

    def shared(self, key: str, params: dict | None = None) -> str:
        return i18n.text(self.lang, TEXTS[key], params)

    def name(self, value: Any) -> str:
        """An id by its name (a seat by its player, a card by the catalog's name)."""
        if value is None:
            return self.shared("none")
        return str(self.namer(value))

    def value(self, schema: Any, value: Any) -> str:
        """``value`` in words: choices by their titles, ids by their names, flags as yes/no,
        lists joined, objects as "field: value" pairs."""
        schema = _obj(schema)
        if isinstance(value, bool):
            return self.shared("yes" if value else "no")
        if isinstance(value, list):
            items = [self.value(schema.get("items"), v) for v in value]
            return ", ".join(items) if items else self.shared("none")
        if isinstance(value, dict):
            props = _obj(schema.get("properties"))
            return " · ".join(f"{self.field(props, k)}: {self.value(props.get(k), v)}"
                              for k, v in value.items())
        for choice in schema.get("oneOf") or ():
            if isinstance(choice, dict) and "const" in choice and choice["const"] == value \
                    and type(choice["const"]) is type(value):
                return self.label(choice.get("title"), value)
        if value is None:
            return self.shared("none")
        if isinstance(value, int | float):
            return str(value)
        return self.name(value)

    def label(self, title: Any, fallback: Any) -> str:
        """A schema's title: an id it names (a space, a seat) by its name, else the game's
        English word translated; no title: ``fallback`` by its name."""
        if not isinstance(title, str) or not title:
            return self.name(fallback)
        named = self.namer(title)
        return str(named) if named != title else self.t(title)

    def field(self, props: dict, key: str) -> str:
        """A field of an object by its title (the game's word), else its id by name."""
        return self.label(_obj(props.get(key)).get("title"), key)

    def form(self, part: Any, key: Any) -> dict | None:
        found = self.live.kind.module.info.correction_form
        if found is None or not isinstance(part, str) or self.live.state is None:
            return None
        return found(self.live.state, part, key)

    def what(self, form: dict | None, part: Any, key: Any) -> str:
        """The corrected part, with its key's name: "Building project (Bridge)"."""
        title = self.t(form["title"]) if form and form.get("title") else self.name(part)
        if key is None:
            return title
        return self.shared("part_key", {"part": title, "key": self.key(form, key)})

    def key(self, form: dict | None, key: Any) -> str:
        """The key by the game's words for it ({"text", "params"}: "Monastery A, lay
        building 1", each param named in its scope), else by its name."""
        said = _obj(form and form.get("key"))
        if isinstance(said.get("text"), str):
            params = {k: self.namer(v, k) for k, v in _obj(said.get("params")).items()}
            return self.t(said["text"], params)
        return self.name(key)

    def changes(self, part: Any, key: Any, before: Any, after: Any) -> dict:
        """``{"what", "rows": [{"field", "before", "after"}], "before", "after"}``: only the
        fields that changed (all of a value that is not an object); one changed field is
        named in ``what`` ("Building project (Bridge) · Stone") and ``before``/``after`` are
        its values alone."""
        form = self.form(part, key)
        schema = _obj(form and form.get("schema"))
        rows = []
        if isinstance(before, dict) and isinstance(after, dict):
            props = _obj(schema.get("properties"))
            for k in [*before, *(k for k in after if k not in before)]:
                if before.get(k) != after.get(k):
                    rows.append({"field": self.field(props, k),
                                 "before": self.value(props.get(k), before.get(k)),
                                 "after": self.value(props.get(k), after.get(k))})
            joined = {side: " · ".join(f"{r['field']}: {r[side]}" for r in rows)
                      for side in ("before", "after")}
            if len(rows) == 1:  # one field: "Building project (Bridge) · Stone: 0 → 2"
                joined = {side: rows[0][side] for side in ("before", "after")}
                return {"what": f"{self.what(form, part, key)} · {rows[0]['field']}",
                        "rows": rows, **joined}
        else:
            rows.append({"field": "", "before": self.value(schema, before),
                         "after": self.value(schema, after)})
            joined = {"before": rows[0]["before"], "after": rows[0]["after"]}
        return {"what": self.what(form, part, key), "rows": rows, **joined}


def event_params(live, lang: str, namer, event: dict) -> dict:
    """The shown params of a `corrected` event: ``part`` (with its key), ``before`` and
    ``after`` in words, ``reason`` as typed."""
    said = Words(live, lang, namer).changes(event.get("part"), event.get("key"),
                                            event.get("before"), event.get("after"))
    return {"part": said["what"], "before": said["before"], "after": said["after"],
            "reason": event.get("reason", "")}


def short(value: Any) -> str:
    """A value as JSON, cut short (what a game without words for its corrections shows)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 120 else text[:119] + "…"

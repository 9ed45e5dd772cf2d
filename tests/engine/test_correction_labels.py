"""The host's corrections of every game, at positions of random games (issue 51): every
correctable key is labelled with its part's title and, where a game names its keys in words
(Monasterium), with words that name that very key; every key listed takes its current value
and changes nothing; another value allowed by the form's schema is what the board then
shows; and a key not listed now is refused."""
from __future__ import annotations

import random

import pytest
from jsonschema import Draft202012Validator

from companion.box.catalog import load_catalog
from companion.game import games
from engine.api import Refused, correction_preview, random_move

GAMES = ("wwe", "pillars", "monasterium")
REASON = "knocked over"


def positions(game: str, seed: int, actions: int, every: int):
    module = games.module_of(game)
    seats = [x.id for x in module.info.seats][:min(3, module.info.max_players)]
    s = module.setup(load_catalog(game), {
        "players": [{"seat": x, "name": f"Player {x}"} for x in seats], "seed": seed})
    rnd = random.Random(seed)
    for k in range(actions):
        if k % every == 0:
            yield module, s
        action = random_move(module, s, rnd)
        if action is None:
            return
        s, _ = module.apply(s, action)


def fix(c: dict, value) -> dict:
    return {**c["action"], "value": value, "reason": REASON}


def other_values(schema: dict, current) -> list:
    """A few values the schema allows other than ``current`` (the simple shapes only)."""
    out: list = []
    if "enum" in schema:
        out = list(schema["enum"])
    elif "oneOf" in schema and all("const" in o for o in schema["oneOf"]):
        out = [o["const"] for o in schema["oneOf"]]
    elif schema.get("type") == "integer":
        out = [schema.get("minimum", 0), schema.get("maximum", 9)]
        out += [current + 1, current - 1] if isinstance(current, int) else []
    elif schema.get("type") == "array" and "enum" in schema.get("items", {}):
        items = schema["items"]["enum"]
        if current:
            out.append(current[:-1])
        if len(current) < schema.get("maxItems", len(current) + 1):
            out += [[*current, x] for x in items]
    elif schema.get("type") == "object" and all(
            p.get("type") == "integer" for p in schema.get("properties", {}).values()):
        for name, p in schema["properties"].items():
            for n in (p.get("minimum", 0), p.get("maximum", 9)):
                out.append({**current, name: n})
    valid = Draft202012Validator(schema)
    return [v for v in out if v != current and valid.is_valid(v)][:4]


def listed(module, s) -> list[dict]:
    return module.info.corrections(s)


@pytest.mark.parametrize("game", GAMES)
def test_every_correctable_key_is_labelled_and_takes_its_value(game):
    terms = games.module_of(game).info.texts.terms
    seen: dict = {}  # (part, key) -> a value it had somewhere
    changed = 0
    states = list(positions(game, 5, 240, 12))
    for _module, s in states:
        for c in listed(_module, s):
            seen.setdefault((c["part"], c["key"]), c["current"])
    for module, s in states:
        now = listed(module, s)
        for c in now:
            part, key = c["part"], c["key"]
            form = module.info.correction_form(s, part, key)
            # the label: the part's title, the same in the list and the form
            assert c["title"] == form["title"]
            assert c["schema"] == form["schema"]
            if f"part:{part}" in terms:
                assert terms[f"part:{part}"] == c["title"]
            assert c["action"].get("part") == part and c["action"].get("key") == key
            # its current value: allowed, and sending it changes nothing on the board
            assert Draft202012Validator(c["schema"]).is_valid(c["current"]), (part, key)
            same = correction_preview(module, s, fix(c, c["current"]))
            assert "refused" not in same, (part, key, same.get("refused"))
            assert same["changed"] == [], (part, key)
            corrected = [e for e in same["events"] if e["type"] == "corrected"]
            assert [(e["part"], e["key"], e["before"], e["after"]) for e in corrected] \
                == [(part, key, c["current"], c["current"])]
            # another value: the board shows it after (or a reason why not)
            for value in other_values(c["schema"], c["current"]):
                try:
                    new, ev = module.apply(s, fix(c, value))
                except Refused:
                    continue
                after = {(x["part"], x["key"]): x["current"] for x in listed(module, new)}
                if (part, key) in after:
                    assert after[part, key] == value, (part, key, value)
                got = [e for e in ev if e["type"] == "corrected"]
                assert [(e["before"], e["after"]) for e in got] == [(c["current"], value)]
                changed += 1
        # a key the host may not correct now is refused
        keys_now = {(c["part"], c["key"]) for c in now}
        for (part, key), value in seen.items():
            if (part, key) in keys_now:
                continue
            action = {"type": "correct", "by": "host", "part": part, "value": value,
                      "reason": REASON, **({"key": key} if key is not None else {})}
            with pytest.raises(Refused):
                module.apply(s, action)
    assert changed > 20


def _monasterium_key_named(s, part, key, words) -> None:
    """The words of a Monasterium key name that key: its monastery, its place and number,
    or the die (whose it is and its number)."""
    p = words["params"]
    if part in ("chapel", "glass"):
        assert words["text"] == "{monastery}" and p == {"monastery": key}
        assert key in s["mon"]
    elif part == "space":
        assert words["text"] == "{monastery}, {place} {n}"
        short = {"cloister": "cl", "workshop": "work"}.get(p["place"], p["place"])
        assert f"{p['monastery']}.{short}{p['n']}" == key
        assert p["place"] in ("cloister", "workshop", "lay", "hall")
    else:
        owner = s["dice"][key]["owner"]
        if owner is None:
            assert words["text"] == "neutral die {n}" and f"n{p['n']}" == key
        else:
            assert words["text"] == "die {n} of {seat}"
            assert p["seat"] == owner and f"{owner}{p['n']}" == key


def test_monasterium_names_every_key_in_words_of_that_key():
    from engine.monasterium.corrections import KEY_TEXTS

    parts: set = set()
    for module, s in positions("monasterium", 7, 200, 10):
        for c in listed(module, s):
            part, key = c["part"], c["key"]
            form = module.info.correction_form(s, part, key)
            if part == "messenger":
                assert "key" not in form and key in s["seats"]  # a seat: the app names it
                continue
            assert form["key"]["text"] in KEY_TEXTS
            _monasterium_key_named(s, part, key, form["key"])
            parts.add((part, form["key"]["text"]))
    # every kind of key met: a monastery (chapel, glass), a space, a neutral and an own die
    assert {t for _p, t in parts} == set(KEY_TEXTS), parts

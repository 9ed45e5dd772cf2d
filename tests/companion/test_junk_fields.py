"""Issue 31: no junk value in any field of any action type of the three games is accepted
and stored. Every legal action of seeded games (each seat's choices and the game's own
moves), with each of its fields and each field inside an object (a card's params, a build's
uses) replaced by a value no rule can use, and an unused field added, goes through the
app's pipeline (sizes and the text rule, the catalog's shapes, the canonical form, the
rules): 0 accepted junk, 0 tracebacks. And a record whose actions carry junk in fields the
rules do not use (as stored before the shapes were tightened) still imports, cleaned."""
from __future__ import annotations

import io
import json
import random

import pytest

from companion import context
from companion.box.catalog import load_kind
from companion.game import service as service_module
from companion.game import shapes
from companion.server import limits
from engine.api import Refused
from engine.canonical import Reads
from tests.companion.conftest import csrf
from tests.companion.fuzz import legal_actions

GAMES = ("wwe", "pillars", "monasterium")
JUNK = (None, True, -1, 10**9, 1.5, "", "nope", "'; DROP TABLE", "\u0000", "\ud800", [], {},
        {"x": 1}, [1], "x" * 300)


def setup_for(seats, seed) -> dict:
    return {"players": [{"seat": s, "name": f"P{s}"} for s in seats], "seed": seed}


def pipeline(kind, state, action):
    """What `GameService.act` does before storing: the stored action and the new state."""
    limits.check_action(action)
    shapes.check_action(kind.info, action)
    stored = service_module.canonical(kind, state, action)
    new_state, _ = kind.module.apply(state, stored)
    return stored, new_state


def variants(action: dict, rnd: random.Random):
    """``action`` with one field, or one field inside an object field, made junk; and with
    a field added. Yields (what was changed, the junk, the new action)."""
    for key, value in action.items():
        if key in ("type", "by"):
            continue
        for junk in JUNK:
            if type(junk) is type(value) and (type(junk) in (bool, type(None)) or not junk):
                continue  # the other boolean, the same null, an empty list: may be legal
            yield key, junk, dict(action, **{key: junk})
        if isinstance(value, dict):
            for inner in list(value)[:4] + ["zz_unused", "project", "item", "to"]:
                junk = rnd.choice(JUNK[1:])
                if type(junk) is bool and type(value.get(inner)) is bool:
                    continue
                yield f"{key}.{inner}", junk, dict(action, **{key: {**value, inner: junk}})
    yield "extra", "x", dict(action, extra="x")
    for key, value in OPTIONAL.get(action["type"], {}).items():  # a field this one lacks
        if key not in action:
            yield key, value, dict(action, **{key: value})


def sample(shape: dict):
    """A value of ``shape`` (the first of an enum, the least of a range)."""
    if "enum" in shape:
        return shape["enum"][0]
    if "anyOf" in shape:
        return sample(shape["anyOf"][0])
    return {"string": "N1", "integer": shape.get("minimum", 0), "boolean": True,
            "array": [], "object": {}}.get(shape.get("type"), 1)


OPTIONAL: dict = {}  # action type -> {declared field: a value of its shape}, per game


MISSING = object()


def read_by_rules(module, state, action: dict, field: str) -> bool:
    """Whether the rules look at ``field`` of ``action`` when they apply it in ``state``."""
    reads = Reads(action)
    module.apply(state, reads)
    return reads.everything or field in reads.read


def at(action: dict, where: str):
    """The value at ``where`` (``params.project``) of ``action``, or MISSING."""
    value = action
    for part in where.split("."):
        if not isinstance(value, dict) or part not in value:
            return MISSING
        value = value[part]
    return value


@pytest.mark.parametrize("name", GAMES)
def test_no_junk_is_accepted_in_any_field(name):
    kind = load_kind(name, None)
    module = kind.module
    OPTIONAL.clear()
    OPTIONAL.update({t: {k: sample(v) for k, v in shape["properties"].items()
                         if k not in ("type", "by") and k not in shape["required"]}
                     for t, shape in kind.info.action_shapes.items()})
    accepted, crashed, tried, types = [], [], 0, set()
    for seed, seats in ((3, ("N", "E")), (4, ("N", "E", "S", "W"))):
        rnd = random.Random(seed)
        state = module.setup(kind.catalog, setup_for(seats, seed))
        for _step in range(120):
            if module.is_over(state) or not module.prompts(state):
                break
            actions = legal_actions(module, state, rnd)
            for action in rnd.sample(actions, min(4, len(actions))):
                types.add(action["type"])
                base, _ = pipeline(kind, state, action)
                for where, junk, bad in variants(action, rnd):
                    tried += 1
                    try:
                        stored, _ = pipeline(kind, state, bad)
                    except Refused:
                        continue
                    except Exception as exc:  # a traceback: the rules met a value unchecked
                        crashed.append((bad, repr(exc)))
                        continue
                    kept = at(stored, where)
                    if where in OPTIONAL.get(action["type"], {}) and where not in action:
                        if kept is not MISSING and not read_by_rules(module, state, stored,
                                                                     where):
                            accepted.append((where, bad, stored))  # kept, never read
                    elif stored != base and type(kept) is type(junk) and kept == junk:
                        accepted.append((where, bad, stored))
            move = module.random_action(state, rnd)
            if move is None:
                break
            state, _ = module.apply(state, move)
    assert tried > 500 and len(types) >= 5, (tried, types)
    assert crashed == [], crashed[:5]
    assert accepted == [], "\n".join(map(repr, accepted[:6]))


def test_an_old_record_with_junk_in_unused_fields_imports_cleaned(games_app):
    """A WWE record of before the tightening: a card played without performing it, its
    params holding text no rule reads, replays and imports; the stored action is clean."""
    service = context.of(games_app).service
    live = service.create("wwe", setup_for(("N", "E"), 11), "1234")
    from companion.game.service import Identity

    rnd = random.Random(11)
    junked = 0
    for _ in range(60):
        module = live.kind.module
        choices = [a for a in legal_actions(module, live.state, rnd)
                   if a["type"] == "play_card" and a.get("perform") is False]
        move = choices[0] if choices else module.random_action(live.state, rnd)
        if move is None:
            break
        service.act(Identity("seat", live.id, move["by"]) if move["by"] in live.seats
                    else Identity("table", live.id), move)
        junked += move["type"] == "play_card" and move.get("perform") is False
    assert junked
    record = service.record(live.id)
    for action in record["actions"]:  # as an old server stored them
        if action["type"] == "play_card" and action.get("perform") is False:
            action["params"] = {"project": "'; DROP TABLE", "item": "\u2603", "stone": 1}
    client = games_app.test_client()
    response = client.post("/games/import", data={
        "csrf_token": csrf(client), "host_pin": "1234",
        "record": (io.BytesIO(json.dumps(record).encode()), "r.json")},
        content_type="multipart/form-data")
    assert response.status_code == 303, response.get_data(as_text=True)[:400]
    new_id = response.headers["Location"].rsplit("/", 1)[-1]
    imported = service.get(new_id)
    assert {k: v for k, v in imported.state.items() if k != "cat"} == \
        {k: v for k, v in live.state.items() if k != "cat"}
    stored = [a["action"] for a in service.store.actions(new_id)]
    assert not any("DROP" in json.dumps(a) for a in stored)
    assert stored == [a["action"] for a in service.store.actions(live.id)]


@pytest.mark.parametrize("name", GAMES)
def test_the_stored_log_replays_to_the_same_game(games_app, name):
    """The canonical actions the service stores replay, from the setup alone, to the state
    the game reached (nothing the rules used was dropped)."""
    from companion.game.service import Identity

    service = context.of(games_app).service
    live = service.create(name, setup_for(("N", "E", "S"), 21), "1234")
    rnd = random.Random(21)
    for _ in range(150):
        module = live.kind.module
        if module.is_over(live.state) or not module.prompts(live.state):
            break
        actions = legal_actions(module, live.state, rnd)
        move = rnd.choice(actions) if actions else None
        if move is None:
            break
        who = (Identity("seat", live.id, move["by"]) if move["by"] in live.seats
               else Identity("host" if move["by"] == "host" else "table", live.id))
        service.act(who, move)
    state = module.setup(live.kind.catalog, live.row["setup"])
    state = {**state, **({"cat": live.state["cat"]} if "cat" in live.state else {})}
    stored = [a["action"] for a in service.store.actions(live.id)]
    assert len(stored) > 20
    for action in stored:
        state, _ = module.apply(state, action)
    assert json.dumps(state, sort_keys=True, default=str) == \
        json.dumps(live.state, sort_keys=True, default=str)

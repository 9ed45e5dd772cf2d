"""The pure catalog validator: the shipped catalog passes, every class of corruption is
reported with the right file, entry, field and code."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine.wwe import catalog as cat

SHIPPED = Path(__file__).resolve().parents[2] / "engine" / "wwe" / "data"


@pytest.fixture(scope="module")
def shipped() -> dict:
    return {part: json.loads((SHIPPED / f"{part}.json").read_text(encoding="utf-8"))
            for part in cat.PARTS}


def event(c: dict, eid: str) -> dict:
    return next(e for e in c["event_cards"] if e["id"] == eid)


def found(problems: list[dict]) -> set[tuple]:
    return {(p["file"], p["entry"], p["field"], p["code"]) for p in problems}


def test_shipped_catalog_is_valid(shipped):
    assert cat.validate(shipped) == []


def test_validate_does_not_change_its_input(shipped):
    before = copy.deepcopy(shipped)
    broken = copy.deepcopy(shipped)
    broken["event_cards"][0]["arrow"] = "x"
    cat.validate(shipped)
    cat.validate(broken)
    assert shipped == before


def _del(path):
    def f(c):
        obj = c
        for key in path[:-1]:
            obj = obj[key]
        del obj[path[-1]]
    return f


def _set(path, value):
    def f(c):
        obj = c
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value
    return f


def _ev(eid, key, value):
    def f(c):
        event(c, eid)[key] = value
    return f


def _ev_del(eid, key):
    def f(c):
        del event(c, eid)[key]
    return f


def _dup_event(c):
    c["event_cards"].append(copy.deepcopy(c["event_cards"][-1]))


def _drop_chapter_cards(chapter, keep):
    def f(c):
        pile = [e for e in c["event_cards"] if e["chapter"] == chapter]
        for e in pile[keep:]:
            c["event_cards"].remove(e)
    return f


def _star_all(chapter):
    def f(c):
        for e in c["event_cards"]:
            if e["chapter"] == chapter:
                e["starred"] = True
    return f


def _permanent_starred(chapter, n):
    def f(c):
        starred = [e for e in c["event_cards"] if e["chapter"] == chapter and e["starred"]]
        for e in starred[:n]:
            e["permanent"] = True
    return f


def _site_count(c):
    c["building_sites"].pop()


def _action_count(c):
    c["action_cards"] = [a for a in c["action_cards"] if a["id"] != "weaver"]


def _plague_loc(lid, key, value):
    def f(c):
        loc = next(x for x in c["plague"]["locations"] if x["id"] == lid)
        loc[key] = value
    return f


def _project(pid, key, value):
    def f(c):
        next(p for p in c["projects"] if p["id"] == pid)[key] = value
    return f


def _effect(eid, pos, key, value):
    def f(c):
        event(c, eid)["effects"][pos][key] = value
    return f


CORRUPTIONS = [
    # schema: missing field, wrong type, enum, range, unknown field
    ("missing field", _ev_del("because_the_works", "corners"),
     ("event_cards.json", "because_the_works", "corners", "missing_field")),
    ("wrong type", _ev("because_the_works", "arrow", "2"),
     ("event_cards.json", "because_the_works", "arrow", "wrong_type")),
    ("out of range", _ev("because_the_works", "arrow", 4),
     ("event_cards.json", "because_the_works", "arrow", "out_of_range")),
    ("bad corner item", _ev("demo_feast", "corners", ["stone", "wood", "grain", "diamonds"]),
     ("event_cards.json", "demo_feast", "corners[3]", "bad_value")),
    ("three corners", _ev("demo_feast", "corners", ["stone", "wood", "grain"]),
     ("event_cards.json", "demo_feast", "corners", "count")),
    ("typo field", _ev("demo_feast", "corner", ["stone"]),
     ("event_cards.json", "demo_feast", "corner", "unknown_field")),
    ("bool as int", _ev("demo_feast", "chapter", True),
     ("event_cards.json", "demo_feast", "chapter", "wrong_type")),
    ("bad id", _ev("demo_feast", "id", "Demo Feast"),
     ("event_cards.json", "Demo Feast", "id", "bad_id")),
    ("duplicate id", _dup_event,
     ("event_cards.json", "demo_lost_cargo", "id", "duplicate_id")),
    ("wrong material", lambda c: c["building_sites"][0].__setitem__("material", "gold"),
     ("building_sites.json", "site_01", "material", "bad_value")),
    ("rent amount 0", lambda c: c["building_sites"][1]["rent"].__setitem__("amount", 0),
     ("building_sites.json", "site_02", "rent.amount", "out_of_range")),
    ("supply size text", _set(("game", "supplies", "wool", "size"), "15"),
     ("game.json", "supplies", "wool.size", "wrong_type")),
    ("missing part", _del(("projects",)),
     ("projects.json", None, None, "missing_part")),
    # references between files
    ("unknown project", _effect("demo_fulling_mill", 0, "project", "cathedral"),
     ("event_cards.json", "demo_fulling_mill", "effects[0].project", "unknown_reference")),
    ("start project introduced", _effect("demo_fulling_mill", 0, "project", "bridge"),
     ("event_cards.json", "demo_fulling_mill", "effects[0].project", "not_event_project")),
    ("unknown action card", _effect("demo_market_day", 0, "card", "juggling"),
     ("event_cards.json", "demo_market_day", "effects[0].card", "unknown_reference")),
    ("unknown favor space", _effect("demo_bishops_visit", 0, "ids", ["pope"]),
     ("event_cards.json", "demo_bishops_visit", "effects[0].ids[0]", "unknown_reference")),
    ("unknown market space", _effect("demo_market_closed", 0, "ids", ["spices"]),
     ("event_cards.json", "demo_market_closed", "effects[0].ids[0]", "unknown_reference")),
    ("all_other_projects on favor", _effect("demo_bishops_visit", 0, "ids",
                                            "all_other_projects"),
     ("event_cards.json", "demo_bishops_visit", "effects[0].ids", "bad_value")),
    ("unknown effect", _effect("demo_feast", 0, "type", "teleport"),
     ("event_cards.json", "demo_feast", "effects[0].type", "bad_effect")),
    ("bad who", _effect("demo_feast", 0, "who", "everyone"),
     ("event_cards.json", "demo_feast", "effects[0].who", "bad_value")),
    ("effect typo", _effect("demo_feast", 0, "itmes", {"vp": 1}),
     ("event_cards.json", "demo_feast", "effects[0].itmes", "unknown_field")),
    ("lose mk", _effect("demo_tithe", 0, "items", {"mk": 1}),
     ("event_cards.json", "demo_tithe", "effects[0].items.mk", "mk_never_lost")),
    ("favor cycle", _set(("game", "favor_track", "cycle", 2), "pope"),
     ("game.json", "favor_track", "cycle[2]", "unknown_reference")),
    # rule facts
    ("stone 24", _set(("game", "supplies", "stone", "size"), 24),
     ("game.json", "supplies", "stone.size", "rule_fact")),
    ("start vp", _set(("game", "start", "vp"), 10),
     ("game.json", "start", None, "rule_fact")),
    ("rounds", _set(("game", "rounds"), 5), ("game.json", "rounds", "rounds", "rule_fact")),
    ("seats", _set(("game", "seats"), ["N", "S", "E", "W"]),
     ("game.json", "seats", "seats", "rule_fact")),
    ("tax face 6", _set(("game", "tax_die", "faces"), [2, 3, 6]),
     ("game.json", "tax_die", "faces[2]", "rule_fact")),
    ("tax face text", _set(("game", "tax_die", "faces"), [2, "3"]),
     ("game.json", "tax_die", "faces[1]", "wrong_type")),
    ("council", _set(("game", "council", "side_values"), [0, 1, 1, 3]),
     ("game.json", "council", "side_values", "rule_fact")),
    ("11 action cards", _action_count, ("action_cards.json", None, None, "count")),
    ("13 sites", _site_count, ("building_sites.json", None, None, "count")),
    ("10 plague locations", lambda c: c["plague"]["locations"].pop(),
     ("plague.json", "locations", None, "count")),
    ("house 9 reward", _plague_loc(9, "reward", {"vp": 1}),
     ("plague.json", 9, "reward.free_house", "rule_fact")),
    ("hideout reward", _plague_loc(11, "reward", {"vp": 1}),
     ("plague.json", 11, "reward", "rule_fact")),
    ("plague token 6", _set(("plague", "tokens", 0), 6),
     ("plague.json", "tokens", "[0]", "out_of_range")),
    ("tower stone", _project("tower", "stone", 5), ("projects.json", "tower", "stone",
                                                    "rule_fact")),
    ("tower spire", _project("tower", "spire", False), ("projects.json", "tower", "spire",
                                                       "rule_fact")),
    ("lady chapel reward", _project("lady_chapel", "donor_reward", {"vp": 1}),
     ("projects.json", "lady_chapel", "donor_reward", "rule_fact")),
    ("too few events", _drop_chapter_cards(2, 5),
     ("event_cards.json", None, "chapter", "too_few_events")),
    ("starred count", _star_all(3), ("event_cards.json", None, "starred", "starred_count")),
    ("4 permanent starred", _permanent_starred(1, 4),
     ("event_cards.json", None, "permanent", "too_many_permanent")),
    ("King Edward outside chapter II", _ev("king_edward_iii", "chapter", 1),
     ("event_cards.json", "king_edward_iii", "chapter", "rule_fact")),
    ("plague in chapter I", _ev("demo_feast", "plague", 3),
     ("event_cards.json", "demo_feast", "plague", "plague_chapter")),
    ("no plague in chapter III", _ev("demo_alms", "plague", None),
     ("event_cards.json", "demo_alms", "plague", "plague_missing")),
    ("plague 12", _ev("demo_alms", "plague", 12),
     ("event_cards.json", "demo_alms", "plague", "out_of_range")),
    # translations and demo marking
    ("missing translation", lambda c: event(c, "demo_feast")["names"].pop("pl"),
     ("event_cards.json", "demo_feast", "names.pl", "missing_language")),
    ("unknown language", lambda c: event(c, "demo_feast")["names"].__setitem__("fr", "Fête"),
     ("event_cards.json", "demo_feast", "names.fr", "unknown_language")),
    ("empty name", lambda c: event(c, "demo_feast")["names"].__setitem__("it", " "),
     ("event_cards.json", "demo_feast", "names.it", "empty_text")),
    ("favor names", lambda c: c["game"]["favor_spaces"]["king"].pop("es"),
     ("game.json", "favor_spaces", "king.es", "missing_language")),
    ("text without en", lambda c: event(c, "demo_feast")["text"].pop("en"),
     ("event_cards.json", "demo_feast", "text.en", "missing_language")),
    ("bad demo field", _ev("because_the_works", "demo_fields", ["colour"]),
     ("event_cards.json", "because_the_works", "demo_fields", "bad_demo_field")),
    ("demo fields without demo", _ev("because_the_works", "demo", False),
     ("event_cards.json", "because_the_works", "demo", "demo_flag")),
]


@pytest.mark.parametrize("name,corrupt,expected", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_each_corruption_is_reported_where_it_is(shipped, name, corrupt, expected):
    broken = copy.deepcopy(shipped)
    corrupt(broken)
    problems = cat.validate(broken)
    assert expected in found(problems), problems
    for p in problems:  # every problem carries a stable code and its English reason
        assert p["reason"].startswith(p["code"] + ": ")
        assert p["code"] in cat.REASONS


def test_not_an_object():
    assert found(cat.validate([])) == {("(catalog)", None, None, "not_object")}


def test_entries_that_are_not_objects_are_reported(shipped):
    broken = copy.deepcopy(shipped)
    broken["event_cards"].append("because_the_works")
    assert ("event_cards.json", "#44", None, "not_object") in found(cat.validate(broken))


def test_two_cards_bringing_in_one_project(shipped):
    broken = copy.deepcopy(shipped)
    event(broken, "demo_feast")["effects"] = [{"type": "introduce_project",
                                              "project": "fulling_mill"}]
    assert ("event_cards.json", "demo_feast", "effects[0].project",
            "duplicate_project_intro") in found(cat.validate(broken))


# ------------------------------------------------------------------ the shipped data itself
NAMED = ("because_the_works", "in_kingsbridge", "after_the_accusation", "ralph_fitzgerald",
         "king_edward_iii", "during_the_plague", "with_godwyns_help",
         "merthin_fulfilled_his_dream")


def test_the_eight_named_cards_are_real_entries_with_their_guesses_marked(shipped):
    for eid in NAMED:
        card = event(shipped, eid)
        assert not card["names"]["en"].startswith("Demo")
        assert {"corners", "arrow", "starred"} <= set(card["demo_fields"])
    assert event(shipped, "king_edward_iii")["chapter"] == 2
    assert "chapter" not in event(shipped, "king_edward_iii")["demo_fields"]
    assert event(shipped, "king_edward_iii")["effects"][0]["royal_court_exempt_if_first"]
    assert event(shipped, "merthin_fulfilled_his_dream")["effects"] == [
        {"type": "complete_tower"}]
    godwyn = event(shipped, "with_godwyns_help")["effects"]
    assert {"type": "introduce_project", "project": "prior_house"} in godwyn
    assert {"type": "cover", "target": "project", "ids": "all_other_projects"} in godwyn


def test_invented_cards_say_demo_in_every_language(shipped):
    for card in shipped["event_cards"]:
        if card["id"] not in NAMED:
            assert card["demo"] is True and "demo_fields" not in card
            assert all(name.startswith("Demo: ") for name in card["names"].values()), card["id"]


def test_each_chapter_has_a_full_pile_of_eleven(shipped):
    for chapter in (1, 2, 3, 4):
        pile = [e for e in shipped["event_cards"] if e["chapter"] == chapter]
        assert len(pile) == 11
        assert sum(e["permanent"] for e in pile) <= 3


def test_first_game_decks_exercise_every_effect_kind(shipped):
    """The starred 6 per chapter (the first-game decks) together use every effect kind,
    bring in all five event projects and cover favor, market and project spaces."""
    starred = [e for e in shipped["event_cards"] if e["starred"]]
    effects = [fx for e in starred for fx in e["effects"]]
    assert {fx["type"] for fx in effects} == set(cat.EFFECT_FIELDS)
    introduced = {fx["project"] for fx in effects if fx["type"] == "introduce_project"}
    event_projects = {p["id"] for p in shipped["projects"]
                      if not p["at_start"] and p["enters_after_chapter"] is None}
    assert introduced == event_projects and len(event_projects) == 5
    assert {fx["target"] for fx in effects if fx["type"] == "cover"} == set(cat.COVER_TARGETS)


def test_plague_numbers_of_chapter_three_and_four_reach_every_location(shipped):
    for chapter in (3, 4):
        numbers = {e["plague"] for e in shipped["event_cards"] if e["chapter"] == chapter}
        assert numbers == set(range(1, 12))


def test_same_rent_restriction_is_meaningful_in_the_demo_sites(shipped):
    rents = [(s["rent"]["item"], s["rent"]["amount"]) for s in shipped["building_sites"]]
    assert len(set(rents)) < len(rents)
    assert {s["material"] for s in shipped["building_sites"]} == {"stone", "wood"}


def test_demo_listing_names_every_guess(shipped):
    demos = cat.demo_entries(shipped)
    keys = {(d["file"], d["entry"]) for d in demos}
    assert ("game.json", "tax_die") in keys and ("game.json", "favor_track") in keys
    assert ("plague.json", "tokens") in keys
    assert ("plague.json", 9) not in keys and ("plague.json", 11) not in keys
    assert ("projects.json", "tower") not in keys
    assert len([d for d in demos if d["file"] == "event_cards.json"]) == 44
    assert {d["fields"][0] for d in demos if d["entry"] == "supplies"} == {
        "wool", "cloth", "loyalty", "mk", "gold"}

"""Host corrections of the public board (``correct``), the forms' schemas from
`GameInfo.corrections`, the before/after preview, and a `manual` event card carried out at
the table by corrections, recorded and replayed."""
from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from engine import record
from engine.api import correction_preview
from engine.wwe import GAME
from engine.wwe.reasons import REASONS
from engine.wwe.texts import EVENT_TEXTS
from tests.engine.wwe_helpers import act, at, english, new_game, plain, refused, run_until

SETUP_SEATS = ("N", "E", "S")


def fix(state, part, value, key=None, **extra):
    action = {"type": "correct", "by": "host", "part": part, "value": value, **extra}
    if key is not None:
        action["key"] = key
    return GAME.apply(state, action)


@pytest.fixture
def s(catalog):
    plain(catalog)
    return run_until(new_game(catalog, seats=SETUP_SEATS), at("play_card"))


def test_info_declares_the_correction_action_and_forms():
    assert "correct" in GAME.info.host_actions
    assert GAME.info.corrections is not None


def test_every_form_schema_accepts_the_current_value_and_sending_it_changes_nothing(s):
    s["projects"]["fulling_mill"] = {**s["projects"]["bridge"], "seals": []}
    forms = GAME.info.corrections(s)
    assert {f["part"] for f in forms} >= {"favor", "covers", "project", "site", "slots",
                                          "supply"}
    for form in forms:
        Draft202012Validator.check_schema(form["schema"])
        assert Draft202012Validator(form["schema"]).is_valid(form["current"]), form
        after, events = GAME.apply(s, {**form["action"], "value": form["current"]})
        assert GAME.public_view(after) | {"version": 0} == \
            GAME.public_view(s) | {"version": 0}, form["part"]
        assert events[0]["type"] == "corrected"


def test_each_part_is_corrected_with_an_audit_event(s):
    cycle = s["cat"]["game"]["favor_track"]["cycle"]
    s1, ev = fix(s, "favor", cycle.index("king"), reason="marker knocked over")
    assert s1["favor"]["index"] == cycle.index("king")
    assert ev[0] == {"type": "corrected", "part": "favor", "key": None,
                     "before": s["favor"]["index"], "after": cycle.index("king"),
                     "reason": "marker knocked over"}
    assert EVENT_TEXTS["corrected"].format(**ev[0])

    s1, _ = fix(s, "covers", {"favor": ["king"], "market": [], "project": ["bridge"]})
    assert s1["covers"] == {"favor": ["king"], "market": [], "project": ["bridge"]}

    s1, ev = fix(s, "project", {"on_board": True, "stone": 2, "wood": 1, "complete": False},
                 key="fulling_mill")
    assert s1["projects"]["fulling_mill"]["stone"] == 2
    assert ev[0]["before"]["on_board"] is False and ev[0]["after"]["wood"] == 1

    site = next(iter(s["sites"]))
    s1, _ = fix(s, "site", "E", key=site)
    assert s1["sites"][site] == "E" and s1["players"]["E"]["houses"] == [site]
    s2, _ = fix(s1, "site", "S", key=site)   # moved: E gets the house back
    assert s2["players"]["E"]["houses"] == [] and s2["players"]["S"]["houses"] == [site]
    s3, _ = fix(s2, "site", None, key=site)
    assert s3["sites"][site] is None and s3["players"]["S"]["houses"] == []

    permanent = sorted(c for c, e in s["cat"]["events"].items() if e.get("permanent"))
    if permanent:
        s1, _ = fix(s, "slots", permanent[:1])
        assert s1["slots"] == permanent[:1] and permanent[0] in s1["targets"]

    s1, _ = fix(s, "supply", {**{k: v for k, v in s["supply"].items() if v is not None},
                              "grain": 0})
    assert s1["supply"]["grain"] == 0


def test_plague_tokens_from_chapter_three(catalog):
    plain(catalog)
    s = run_until(new_game(catalog, seats=SETUP_SEATS), at("play_card", chapter=3))
    loc = sorted(s["plague"], key=int)[0]
    s1, _ = fix(s, "plague", {"state": "sick", "value": 3}, key=loc)
    assert s1["plague"][loc] == {"state": "sick", "value": 3}
    assert GAME.public_view(s1)["plague"][loc]["value"] == 3
    assert refused(s, type="correct", by="host", part="plague", key=loc,
                   value={"state": "sick", "value": None}).code == "bad_correction"
    s["plague"][loc] = {"state": "hidden", "value": 4}   # dealt by the app, face down
    s1, ev = fix(s, "plague", {"state": "hidden", "value": None}, key=loc)
    assert s1["plague"][loc]["value"] == 4 and ev[0]["before"]["value"] is None


def test_without_a_token_set_the_rules_values_are_revealed_and_corrected(catalog):
    """A catalog with no plague token set: a token may show any of the rules' values 1-5
    (IT:280), at the reveal and in the host's form; the form takes no other field."""
    from engine.wwe.actions import plague_values_left
    plain(catalog)
    del catalog["plague"]["tokens"]
    s = run_until(new_game(catalog, seats=SETUP_SEATS), at("play_card", chapter=3))
    assert plague_values_left(s) == [1, 2, 3, 4, 5]
    loc = sorted(s["plague"], key=int)[0]
    form = next(c for c in GAME.info.corrections(s) if c["part"] == "plague" and c["key"] == loc)
    assert form["schema"]["properties"]["value"]["enum"] == [1, 2, 3, 4, 5, None]
    for value in (1, 5):
        s1, _ = fix(s, "plague", {"state": "sick", "value": value}, key=loc)
        assert s1["plague"][loc] == {"state": "sick", "value": value}
    for bad in ({"state": "sick", "value": 6}, {"state": "sick", "value": 0},
                {"state": "sick", "value": 3, "cured": True}):
        assert refused(s, type="correct", by="host", part="plague", key=loc,
                       value=bad).code == "bad_correction"


@pytest.mark.parametrize("part,key,value,code", [
    ("favor", None, 99, "bad_correction"),
    ("favor", None, True, "bad_correction"),
    ("favor", None, "3", "bad_correction"),
    ("weather", None, 1, "bad_correction"),
    ("project", "atlantis", {"on_board": True, "stone": 0, "wood": 0, "complete": False},
     "bad_correction"),
    ("project", "bridge", {"on_board": True, "stone": -1, "wood": 0, "complete": False},
     "bad_correction"),
    ("project", "bridge", {"on_board": True, "stone": 99, "wood": 0, "complete": False},
     "bad_correction"),
    ("project", "bridge", {"on_board": True, "stone": 1}, "bad_correction"),
    ("project", None, {"on_board": True, "stone": 1, "wood": 0, "complete": False},
     "bad_correction"),
    # off the board, nothing can lie on it (mutants, issue 51: each field alone)
    ("project", "bridge", {"on_board": False, "stone": 1, "wood": 0, "complete": False},
     "bad_correction"),
    ("project", "bridge", {"on_board": False, "stone": 0, "wood": 1, "complete": False},
     "bad_correction"),
    ("project", "bridge", {"on_board": False, "stone": 0, "wood": 0, "complete": True},
     "bad_correction"),
    ("covers", None, {"favor": ["nowhere"], "market": [], "project": []}, "bad_correction"),
    ("covers", None, {"favor": ["king", "king"], "market": [], "project": []},
     "bad_correction"),
    ("covers", None, {"favor": ["king", "queen", "bishop"], "market": ["wool", "cloth"],
                      "project": ["bridge"]}, "too_many_covers"),
    ("site", "nowhere", "N", "bad_correction"),
    ("site", "FIRST", "Q", "bad_correction"),
    ("slots", None, ["demo_feast"], "bad_correction"),
    ("supply", None, {"grain": 11}, "bad_correction"),
    ("start_player", None, "E", "wrong_phase"),
])
def test_bad_corrections_are_refused_and_change_nothing(s, part, key, value, code):
    action = {"type": "correct", "by": "host", "part": part, "value": value}
    if key == "FIRST":
        key = next(iter(s["sites"]))
    if key is not None:
        action["key"] = key
    r = refused(s, **action)
    assert r.code == code and r.code in REASONS
    english(REASONS[r.code], r.params)


def test_corrections_are_host_only_and_need_a_value(s):
    assert refused(s, type="correct", by="N", part="favor", value=1).code == "host_only"
    assert refused(s, type="correct", by="table", part="favor", value=1).code == "host_only"
    r = refused(s, type="correct", by="host", part="favor")
    assert r.code == "bad_correction" and r.params["field"] == "value"


def test_a_fifth_house_and_a_sealed_project_are_refused(s):
    sites = list(s["sites"])
    for site in sites[:4]:
        s, _ = fix(s, "site", "N", key=site)
    assert refused(s, type="correct", by="host", part="site", key=sites[5],
                   value="N").code == "no_house_left"
    s["projects"]["bridge"]["seals"] = ["E"]
    s["players"]["E"]["seals"] = ["bridge"]
    assert refused(s, type="correct", by="host", part="project", key="bridge",
                   value={"on_board": False, "stone": 0, "wood": 0,
                          "complete": False}).code == "project_has_seals"


def test_without_the_catalogs_counts_the_rules_five_covers_and_four_houses_hold(catalog):
    """A catalog that leaves out the cover tiles and houses per player: the rules' 5 and 4
    (FACT_GAME) bound the host's corrections, and the forms take no other field."""
    plain(catalog)
    del catalog["game"]["cover_tiles"], catalog["game"]["houses_per_player"]
    s = run_until(new_game(catalog, seats=SETUP_SEATS), at("play_card"))
    form = next(c for c in GAME.info.corrections(s) if c["part"] == "covers")
    assert {k: p["maxItems"] for k, p in form["schema"]["properties"].items()} == \
        {"favor": 5, "market": 5, "project": 5}
    five = {"favor": ["king", "queen", "bishop"], "market": ["wool"], "project": ["bridge"]}
    s1, _ = fix(s, "covers", five)
    assert sum(len(v) for v in s1["covers"].values()) == 5
    six = {**five, "market": ["wool", "cloth"]}
    assert refused(s, type="correct", by="host", part="covers",
                   value=six).code == "too_many_covers"
    assert refused(s, type="correct", by="host", part="covers",
                   value={**five, "spire": []}).code == "bad_correction"
    sites = list(s["sites"])
    for site in sites[:4]:
        s, _ = fix(s, "site", "N", key=site)
    assert refused(s, type="correct", by="host", part="site", key=sites[5],
                   value="N").code == "no_house_left"


def test_start_player_correction_before_the_reveal(catalog):
    plain(catalog)
    s = new_game(catalog, seats=SETUP_SEATS)
    assert s["queue"][0]["kind"] == "reveal_event"
    s1, _ = fix(s, "start_player", "S")
    assert s1["active"] == "S" and s1["queue"][0]["seat"] == "S"
    s1 = act(s1, type="reveal_event", by="table", card="demo_feast")
    assert s1["queue"][0] == {**s1["queue"][0], "kind": "orient_event", "seat": "S"}


def test_preview_shows_before_and_after_and_changes_nothing(s):
    frozen = json.dumps(s, sort_keys=True)
    cycle = s["cat"]["game"]["favor_track"]["cycle"]
    p = correction_preview(GAME, s, {"type": "correct", "by": "host", "part": "favor",
                                     "value": cycle.index("guild")})
    assert p["before"]["favor"]["space"] == cycle[s["favor"]["index"]]
    assert p["after"]["favor"]["space"] == "guild" and p["changed"] == ["favor"]
    assert p["events"][0]["type"] == "corrected"
    bad = correction_preview(GAME, s, {"type": "correct", "by": "host", "part": "favor",
                                       "value": -1})
    assert bad["refused"]["code"] == "bad_correction" and "after" not in bad
    assert json.dumps(s, sort_keys=True) == frozen


def test_manual_event_card_carried_out_by_corrections_and_replayed(catalog):
    """A `manual` event card: the table moves the favor marker and puts materials on a
    project as the card says; the host records both; the record replays exactly."""
    plain(catalog)
    card = next(c for c in catalog["event_cards"] if c["id"] == "demo_feast")
    card["effects"] = [{"type": "manual", "text": {"en": "Move the favor marker to the "
                                                         "King; the Bridge gets 2 stone."}}]
    setup = {"players": [{"seat": x, "name": x} for x in SETUP_SEATS], "seed": 3}
    state = GAME.setup(catalog, setup)
    cycle = state["cat"]["game"]["favor_track"]["cycle"]
    actions = [{"type": "reveal_event", "by": "table", "card": "demo_feast"}]
    state, _ = GAME.apply(state, actions[0])
    assert state["queue"][0]["kind"] == "resolve_manual"
    bridge = {"on_board": True, "stone": 2, "wood": 0, "complete": False}
    actions += [
        {"type": "correct", "by": "host", "part": "favor", "value": cycle.index("king"),
         "reason": "event card demo_feast"},
        {"type": "correct", "by": "host", "part": "project", "key": "bridge", "value": bridge,
         "reason": "event card demo_feast"},
        {"type": "resolve_manual", "by": "table"},
    ]
    log = []
    for action in actions[1:]:
        state, events = GAME.apply(state, action)
        log += events
    assert [e["part"] for e in log if e["type"] == "corrected"] == ["favor", "project"]
    assert state["queue"][0]["kind"] == "orient_event"
    assert cycle[state["favor"]["index"]] == "king"
    assert state["projects"]["bridge"]["stone"] == 2
    rec = json.loads(json.dumps(record.build("wwe", setup, actions)))
    again, events = record.replay(GAME, catalog, rec)
    assert again == state
    assert [e for e in events if e["type"] == "corrected"] == \
        [e for e in log if e["type"] == "corrected"]


def test_a_count_correction_tells_a_secret_count_to_nobody(s):
    """The host's `adjust` of a seat's resource (its secret: views.secrets) logs the change
    without the count, in an event everyone sees; of VP (public) the count after it too."""
    grain = s["players"]["E"]["res"]["grain"]
    after, events = GAME.apply(s, {"type": "adjust", "by": "host", "seat": "E",
                                   "item": "grain", "delta": 1, "reason": "income"})
    assert after["players"]["E"]["res"]["grain"] == grain + 1
    assert events == [{"type": "adjusted_secret", "seat": "E", "item": "grain", "delta": 1,
                       "reason": "income"}]
    assert ("players", "E", "res") in GAME.info.secrets(after)["E"]
    vp = s["players"]["E"]["vp"]
    _, events = GAME.apply(s, {"type": "adjust", "by": "host", "seat": "E", "item": "vp",
                               "delta": 2, "reason": "spire"})
    assert events[-1] == {"type": "adjusted", "seat": "E", "item": "vp", "delta": 2,
                          "after": vp + 2, "reason": "spire"}
    assert EVENT_TEXTS["adjusted_secret"].format(seat="E", item="grain", delta=1,
                                                 reason="income")

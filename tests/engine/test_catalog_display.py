"""Demo data is never passed off as the real card: everything the public view shows from the
catalog carries the catalog's demo flag (issue 2 §4)."""
from __future__ import annotations

import random

import pytest

from companion.box.catalog import load_catalog
from engine.wwe import GAME
from engine.wwe.catalog import demo_entries

CATALOG = load_catalog("wwe")
DEMO = {(d["file"], d["entry"]) for d in demo_entries(CATALOG)}
SUPPLY_DEMO = {d["fields"][0] for d in demo_entries(CATALOG) if d["entry"] == "supplies"}


def is_demo(file: str, entry) -> bool:
    return (file, entry) in DEMO


def check_view(view: dict) -> int:
    """Compare every catalog thing in the view with the catalog; returns how many."""
    checked = 0
    assert view["tax_die"]["demo"] is is_demo("game.json", "tax_die")
    assert view["favor"]["demo"] is is_demo("game.json", "favor_track")
    assert view["council"]["demo"] is is_demo("game.json", "council")
    assert {k for k, v in view["supply_demo"].items() if v} == SUPPLY_DEMO
    for pid, proj in view["projects"].items():
        assert proj["demo"] is is_demo("projects.json", pid), pid
        checked += 1
    for sid, site in view["sites"].items():
        assert site["demo"] is is_demo("building_sites.json", sid), sid
        checked += 1
    for loc, token in view["plague"].items():
        assert token["demo"] is is_demo("plague.json", int(loc)), loc
        checked += 1
    if view["event"] is not None:
        card = view["event"]
        assert card["demo"] is is_demo("event_cards.json", card["id"]), card["id"]
        checked += 1
    return checked


@pytest.mark.parametrize("seed", [1, 2])
def test_every_catalog_thing_in_the_view_carries_its_demo_flag(seed):
    s = GAME.setup(CATALOG, {"players": [{"seat": "N"}, {"seat": "E"}, {"seat": "W"}],
                             "seed": seed})
    rnd = random.Random(seed)
    seen_events, seen_plague = set(), False
    while not s["over"]:
        view = GAME.public_view(s)
        check_view(view)
        if view["event"]:
            seen_events.add(view["event"]["id"])
        seen_plague |= bool(view["plague"])
        s, _ = GAME.apply(s, GAME.random_action(s, rnd))
    assert len(seen_events) == 24 and seen_plague
    # the demo flags really differ: real entries show as real
    view = GAME.public_view(s)
    assert view["projects"]["tower"]["demo"] is False
    assert view["plague"]["9"]["demo"] is False and view["plague"]["11"]["demo"] is False
    assert view["plague"]["1"]["demo"] is True


def test_a_real_owner_entry_stops_showing_as_demo():
    catalog = load_catalog("wwe")
    for site in catalog["building_sites"]:
        if site["id"] == "site_01":
            site["demo"] = False
    s = GAME.setup(catalog, {"players": [{"seat": "N"}, {"seat": "S"}]})
    sites = GAME.public_view(s)["sites"]
    assert sites["site_01"]["demo"] is False and sites["site_02"]["demo"] is True

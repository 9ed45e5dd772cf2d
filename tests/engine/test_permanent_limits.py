"""R3.7.2: at most 3 permanent events in a chapter; a 4th reveal is refused unchanged."""
from __future__ import annotations

from engine.wwe import GAME
from engine.wwe.reasons import REASONS
from tests.engine.wwe_helpers import act, at, english, head, new_game, plain, refused, run_until


def _card(catalog, cid):
    return next(c for c in catalog["event_cards"] if c["id"] == cid)


PERMS = ["demo_feast", "demo_flood", "demo_bishops_visit", "demo_royal_tithe"]


def _four_permanent(catalog):
    plain(catalog)
    for cid in PERMS:
        _card(catalog, cid)["permanent"] = True
    return catalog


def test_fourth_permanent_event_refused_state_unchanged(catalog):
    s = new_game(_four_permanent(catalog), seats=("N", "S"))
    for cid in PERMS[:3]:
        s = act(s, type="reveal_event", by="table", card=cid)
        s = run_until(s, at("reveal_event"))
    r = refused(s, type="reveal_event", by="table", card=PERMS[3])
    assert r.code == "too_many_permanent"
    assert r.params == {"card": PERMS[3], "chapter": 1, "max": 3}
    assert english(REASONS[r.code], r.params)
    # the same card is refused in the reveal choices, with the reason
    refusals = {c.action["card"]: c.refused for c in GAME.choices(s, "table")}
    assert refusals[PERMS[3]]["code"] == "too_many_permanent"
    # an immediate card is still fine in the same round
    s = act(s, type="reveal_event", by="table", card="ralph_fitzgerald")
    assert head(s)["kind"] == "orient_event"


def test_permanent_count_is_per_chapter(catalog):
    """The limit starts afresh each chapter: a 4th blue card of the next chapter is fine."""
    cat = _four_permanent(catalog)
    for cid in ("demo_stone_delivery", "demo_tithe", "demo_fire", "demo_pilgrims"):
        _card(cat, cid)["permanent"] = True
    s = new_game(cat, seats=("N", "S"))
    for cid in PERMS[:3]:
        s = act(s, type="reveal_event", by="table", card=cid)
        s = run_until(s, at("reveal_event"))
    s = run_until(s, at("reveal_event", chapter=2))
    for cid in ("demo_stone_delivery", "demo_tithe", "demo_fire"):
        s = act(s, type="reveal_event", by="table", card=cid)
        s = run_until(s, at("reveal_event"))
    assert refused(s, type="reveal_event", by="table",
                   card="demo_pilgrims").code == "too_many_permanent"

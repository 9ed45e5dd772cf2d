"""A table step's "the rest" (engine/api.py `TableStep.rest_text`): Pillars' round
preparation in one tap instead of 13, over real Socket.IO clients. Each draw is recorded as
its own action (the same as 13 taps of "Let the app draw"), the step is gone afterwards and
the phones get the new board; the table display and the host page both may send it, a seat
may not, and a step that offers no "rest" (the architect's draw) is refused with nothing
changed."""
from __future__ import annotations

from companion import context
from tests.companion.conftest import Spy
from tests.companion.test_table_game import seat_spy

PLAYERS = [{"seat": s, "name": n} for s, n in zip("NES", ("Anna", "Bruno", "Chiara"),
                                                  strict=True)]


def prep_step(view: dict) -> dict | None:
    return next((s for s in view["steps"] if s["kind"] == "lay_out"), None)


def test_the_table_draws_the_rest_of_the_round_preparation_in_one_tap(games_live):
    app, server = games_live
    service = context.of(app).service
    live = service.create("pillars", {"players": PLAYERS, "start_seat": "N"}, "2468")
    table = Spy(server.url, {"role": "table", "game": live.id, "lang": "de",
                             "table_token": service.access.new_table_token(live.id)})
    anna = seat_spy(server.url, service, live.id, "N")
    try:
        first = table.wait_for(lambda v: prep_step(v) is not None)
        step = prep_step(first)
        assert step["rest_text"] == "Die App den Rest ziehen lassen"
        assert step["fallback_text"] == "Die App ziehen lassen"
        # a phone may not draw for the table
        ack = anna.call("table_step", {"kind": "lay_out", "rest": True})
        assert ack["ok"] is False
        # one card first, as a tap of "Let the app draw"
        ack = table.call("table_step", {"kind": "lay_out", "rest": False})
        assert ack["ok"] is True and ack["version"] == live.version == 1
        assert live.state["phase"] == "prep"

        ack = table.call("table_step", {"kind": "lay_out", "rest": True})
        assert ack["ok"] is True
        assert live.state["phase"] != "prep"  # everything owed is out
        deals = [a for a in service.store.actions(live.id) if a["action"]["type"] == "deal"]
        assert len(deals) == live.version == 1 + 12  # each draw recorded on its own
        assert {a["action"]["by"] for a in deals} == {"table"}
        seen = anna.wait_version(live.version)
        assert prep_step(seen) is None
        assert len(seen["view"]["supply"]["materials"]) > 0
        assert len(seen["view"]["kingsbridge"]) == 2

        # the architects' draw offers no "rest": refused, nothing changed
        version = live.version
        ack = table.call("table_step", {"kind": "draw_architect", "rest": True})
        assert ack["ok"] is False and ack["code"] == "no_table_step"
        assert live.version == version
    finally:
        table.close()
        anna.close()


def test_the_host_page_draws_the_rest_too(games_live):
    app, server = games_live
    service = context.of(app).service
    live = service.create("pillars", {"players": PLAYERS[:2], "start_seat": "E"}, "2468")
    host = Spy(server.url, {"role": "host", "game": live.id, "lang": "it",
                            "host_token": service.access.new_host_token(live.id)})
    try:
        step = prep_step(host.wait_for(lambda v: prep_step(v) is not None))
        assert step["rest_text"] and step["done"] == 0 and step["of"] >= 2
        ack = host.call("host", {"op": "table_step", "kind": "lay_out", "rest": True})
        assert ack["ok"] is True and live.state["phase"] != "prep"
        assert prep_step(host.wait_version(live.version)) is None
        # a wrong "rest" is refused by the op's shape, nothing changed
        version = live.version
        ack = host.call("host", {"op": "table_step", "kind": "lay_out", "rest": "yes"})
        assert ack["ok"] is False and live.version == version
    finally:
        host.close()

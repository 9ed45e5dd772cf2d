"""A socket that closes while the sender sends a turn's views (its pings timed out under load,
a phone's page gone: engine.io raises SocketIsClosedError on the emit) costs only its own
message: every other recipient of the turn still gets its view, and nothing is logged as an
error. Seen in CI: one closed socket stopped the turn's other views and logged a traceback."""
from __future__ import annotations

import logging

from engineio.exceptions import SocketIsClosedError

from companion import context
from tests.companion.conftest import Spy

PLAYERS = [{"seat": s, "name": n} for s, n in (("N", "Ann"), ("E", "Bob"))]


def test_a_socket_closed_mid_turn_misses_only_its_own_view(games_live, caplog):
    app, server = games_live
    caplog.set_level(logging.INFO)
    service, views = context.of(app).service, context.of(app).views
    game = service.create("wwe", {"players": PLAYERS}, "2468")
    codes = service.store.join_codes(game.id)
    spies = {seat: Spy(server.url, {"role": "seat", "game": game.id,
                                    "token": service.access.claim_seat(game.id, seat, codes[seat])})
             for seat in ("N", "E")}
    try:
        for spy in spies.values():
            spy.got_view.wait(10)
        sent, dead = views.emit, []

        def emit(event, message, to=None):
            """The first recipient of the turn has closed (engine.io's own error)."""
            dead[:] = dead or [to]
            if to == dead[0]:
                raise SocketIsClosedError()
            return sent(event, message, to=to)

        views.emit = emit
        try:
            service.set_paused(game.id, True)
            assert views.settle(game.id) and dead  # the turn was sent, or tried
            alive = next(s for s in spies.values() if s.sio.get_sid() != dead[0])
            assert alive.wait_for(lambda v: v["paused"])
        finally:
            views.emit = sent
        gone = next(s for s in spies.values() if s.sio.get_sid() == dead[0])
        assert not any(v["paused"] for v in gone.views)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert any("closed before its" in r.getMessage() for r in caplog.records)
    finally:
        for spy in spies.values():
            spy.close()

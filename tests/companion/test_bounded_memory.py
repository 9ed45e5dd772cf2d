"""What an evening keeps does not grow with it (issue 37): the caches that live as long as
a game or the process have a size (an LRU, the log window), stay within it over a whole
random game, and the views built with them are the views built without them; a socket
that closes leaves nothing behind in the per-connection maps."""
from __future__ import annotations

import random

import pytest

from companion import context
from companion.game import live as live_mod
from companion.game import shared, views
from companion.server.lru import LRU
from companion.table import history
from engine.api import random_move
from tests.companion.conftest import Spy, create_game, make_app
from tests.companion.test_shared_views import new_game, recipients, who
from tests.companion.test_sockets import host_token, seat_token
from tests.waiting import PATIENCE, wait_for


def test_an_lru_never_holds_more_than_its_size_and_drops_the_least_used():
    cache = LRU(3)
    for key in "abc":
        cache.put(key, key.upper())
    assert cache.get("a") == "A"  # a used: b is now the oldest
    cache.put("d", "D")
    assert len(cache) == 3 and "b" not in cache and cache.get("a") == "A"
    for i in range(100):
        cache.put(i, i)
        assert len(cache) <= 3
    assert cache.get("a") is None and cache.get(99) == 99
    with pytest.raises(ValueError):
        LRU(0)


@pytest.mark.parametrize("game", [pytest.param("wwe", marks=pytest.mark.heavy), "toy"])
def test_a_long_game_keeps_its_caches_within_their_sizes(tmp_path, monkeypatch, game):
    """A small text cache (evicting all the time) and the log window's translations: the
    views equal the uncached ones at every step, and neither cache outgrows its bound."""
    monkeypatch.setattr(live_mod, "TEXT_CACHE_SIZE", 5)
    app = make_app(tmp_path)
    with app.app_context():
        live = new_game(app, game, seed=7)
        service = context.of(app).service
        module, rnd = live.kind.module, random.Random(7)
        langs = ("en", "pl")
        steps = 0
        for step in range(250):
            action = random_move(module, live.state, rnd)
            if action is None:
                break
            service.act(who(live, action.get("by", "")), action)
            steps = step
            lang = langs[step % 2]
            for role, seat in recipients(live)[:2] + recipients(live)[-2:]:
                kept = views.build(live, role, seat, lang, connected=set())
                fresh = views.build(live, role, seat, lang, connected=set(),
                                    shared=shared.Fresh(live))
                assert kept == fresh, (game, live.version, role, seat, lang)
            assert len(live.text_cache) <= 5
            entries = [k for k in live.log_cache if len(k) == 3]
            window = sum(len(live.log_cache[("window", la)][2])
                         for la in langs if ("window", la) in live.log_cache)
            assert len(entries) <= window, (len(entries), window)
        assert steps > 60 and len(live.log) > views.LOG_LENGTH or game == "toy"
        service.store.close()


def test_the_vp_chart_keeps_a_few_versions_not_every_one(tmp_path):
    app = make_app(tmp_path)
    with app.app_context():
        live = new_game(app, "wwe", seed=2)
        service = context.of(app).service
        rnd = random.Random(2)
        history._series_cache.clear()
        for _ in range(30):
            action = random_move(live.kind.module, live.state, rnd)
            service.act(who(live, action.get("by", "")), action)
            series = history.vp_series(service, live)
            assert series is history.vp_series(service, live), "kept for its version"
            assert len(history._series_cache) <= history._series_cache.size
        service.store.close()


def test_closed_sockets_leave_no_entry_in_the_per_connection_maps(app, client, live):
    game_id = create_game(client)
    connections = context.of(app).connections  # blueprints/connections.py
    maps = {"sent": connections._sent, "previewed": connections._previewed,
            "booked": connections._booked}
    spies = [Spy(live.url, {"role": "table", "game": game_id, "lang": "pl",
                            "table_token":
                                context.of(app).service.access.new_table_token(game_id)}),
             Spy(live.url, {"role": "host", "game": game_id,
                            "host_token": host_token(app, game_id)})]
    spies += [Spy(live.url, {"role": "seat", "game": game_id,
                             "token": seat_token(app, game_id, seat)}) for seat in "ABC"]
    for spy in spies:
        assert spy.got_view.wait(PATIENCE)
    sids = {spy.sio.get_sid() for spy in spies}
    assert sids <= set(maps["sent"]) and sids <= set(maps["booked"])
    asker = next(spy for spy in spies[2:] if spy.views[-1]["choices"])
    answer = asker.call("preview", {"action": asker.views[-1]["choices"][0]["action"]})
    assert answer.get("ok"), answer
    assert asker.sio.get_sid() in maps["previewed"]
    for spy in spies[1:]:  # the table stays: it gets a view at every disconnect
        spy.close()
    table_sid = spies[0].sio.get_sid()
    for name, entries in maps.items():
        wait_for(lambda e=entries: set(e) <= {table_sid}, what=f"{name} emptied")
    spies[0].close()
    for name, entries in maps.items():
        wait_for(lambda e=entries: not e, what=f"{name} emptied")

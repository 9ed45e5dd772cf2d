"""bench/evening.py's ``lost``: an acknowledged action counts as lost only when the record
does not hold it, in the canonical form the server stores (World Without End drops a
card's empty ``params``: compared as sent, 42-53 of an evening's actions looked lost)."""
from __future__ import annotations

import importlib.util
import os
import random
from pathlib import Path

from companion.box.catalog import load_catalog
from companion.game import games
from companion.game.games import kind_of
from companion.game.service import GameService, Identity
from companion.game.store import Store

ROOT = Path(__file__).resolve().parents[2]


def evening_bench():
    spec = importlib.util.spec_from_file_location("evening_bench", ROOT / "bench/evening.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_lost_counts_only_what_the_record_does_not_hold(tmp_path):
    store = Store(tmp_path / "companion.sqlite3")
    service = GameService(store, lambda name: kind_of(games.module_of(name),
                                                      load_catalog(name)))
    live = service.create("wwe", {"players": [{"seat": s, "name": f"P{s}"}
                                              for s in ("N", "E", "S", "W")]}, "1234")
    module, rnd = live.kind.module, random.Random(3)
    acked = []
    while len(acked) < 12:
        prompt = module.prompts(live.state)[0]
        offered = [dict(c.action) for c in module.choices(live.state, prompt.seat)
                   if c.refused is None]
        action = rnd.choice(offered)
        version = service.act(Identity("seat", live.id, prompt.seat), action)
        acked.append((version, action, prompt.seat))
    stored = [a["action"] for a in store.actions(live.id)]
    store.close()
    assert any(stored[v - 1] != dict(a, by=by) for v, a, by in acked), \
        "no action was stored in another form than sent: the check is not exercised"
    bench = evening_bench()
    assert bench.lost_actions(tmp_path, live.id, acked) == 0
    # an acknowledged action the record holds elsewhere, or not at all, is lost
    moved = [(v + 1, a, by) for v, a, by in acked[:3]] + acked[3:]
    assert bench.lost_actions(tmp_path, live.id, moved) == 3
    assert bench.lost_actions(tmp_path, live.id, acked + [(99, acked[0][1], "N")]) == 1


def test_the_worker_memory_read_apart_from_the_libraries_pages():
    """Issue 71: the bench reads the worker's anonymous memory (what a leak grows) beside its
    RSS, whose file pages depend on the page cache. Planted fault caught: ``worker_anon``
    read from smaps_rollup's ``AnonHugePages`` (0 here): the assertion fails."""
    module = evening_bench()
    memory = module.memory_mb(os.getpid(), os.getpid())
    assert 0 < memory["worker_anon"] < memory["worker_rss"]
    sampler = module.RssSampler(os.getpid(), 0.01)
    while len(sampler.anon) < 3:
        sampler._stop.wait(0.01)
    sampler.stop()
    assert all(mb > 0 for _, mb in sampler.anon)
    assert [t for t, _ in sampler.anon] == [t for t, _ in sampler.samples][:len(sampler.anon)]
    assert module.slope_mb_per_hour([(0.0, 10.0), (1.0, 11.0), (2.0, 12.0)], 0) == 60.0

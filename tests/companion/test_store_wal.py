"""The WAL is checkpointed every `store.WAL_PAGES` pages and then written again from its start
(an fdatasync of a WAL that does not grow costs less), while every commit stays synced."""
from __future__ import annotations

import os
import sqlite3

from companion.game.store import WAL_PAGES, Store


def test_the_wal_stays_small_and_every_action_is_in_the_file(tmp_path):
    path = tmp_path / "db.sqlite3"
    store = Store(path)
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL, always
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == WAL_PAGES
    store.create_game("g1", "toy", {"players": [{"seat": "A"}]}, "pin", {"A": "CODE"})
    sizes = []
    for seq in range(1, 601):  # a long evening: ~3 pages an action, a snapshot every 25
        action = {"type": "play", "by": "A", "card": f"card-{seq}", "note": "Żółć " * 100}
        snapshot = {"turn": seq, "log": ["x" * 40] * 200} if seq % 25 == 0 else None
        store.append("g1", seq, action, [{"type": "played", "seq": seq}], snapshot)
        sizes.append(os.path.getsize(f"{path}-wal"))
    page = store._db.execute("PRAGMA page_size").fetchone()[0]
    assert max(sizes) < 3 * WAL_PAGES * page  # reused: the default (1,000) grows it to ~4 MB
    other = sqlite3.connect(path)  # another connection, as after a crash: all there
    assert other.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 600
    other.close()
    assert store.actions("g1")[-1]["action"]["note"].startswith("Żółć")
    store.close()

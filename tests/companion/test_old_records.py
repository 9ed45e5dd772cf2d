"""A game record made by an earlier version still reads right (issue 32): a host's count
correction stored before the `adjusted` event carried ``after`` ("now 3") is worded with the
game's older template (``Texts.older_events``), never as "now {after}". Through the real
store (the SQLite file edited as the earlier version wrote it), a restarted server and real
Socket.IO views in two languages, in all three games."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion import context
from companion.app import create_app
from companion.game import views
from companion.game.service import Identity
from tests.companion.conftest import LiveServer
from tests.companion.test_camera_dice_wiring import host_spy, seat_spy
from tests.companion.test_text_scan import new_game
from tests.waiting import PATIENCE

# game -> (seats, a count the host corrects)
GAMES = {"wwe": ("NES", "vp"), "pillars": ("NESW", "vp"), "monasterium": ("NES", "prestige")}
REASON = "miscounted"


def _serve(data: Path):
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    return app, LiveServer(app)


def _stop(app, server) -> None:
    server.stop()
    context.of(app).service.store.close()


def _forget_after(data: Path, game_id: str) -> int:
    """Strip ``after`` from the game's stored `adjusted` events, as the earlier version stored
    them; the number of events changed."""
    changed = 0
    with sqlite3.connect(data / "companion.sqlite3") as db:
        rows = db.execute("SELECT seq, events FROM actions WHERE game = ?", (game_id,))
        for seq, events in rows.fetchall():
            old = json.loads(events)
            for event in old:
                if event.get("type") == "adjusted":
                    changed += event.pop("after", None) is not None
            db.execute("UPDATE actions SET events = ? WHERE game = ? AND seq = ?",
                       (json.dumps(old), game_id, seq))
        db.execute("DELETE FROM snapshots WHERE game = ?", (game_id,))
    return changed


def _corrections(view: dict) -> list[str]:
    return [e["text"] for e in view["log"] if e["type"] == "adjusted"]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_correction_recorded_without_after_reads_right(tmp_path, game):
    seats, item = GAMES[game]
    data = tmp_path / "data"
    app, server = _serve(data)
    service = context.of(app).service
    with app.app_context():
        game_id = new_game(service, game, seats)
        service.act(Identity("host", game_id), {"type": "adjust", "seat": "E", "item": item,
                                                "delta": 1, "reason": REASON})
        token_hint = service.store.join_codes(game_id)  # the seats stay claimable
    _stop(app, server)
    assert token_hint and _forget_after(data, game_id) == 1

    app, server = _serve(data)  # the next evening: the record is read back from the file
    service = context.of(app).service
    try:
        host = host_spy(server.url, service, game_id, "it")
        phone = seat_spy(server.url, service, game_id, "E", "de")
        try:
            assert host.got_view.wait(PATIENCE) and phone.got_view.wait(PATIENCE)
            with app.app_context():  # the count's name as the game words it
                live = service.get(game_id)
                word_it, word_de = (views.Namer(live, lang)(item, "item") for lang in ("it", "de"))
            old_it = _corrections(host.views[-1])
            old_de = _corrections(phone.views[-1])
            assert old_it == [f"Correzione per Bruno: {word_it} +1 ({REASON})."], old_it
            assert old_de == [f"Korrektur für Bruno: {word_de} +1 ({REASON})."], old_de
            # a correction made now still says what the count became
            version = host.views[-1]["version"]
            with app.app_context():
                service.act(Identity("host", game_id), {
                    "type": "adjust", "seat": "E", "item": item, "delta": 1, "reason": REASON})
            view = host.wait_version(version + 1)
            new_it = _corrections(view)[-1]
            assert new_it.startswith(f"Correzione per Bruno: {word_it} +1, ora "), new_it
            seen = [e["text"] for v in (host.views[-1], phone.wait_version(version + 1))
                    for e in v["log"]]
            assert seen and not [t for t in seen if "{" in t or "}" in t]
        finally:
            host.close()
            phone.close()
    finally:
        _stop(app, server)

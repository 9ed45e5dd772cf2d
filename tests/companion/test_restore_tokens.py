"""A restore clears every token and join code of the backup (issue 67, minor 6): a token
planted in a backup opened the record after a restore. The real CLI restores; a live server
on the restored folder is asked over real HTTP."""
from __future__ import annotations

import requests
from click.testing import CliRunner

from companion import context
from companion.cli import cli
from tests.companion.conftest import LiveServer, make_app
from tests.companion.test_restore import played_db


def test_a_restored_backup_s_tokens_and_codes_open_nothing(tmp_path):
    """Planted fault: backup.fresh_screens not called -> the planted host token downloads
    the record (200), the old join code seats a phone."""
    backup, game_id = played_db(tmp_path / "backup" / "companion.sqlite3", moves=3)
    from companion.game.games import kind_of
    from companion.game.service import GameService
    from companion.game.store import Store
    from tests.companion import toygame

    store = Store(backup)  # the backup's tokens, made as the app makes them
    service = GameService(store, lambda name: kind_of(toygame.GAME, None))
    service.load_all()
    host_token = service.access.new_host_token(game_id)
    old_code = store.join_codes(game_id)["B"]
    store.close()

    data = tmp_path / "data"
    made = CliRunner().invoke(cli, ["restore", str(backup), "--data", str(data)])
    assert made.exit_code == 0, made.output
    assert "every screen pairs again" in made.output

    app = make_app(tmp_path, DATA_DIR=str(data))
    server = LiveServer(app)
    try:
        http = requests.Session()
        http.cookies.set(f"tc_host_{game_id}", host_token)
        answer = http.get(f"{server.url}/games/{game_id}/record.json", timeout=30)
        assert answer.status_code == 403
        joined = requests.get(f"{server.url}/join/{game_id}/B?code={old_code}",
                              allow_redirects=False, timeout=30)
        assert joined.status_code != 303
        assert not any(c.name.startswith("tc_seat_") for c in joined.cookies)
        page = requests.get(f"{server.url}/host/{game_id}?lang=pl", timeout=30).text
        assert 'id="screens-cleared"' in page and "łączy się od nowa" in page
        assert context.of(app).service.store.join_codes(game_id)["B"] != old_code
    finally:
        server.stop()
        context.of(app).service.store.close()

"""The access service (companion/game/access.py) on its own, over a real SQLite file and
without the play service (issue 65: play and access split, each with its own state): the
table's custody of the camera and dice, tokens and their revocation."""
from __future__ import annotations

import pytest

from companion.game.access import AccessService
from companion.game.events_bus import Bus, TokensRevoked
from companion.game.live import LiveGame
from companion.game.store import Store
from companion.server import security
from engine.api import Refused


class Games:
    """The play service as access sees it: games in memory, and what it was told."""

    def __init__(self, store: Store) -> None:
        self.store, self.games, self.told = store, {}, []

    def add(self, game_id: str, status: str = "active") -> LiveGame:
        self.store.create_game(game_id, "toy", {"players": [{"seat": "A"}]},
                               security.hash_pin("2468"), {"A": "CODE1"})
        row = dict(self.store.game(game_id), status=status)
        live = self.games[game_id] = LiveGame(game_id, None, row, {}, version=0, last_seq=0)
        return live

    def get(self, game_id):
        if game_id not in self.games:
            raise Refused("unknown_game")
        return self.games[game_id]

    def loaded(self, game_id):
        return self.games.get(game_id)

    def all(self):
        return list(self.games.values())

    def notify(self, live, what="view"):
        self.told.append((live.id, what))


@pytest.fixture
def parts(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    games, bus = Games(store), Bus()
    yield AccessService(store, games, bus), games, bus, store
    store.close()


def test_the_table_moves_only_from_a_free_table_or_with_the_holder_s_consent(parts):
    """Planted fault caught: `move_table` not checking the holder (a second game would take
    the camera and dice from the game being played)."""
    access, games, _, store = parts
    first, second = games.add("g1"), games.add("g2")
    access.move_table(first.id)
    assert access.at_table() is first and store.box_value("table_game") == "g1"
    with pytest.raises(Refused) as refused:
        access.move_table(second.id)
    assert refused.value.code == "table_taken" and access.at_table() is first
    assert access.table_taken_from(second.id) is first and access.table_taken_from("g1") is None
    games.told.clear()
    access.move_table(second.id, holder_agrees=True)
    assert access.at_table() is second
    assert sorted(games.told) == [("g1", "hardware"), ("g2", "hardware")]  # both screens say


def test_a_finished_game_leaves_the_table_free_and_a_paused_one_gets_no_readings(parts):
    access, games, _, _ = parts
    live = games.add("g1")
    access.move_table(live.id)
    live.row["status"] = "paused"
    assert access.at_table() is live and access.current() is None
    live.row["status"] = "finished"
    assert access.at_table() is None and access.table_taken_from("g2") is None
    with pytest.raises(Refused):
        access.move_table(live.id)


def test_the_table_s_game_is_read_back_from_disk(parts):
    access, games, bus, store = parts
    games.add("g1"), games.add("g2")
    access.move_table("g2")
    again = AccessService(store, games, bus)
    again.load()
    assert again.at_table().id == "g2"


def test_a_revoked_token_is_published_and_stops_working(parts):
    """Planted fault caught: `revoke_token` deleting the token without publishing it (the
    host's open sockets would stay connected)."""
    access, games, bus, _ = parts
    games.add("g1")
    revoked = []
    bus.subscribe(TokensRevoked, revoked.append)
    token = access.new_host_token("g1")
    host = access.identify("g1", token, "host")
    assert host is not None and access.still_valid(host)
    access.revoke_token(token)
    assert revoked == [TokensRevoked("g1", frozenset({host.token}))]
    assert not access.still_valid(host) and access.identify("g1", token, "host") is None


def test_a_new_pin_revokes_every_host_token_of_the_game(parts):
    access, games, bus, _ = parts
    games.add("g1")
    revoked = []
    bus.subscribe(TokensRevoked, revoked.append)
    tokens = [access.new_host_token("g1") for _ in range(2)]
    access.change_pin("g1", "97531")
    assert revoked == [TokensRevoked("g1", frozenset(security.token_hash(t) for t in tokens))]
    assert access.check_pin("g1", "97531") and not access.check_pin("g1", "2468")


def test_a_join_code_seats_one_phone_once(parts):
    access, games, _, _ = parts
    games.add("g1")
    token = access.claim_seat("g1", "A", "code1")
    assert access.identify("g1", token, "seat").seat == "A"
    assert games.told == [("g1", "seats")]
    with pytest.raises(Refused) as refused:
        access.claim_seat("g1", "A", "CODE1")
    assert refused.value.code == "seat_taken"

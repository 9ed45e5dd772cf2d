"""Access to the games: who may do what (seats and their join codes, host and table tokens,
the host PIN, pairing the table display, revocation) and the table's custody of the camera
and the dice (which game they serve). The other half of the game service: `GameService`
(companion/game/service.py) plays the games; this decides who reaches them and where the
hardware works.

It sees the games only through `Games` (the play service's lookups and its `notify`) and
tells the socket layer of revoked tokens through the event bus (`TokensRevoked`). Its own
state: the game at the table (kept on disk as a box value), under the `table custody` lock.
"""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol

from companion.game.events_bus import Bus, TokensRevoked
from companion.game.live import Identity, LiveGame
from companion.game.store import Store
from companion.server import locks, security
from engine.api import Refused

TABLE_KEY = "table_game"  # Store.box_value: the game at the table
PAIRING_SECONDS = 600  # a table display's pairing code works this long


class Games(Protocol):
    """What access asks of the play service."""

    def get(self, game_id: str) -> LiveGame: ...

    def all(self) -> list[LiveGame]: ...

    def loaded(self, game_id: str | None) -> LiveGame | None: ...

    def notify(self, live: LiveGame, what: str = "view") -> None: ...


class AccessService:
    PAIRING_SECONDS = PAIRING_SECONDS

    def __init__(self, store: Store, games: Games, bus: Bus) -> None:
        self.store, self._games, self._bus = store, games, bus
        self._lock = locks.lock("table custody")  # a leaf: the game at the table
        self._table_game: str | None = None  # the game the camera and dice serve

    def load(self) -> None:
        """The game at the table as kept on disk (after the play service loaded the games)."""
        chosen = self.store.box_value(TABLE_KEY)
        if not isinstance(chosen, str):  # a database from before the choice: as it was then
            running = [g for g in self._games.all() if g.status == "active"]
            chosen = running[0].id if running else None
            if chosen:
                self.store.set_box_value(TABLE_KEY, chosen)
        with self._lock:
            self._table_game = chosen

    # the table: the camera and the dice reader serve one game ---------------------------
    def at_table(self) -> LiveGame | None:
        """The game being played at the table, which the camera and the dice reader serve:
        the one last put there (a new game, a paired table display, or the host's "Play
        this game at the table"), until it is finished. Never guessed from dates: a game
        resumed after a newer one was started gets the hardware only when the host says."""
        with self._lock:
            chosen = self._table_game
        live = self._games.loaded(chosen)
        return live if live is not None and live.status != "finished" else None

    def current(self) -> LiveGame | None:
        """Where camera and dice readings go: the game at the table, while it runs."""
        live = self.at_table()
        return live if live is not None and live.status == "active" else None

    def table_taken_from(self, game_id: str | None) -> LiveGame | None:
        """The game in play whose camera and dice ``game_id`` would take (the game at the
        table, when it is another); None when the table is free for it (nobody there, or
        that game has ended)."""
        holder = self.at_table()
        return holder if holder is not None and holder.id != game_id else None

    def move_table(self, game_id: str, holder_agrees: bool = False) -> int:
        """Put ``game_id`` at the table (kept on disk); every game in play is told, so each
        screen says where the hardware now is. The camera and dice move only from a free
        table (`table_taken_from`) or when ``holder_agrees``: the host of the game that
        has them said so (the door checked its PIN or its host token); else
        ``table_taken`` and nothing moves."""
        live = self._games.get(game_id)
        if live.status == "finished":
            raise Refused("game_closed")
        while True:  # the holder looked up outside the lock (the games' lock is a leaf too)
            with self._lock:
                before = self._table_game
            holder = self._games.loaded(before)
            if (holder is not None and holder.status != "finished" and holder.id != game_id
                    and not holder_agrees):
                raise Refused("table_taken")
            with self._lock:
                if self._table_game != before:
                    continue  # moved meanwhile: judge the new holder
                self._table_game = game_id
                break
        if before != game_id:
            self.store.set_box_value(TABLE_KEY, game_id)
            for other in self._games.all():
                if other.status != "finished":
                    self._games.notify(other, "hardware")
        return live.version

    # seats -----------------------------------------------------------------------------
    def claim_seat(self, game_id: str, seat: str, code: str) -> str:
        """A valid join code gives a token for the seat, once: the code is used up (the
        phone keeps its seat through its cookie; another device needs the host)."""
        live = self._games.get(game_id)
        codes = self.store.join_codes(game_id)
        if seat not in codes:
            raise Refused("unknown_seat")
        code = str(code or "").strip().upper()[:64]
        if seat in self.store.claimed_seats(game_id):
            raise Refused("seat_taken")  # the host releases it with a new join code
        if not security.same(codes[seat], code):
            raise Refused("wrong_code")
        token = security.new_token()
        if not self.store.claim_seat(game_id, seat, code, security.new_join_code(),
                                     security.token_hash(token)):
            raise Refused("seat_taken")  # another device used the code a moment before
        with live.lock:
            self._games.notify(live, "seats")
        return token

    def new_join_code(self, game_id: str, seat: str) -> str:
        live = self._games.get(game_id)
        if seat not in live.seats:
            raise Refused("unknown_seat")
        code = security.new_join_code()
        with live.lock:
            self.store.replace_join_code(game_id, seat, code)
            self._games.notify(live, "seats")
        return code

    # the host PIN and the tokens ----------------------------------------------------------
    def check_pin(self, game_id: str, pin: str) -> bool:
        return security.check_pin(self._games.get(game_id).row["pin_hash"], str(pin))

    def change_pin(self, game_id: str, pin: str) -> None:
        """A new host PIN: every host session of the game ends (it needs the new PIN)."""
        self._games.get(game_id)
        if not security.valid_pin(pin):
            raise Refused("bad_pin")
        gone = self.store.set_pin(game_id, security.hash_pin(pin))
        self._games.get(game_id).row["pin_hash"] = self.store.game(game_id)["pin_hash"]
        self._bus.publish(TokensRevoked(game_id, frozenset(gone)))

    def revoke_token(self, token: str) -> None:
        """A logged-out host (or any token) stops working at once: its open sockets too."""
        if isinstance(token, str) and token:
            found = self.store.take_token(security.token_hash(token))
            if found is not None:
                self._bus.publish(TokensRevoked(found["game"],
                                                frozenset({security.token_hash(token)})))

    def still_valid(self, identity: Identity) -> bool:
        """Is the token a connection proved itself with still there (not logged out)?"""
        return identity.token is None or self.store.token(identity.token) is not None

    def new_host_token(self, game_id: str) -> str:
        token = security.new_token()
        self.store.add_token(security.token_hash(token), game_id, "host", None)
        return token

    def identify(self, game_id: str, token: str | None, role: str) -> Identity | None:
        """The identity a seat or host token proves for this game, or None."""
        if not token or not isinstance(token, str):
            return None
        found = self.store.token(security.token_hash(token))
        if not found or found["game"] != game_id or found["role"] != role:
            return None
        return Identity(role, game_id, found["seat"], security.token_hash(token))

    # the table display: paired once by the host ------------------------------------------
    def new_table_pairing(self, game_id: str) -> str:
        """A one-time code (10 minutes) that turns the device opening it into the table.
        Kept hashed in the database, so it survives a restart and any worker sees it."""
        self._games.get(game_id)
        code = security.new_join_code()
        self.store.add_token(security.token_hash(code), game_id, "pairing", None)
        return code

    def pair_table(self, game_id: str, code: str) -> str:
        """The table token for a valid pairing code (used up); Refused otherwise: a link
        opened too late says it expired (``pairing_expired``), one used already or not a
        pairing code of this game says it does not work (``pairing_invalid``); both say
        where the host makes a new one."""
        self._games.get(game_id)
        code = str(code or "").strip().upper()[:64]
        found = self.store.take_token(security.token_hash(code)) if code else None
        if found is None or found["game"] != game_id or found["role"] != "pairing":
            raise Refused("pairing_invalid")
        if _age_seconds(found["created"]) > self.PAIRING_SECONDS:
            raise Refused("pairing_expired", minutes=self.PAIRING_SECONDS // 60)
        return self.new_table_token(game_id)

    def new_table_token(self, game_id: str, holder_agrees: bool = False) -> str:
        """A table display's token. Pairing a display puts its game at the table when the
        table is free for it or the host of the game there agrees (`move_table`); else the
        camera and dice stay where they are, and its screens say so."""
        token = security.new_token()
        self.store.add_token(security.token_hash(token), game_id, "table", None)
        if self._games.get(game_id).status != "finished" and (
                holder_agrees or self.table_taken_from(game_id) is None):
            self.move_table(game_id, holder_agrees=holder_agrees)
        return token


def _age_seconds(created: str) -> float:
    try:
        return (datetime.now(UTC) - datetime.fromisoformat(created)).total_seconds()
    except (TypeError, ValueError):
        return float("inf")

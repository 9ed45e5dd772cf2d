"""The hardware's status as the views carry it, pushed down by the hardware (issue 65).

The view sender builds every view from what the hardware last reported here; it never calls
up into the hardware manager. The manager (companion/wiring/hardware_manager.py) puts its
whole status here whenever a part's status changes, before the views are re-sent, and on
its own thread once a second while a host page is connected (the frame rate a host's view
carries is then at most a second or two old), else every few seconds (`SAFETY_S`: a change
no part announced still reaches the screens; `put` says whether the screens' part of it
changed, then the manager re-sends the views).
A reading equal to the status kept is not put again (a still table's tick sends nothing;
issue 71).

What depends on the game is applied here when a view is built, from the game as it is then
(the sender holds its lock): which game is at the table (`away`), and a roll waiting for
dice that its game has moved past since (an action, an undo) is no longer shown.
"""
from __future__ import annotations

from companion.game.live import LiveGame
from companion.game.views import hardware_for
from companion.server import locks

PARTS = ("camera", "dice")
ABSENT = {"state": "absent"}


class HardwareReport:
    """The hardware status last put, replaced whole under its lock (a leaf)."""

    def __init__(self, access) -> None:
        self._access = access  # the AccessService: which game is at the table
        self._lock = locks.lock("hardware report")
        self._status: dict = {part: ABSENT for part in PARTS}
        self._shown: dict = screens_part(self._status)  # what the screens see of it
        self._read_at = float("-inf")
        self.sent = 0  # statuses put that differed from the one kept (the views read them)

    def put(self, status: dict, read_at: float) -> bool:
        """``status`` is the hardware's as read from ``read_at`` (`time.monotonic()` when
        its reading began; a reading begun before the one kept is dropped: two threads
        push, the later reading wins). True when what a table or phone screen shows of it
        changed (a frame rate or a repeated warning's count does not: the host's pages
        poll those). A status equal to the one kept is not put (``sent`` not counted):
        a still table's tick sends nothing (issue 71)."""
        with self._lock:
            if read_at < self._read_at:
                return False
            if status == self._status:  # a still table: nothing sent, the reading is newer
                self._read_at = read_at
                return False
        shown = screens_part(status)  # once a reading, not again for the next one's put
        with self._lock:
            if read_at < self._read_at:
                return False
            before, self._shown = self._shown, shown
            self._status, self._read_at = status, read_at
            self.sent += 1
        return before != shown

    def latest(self) -> dict:
        with self._lock:
            return self._status

    def for_game(self, live: LiveGame) -> dict:
        """The status as the screens of ``live`` show it (the view sender's ``hardware``)."""
        return away(unstale(self.latest(), live), live, self._access.at_table())


def screens_part(status: dict) -> dict:
    """What the table display and the phones see of ``status`` (`views.hardware_for`),
    with every seat's camera pre-selection."""
    out = hardware_for("table", None, status) or {}
    for part in PARTS:
        given = status.get(part)
        selected = given.get("selected") if isinstance(given, dict) else None
        if selected:
            out = {**out, part: {**out.get(part, {}), "selected": selected}}
    return out


def unstale(status: dict, live: LiveGame) -> dict:
    """``status`` without a roll of ``live`` waiting for dice once ``live`` moved past the
    version it was read at, or ended (the dice wiring drops it at its next look)."""
    dice = status.get("dice")
    pending = dice.get("pending") if isinstance(dice, dict) else None
    if (isinstance(pending, dict) and pending.get("game") == live.id
            and (pending.get("version") != live.version or live.status == "finished")):
        return {**status, "dice": {**dice, "pending": None}}
    return status


def away(status: dict, live, at_table) -> dict:
    """The hardware status as the screens of ``live`` show it. For the game at the table,
    as it is; for any other game each device that is there is ``"elsewhere"`` (its readings
    go to the game at the table, so no screen of this game may promise one), with
    ``table``: where the hardware is (``{"here", "game", "title", "players"}``)."""
    here = at_table is not None and at_table.id == live.id
    where = {"here": here, "game": None, "title": None, "players": None}
    if at_table is not None and not here:
        where.update(game=at_table.id, title=dict(at_table.kind.title),
                     players=", ".join(p["name"] for p in at_table.players))
    out = dict(status)
    if not here:
        for part in PARTS:
            state = (status.get(part) or {}).get("state")
            if state and state != "absent":
                out[part] = {"state": "elsewhere"}
    else:  # a warning or would-be action of the game the camera served before is stale
        for part in PARTS:
            if isinstance(out.get(part), dict):
                out[part] = {k: [w for w in v if not isinstance(w, dict)
                                 or w.get("game") in (None, live.id)]
                             if k in ("warnings", "would") and isinstance(v, list) else v
                             for k, v in out[part].items()}
    out["table"] = where
    return out

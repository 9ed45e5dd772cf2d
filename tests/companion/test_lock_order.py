"""The lock-order checker (companion/server/locks.py), which tests/conftest.py runs over the
whole suite: shown to catch a wrong order planted in a thread, in the app's real code (the
dice reader's roll taking the dice wiring's lock before the game's), state touched without
its owner's lock, and a wait for the views with a lock held (issue 44)."""
from __future__ import annotations

import threading

from companion import context
from companion.app import create_app
from companion.game.sender import _Turn
from companion.server import locks
from companion.server.settings import DiceSettings
from companion.wiring import dice as wiring
from hardware.dice.observations import Roll
from tests.companion.test_dice_wiring import play_live_to_tax

PLAYERS = [{"seat": s, "name": s} for s in "NESW"]


def in_thread(work) -> None:
    thread = threading.Thread(target=work, name="planted")
    thread.start()
    thread.join(10)


def test_the_checker_is_on_for_the_suite():
    """On before any of the app's modules made a lock: those made at import too."""
    from companion.game import shapes
    from companion.server import i18n

    assert locks.checking
    assert type(locks.lock("x")).__name__ == "_Checked"
    assert type(shapes._lock).__name__ == type(i18n._COMPILING).__name__ == "_Checked"


def test_a_wrong_order_planted_in_a_thread_is_caught_and_the_right_one_passes():
    camera, game, dice = (locks.lock("camera rules", "camera"), locks.rlock("game", "game"),
                          locks.lock("dice wiring", "dice"))
    other_game, leaf, other_leaf = locks.rlock("game", "game"), locks.lock("a"), locks.lock("b")

    def right():
        with camera, game, dice, leaf:
            pass

    def wrong():
        with dice, game:  # the dice wiring's lock, then a game's
            pass
        with game, other_game:  # two games at once
            pass
        with leaf, other_leaf:  # a leaf is held while taking another
            pass
        with leaf:
            leaf.acquire(blocking=False)  # taken again by its holder: a deadlock

    with locks.expecting() as found:
        in_thread(right)
    assert found == []
    with locks.expecting() as found:
        in_thread(wrong)
    assert [v.split(" (thread")[0] for v in found] == [
        "game:game taken while holding dice:dice wiring: not allowed by the order "
        "scene → camera → game → dice → leaf",
        "game:game taken while holding game:game: not allowed by the order "
        "scene → camera → game → dice → leaf",
        "b taken while holding a: not allowed by the order "
        "scene → camera → game → dice → leaf",
        "a taken again by the thread holding it (a deadlock)"]
    assert all("(thread planted)" in v for v in found)
    # the run's list of the orders seen is the app's: a planted order is kept apart
    assert ("a", "b") in locks.planted and ("a", "b") not in locks.seen


def test_state_touched_without_its_lock_and_a_wait_with_a_lock_held_are_caught():
    game = locks.rlock("game", "game")
    with locks.expecting() as found:
        locks.owned(game, "the game's state")
        with game:
            locks.owned(game, "the game's state")  # held: fine
            locks.none_held("waiting for the views")
    assert [v.split(" (thread")[0] for v in found] == [
        "the game's state touched without holding game:game",
        "waiting for the views while holding game:game"]


def test_a_wrong_order_planted_in_the_dice_wiring_is_caught(tmp_path, monkeypatch):
    """The real dice wiring on a real game at its tax roll; planted: a roll takes the dice
    wiring's lock and then the game's (the contract: game, then dice)."""
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True})
    parts = context.of(app)
    live = parts.service.create("wwe", {"players": PLAYERS, "seed": 5}, "2468")
    play_live_to_tax(parts.service, live)
    handle = wiring.DiceWiring(parts.service, lambda: None,
                               DiceSettings(port="/nonexistent"), tmp_path / "data")
    apply_roll = wiring.DiceWiring.apply_roll

    def planted(self, roll, origin="serial"):
        with self._lock, self.service.access.current().lock:  # PLANTED: dice, then the game
            self.rolls_seen += 0
        return apply_roll(self, roll, origin)

    try:
        with locks.expecting() as found:
            in_thread(lambda: handle.apply_roll(Roll(1, {"tax": 3}, False, 0.0)))
        assert found == []  # as written: game, then dice
        assert live.version and handle.last_applied["value"] == 3
        parts.service.undo(live.id)  # the tax roll owed again
        monkeypatch.setattr(wiring.DiceWiring, "apply_roll", planted)
        with locks.expecting() as found:
            in_thread(lambda: handle.apply_roll(Roll(2, {"tax": 3}, False, 0.0)))
        assert any(v.startswith("game:game taken while holding dice:dice wiring")
                   for v in found), found
    finally:
        parts.service.store.close()


def test_the_apps_state_read_without_its_owners_lock_is_caught(tmp_path):
    """Where the code says whose lock guards what (`locks.owned`), a caller that does not
    hold it is caught: planted, a game's views built without the game's lock."""
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True})
    service = context.of(app).service
    try:
        live = service.create("wwe", {"players": PLAYERS, "seed": 5}, "2468")
        sender = context.of(app).views
        with locks.expecting() as found, live.lock:
            sender._build(live, _Turn(live))  # as written: under its lock
        assert found == []
        with locks.expecting() as found:
            sender._build(live, _Turn(live))  # PLANTED: without it
        assert [v.split(" (thread")[0] for v in found] == [
            "the game's views touched without holding game:game"]
    finally:
        service.store.close()

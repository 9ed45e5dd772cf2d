"""Start as the rules say: S17 "the player who most recently built something takes the
start-player piece" is decided at the table; the app passes ``start_seat`` (chosen on the
new-game form, or drawn at random there) and the host may change it before the first
action (A-8: the app follows a physical table)."""
from __future__ import annotations

from engine.wwe import GAME
from tests.engine.wwe_helpers import act, head, new_game, plain, refused


def test_start_seat_starts_the_first_round(catalog):
    plain(catalog)
    s = new_game(catalog, seats=("N", "E", "S"), start_seat="S")
    assert s["active"] == "S" and head(s) == {**head(s), "kind": "reveal_event", "seat": "S"}
    assert GAME.prompts(s)[0].seat == "S"
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    assert head(s)["kind"] == "orient_event" and head(s)["seat"] == "S"
    s = act(s, type="orient_event", by="S", rotation=0)
    # R3.6.1: clockwise from the active player (N -> E -> S -> W)
    order = [step["seat"] for step in s["queue"] if step.get("kind") == "play_card"]
    assert order == ["S", "N", "E"]


def test_without_start_seat_the_first_seat_starts(catalog):
    assert new_game(catalog, seats=("E", "W"))["active"] == "E"


def test_host_changes_the_start_player_before_the_first_action(catalog):
    plain(catalog)
    s = new_game(catalog, seats=("N", "E", "S"), start_seat="N")
    assert refused(s, type="set_start_player", by="N", seat="E").code == "host_only"
    assert refused(s, type="set_start_player", by="table", seat="E").code == "host_only"
    assert refused(s, type="set_start_player", by="host", seat="W").code == "unknown_seat"
    s2, events = GAME.apply(s, {"type": "set_start_player", "by": "host", "seat": "E"})
    assert s2["active"] == "E" and head(s2)["seat"] == "E"
    assert events == [{"type": "start_player", "seat": "E"}]
    s3 = act(s2, type="reveal_event", by="table", card="demo_feast")
    assert head(s3)["seat"] == "E"
    # once the round's card is revealed the start player is fixed for the round
    assert refused(s3, type="set_start_player", by="host", seat="S").code == "wrong_phase"
    assert refused(s3, type="correct", by="host", part="start_player",
                   value="S").code == "wrong_phase"
    assert "start_player" not in {f["part"] for f in GAME.info.corrections(s3)}
    assert "start_player" in {f["part"] for f in GAME.info.corrections(s)}

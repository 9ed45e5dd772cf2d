"""Issue 69, point 10: a tie for the most points is said, with how the game's tie-break
broke it or that it did not (the tied then share a rank), in the history and in the
`outcome` of a finished game's views, a game ended early included (no winner, but its tie
said all the same)."""
from __future__ import annotations

from companion import context
from companion.game import views
from companion.table import history

PIN = "2468"
NAMES = ["Anna", "Bruno", "Chiara", "Dario"]


def new_game(app, game: str, seats: int = 4):
    service = context.of(app).service
    info = service._kinds(game).module.info
    players = [{"seat": s.id, "name": n} for s, n in zip(info.seats, NAMES[:seats],
                                                          strict=False)]
    return service.create(game, {"players": players, "seed": 5}, PIN, to_table=False)


def row(seat, name, vp, rank):
    return {"seat": seat, "name": name, "vp": vp, "vp_text": str(vp), "rank": rank,
            "winner": rank == 1}


def test_pillars_ended_early_says_the_tie_and_the_gold(games_in_context):
    """The issue's table: Pillars ended in Phase I, 2 VP each, ranked by gold."""
    service = context.of(games_in_context).service
    live = new_game(games_in_context, "pillars")
    service.end(live.id)
    result = live.row["result"]
    assert {r["vp"] for r in result} == {2} and [r["rank"] for r in result] == [1, 2, 3, 4]
    first = next(p["name"] for p in live.players if p["seat"] == result[0]["seat"])
    words = history.outcome(live, "en")
    assert words.startswith("Ended early by the host: no winner.")
    assert f"{first} and " in words and "have 2 VP each; the tie-break puts" in words
    assert f"puts {first} ahead. Most VP wins; a tie goes to the most gold." in words
    italian = history.outcome(live, "it")
    assert "lo spareggio mette avanti" in italian and "nessun vincitore" in italian
    # the TV's last screen gets the same words in its view
    view = views.build(live, "table", None, "pl")
    assert view["outcome"] == history.outcome(live, "pl")
    assert "rozstrzygnięcie remisu stawia wyżej" in view["outcome"]


def test_a_tie_not_broken_shares_the_rank(games_in_context):
    """Monasterium ended at once: 0 prestige each, one rank, and no tie-break breaks it."""
    service = context.of(games_in_context).service
    live = new_game(games_in_context, "monasterium", 3)
    service.end(live.id)
    assert {r["rank"] for r in live.row["result"]} == {1}
    words = history.outcome(live, "en")
    assert "a tie the tie-break does not break (the same rank)" in words
    assert "share the victory" not in words  # no winner: the tie said, no victory


def test_finished_ties(games_in_context):
    """A finished game: a tie broken names the winner and the rule; one not broken is a
    shared victory that says the tie-break did not break it; no tie, no tie words."""
    live = new_game(games_in_context, "wwe", 3)
    broken = [row("N", "Anna", 30, 1), row("E", "Bruno", 30, 2), row("S", "Chiara", 9, 3)]
    assert history.why_won(live, broken, "en") == (
        "Anna and Bruno both have 30 VP; Anna wins on the tie-break. Most VP wins; a tie "
        "goes to the most piety, then loyalty, then medical knowledge.")
    even = [row("N", "Anna", 30, 1), row("E", "Bruno", 30, 1), row("S", "Chiara", 9, 3)]
    assert history.why_won(live, even, "en").startswith(
        "Anna, Bruno share the victory with 30 VP: a tie the tie-break does not break.")
    assert "Gleichstand, den die Gleichstandsregel nicht auflöst" in history.why_won(
        live, even, "de")
    alone = [row("N", "Anna", 31, 1), row("E", "Bruno", 30, 2)]
    assert history.why_won(live, alone, "en") == "Anna wins with the most VP (31)."

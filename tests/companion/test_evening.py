"""The evening through Flask's test client on a real SQLite file: the guided setup (walked,
a step skipped and resumed, kept across a restart, moved on only by the table or the host,
bad input refused) and the finished games' history with its CSV and BG Stats exports,
parsed back, for every game."""
from __future__ import annotations

import csv
import io
import json
import random

import pytest

from companion import context
from companion.app import create_app
from companion.box.catalog import load_catalog
from companion.game.games import module_of
from companion.table import table_guide
from engine import record
from tests.companion.conftest import csrf

GAMES = ("wwe", "pillars", "monasterium")
NAMES = {"N": "Ann", "E": "Bob", "S": "Cid", "W": "Dee"}


def make(tmp_path):
    return create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True})


def new_game(app, game: str, seats: str = "NES") -> str:
    setup = {"players": [{"seat": s, "name": NAMES[s], "colour": c}
                         for s, c in zip(seats, ("blue", "red", "green", "yellow"), strict=False)]}
    return context.of(app).service.create(game, setup, "2468").id


def as_host(app, client, game_id: str) -> None:
    token = context.of(app).service.access.new_host_token(game_id)
    client.set_cookie(f"tc_host_{game_id}", token)


def post(client, game_id: str, body) -> tuple[int, dict]:
    response = client.post(f"/games/{game_id}/setup", data=json.dumps(body),
                           headers={"Content-Type": "application/json",
                                    "X-CSRF-Token": csrf(client)})
    return response.status_code, response.get_json()


@pytest.mark.parametrize("game", GAMES)
def test_every_game_declares_a_guide_with_steps_per_player_count(game):
    info = module_of(game).info
    guide = table_guide.guide_of(info.table_guide)
    for players in range(info.min_players, info.max_players + 1):
        steps = table_guide.steps_for(guide, players)
        assert len(steps) >= 8
        assert any(s["camera"] == "marker" for s in steps)
        for step in steps:  # a count in the text has its number for every table size
            assert "{n}" not in step["text"] or table_guide._n(step["n"], players) is not None
    assert guide["tiebreak"] and guide["pieces"]


def test_the_setup_is_walked_skipped_resumed_and_kept_across_a_restart(tmp_path):
    app = make(tmp_path)
    game_id = new_game(app, "monasterium", "NES")
    host = app.test_client()
    as_host(app, host, game_id)
    page = host.get(f"/table/{game_id}/setup?lang=pl")
    assert page.status_code == 200 and "setup.js" in page.get_data(as_text=True)
    state = host.get(f"/games/{game_id}/setup.json?lang=pl").get_json()
    ids = [s["id"] for s in state["steps"]]
    assert "blocked" in ids and "board_2" not in ids  # 3 players: the blocked spaces
    glass = next(s for s in state["steps"] if s["id"] == "glass")
    assert "6" in glass["text"] and "{n}" not in glass["text"]
    assert state["at"] == 0 and not state["finished"]
    assert post(host, game_id, {"op": "done"})[1]["at"] == 1
    status, state = post(host, game_id, {"op": "skip"})
    skipped = ids[1]
    assert status == 200 and state["at"] == 2 and state["steps"][1]["skipped"]
    assert state["steps"][0]["done"] == "host"
    store = context.of(app).service.store
    store.close()
    # the box restarts: the guide resumes where it was, the skipped step still marked
    app = make(tmp_path)
    host = app.test_client()
    as_host(app, host, game_id)
    state = host.get(f"/games/{game_id}/setup.json").get_json()
    assert state["at"] == 2 and state["steps"][1]["skipped"]
    state = post(host, game_id, {"op": "goto", "step": skipped})[1]
    assert state["at"] == 1
    state = post(host, game_id, {"op": "done"})[1]
    assert state["steps"][1]["done"] == "host" and not state["steps"][1]["skipped"]
    for _ in ids:
        state = post(host, game_id, {"op": "done"})[1]
    assert state["finished"]
    context.of(app).service.store.close()


def test_the_missions_step_names_the_missions_the_game_drew(tmp_path):
    """Monasterium draws its 6 missions with the game's seed and scores those: the guide's
    step names them, in the screen's language, so the table lays those cards; a step that
    lays nothing the game drew names nothing, and a game that draws nothing names nothing."""
    app = make(tmp_path)
    service = context.of(app).service
    host = app.test_client()
    names = {m["id"]: m["names"] for m in load_catalog("monasterium", None)["missions"]}
    for seed, game_id in ((seed, service.create("monasterium", {"players": [
            {"seat": s, "name": NAMES[s]} for s in "NE"]}, seed).id) for seed in ("2468", "97")):
        as_host(app, host, game_id)
        drawn = service.get(game_id).state["missions"]
        for lang in ("pl", "de"):
            steps = host.get(f"/games/{game_id}/setup.json?lang={lang}").get_json()["steps"]
            step = next(x for x in steps if x["id"] == "missions")
            assert step["drawn"] == [names[m][lang] for m in drawn], (seed, lang)
            assert all(x["drawn"] == [] for x in steps if x["id"] != "missions")
    assert sorted(m[0] for m in drawn) == ["a", "a", "b", "b", "c", "c"]
    wwe = new_game(app, "wwe", "NE")
    as_host(app, host, wwe)
    assert all(x["drawn"] == [] for x in host.get(f"/games/{wwe}/setup.json").get_json()["steps"])
    service.store.close()


def test_only_the_table_or_the_host_moves_the_guide_and_bad_input_changes_nothing(tmp_path):
    app = make(tmp_path)
    game_id = new_game(app, "wwe", "NE")
    watcher = app.test_client()
    assert post(watcher, game_id, {"op": "done"})[0] == 403
    host = app.test_client()
    as_host(app, host, game_id)
    for body in ({"op": "jump"}, {"op": "goto", "step": "nowhere"}, {"op": 3}, [1, 2],
                 {"op": "goto", "step": ["board"]}, "x" * 5000):
        status, reply = post(host, game_id, body)
        assert status == 400 and reply["ok"] is False and reply["message"], body
    assert host.get(f"/games/{game_id}/setup.json").get_json()["at"] == 0
    no_csrf = host.post(f"/games/{game_id}/setup", json={"op": "done"})
    assert no_csrf.status_code == 400
    assert host.get("/games/nope/setup.json").status_code == 404
    context.of(app).service.store.close()


def test_a_phone_sees_its_own_starting_pieces(tmp_path):
    app = make(tmp_path)
    service = context.of(app).service
    live = service.create("pillars", {"players": [{"seat": s, "name": NAMES[s]} for s in "NES"],
                                      "start_seat": "E"}, "2468")
    phone = app.test_client()
    code = service.store.join_codes(live.id)["S"]
    assert phone.get(f"/join/{live.id}/S?code={code}").status_code == 303
    mine = phone.get(f"/games/{live.id}/setup.json?lang=en").get_json()["mine"]
    assert "Your gold disc on 21" in mine  # E starts on 20, S is next clockwise
    assert "mine" not in app.test_client().get(f"/games/{live.id}/setup.json").get_json()
    service.store.close()


def finished_record(game: str, seed: int) -> dict:
    module = module_of(game)
    setup = {"players": [{"seat": s, "name": NAMES[s], "colour": c}
                         for s, c in zip("NES", ("blue", "red", "green"), strict=True)],
             "seed": seed}
    state = module.setup(load_catalog(game), setup)
    rnd = random.Random(seed)
    actions = []
    while not module.is_over(state):
        action = module.random_action(state, rnd)
        state, _ = module.apply(state, action)
        actions.append(action)
    return record.build(game, setup, actions, record.current_rules(module.info))


@pytest.mark.parametrize("game", GAMES)
def test_finished_games_are_listed_and_export_as_csv_and_bg_stats(tmp_path, game):
    app = make(tmp_path)
    service = context.of(app).service
    done = service.import_record(finished_record(game, 5), "2468")
    assert done.status == "finished"
    running = new_game(app, game)
    host = app.test_client()
    as_host(app, host, running)
    page = host.get(f"/host/{running}/history?lang=de").get_data(as_text=True)
    assert f'data-game="{done.id}"' in page and "<polyline" in page
    result = sorted(done.row["result"], key=lambda r: r["rank"])
    winner = NAMES[result[0]["seat"]]
    assert winner in page
    response = host.get(f"/host/{running}/history/{done.id}.csv")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [r["player"] for r in rows] == [NAMES[r["seat"]] for r in result]
    assert [float(r["score"]) for r in rows] == [float(r["vp"]) for r in result]
    assert [r["winner"] for r in rows].count("yes") == sum(r["rank"] == 1 for r in result)
    play_file = json.loads(host.get(f"/host/{running}/history/{done.id}.bgsplay").data)
    play = play_file["plays"][0]
    names = {p["id"]: p["name"] for p in play_file["players"]}
    assert play_file["games"][0]["name"] == module_of(game).info.names["en"]
    assert [(names[s["playerRefId"]], float(s["score"]), s["winner"])
            for s in play["playerScores"]] == [
        (NAMES[r["seat"]], float(r["vp"]), r["rank"] == 1) for r in result]
    assert sum(s["startPlayer"] for s in play["playerScores"]) == 1
    assert play["gameRefId"] == play_file["games"][0]["id"]
    # host only, a finished game only, ids checked
    stranger = app.test_client()
    assert stranger.get(f"/host/{running}/history").status_code == 303
    for suffix, ending in ((".csv", "csv"), (".bgsplay", "bgsplay"), ("/record.json", "json")):
        url = f"/host/{running}/history/{{}}{suffix}"
        answer = host.get(url.format(done.id))
        assert answer.headers["Content-Disposition"] == (
            f'attachment; filename="table-companion-{game}-{done.id}.{ending}"')
        assert stranger.get(url.format(done.id)).status_code == 401
        assert host.get(url.format(running)).status_code == 409
        assert host.get(url.format("nosuch")).status_code == 404
        assert host.get(url.format("a%20b")).status_code == 404
    service.store.close()


def test_a_game_ended_early_is_no_victory_in_history_csv_and_bg_stats(tmp_path):
    """Monasterium ended by the host in year 1, round 1: kept as ended early with the
    scores of that moment, nobody a winner, an unfinished (ignored) play for BG Stats, the
    score named as the game names it (prestige, not VP); a game played to its end still has
    its winner."""
    app = make(tmp_path)
    service = context.of(app).service
    early = new_game(app, "monasterium", "NESW")
    service.end(early)
    done = service.import_record(finished_record("wwe", 5), "2468")
    running = new_game(app, "wwe")
    host = app.test_client()
    as_host(app, host, running)

    row = service.store.game(early)  # on disk, as such
    assert row["status"] == "finished" and row["ended_early"] is True
    assert service.store.game(done.id)["ended_early"] is False
    page = host.get(f"/host/{running}/history?lang=en").get_data(as_text=True)
    section = page[page.index(f'data-game="{early}"'):]
    section = section[:section.index("</section>")]
    assert 'data-ended-early="yes"' in section and "Ended early" in section
    assert "no winner" in section and "share the victory" not in section
    assert "★" not in section and "class=\"winner\"" not in section
    assert "<th scope=\"col\">prestige</th>" in section
    other = page[page.index(f'data-game="{done.id}"'):]
    assert 'data-ended-early="no"' in other[:200] and "★" in other[:other.index("</section>")]
    german = host.get(f"/host/{running}/history?lang=de").get_data(as_text=True)
    assert "Vorzeitig beendet" in german and "kein Sieger" in german

    rows = list(csv.DictReader(io.StringIO(
        host.get(f"/host/{running}/history/{early}.csv").get_data(as_text=True))))
    assert [r["player"] for r in rows] and sorted(r["player"] for r in rows) == sorted(
        NAMES.values())
    assert {r["winner"] for r in rows} == {"no"} and {r["incomplete"] for r in rows} == {"yes"}
    assert {r["score_name"] for r in rows} == {"prestige"}
    finished_rows = list(csv.DictReader(io.StringIO(
        host.get(f"/host/{running}/history/{done.id}.csv").get_data(as_text=True))))
    assert {r["incomplete"] for r in finished_rows} == {"no"}
    assert "yes" in {r["winner"] for r in finished_rows}

    play = json.loads(host.get(f"/host/{running}/history/{early}.bgsplay").data)["plays"][0]
    assert play["ignored"] is True and "Ended early" in play["comments"]
    assert [s["winner"] for s in play["playerScores"]] == [False] * 4
    assert [float(s["score"]) for s in play["playerScores"]] == [
        float(r["vp"]) for r in sorted(row["result"], key=lambda r: r["rank"])]
    kept = json.loads(host.get(f"/host/{running}/history/{done.id}.bgsplay").data)["plays"][0]
    assert kept["ignored"] is False and any(s["winner"] for s in kept["playerScores"])
    service.store.close()

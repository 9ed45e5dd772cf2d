"""Issue 45 §2-3: the exports of a finished game. A player named like a spreadsheet formula
(``=HYPERLINK("http://x","y")``, ``+cmd|' /C calc'!A0``, ``-2+3``, ``@SUM(A1)``, a leading
tab or carriage return) is written as text the OWASP way (a leading ``'``, every cell
quoted), through the one helper every CSV of the app uses; and an export never fails on what
the store holds (a lone surrogate stored before the text rule: sent as U+FFFD). Real SQLite
files, the real app restarted."""
from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from pathlib import Path

import pytest

from companion import context
from companion.app import create_app
from companion.server import spreadsheet
from tests.companion.test_text_doors import host_client, tracebacks

ROOT = Path(__file__).resolve().parents[2]
FORMULAS = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)"]


def finished_game(app, names: list[str], game: str = "wwe") -> str:
    """A game of ``names`` (seats N, E, S, W) ended by the host: finished, in the history."""
    service = context.of(app).service
    seats = ("N", "E", "S", "W")
    live = service.create(game, {"players": [{"seat": s, "name": n}
                                             for s, n in zip(seats, names, strict=False)]},
                          "2468")
    service.end(live.id)
    return live.id


def download(app, game_id: str, suffix: str):
    host_game = context.of(app).service.create(
        "wwe", {"players": [{"seat": "N", "name": "Host"}, {"seat": "E", "name": "B"}]}, "2468")
    client, _ = host_client(app, host_game.id)
    return client.get(f"/host/{host_game.id}/history/{game_id}{suffix}")


def test_formula_names_are_neutralised_in_the_history_csv(games_app, caplog):
    game_id = finished_game(games_app, FORMULAS)
    response = download(games_app, game_id, ".csv")
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert sorted(r["player"] for r in rows) == sorted("'" + name for name in FORMULAS)
    for row in rows:  # what a spreadsheet sees: no cell begins like a formula
        for value in row.values():
            assert not value.startswith(spreadsheet.FORMULA_STARTS), (value, row)
        float(row["score"])  # the score is still a number
    # every cell wrapped in double quotes, a quote inside doubled (RFC 4180, OWASP)
    for line in text.splitlines():
        assert re.fullmatch(r'"([^"]|"")*"(,"([^"]|"")*")*', line), line
    assert '"\'=HYPERLINK(""http://x"",""y"")"' in text
    assert not tracebacks(caplog)


def test_a_leading_tab_or_carriage_return_is_neutralised_too(games_app):
    """Through the service (the new-game form strips spaces), names the text rule lets
    through: a tab and a carriage return are text."""
    game_id = finished_game(games_app, ["\t=1+1", "\r=2+2", "Ann", "0"])
    rows = list(csv.DictReader(io.StringIO(download(games_app, game_id, ".csv")
                                           .get_data(as_text=True))))
    assert sorted(r["player"] for r in rows) == sorted(["'\t=1+1", "'\r=2+2", "Ann", "0"])


def test_the_helper_quotes_text_and_keeps_numbers():
    assert spreadsheet.cell("=1+1") == "'=1+1" and spreadsheet.cell("a=b") == "a=b"
    assert [spreadsheet.cell(c + "x") for c in spreadsheet.FORMULA_STARTS] == [
        "'" + c + "x" for c in spreadsheet.FORMULA_STARTS]
    assert spreadsheet.cell(-2) == -2 and spreadsheet.cell(-2.5) == -2.5
    assert spreadsheet.cell(True) == "True" and spreadsheet.cell(None) == ""
    text = spreadsheet.to_csv(["a", "b"], [["-1", -1], ['say "hi"', "@x"]])
    assert text.splitlines() == ['"a","b"', '"\'-1","-1"', '"say ""hi""","\'@x"']


def csv_writers_outside_the_helper(root: Path) -> list[str]:
    """Every Python file of the app (companion, engine, hardware, web) that writes CSV itself
    (imports the csv module) rather than through companion/server/spreadsheet.py."""
    found = []
    for package in ("companion", "engine", "hardware", "web"):
        for path in sorted((root / package).rglob("*.py")):
            if path.name == "spreadsheet.py" and path.parent.name == "server":
                continue
            if re.search(r"^\s*(import csv\b|from csv import)", path.read_text(), re.M):
                found.append(str(path.relative_to(root)))
    return found


def test_every_csv_the_app_writes_goes_through_the_one_helper(tmp_path):
    assert csv_writers_outside_the_helper(ROOT) == []
    # the check finds a module that writes CSV on its own (a planted one)
    planted = tmp_path / "companion" / "table" / "another_export.py"
    planted.parent.mkdir(parents=True)
    planted.write_text("import csv\n\ndef rows(out):\n    csv.writer(out).writerow(['=1'])\n")
    assert csv_writers_outside_the_helper(tmp_path) == ["companion/table/another_export.py"]


LONE = "\\ud800"  # as JSON text stores it: the escape of a lone surrogate


def stored_before_the_rule(tmp_path, change) -> tuple:
    """A data folder whose finished game was changed in SQLite by ``change(con, game_id)``
    (as a database written before the text rule, or by hand, may hold), and the app
    restarted on it."""
    config = {"DATA_DIR": str(tmp_path / "data"), "TESTING": True}
    app = create_app(config)
    game_id = finished_game(app, ["Ann", "Bob"])
    context.of(app).service.store.close()
    con = sqlite3.connect(tmp_path / "data" / "companion.sqlite3")
    change(con, game_id)
    con.commit()
    con.close()
    return create_app(config), game_id


@pytest.mark.parametrize("where", ["result_seat", "result_name", "setup_name", "result_vp",
                                   "result_rank", "result_rows", "created"])
def test_an_export_never_fails_on_what_the_store_holds(tmp_path, where, caplog):
    def change(con, game_id):
        row = con.execute("SELECT result, setup FROM games WHERE id = ?", (game_id,)).fetchone()
        result, setup = json.loads(row[0]), json.loads(row[1])
        if where == "setup_name":
            setup["players"][0]["name"] = "Ann\ud800"
        elif where == "result_seat":
            result[0]["seat"] = "\ud800"
        elif where == "result_name":
            result[0]["name"] = "A\ud800"
        elif where == "result_vp":
            result[0]["vp"], result[1]["vp"] = "lots", [1]
        elif where == "result_rank":
            result[0]["rank"], result[1]["rank"] = "first", None
        elif where == "result_rows":
            result = [3, "x", {"seat": ["N"]}, *result]
        con.execute("UPDATE games SET result = ?, setup = ? WHERE id = ?",
                    (json.dumps(result), json.dumps(setup), game_id))
        if where == "created":
            con.execute("UPDATE games SET created = '2020-01-01' WHERE id = ?", (game_id,))

    app, game_id = stored_before_the_rule(tmp_path, change)
    try:
        for suffix in (".csv", ".bgsplay", "/record.json"):
            response = download(app, game_id, suffix)
            assert response.status_code in (200, 409), (suffix, response.status_code)
            response.get_data().decode("utf-8")  # valid UTF-8 all through
        csv_text = download(app, game_id, ".csv").get_data(as_text=True)
        if where in ("result_seat", "setup_name"):
            assert "\ufffd" in csv_text
        host_game = context.of(app).service.create(
            "wwe", {"players": [{"seat": "N", "name": "H"}, {"seat": "E", "name": "B"}]}, "2468")
        client, _ = host_client(app, host_game.id)
        assert client.get(f"/host/{host_game.id}/history").status_code == 200
    finally:
        context.of(app).service.store.close()
    assert not [r for r in caplog.records if r.exc_info]

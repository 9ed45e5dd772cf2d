"""Issue 45 §3 and §6: `companion restore` holds every stored text to the one text rule, and
says why it refuses in one line, without a traceback.

The issue's inputs: a lone surrogate in ``games.result`` (and in a result's name, a pinned
catalog, ``setup_progress``, ``seats.join_code``) is refused, naming the column, and the live
files stay byte for byte as they were. Then a property over the store's own schema: whatever
text goes into whichever TEXT column of whichever table (as the whole value, or as a string
inside the JSON ones), after any restore that is accepted every text column of every table
passes the rule, and every page and export of every game answers without a 5xx. Real SQLite
files, every installed game, the real app started on the restored data, the real CLI."""
from __future__ import annotations

import contextlib
import json
import random
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from companion import context
from companion.app import create_app
from companion.box import backup as backups
from companion.box import restore_check
from tests.companion.fuzz import advance
from tests.companion.test_restore import fingerprint
from tests.companion.test_text_doors import ANY_CHAR

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = [{"seat": "N", "name": "Ann"}, {"seat": "E", "name": "Bob"}]


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    """A database of the app as an evening leaves it: every installed game with moves, an
    undone move, a game ended early (its result kept), joined seats, a paired table, the
    host's token, a setup guide's progress, the box's choice of the game at the table, and a
    snapshot every two actions: every TEXT column of every table holds a value to change."""
    folder = tmp_path_factory.mktemp("source")
    app = create_app({"DATA_DIR": str(folder), "TESTING": True, "SNAPSHOT_EVERY": 2})
    service = context.of(app).service
    rnd = random.Random(45)
    for name in ("wwe", "pillars", "monasterium"):
        live = service.create(name, {"players": PLAYERS, "seed": 7}, "2468")
        for _ in range(6):
            advance(service, live, rnd)
        service.access.claim_seat(live.id, "N", service.store.join_codes(live.id)["N"])
        service.access.new_host_token(live.id)
        service.access.new_table_token(live.id)
        service.store.save_setup_progress(live.id, {"at": 1, "done": {"board": "host"},
                                                    "skipped": [], "finished": False})
    service.undo(live.id)
    done = service.create("wwe", {"players": PLAYERS, "seed": 3}, "2468")
    advance(service, done, rnd)
    service.end(done.id)  # finished early: a result to export
    service.store.close()
    return folder / "companion.sqlite3"


@pytest.fixture
def data(tmp_path) -> Path:
    """The live data folder the restores go to (an app's own database is there first)."""
    folder = tmp_path / "live"
    app = create_app({"DATA_DIR": str(folder), "TESTING": True})
    context.of(app).service.create("wwe", {"players": PLAYERS}, "2468")
    context.of(app).service.store.close()
    return folder


def tampered(source: Path, folder: Path, sql: str, args=()) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "backup.sqlite3"
    shutil.copy(source, path)
    con = sqlite3.connect(path)
    con.execute(sql, args)
    con.commit()
    con.close()
    return path


def with_lone_surrogate(text: str) -> str:
    """JSON text with its first string value's first character replaced by ``\\ud800``
    (the JSON escape a backup file may carry)."""
    return re.sub(r'(:\s*")', r'\1\\ud800', text, count=1)


# the inputs: where the lone surrogate is, and the column the refusal names
LONE_INPUTS = [("result", "games.result"), ("result name", "games.result"),
               ("pinned catalog", "catalogs.catalog"),
               ("setup_progress", "setup_progress.progress"), ("join_code", "seats.join_code")]


def lone_in(source: Path, folder: Path, where: str) -> Path:
    path = tampered(source, folder, "SELECT 1")
    con = sqlite3.connect(path)
    if where in ("result", "result name"):
        game, result = con.execute("SELECT id, result FROM games WHERE result IS NOT NULL"
                                   ).fetchone()
        rows = json.loads(result)
        key = "seat" if where == "result" else "name"
        text = json.dumps(rows).replace(f'"{key}": "{rows[0][key]}"', f'"{key}": "\\ud800"', 1)
        assert "\\ud800" in text
        con.execute("UPDATE games SET result = ? WHERE id = ?", (text, game))
    elif where == "pinned catalog":
        game, catalog = con.execute("SELECT game, catalog FROM catalogs LIMIT 1").fetchone()
        con.execute("UPDATE catalogs SET catalog = ? WHERE game = ?",
                    (with_lone_surrogate(catalog), game))
    elif where == "setup_progress":
        con.execute("""UPDATE setup_progress SET progress = '{"at": 1, "done": {"board": '
                    || '"\\ud800"}, "skipped": [], "finished": false}'""")
    else:  # a plain text column: the surrogate as the bytes UTF-8 would give it
        con.execute("UPDATE seats SET join_code = CAST(X'41EDA080' AS TEXT) "
                    "WHERE rowid = (SELECT MIN(rowid) FROM seats)")
    con.commit()
    con.close()
    return path


@pytest.mark.parametrize(("where", "column"), LONE_INPUTS)
def test_a_lone_surrogate_in_any_stored_text_is_refused(source, data, tmp_path, where,
                                                       column):
    path = lone_in(source, tmp_path / "bad", where)
    before = fingerprint(data)
    with pytest.raises(backups.BackupError, match=re.escape(column)) as caught:
        backups.restore(path, data)
    assert "text the app never stores" in str(caught.value)
    with pytest.raises(backups.BackupError, match=re.escape(column)):
        backups.restore(path, data, force=True)  # never, not even forced
    assert fingerprint(data) == before  # the live files untouched, byte for byte


def run_restore(path: Path, data: Path, *more: str) -> subprocess.CompletedProcess:
    """`companion restore` as the owner runs it: its own process, its own stderr."""
    command = Path(sys.executable).parent / "companion"
    return subprocess.run([str(command), "restore", str(path), "--data", str(data), *more],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)


def test_companion_restore_says_why_in_one_line_without_a_traceback(source, data, tmp_path):
    before = fingerprint(data)
    # two games whose log does not replay: one line each, after one line saying why
    path = tampered(source, tmp_path / "noreplay",
                    "UPDATE actions SET action = json_set(action, '$.type', 'nope') "
                    "WHERE seq = 2")
    answer = run_restore(path, data)
    output = answer.stdout + answer.stderr
    assert answer.returncode == 1 and "Traceback" not in output, output
    lines = [line for line in output.splitlines() if line.strip()]
    games = [line for line in lines if line.lstrip().startswith("game ")]
    assert len(games) >= 2 and all("does not replay" in line for line in games), lines
    assert len(lines) == len(games) + 1 and "--force" in lines[0], lines
    # a file with text the app never stores: one line, naming the column
    answer = run_restore(lone_in(source, tmp_path / "lone", "result"), data, "--force")
    output = answer.stdout + answer.stderr
    assert answer.returncode == 1 and "Traceback" not in output, output
    assert len(output.strip().splitlines()) == 1 and "games.result" in output, output
    assert fingerprint(data) == before


def test_a_file_system_refusal_is_one_line_too(source, tmp_path):
    """The data folder's parent is a file: the operating system refuses, said in one line."""
    (tmp_path / "plain").write_text("not a folder")
    answer = run_restore(source, tmp_path / "plain" / "data")
    output = answer.stdout + answer.stderr
    assert answer.returncode == 1 and "Traceback" not in output, output
    assert len(output.strip().splitlines()) == 1 and "cannot restore" in output, output


def test_a_result_that_is_not_the_replayed_scores_is_refused(source, data, tmp_path):
    path = tampered(source, tmp_path / "result",
                    "UPDATE games SET result = json_set(result, '$[0].vp', 999) "
                    "WHERE result IS NOT NULL")
    with pytest.raises(backups.BackupError, match="result is not the scores"):
        backups.restore(path, data)


def test_a_row_that_refers_to_no_game_is_refused(source, data, tmp_path):
    """Found by the property below: a seat moved to no game left a player without a join
    code, and the host page failed (KeyError). The app writes with foreign keys on."""
    path = tampered(source, tmp_path / "orphan",
                    "UPDATE seats SET game = '' WHERE rowid = (SELECT MAX(rowid) FROM seats)")
    before = fingerprint(data)
    with pytest.raises(backups.BackupError, match=r"rows that refer to no game: seats"):
        backups.restore(path, data, force=True)
    assert fingerprint(data) == before


def test_the_source_restores_whole(source, data):
    """The database the property starts from is one the app accepts as it is."""
    assert backups.restore(source, data).problems == []


# ---- the property over the store's schema ------------------------------------------------

def text_columns() -> list[tuple[str, str]]:
    """Every TEXT column of every table of a fresh database of the app."""
    schema = restore_check.fresh_schema()
    return [(table, column) for table, item in sorted(schema.items()) if item["type"] == "table"
            for column, spec in item["columns"].items() if spec[0] == "TEXT"]


def strings_in(value, path=()):
    """The paths of every string (value or key) inside JSON ``value``."""
    if isinstance(value, str):
        yield path, "value"
    elif isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key), "key"
            yield from strings_in(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from strings_in(item, (*path, i))


def replaced(value, path, kind: str, new: str):
    """``value`` with the string (or key) at ``path`` replaced by ``new``."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == head:
                if kind == "key" and not rest:
                    out[new] = item
                else:
                    out[key] = replaced(item, rest, kind, new)
            else:
                out[key] = item
        return out
    return [replaced(item, rest, kind, new) if i == head else item
            for i, item in enumerate(value)]


def urls_of(app, game_ids: list[str], host_game: str | None) -> list[str]:
    """Every GET page and export of the app (its routes), for every game."""
    fill = {"seat": "N", "game": "wwe", "role": "tax", "face": "1", "entry": "x",
            "path": "js/phone.js"}
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static" or "mjpg" in rule.rule:
            continue
        for game in game_ids or [""]:
            values = {**fill, "game_id": host_game if "other" in rule.arguments else game,
                      "other": game}
            if not set(rule.arguments) <= set(values) or (
                    "game_id" in rule.arguments and not values["game_id"]):
                continue
            url = rule.rule
            for name in rule.arguments:
                url = re.sub(r"<(?:[^:<>]+:)?" + name + r">", values[name], url)
            url = re.sub(r"<int\([^)]*\):face>", values["face"], url)
            urls.append(url)
    return sorted(set(urls))


def every_page_answers(data: Path) -> None:
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    try:
        ids = [row["id"] for row in service.store.games()]
        hosts = [live.id for live in service.all()]
        client = app.test_client()
        for game in hosts:  # the host of every game that opens
            client.set_cookie(f"tc_host_{game}", service.access.new_host_token(game))
        for url in urls_of(app, ids, hosts[0] if hosts else None):
            response = client.get(url)
            assert response.status_code < 500, (url, response.status_code)
            response.get_data()
    finally:
        service.store.close()


COLUMNS = text_columns()


@pytest.mark.timeout(1200)  # 30 restores, each opening every page (and any shrinking)
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(where=hs.sampled_from(COLUMNS), text=hs.text(alphabet=ANY_CHAR, max_size=12),
       inside=hs.booleans(), pick=hs.integers(0, 10_000), force=hs.booleans())
def test_after_any_restore_every_text_passes_the_rule_and_every_page_answers(
        source, tmp_path_factory, where, text, inside, pick, force):
    table, column = where
    work = tmp_path_factory.mktemp("prop")
    data = work / "live"
    data.mkdir()
    path = work / "backup.sqlite3"
    shutil.copy(source, path)
    con = sqlite3.connect(path)
    rows = con.execute(f'SELECT rowid, "{column}" FROM "{table}" WHERE "{column}" IS NOT NULL'
                       ).fetchall()
    assert rows, f"the source has no {table}.{column} to change"  # no column goes untried
    rowid, old = rows[pick % len(rows)]
    new = text
    if inside and (table, column) in restore_check.JSON_COLUMNS:
        value = json.loads(old)
        found = list(strings_in(value))
        if found:
            spot, kind = found[pick % len(found)]
            new = json.dumps(replaced(value, spot, kind, text))
    with contextlib.suppress(sqlite3.IntegrityError):  # a key taken twice: unchanged
        # as bytes: a file may hold what Python would not encode (a lone surrogate)
        con.execute(f'UPDATE "{table}" SET "{column}" = CAST(? AS TEXT) WHERE rowid = ?',
                    (new.encode("utf-8", "surrogatepass"), rowid))
    con.commit()
    con.close()
    before = fingerprint(data)
    try:
        backups.restore(path, data, force=force)
    except backups.BackupError as refused:
        assert "Traceback" not in str(refused)
        assert fingerprint(data) == before  # a refusal changes nothing
        return
    restored = sqlite3.connect(data / backups.DB_NAME)
    try:
        assert restore_check.text_problems(restored, restore_check.schema_of(restored)) == []
    finally:
        restored.close()
    every_page_answers(data)


# ---- numbers that are not numbers, in the JSON columns ---------------------------------

# (table, column, the literal put in place of its first number): Python's json module reads
# each, the app never writes one (orjson writes null; limits refuse them at every door)
NAN_INPUTS = [("catalogs", "catalog", "NaN"), ("games", "result", "Infinity"),
              ("games", "setup", "-Infinity"), ("setup_progress", "progress", "1e309"),
              ("actions", "action", "NaN"), ("box", "value", "NaN")]


def nan_in(source: Path, folder: Path, table: str, column: str, literal: str) -> Path:
    path = tampered(source, folder, "SELECT 1")
    con = sqlite3.connect(path)
    rowid, text = con.execute(f'SELECT rowid, "{column}" FROM "{table}" WHERE "{column}" '
                              "IS NOT NULL ORDER BY rowid LIMIT 1").fetchone()
    changed = re.sub(r"(?<=[:\[,])(\s*)-?\d+(\.\d+)?", r"\g<1>" + literal, text, count=1)
    if changed == text:  # no number in it (the box's choice of game): the whole value
        changed = literal
    con.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE rowid = ?', (changed, rowid))
    con.commit()
    con.close()
    return path


@pytest.mark.parametrize(("table", "column", "literal"), NAN_INPUTS)
def test_a_number_that_is_not_one_in_a_json_column_is_refused(source, data, tmp_path, table,
                                                              column, literal):
    path = nan_in(source, tmp_path / "nan", table, column, literal)
    before = fingerprint(data)
    for force in (False, True):  # never, not even forced
        with pytest.raises(backups.BackupError, match=re.escape(f"{table}.{column}")) as caught:
            backups.restore(path, data, force=force)
        assert "a number that is not one" in str(caught.value) and literal in str(caught.value)
    assert fingerprint(data) == before


def test_the_json_columns_are_the_ones_the_app_fills_with_json(source):
    """`restore_check.JSON_COLUMNS`, a list kept by hand, against the data: every TEXT column
    of the schema whose every stored value is a JSON object, list or string is in it, and
    every column in it holds such values in an evening's database."""
    con = sqlite3.connect(source)
    try:
        found = set()
        for table, column in COLUMNS:
            values = [v for (v,) in con.execute(
                f'SELECT "{column}" FROM "{table}" WHERE "{column}" IS NOT NULL')]
            if values and all(is_json_text(v) for v in values):
                found.add((table, column))
    finally:
        con.close()
    assert found == restore_check.JSON_COLUMNS


def is_json_text(value) -> bool:
    if not isinstance(value, str) or value[:1] not in "{[\"":
        return False
    try:
        json.loads(value)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("where", COLUMNS, ids=[f"{t}.{c}" for t, c in COLUMNS])
def test_every_text_column_of_the_schema_is_held_to_the_rule(source, data, tmp_path, where):
    """Beside the property (which samples): each TEXT column of the schema in turn, a lone
    surrogate stored in its first value is refused by name, the live files untouched."""
    table, column = where
    path = tampered(source, tmp_path / "one", f'UPDATE "{table}" SET "{column}" = CAST('
                    f'CAST("{column}" AS BLOB) || X\'EDA080\' AS TEXT) WHERE rowid = '
                    f'(SELECT MIN(rowid) FROM "{table}" WHERE "{column}" IS NOT NULL)')
    before = fingerprint(data)
    with pytest.raises(backups.BackupError) as caught:
        backups.restore(path, data, force=True)
    assert f"text the app never stores: {table}.{column}" in str(caught.value), caught.value
    assert fingerprint(data) == before

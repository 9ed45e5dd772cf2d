"""Issue 45 §1: a number is a number at every door that reads one. The host's tray form with
``nan``, ``inf``, ``-inf``, ``1e309`` and 5,000 digits is refused (translated) and writes
nothing; config.json is always valid JSON (RFC 8259: no NaN or Infinity), a file holding
them is named by `companion doctor` and never written again; a setting out of range is
refused by name; an owner's catalog file or a JSON body with such a number is refused as not
JSON. Real files, the real app, the real doctor."""
from __future__ import annotations

import json
import re

import pytest

from companion import context, doctor
from companion.server.settings import resolve
from companion.wiring.camera_dice import load_tray, parse_tray, save_tray
from hardware import config_file, strict_json
from tests.companion.test_text_doors import host_client, tracebacks

HUGE = "9" * 5000
# the inputs, field by field (x0, y0, x1, y1)
BAD_TRAYS = [("nan", "nan", "nan", "nan"), ("inf", "0", "100", "100"),
             ("-inf", "0", "100", "100"), ("0", "0", "1e309", "100"),
             ("0", "0", HUGE, "100"), ("0", "0", "-" + HUGE, "100"),
             ("NaN", "0", "100", "100"), ("0", "0", "100", "Infinity"),
             ("0", "0", "100000", "100"),  # 100 m from the marker: no tray on a table
             ("0x10", "0", "100", "100"), ("1_000", "0", "2000", "100"),
             ("\u0661\u0662", "0", "100", "100"),  # digits float() reads, no one types here
             ("100", "0", "0", "100")]  # the wrong way round


@pytest.fixture
def host(games_app):
    service = context.of(games_app).service
    live = service.create("wwe", {"players": [{"seat": "N", "name": "Ann"},
                                              {"seat": "E", "name": "Bob"}]}, "2468")
    client, token = host_client(games_app, live.id)
    return games_app, live, client, token


def config_path(app):
    return context.of(app).settings.config_path


@pytest.mark.parametrize("fields", BAD_TRAYS)
def test_the_tray_form_refuses_what_is_not_a_tray_and_writes_nothing(host, fields, caplog):
    app, live, client, token = host
    path = config_path(app)
    path.write_text(json.dumps({"owner": {"note": "kept"}}))
    before = path.read_bytes()
    form = dict(zip(("x0", "y0", "x1", "y1"), fields, strict=True), csrf_token=token)
    answer = client.post(f"/host/{live.id}/camera/tray?lang=de", data=form)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert 'id="tray-error"' in page and "Millimetern" in page  # German, the form kept
    assert path.read_bytes() == before  # nothing written
    assert load_tray(path) is None
    again = client.get(f"/host/{live.id}/camera").get_data(as_text=True)
    shown = again.split('id="tray-form"')[1].split("</form>")[0]
    # the fields' values, not the whole form: a random token or game id may spell "nan" (CI
    # met a token, then session 90's py3.13 run the game id "WXNqNant" in the form's action)
    values = [v.lower() for v in re.findall(r'<input[^>]*\bvalue="([^"]*)"', shown)
              if v != token]
    assert values.count("") == 4 and not any("nan" in v for v in values)  # no tray, no "nan"
    assert not tracebacks(caplog)


def test_a_good_tray_is_saved_as_valid_json_and_read_back(host):
    app, live, client, token = host
    answer = client.post(f"/host/{live.id}/camera/tray", data={
        "csrf_token": token, "x0": "-60", "y0": "10,5", "x1": "60", "y1": "90"})
    assert answer.status_code == 303
    path = config_path(app)
    assert strict_json.loads(path.read_text())["camera"]["tray"] == {
        "x0": -60.0, "y0": 10.5, "x1": 60.0, "y1": 90.0}
    assert load_tray(path) == (-60.0, 10.5, 60.0, 90.0)


def test_parse_tray_takes_only_finite_numbers_in_reach():
    assert parse_tray([0, 0, 100, 100]) == (0.0, 0.0, 100.0, 100.0)
    for bad in ([float("nan")] * 4, [0, 0, float("inf"), 100], [0, 0, 10 ** 400, 100],
                [-20_000, 0, 100, 100], [0, 0, 10, 100], {"x0": 0, "y0": 0, "x1": 100},
                [True, 0, 100, 100]):
        assert parse_tray(bad) is None, bad


def test_config_json_never_holds_nan_and_doctor_names_a_file_that_does(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    path = data / "config.json"
    # what the tray form wrote before: Python's json module writes NaN, no JSON reader reads it
    path.write_text('{"camera": {"source": "synthetic", "tray": {"x0": NaN, "y0": NaN, '
                    '"x1": NaN, "y1": NaN}}}')
    assert config_file.read_checked(path)[1].startswith("is not valid JSON (NaN")
    assert load_tray(path) is None
    resolved = resolve({"DATA_DIR": str(data)}, {})
    assert resolved.camera.source is None  # none of the file is used ...
    result = doctor.check_settings(doctor.Context(data_dir=data, settings=resolved))
    assert result.status == doctor.WARN and "not valid JSON" in result.summary  # ... and said
    assert "NaN" in result.summary

    # a change rewrites it as valid JSON and keeps the unusable file beside it
    save_tray(path, (0.0, 0.0, 100.0, 100.0))
    assert strict_json.loads(path.read_text()) == {
        "camera": {"tray": {"x0": 0.0, "y0": 0.0, "x1": 100.0, "y1": 100.0}}}
    assert "NaN" in (data / "config.json.unusable").read_text()
    # and a change that would write NaN writes nothing
    before = path.read_bytes()
    with pytest.raises(ValueError):
        save_tray(path, (float("nan"), 0.0, 100.0, 100.0))
    assert path.read_bytes() == before
    for text in ('{"a": Infinity}', '{"a": -Infinity}', '{"a": 1e309}',
                 '{"a": ' + HUGE + '}'):
        path.write_text(text)
        assert "not valid JSON" in config_file.read_checked(path)[1], text


def test_settings_are_finite_and_in_range(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.json").write_text(json.dumps({
        "server": {"port": 70000, "threads": 0}, "snapshot_every": -1,
        "camera": {"marker_mm": -30, "hysteresis_deg": 1e300, "vanish_frames": 10 ** 20,
                   "orient_commit_s": 2.5}}))
    resolved = resolve({"DATA_DIR": str(data)}, {"COMPANION_SNAPSHOT_EVERY": "nan"})
    assert (resolved.server.port, resolved.server.threads, resolved.snapshot_every) == (
        8000, 300, 25)
    assert resolved.camera.marker_mm == 30.0 and resolved.camera.hysteresis_deg == 55.0
    assert resolved.camera.vanish_frames == 8 and resolved.camera.orient_commit_s == 2.5
    named = " ".join(resolved.problems)
    for key in ("server.port must be from 0 to 65535", "server.threads", "snapshot_every",
                "camera.marker_mm must be above 0", "camera.hysteresis_deg",
                "camera.vanish_frames"):
        assert key in named, (key, named)
    nan = resolve({"DATA_DIR": str(data), "RATE_LIMIT": (5, float("nan"))}, {})
    assert nan.rate_limit.window_s == 60.0
    assert any("rate_limit.window_s must be a finite number" in p for p in nan.problems)


def test_a_catalog_file_with_nan_is_a_problem_of_that_file(tmp_path):
    from companion.box.catalog import CatalogError, load_catalog

    folder = tmp_path / "data" / "catalogs" / "pillars"
    folder.mkdir(parents=True)
    for text in ('{"tax_die": {"faces": [2, 3, NaN, 4, 4, 5]}}',
                 '{"start_gold": 1e309}', '{"start_gold": ' + HUGE + '}'):
        (folder / "board.json").write_text(text)
        with pytest.raises(CatalogError) as caught:
            load_catalog("pillars", tmp_path / "data")
        (problem,) = caught.value.problems
        assert problem["code"] == "json_syntax" and problem["params"]["line"] == 1, problem
        assert problem["params"]["column"] > 1 and "finite" in problem["params"]["message"]


def test_a_deck_entry_with_nan_is_refused_and_writes_nothing(host, tmp_path, caplog):
    app, live, client, token = host
    folder = context.of(app).settings.data_dir / "catalogs"
    for body in (b'{"part": "board", "entry": {"start_gold": NaN}}',
                 b'{"part": "board", "entry": {"start_gold": 1e309}}'):
        for url in ("check", "save"):
            answer = client.post(f"/host/{live.id}/deck/{url}?game=pillars", data=body,
                                 headers={"X-CSRF-Token": token,
                                          "Content-Type": "application/json"})
            # as any body that is not JSON: the entry is not an object (422), not a 5xx
            assert answer.status_code == 422, (url, answer.get_data(as_text=True)[:200])
            assert answer.get_json()["problems"][0]["code"] == "entry_shape"
    assert not folder.exists() or not list(folder.rglob("*.json"))
    assert not tracebacks(caplog)


def test_a_die_picture_with_a_long_face_number_is_not_found(host, caplog):
    """Issue 45 §4: once a taught face folder exists, a face of 300 digits (or 5,000) is
    not a file name too long (a 500): no such face, 404; a face that is taught answers."""
    import cv2
    import numpy as np

    from companion.box import taught_dice

    app, live, client, _ = host
    data = context.of(app).settings.data_dir
    picture = taught_dice.face_path("wwe", data, "tax", 3)
    picture.parent.mkdir(parents=True)
    picture.write_bytes(cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes())
    url = f"/host/{live.id}/deck/die/wwe/tax/{{}}.png"
    assert client.get(url.format(3)).status_code == 200
    for face in ("1" * 300, "1" * 5000, "1000", "4"):
        assert client.get(url.format(face)).status_code == 404, face
    assert not tracebacks(caplog)


# config.json's board numbers, edited by hand (issue 45: "numbers finite and in range wherever
# a number is read"): text where a number goes ("nan" is one to `float()`), out of reach,
# an integer beyond any float; each named by the doctor and left unused by the camera
BAD_BOARD = {
    "zones": {"council": {"x0": "nan", "y0": 0, "x1": 50, "y1": 50}},
    "tray": {"x0": 0, "y0": 0, "x1": 100_000, "y1": 100},
    "markers": {"NE": ["inf", 0]},
    "calibration": {"matrix": [[0.5, 0, "nan"], [0, 0.5, 0]], "north": 0},
}


@pytest.mark.parametrize("name", sorted(BAD_BOARD))
def test_a_board_number_in_config_json_that_is_not_one_is_named_and_not_used(tmp_path,
                                                                            name):
    from hardware.camera.settings import build_recognizer

    data = tmp_path / "data"
    data.mkdir()
    (data / "config.json").write_text(json.dumps({"camera": {name: BAD_BOARD[name]}}))
    resolved = resolve({"DATA_DIR": str(data)}, {})
    result = doctor.check_settings(doctor.Context(data_dir=data, settings=resolved))
    assert result.status == doctor.WARN and f"camera.{name}" in result.summary, result.summary
    assert resolved.camera.zones is None  # the game's zones are used
    # the recogniser the server builds from these settings (hardware/camera/settings.py)
    recognizer = build_recognizer(resolved.camera, resolved.config_path)
    assert recognizer.zones.zones == [] and recognizer.calibration_source == "none"
    assert load_tray(resolved.config_path) is None


def test_board_numbers_are_finite_numbers_in_reach():
    from hardware.camera import board_numbers
    from hardware.camera.calibration import Calibration, marker_positions
    from hardware.camera.zones import ZoneMap

    assert board_numbers.board_number(-60) == -60.0
    for bad in ("nan", "3", float("nan"), float("-inf"), 10 ** 400, True, None, 20_000):
        with pytest.raises(ValueError):
            board_numbers.board_number(bad)
    with pytest.raises(ValueError, match="x must be a number"):
        ZoneMap({"a": [[0, 0], [10, 0], ["nan", 5]]})
    with pytest.raises(ValueError, match="must be from"):
        ZoneMap({"a": {"x0": 0, "y0": 0, "x1": 1e308, "y1": 5}})
    assert [z.name for z in ZoneMap({"a": [[0, 0], [10, 0], [5, 5]]}).zones] == ["a"]
    with pytest.raises(ValueError, match="'NE' y must be a number"):
        marker_positions({"NE": [200, "0"]})
    good = Calibration(((0.5, 0.0, -10.0), (0.0, 0.5, -20.0)), 90.0, 40.0)
    assert Calibration.from_json(good.to_json()) == good
    for field, bad in (("north", "nan"), ("north", 10 ** 400), ("marker_mm", -30),
                       ("marker_mm", True), ("markers", 1.5)):
        with pytest.raises(ValueError):
            Calibration.from_json(dict(good.to_json(), **{field: bad}))


def test_the_camera_says_why_it_reads_no_tray(tmp_path):
    """With a roll owed, a camera whose tray in config.json is not one says so (issue 45:
    "the camera read nothing and nothing said why")."""
    from companion.wiring.camera_dice import CameraDice

    path = tmp_path / "config.json"
    path.write_text(json.dumps({"camera": {"tray": {"x0": 0, "y0": 0, "x1": "100",
                                                    "y1": 100}}}))
    dice = CameraDice(path, on_roll=lambda roll: None, active=lambda: True,
                      expected=lambda: True)
    status = dice.status()
    assert status["state"] == "absent" and status["tray"] is None
    assert "camera.tray" in status["detail"] and "x1 must be a number" in status["detail"]
    path.write_text('{"camera": {"tray": {"x0": NaN, "y0": 0, "x1": 100, "y1": 100}}}')
    dice.reset()
    assert "not valid JSON" in dice.status()["detail"]
    path.write_text("{}")
    dice.reset()
    assert dice.status()["detail"] == "no tray zone is set (camera.tray)"
    save_tray(path, (0.0, 0.0, 100.0, 100.0))
    dice.reset()
    assert dice.status()["state"] == "ok" and dice.status()["tray"] == [0.0, 0.0, 100.0, 100.0]


def test_the_camera_commands_say_a_bad_setting_in_one_line(tmp_path):
    """`companion camera test|snapshot|calibrate` with such a setting: one line saying which,
    no traceback; ``--marker-mm nan`` (click reads it as a float) is refused."""
    from click.testing import CliRunner

    from companion.cli import cli

    (tmp_path / "config.json").write_text(json.dumps({"camera": {
        "markers": BAD_BOARD["markers"]}}))
    for args in (["test", "none.avi"], ["snapshot", "none.avi", "--out", "x.jpg"],
                 ["calibrate", "none.avi"]):
        result = CliRunner().invoke(cli, ["camera", *args, "--data", str(tmp_path)])
        assert result.exit_code == 1 and not isinstance(result.exception, ValueError), args
        assert "'NE' x must be a number" in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1, result.output
    for size in ("nan", "inf", "-30", "0"):
        result = CliRunner().invoke(cli, ["camera", "calibrate", "none.avi", "--data",
                                          str(tmp_path), "--marker-mm", size])
        assert result.exit_code == 2 and "above 0" in result.output, (size, result.output)


def int_leaves(value, path=()):
    """The paths of the integers in ``value`` (a list's first entry only: its entries share a
    schema)."""
    if type(value) is int:
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from int_leaves(item, (*path, key))
    elif isinstance(value, list) and value:
        yield from int_leaves(value[0], (*path, 0))


@pytest.mark.timeout(1200)
def test_every_catalog_number_of_every_game_has_a_range():
    """Each integer of each installed game's catalog, made 10^20 or -10^20 (what an owner's
    file or the deck page's JSON may hold), is refused by the loader's checks, at once: not
    taken (a reward of 10^20 gold) nor counted out (Pillars' rounds, a loop of 10^20)."""
    import copy
    import signal

    from companion.box import catalog as catalogs
    from companion.game import games
    from engine.contract.numbers import unbounded_numbers

    def too_slow(*_):
        raise TimeoutError("the catalog checks did not return within 30 s")

    before = signal.signal(signal.SIGALRM, too_slow)
    try:
        for name in games.known():
            info = games.module_of(name).info
            for part in info.parts:  # the shape says the range (the contract kit asks it)
                assert list(unbounded_numbers(part.schema, part.id)) == [], name
            base = catalogs.load_catalog(name)
            for part_id, part in base.items():
                for path in int_leaves(part):
                    for number in (10 ** 20, -10 ** 20):
                        changed = copy.deepcopy(base)
                        spot = changed[part_id]
                        for key in path[:-1]:
                            spot = spot[key]
                        spot[path[-1]] = number
                        signal.alarm(30)
                        try:
                            problems = catalogs.check(info, changed)
                        finally:
                            signal.alarm(0)
                        assert problems, (name, part_id, path, number)
    finally:
        signal.signal(signal.SIGALRM, before)

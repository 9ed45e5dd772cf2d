"""One settings object: defaults < DATA/config.json < COMPANION_* < command line, each value
knowing its layer; refused values named and replaced by the layer below; the app, `companion
serve` and `companion doctor` all read the same resolution."""
from __future__ import annotations

import json
import logging
from pathlib import Path

from click.testing import CliRunner

from companion import context, doctor
from companion.app import create_app
from companion.cli import cli
from companion.commands import serve
from companion.server.settings import CONFIG_JSON, DEFAULT, KEYS, resolve


def write_config(data: Path, config) -> Path:
    data.mkdir(parents=True, exist_ok=True)
    text = config if isinstance(config, str) else json.dumps(config)
    (data / "config.json").write_text(text)
    return data


def test_each_layer_overrides_the_one_below_and_says_so(tmp_path):
    data = write_config(tmp_path / "data", {
        "server": {"port": 8100, "threads": 50},
        "camera": {"source": "/dev/video1", "marker_mm": 40,
                   "calibration": {"matrix": [[1, 0, 0], [0, 1, 0]], "north": 1}},
        "dice": {"port": "/dev/ttyUSB0", "emulate": "auto"}})
    only_json = resolve({"DATA_DIR": str(data)}, {})
    assert only_json.server.port == 8100 and only_json.source_of("server.port") == CONFIG_JSON
    assert only_json.camera.source == "/dev/video1"
    assert only_json.source_of("camera.source") == CONFIG_JSON
    assert only_json.camera.marker_mm == 40.0 and only_json.dice.emulate == "auto"
    assert only_json.server.host == "127.0.0.1" and only_json.source_of("server.host") == DEFAULT
    assert only_json.problems == ()

    environ = {"COMPANION_PORT": "8200", "COMPANION_CAMERA": "synthetic",
               "COMPANION_DICE_EMULATE": "0"}
    with_env = resolve({"DATA_DIR": str(data)}, environ)
    assert with_env.server.port == 8200 and with_env.source_of("server.port") == "COMPANION_PORT"
    assert with_env.camera.source == "synthetic"
    assert with_env.source_of("camera.source") == "COMPANION_CAMERA"
    assert with_env.dice.emulate == "off"
    assert with_env.source_of("dice.emulate") == "COMPANION_DICE_EMULATE"
    assert with_env.server.threads == 50  # not in the environment: config.json still counts

    cli_layer = resolve({"DATA_DIR": str(data), "PORT": 8300, "CAMERA_SOURCE": "folder:/x"},
                        environ)
    assert cli_layer.server.port == 8300 and cli_layer.source_of("server.port") == "command line"
    assert cli_layer.camera.source == "folder:/x"
    assert cli_layer.source_of("camera.source") == "command line"
    assert cli_layer.dice.emulate == "off"  # the environment still beats config.json
    assert cli_layer.source_of("data_dir") == "command line" and cli_layer.data_dir == data

    described = {row["key"]: row for row in cli_layer.describe()}
    assert set(described) == {key.name for key in KEYS}
    assert described["server.port"] == {"key": "server.port", "value": 8300,
                                        "from": "command line"}
    assert described["server.threads"]["from"] == CONFIG_JSON
    assert described["dice.port"] == {"key": "dice.port", "value": "/dev/ttyUSB0",
                                      "from": CONFIG_JSON}


def test_data_dir_from_the_environment_and_its_config_json(tmp_path):
    data = write_config(tmp_path / "elsewhere", {"dice": "/dev/ttyACM0"})  # the short form
    resolved = resolve({}, {"COMPANION_DATA": str(data)})
    assert resolved.data_dir == data and resolved.source_of("data_dir") == "COMPANION_DATA"
    assert resolved.dice.port == "/dev/ttyACM0" and resolved.source_of("dice.port") == CONFIG_JSON


def test_a_wrong_type_is_named_and_the_layer_below_is_used(tmp_path):
    data = write_config(tmp_path / "data", {
        "server": {"port": "eighty"}, "camera": {"marker_mm": "big", "appear_frames": 2.5},
        "dice": {"usb_ids": ["2341:0043", "nope"], "emulate": "sometimes"}})
    resolved = resolve({"DATA_DIR": str(data)}, {"COMPANION_THREADS": "many"})
    assert resolved.server.port == 8000 and resolved.source_of("server.port") == DEFAULT
    assert resolved.camera.marker_mm == 30.0 and resolved.camera.appear_frames == 2
    assert resolved.dice.usb_ids == () and resolved.dice.emulate == "off"
    assert resolved.server.threads == 300
    problems = "\n".join(resolved.problems)
    assert len(resolved.problems) == 6, problems
    assert ("config.json: server.port must be a whole number, not 'eighty' (using 8000 from "
            "default)") in resolved.problems
    assert "config.json: camera.marker_mm must be a number, not 'big'" in problems
    assert "config.json: camera.appear_frames must be a whole number, not 2.5" in problems
    assert "config.json: dice.usb_ids has 'nope'" in problems
    assert 'config.json: dice.emulate must be "on" or "auto" or "off"' in problems
    assert "COMPANION_THREADS: server.threads must be a whole number, not 'many'" in problems

    # a refused environment value falls back to config.json's, and says so
    write_config(data, {"server": {"port": 8100}})
    resolved = resolve({"DATA_DIR": str(data)}, {"COMPANION_PORT": "x"})
    assert resolved.server.port == 8100 and resolved.source_of("server.port") == CONFIG_JSON
    assert resolved.problems == ("COMPANION_PORT: server.port must be a whole number, not 'x' "
                                 "(using 8100 from config.json)",)


def test_a_broken_file_or_section_is_a_problem_not_a_crash(tmp_path):
    data = write_config(tmp_path / "data", "{not json")
    resolved = resolve({"DATA_DIR": str(data)}, {})
    assert resolved.camera.source is None
    assert resolved.problems[0].startswith("config.json: the file is not valid JSON")
    write_config(data, {"camera": "/dev/video0"})
    assert resolve({"DATA_DIR": str(data)}, {}).problems == (
        "config.json: camera must be an object, not '/dev/video0'; its settings are not used",)


def test_create_app_resolves_once_and_logs_refused_values(tmp_path, caplog):
    data = write_config(tmp_path / "data", {"snapshot_every": "often",
                                            "camera": {"orient_commit_s": 1.5}})
    with caplog.at_level(logging.WARNING, logger="companion.app"):
        app = create_app({"DATA_DIR": str(data), "TESTING": True, "RATE_LIMIT": (2, 30.0)})
    try:
        resolved = context.of(app).settings
        assert resolved.camera.orient_commit_s == 1.5
        assert resolved.snapshot_every == 25
        assert context.of(app).service.snapshot_every == 25
        assert (resolved.rate_limit.attempts, resolved.rate_limit.window_s) == (2, 30.0)
        assert app.config["DATA_DIR"] == str(data.resolve())
        assert "snapshot_every must be a whole number" in caplog.text
    finally:
        context.of(app).service.store.close()


def test_hardware_off_in_the_settings_keeps_the_camera_and_dice_stopped(tmp_path):
    data = write_config(tmp_path / "data", {"hardware": False})
    app = create_app({"DATA_DIR": str(data), "TESTING": True, "START_HARDWARE": True})
    try:
        assert context.of(app).hardware.started is False
    finally:
        context.of(app).service.store.close()


def test_serve_takes_what_the_command_line_leaves_out_from_the_settings(tmp_path, monkeypatch):
    data = write_config(tmp_path / "data", {"server": {"threads": 12, "port": 8100}})
    ran = []
    monkeypatch.setattr(serve.Server, "run", lambda self: ran.append(self))
    monkeypatch.setenv("COMPANION_PORT", "8123")
    result = CliRunner().invoke(cli, ["serve", "--data", str(data), "--no-hardware"])
    assert result.exit_code == 0, result.output
    (server,) = ran
    assert server.options["bind"] == "127.0.0.1:8123" and server.options["threads"] == 12
    assert server.config["HARDWARE"] is False and server.config["DATA_DIR"] == str(data)
    result = CliRunner().invoke(cli, ["serve", "--data", str(data), "--port", "9000"])
    assert ran[-1].options["bind"] == "127.0.0.1:9000", result.output
    monkeypatch.setenv("COMPANION_CERTFILE", str(tmp_path / "missing.pem"))
    monkeypatch.setenv("COMPANION_KEYFILE", str(tmp_path / "missing.key"))
    result = CliRunner().invoke(cli, ["serve", "--data", str(data)])
    assert result.exit_code != 0
    assert "server.certfile" in result.output and "from COMPANION_CERTFILE" in result.output


def test_doctor_reports_where_settings_come_from(tmp_path, monkeypatch):
    data = write_config(tmp_path / "data", {"dice": {"port": str(tmp_path / "no-tty")},
                                            "camera": {"marker_mm": "big"}})
    monkeypatch.setenv("COMPANION_CAMERA", str(tmp_path / "gone.mp4"))
    ctx = doctor.Context(data_dir=data, video_glob=str(tmp_path / "video*"),
                         dice_link=str(tmp_path / "dicereader"), dice_timeout=0.2)
    result = doctor.check_settings(ctx)
    assert result.status == doctor.WARN and "camera.marker_mm must be a number" in result.summary
    rows = {row["key"]: row for row in result.details["settings"]}
    assert rows["camera.source"]["from"] == "COMPANION_CAMERA"
    assert rows["dice.port"]["from"] == CONFIG_JSON
    camera = doctor.check_camera(ctx)
    assert camera.details["configured"] == {"source": str(tmp_path / "gone.mp4"),
                                            "from": "COMPANION_CAMERA"}
    dice = doctor.check_dice(ctx)
    assert dice.details["configured"] == {"port": str(tmp_path / "no-tty"), "from": CONFIG_JSON}

    monkeypatch.delenv("COMPANION_CAMERA")
    monkeypatch.setattr(doctor.Context, "video_glob", str(tmp_path / "video*"))
    write_config(data, {"dice": {"port": "auto"}})
    runner = CliRunner()
    out = runner.invoke(cli, ["doctor", "--data", str(data), "--json", "--port", "1"]).output
    by_name = {c["name"]: c for c in json.loads(out)["checks"]}
    settings_check = by_name["settings"]
    assert settings_check["status"] == "ok"
    assert "dice.port from config.json" in settings_check["summary"]
    assert "server.port from command line" in settings_check["summary"]
    text = runner.invoke(cli, ["doctor", "--data", str(data), "--port", "1"]).output
    assert "settings  server.port from command line; dice.port from config.json" in text


def test_host_pages_status_says_where_the_hardware_settings_come_from(tmp_path, monkeypatch):
    from tests.companion.test_host_hardware import login, make, stop

    monkeypatch.setenv("COMPANION_CAMERA", "synthetic")
    app, live = make(tmp_path, {"dice": {"port": "/dev/ttyUSB7"}})  # hardware not started
    try:
        client = app.test_client()
        login(client, live.id)
        dice = client.get(f"/host/{live.id}/dice/status.json").json
        camera = client.get(f"/host/{live.id}/camera/status.json").json
    finally:
        stop(app)
    assert {"key": "dice.port", "value": "/dev/ttyUSB7", "from": CONFIG_JSON} in dice["settings"]
    assert all(row["key"].startswith("dice.") for row in dice["settings"])
    assert {"key": "camera.source", "value": "synthetic",
            "from": "COMPANION_CAMERA"} in camera["settings"]

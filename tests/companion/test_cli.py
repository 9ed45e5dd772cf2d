"""The `companion` command line: every command module is found, and a command imports only
what it needs (the server must not carry OpenCV, which only the camera commands use)."""
import subprocess
import sys

from click.testing import CliRunner

from companion.cli import cli


def test_every_command_module_is_listed_and_loads():
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0, result.output
    for name in ("backup", "camera", "catalog", "dice", "doctor", "replay", "restore",
                 "serve", "tags"):
        assert name in result.output
        assert cli.get_command(None, name).name == name


def test_unknown_command_is_refused():
    result = CliRunner().invoke(cli, ["no-such-command"])
    assert result.exit_code != 0
    assert "No such command" in result.output


def test_serve_does_not_import_opencv():
    code = ("import sys; from companion.cli import cli; cli.get_command(None, 'serve'); "
            "print('cv2' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_replay_of_the_out_of_tree_toy_game(tmp_path):
    """`companion replay` finds a game as the server does (entry points): the toy plug-in,
    installed from tests/plugins/, replays to the state the engine reaches."""
    import json
    import random

    from tc_toygame import GAME

    from companion.box.catalog import load_catalog
    from engine import record
    from engine.api import random_move

    setup = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}],
             "seed": 5}
    state, actions, rnd = GAME.setup(load_catalog("toy"), setup), [], random.Random(5)
    while (action := random_move(GAME, state, rnd)) is not None and len(actions) < 30:
        state, _ = GAME.apply(state, action)
        actions.append(action)
    assert actions
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(record.build("toy", setup, actions)))
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert printed == json.loads(json.dumps({"public": GAME.public_view(state),
                                             "scores": GAME.scores(state)}))
    path.write_text(json.dumps(record.build("no_such_game", setup, actions)))
    refused = CliRunner().invoke(cli, ["replay", str(path)])
    assert refused.exit_code != 0 and "unknown game 'no_such_game'" in refused.output

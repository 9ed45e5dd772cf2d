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

"""`companion doctor`: check the table's setup; every problem comes with a one-line fix."""
from __future__ import annotations

import json
import os
from pathlib import Path

import click

from companion import doctor
from companion.server import settings

INSTALLED_DATA = Path("/var/lib/table-companion")


@click.command("doctor")
@click.option("--data", "data_dir", type=click.Path(path_type=Path), default=None,
              help="Data directory [default: $COMPANION_DATA, else /var/lib/table-companion "
                   "on an installed Pi, else ./instance].")
@click.option("--port", type=int, default=None,
              help="Server port [default: the installed one, else the settings' (8000)].")
@click.option("--camera", default=None, help="Camera source to test (e.g. /dev/video0, "
              "picamera2) instead of the configured or first found one.")
@click.option("--dice", default=None, help="Serial port of the dice reader to test.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--save-focus", is_flag=True, help="Keep the Camera Module 3's focus scan "
              "result as camera.lens_position in config.json (otherwise only reported).")
def command(data_dir: Path | None, port: int | None, camera: str | None, dice: str | None,
            as_json: bool, save_focus: bool) -> None:
    """Check settings, Python, packages, data folder, clock, network, service, camera and
    dice reader. The settings are resolved as the server resolves them (defaults <
    config.json < COMPANION_* < command line; on an installed Pi the service's
    companion.env counts as its environment).

    Changes no setting, except a focus scan's result with --save-focus.

    Exits 1 when something essential fails.
    """
    installed = doctor.appliance_settings()
    environ = dict(doctor.appliance_environment(), **os.environ)
    overrides: dict = {"PORT": port}
    if data_dir is not None:
        overrides["DATA_DIR"] = str(data_dir)
    elif installed and not environ.get("COMPANION_DATA"):
        overrides["DATA_DIR"] = str(INSTALLED_DATA)  # what the unit passes with --data
    resolved = settings.resolve(overrides, environ)
    scheme = "https" if resolved.server.certfile else installed.get("scheme", "http")
    ctx = doctor.Context(data_dir=resolved.data_dir, port=resolved.server.port, scheme=scheme,
                         camera=camera, dice=dice, settings=resolved, save_focus=save_focus)
    results = doctor.run_checks(ctx)
    if as_json:
        click.echo(json.dumps(doctor.report(results), indent=2, default=str))
    else:
        click.echo(doctor.render(results))
    raise SystemExit(0 if doctor.report(results)["ok"] else 1)

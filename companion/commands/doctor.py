"""`companion doctor`: check the table's setup; every problem comes with a one-line fix."""
from __future__ import annotations

import json
from pathlib import Path

import click

from companion import doctor


@click.command("doctor")
@click.option("--data", "data_dir", type=click.Path(path_type=Path), default=None,
              help="Data directory [default: /var/lib/table-companion on an installed Pi, "
                   "else ./instance].")
@click.option("--port", type=int, default=None,
              help="Server port [default: the installed one, else 8000].")
@click.option("--camera", default=None, help="Camera source to test (e.g. /dev/video0, "
              "picamera2) instead of the configured or first found one.")
@click.option("--dice", default=None, help="Serial port of the dice reader to test.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def command(data_dir: Path | None, port: int | None, camera: str | None, dice: str | None,
            as_json: bool) -> None:
    """Check Python, packages, data folder, clock, network, service, camera and dice reader.

    Exits 1 when something essential fails.
    """
    installed = doctor.appliance_settings()
    if data_dir is None:
        data_dir = Path("/var/lib/table-companion") if installed else Path("instance")
    ctx = doctor.Context(data_dir=data_dir, port=port or installed.get("port", 8000),
                         scheme=installed.get("scheme", "http"), camera=camera, dice=dice)
    results = doctor.run_checks(ctx)
    if as_json:
        click.echo(json.dumps(doctor.report(results), indent=2, default=str))
    else:
        click.echo(doctor.render(results))
    raise SystemExit(0 if doctor.report(results)["ok"] else 1)

"""`companion backup` and `companion restore`: online copies of the game database."""
from __future__ import annotations

from pathlib import Path

import click

from companion.box import backup as backups

DATA_HELP = "Data directory holding companion.sqlite3."


@click.command("backup")
@click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path),
              default="instance", show_default=True, help=DATA_HELP)
@click.option("--keep", type=click.IntRange(min=0), default=7, show_default=True,
              help="Days for which the newest backup is kept (0 keeps all).")
def command(data_dir: Path, keep: int) -> None:
    """Copy the live database to DATA/backups/ while the server keeps running."""
    try:
        path = backups.backup(data_dir, keep=keep)
    except backups.BackupError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(str(path))

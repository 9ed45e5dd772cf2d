"""`companion restore`: put a backup back (the command lives apart because the CLI takes one
command per module; the logic is in companion/box/backup.py next to `companion backup`)."""
from __future__ import annotations

from pathlib import Path

import click

from companion.box import backup as backups
from companion.commands.backup import DATA_HELP


@click.command("restore")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path),
              default="instance", show_default=True, help=DATA_HELP)
@click.option("--force", is_flag=True,
              help="Restore even when some games of the backup do not replay.")
def command(file: Path, data_dir: Path, force: bool) -> None:
    """Replace the games with a backup FILE (checked first; the old database is kept aside)."""
    try:
        result = backups.restore(file, data_dir, force=force)
    except backups.BackupError as exc:
        raise click.ClickException(str(exc)) from exc
    except OSError as exc:  # the file system said no (a folder that is a file, a full disk):
        # why, in one line; the live database is written in one transaction or not at all
        raise click.ClickException(f"cannot restore {file} into {data_dir}: "
                                   f"{exc.strerror or exc}") from exc
    if result.kept_aside:
        click.echo(f"previous database kept as {result.kept_aside}")
    for problem in result.problems:
        click.echo(f"does not replay (listed as broken): {problem}")
    click.echo(f"restored {result.restored_from}")
    click.echo("every screen pairs again: the host logs in with the PIN, the phones join with "
               "the new join codes on the host page, the table display is paired again")

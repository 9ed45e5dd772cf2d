"""`companion replay RECORD.json [--data DIR]`: replay a game record, print the result.

Prints ``{"public": <final public view>, "scores": <standings>}`` as JSON. The catalog is
the shipped one with the owner's overrides from ``DIR/catalogs/`` (when --data is given).
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from companion.box.catalog import CatalogError, load_catalog
from companion.game import games
from engine import record as records


@click.command("replay")
@click.argument("record_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Data directory whose catalogs/ overrides the shipped catalog.")
def command(record_file: Path, data_dir: Path | None) -> None:
    """Replay RECORD_FILE and print the final public state and scores as JSON."""
    try:
        record = json.loads(record_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise click.ClickException(f"cannot read {record_file}: {exc}") from exc
    problems = records.validate(record)
    if problems:
        raise click.ClickException("bad record: " + "; ".join(problems))
    try:
        module = games.module_of(record["game"])
    except KeyError:
        raise click.ClickException(
            f"unknown game {record['game']!r}: installed are {', '.join(games.known())}"
        ) from None
    try:
        catalog = load_catalog(record["game"], data_dir)
        state, _events = records.replay(module, catalog, record)
    except CatalogError as exc:
        raise click.ClickException(f"catalog problems: {exc}") from exc
    except records.RecordError as exc:
        raise click.ClickException(str(exc)) from exc
    out = {"public": module.public_view(state), "scores": module.scores(state)}
    click.echo(json.dumps(out, ensure_ascii=False, indent=1, sort_keys=True))

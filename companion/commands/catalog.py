"""`companion catalog check FILE|DIR` and `companion catalog demo`: the owner's catalog tools."""
from __future__ import annotations

from collections import Counter

import click

from companion.catalog import CatalogError, check_path, demo_entries, format_problem, load_catalog
from companion.games import known, module_of

command = click.Group("catalog", help="Check and inspect the card and board catalog.")


def _summary(game: str, catalog: dict, demos: list[dict]) -> str:
    counts = []
    for part in module_of(game).info.parts:
        entries = catalog.get(part.id)
        if isinstance(entries, dict) and part.nested:
            entries = entries.get(part.nested)
        if isinstance(entries, list):
            counts.append(f"{len(entries)} {(part.title or part.id).lower()}")
    return (f"OK: {', '.join(counts)}; {len(demos)} demo entries (shown as DEMO; "
            "see `companion catalog demo`)")


def game_option(function):
    """``--game``: which installed game; may be left out when only one is installed."""
    def pick(_ctx, _param, value):
        if value is None:
            installed = known()
            if len(installed) != 1:
                raise click.BadParameter(f"choose one of: {', '.join(installed)}")
            return installed[0]
        if value not in known():
            raise click.BadParameter(f"no game {value!r}; installed: {', '.join(known())}")
        return value
    return click.option("--game", default=None, callback=pick,
                        help="Which game's catalog (an installed game's id).")(function)


@command.command("check")
@click.argument("path", type=click.Path(exists=False))
@game_option
def check(path: str, game: str) -> None:
    """Check a catalog FILE (an override over the shipped catalog) or DIR.

    A DIR holding every part file is checked as a complete catalog; a data directory or a
    folder of override files is merged over the shipped catalog first. Prints one line per
    problem (file, entry, field, reason) and exits 1, or a summary and exits 0.
    """
    try:
        catalog = check_path(path, game)
    except CatalogError as exc:
        for p in exc.problems:
            click.echo(format_problem(p))
        click.echo(f"{len(exc.problems)} problem(s) found.", err=True)
        raise SystemExit(1) from None
    click.echo(_summary(game, catalog, demo_entries(catalog, game)))


@command.command("demo")
@click.option("--data", "data_dir", type=click.Path(file_okay=False), default=None,
              help="Data directory whose catalogs/ overrides are merged in.")
@game_option
def demo(data_dir: str | None, game: str) -> None:
    """List the entries that are demo data (guessed, not the owner's real cards)."""
    try:
        catalog = load_catalog(game, data_dir)
    except CatalogError as exc:
        for p in exc.problems:
            click.echo(format_problem(p))
        raise SystemExit(1) from None
    demos = demo_entries(catalog, game)
    for d in demos:
        what = "whole entry" if d["fields"] is None else "fields " + ", ".join(d["fields"])
        click.echo(f"DEMO {d['file']}: {d['entry']}: {what}")
    per_file = Counter(d["file"] for d in demos)
    click.echo(f"{len(demos)} demo entries: "
               + ", ".join(f"{f} {n}" for f, n in sorted(per_file.items())))

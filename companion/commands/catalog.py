"""`companion catalog check|demo|status|export|import`: the owner's catalog tools."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import click

from companion.box import deck
from companion.box.catalog import (
    CatalogError,
    check_path,
    demo_entries,
    format_problem,
    load_catalog,
    read_json,
)
from companion.game.games import known, module_of

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


DATA = click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path),
                    default=Path("instance"), show_default=True,
                    help="Data directory whose catalogs/<game>/ holds the owner's files.")


def _fail(exc: CatalogError) -> None:
    for p in exc.problems:
        click.echo(format_problem(p))
    click.echo(f"{len(exc.problems)} problem(s) found; nothing was changed.", err=True)
    raise SystemExit(1) from None


def _echo_status(report: dict) -> None:
    for part in report["parts"]:
        click.echo(f"{part['progress']['text']} ({part['demo']} demo, "
                   f"{part['checked']} checked)")
    for p in report["problems"]:
        click.echo(format_problem(p))
    verdict = "OK" if report["ok"] else f"{len(report['problems'])} problem(s)"
    click.echo(f"{verdict}: {report['entered']} of {report['total']} entries entered, "
               f"{report['demo']} still demo")


@command.command("status")
@DATA
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@game_option
def status_command(data_dir: Path, as_json: bool, game: str) -> None:
    """How far the owner's catalog is entered: per part, entries in total, still demo,
    entered by the owner and passing the checks. Exits 1 when the catalog has problems."""
    report = deck.status(game, data_dir)
    if as_json:
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        _echo_status(report)
    if not report["ok"]:
        raise SystemExit(1)


@command.command("export")
@DATA
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="File to write (default: <game>-catalog.json; '-' for standard output).")
@game_option
def export_command(data_dir: Path, output: Path | None, game: str) -> None:
    """Write the owner's entered catalog as one JSON file, to import on another table."""
    try:
        bundle = deck.export_bundle(game, data_dir)
    except CatalogError as exc:
        _fail(exc)
    text = json.dumps(bundle, indent=2, ensure_ascii=False) + "\n"
    if str(output) == "-":
        click.echo(text, nl=False)
        return
    output = output or Path(f"{game}-catalog.json")
    output.write_text(text, encoding="utf-8")
    click.echo(f"Exported {len(bundle['files'])} file(s) to {output}")


@command.command("import")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@DATA
@game_option
def import_command(path: Path, data_dir: Path, game: str) -> None:
    """Make an exported catalog FILE the owner's catalog on this table. Checked first:
    on any problem nothing changes. Games already created keep their catalog."""
    bundle, problems = read_json(path)
    if problems or bundle is None:
        _fail(CatalogError(problems))
    try:
        report = deck.import_bundle(game, data_dir, bundle)
    except CatalogError as exc:
        _fail(exc)
    click.echo(f"Imported {path}; games already created keep their catalog.")
    _echo_status(report)

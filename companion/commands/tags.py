"""`companion tags`: printable QR sticker sheets for a game's catalog (docs/tags.md)."""
from __future__ import annotations

from pathlib import Path

import click

from companion.box.stickers import stickers_for_catalog
from companion.commands.catalog import game_option
from companion.game.games import module_of
from hardware.tags.sheet import render_sheets, write_sheets


@click.command("tags")
@game_option
@click.option("--size-mm", type=float, default=30.0, show_default=True,
              help="Side of each QR symbol in millimetres (quiet zone and name come on top).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              required=True, help="Directory for the PNG pages and the PDF.")
@click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Data directory with owner catalog overrides.")
@click.option("--lang", default="en", show_default=True, help="Language of the printed names.")
@click.option("--dpi", type=int, default=300, show_default=True)
@click.option("--corner-markers", is_flag=True,
              help="Also print the NW, NE, SE and SW corner markers (a tilted camera).")
def command(game: str, size_mm: float, out_dir: Path, data_dir: Path | None, lang: str,
            dpi: int, corner_markers: bool) -> None:
    """Write printable A4 sticker sheets (PNG and PDF) with the board marker first."""
    from companion.box.catalog import load_catalog

    catalog = load_catalog(game, data_dir)
    stickers = stickers_for_catalog(module_of(game).info, catalog, lang)
    if not stickers:
        raise click.ClickException(f"the {game} catalog has no cards to print")
    try:
        pages = render_sheets(stickers, size_mm, dpi=dpi, corners=corner_markers)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    for path in write_sheets(pages, out_dir, f"{game}-stickers", dpi=dpi):
        click.echo(str(path))
    markers = "board marker + 4 corner markers" if corner_markers else "board marker"
    click.echo(f"{len(stickers)} card stickers + {markers} on {len(pages)} page(s), "
               f"{size_mm:g} mm codes")

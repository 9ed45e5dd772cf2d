"""`companion contract GAME`: run the plug-in contract kit on an installed game.

The one command a game's author runs (docs/engine.md, "Writing a game"): it finds the game
through its entry point as the server does, loads its shipped catalog, reads its
translations (the game's gettext domain in the languages it declares, then the shared one,
as the server looks them up), checks the domain as `python -m web.i18n_tool check <id>`
does, and plays the kit's random games and probes (engine/contract). It prints every broken
promise and exits 1, or says the game keeps the contract.
"""
from __future__ import annotations

import sys
from typing import Any

import click

from companion.box.catalog import CatalogError, load_catalog
from companion.game import games
from companion.game.reasons import SERVER_REASONS
from engine.contract import check_game


def translated(info: Any) -> dict[str, set] | None:
    """{language: the msgids translated into it} for the game's languages but English: its
    own domain and the shared one (an entry with every form filled, not fuzzy); None when
    the game has no web folder."""
    from web import i18n_tool

    domain = i18n_tool.game_domain(info)
    if domain is None:
        return None
    out: dict[str, set] = {}
    for lang in domain.languages:
        found: set = set()
        for dom in (domain, i18n_tool.shared_domain()):
            for message in i18n_tool.read(lang, dom):
                if i18n_tool.is_translated(message):
                    found.add(message.id)
        out[lang] = found
    return out


def translation_problems(info: Any) -> list[str]:
    """What `python -m web.i18n_tool check <id>` reports for the game's domain."""
    from web import i18n_tool

    domain = i18n_tool.game_domain(info)
    if domain is None:
        return [f"translations: the game's web folder {info.web!r} is not found"]
    absent = [f"translations: GameInfo.languages declares {lang!r}, but the game has no "
              f"{lang} translations ({domain.po_path(lang)}): python -m web.i18n_tool update "
              f"{info.id}" for lang in domain.languages if not domain.po_path(lang).is_file()]
    template = i18n_tool.extract(domain)
    return absent + [f"translations: {p}" for lang in domain.languages
                     for p in i18n_tool.problems(lang, template, domain)]


def check_module(module: Any, catalog: Any, **options: Any) -> list[str]:
    """Every broken promise of ``module``: its translations, then the kit's."""
    return translation_problems(module.info) + check_game(
        module, catalog, app_reasons=SERVER_REASONS, translated=translated(module.info),
        **options)


@click.command("contract")
@click.argument("game_id")
@click.option("--games", "rounds", default=3, show_default=True,
              help="Random games per player count.")
@click.option("--actions", "most_actions", default=1000, show_default=True,
              help="Most actions per random game.")
@click.option("--seed", default=0, show_default=True, help="Seed of the random games.")
def command(game_id: str, rounds: int, most_actions: int, seed: int) -> None:
    """Check that the installed game GAME_ID keeps the plug-in contract (docs/engine.md)."""
    try:
        module = games.module_of(game_id)
    except KeyError:
        raise click.ClickException(f"unknown game {game_id!r}: installed are "
                                   f"{', '.join(games.known()) or 'none'}") from None
    try:
        catalog = load_catalog(game_id)
    except CatalogError as exc:
        raise click.ClickException(f"the shipped catalog has problems: {exc}") from exc
    problems = check_module(module, catalog, games=rounds, most_actions=most_actions,
                            seed=seed)
    for problem in problems:
        click.echo(problem)
    if problems:
        click.echo(f"{game_id} breaks the plug-in contract: {len(problems)} problem(s)",
                   err=True)
        sys.exit(1)
    click.echo(f"{game_id} keeps the plug-in contract ({rounds} random games per player "
               f"count, seed {seed})")

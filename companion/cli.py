"""The `companion` command line.

Each area adds its own subcommands in a module of `companion.commands` that exposes a click
command or group named `command`; this file only collects them, so areas never edit it.
"""
import importlib
import pkgutil

import click

from companion import commands


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Table Companion: the board-game companion for a Raspberry Pi."""


def _register() -> None:
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        command = getattr(module, "command", None)
        if isinstance(command, click.Command):
            cli.add_command(command)


_register()


def main() -> None:
    cli()

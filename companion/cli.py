"""The `companion` command line.

Each area adds its own subcommand in a module of `companion.commands` that exposes a click
command or group named `command`, named like the module; this file only finds them, so
areas never edit it. Modules are imported only when their command runs: `companion serve`
must not pay for OpenCV (about 60 MB and 0.2 s) that only `companion camera` needs.
"""
import importlib
import pkgutil

import click

from companion import commands


class LazyGroup(click.Group):
    """Lists the modules of `companion.commands`; imports one only when it is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(info.name for info in pkgutil.iter_modules(commands.__path__))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.list_commands(ctx):
            return None
        module = importlib.import_module(f"{commands.__name__}.{name}")
        command = getattr(module, "command", None)
        return command if isinstance(command, click.Command) else None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Table Companion: the board-game companion for a Raspberry Pi."""


def main() -> None:
    cli()

"""Subcommands of `companion`: one module per area, each exposing `command`."""

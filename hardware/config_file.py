"""The data directory's config.json, where hardware settings live (camera, dice): read it
leniently, and change one part of it without losing the others or leaving half a file."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from hardware import atomic_file


def read(path: Path) -> dict:
    """The settings as a dict; a missing, unreadable or non-object file counts as empty."""
    return read_checked(path)[0]


def read_checked(path: Path) -> tuple[dict, str | None]:
    """`read`, and why a file that is there was not used (None when all is well or there is
    no file)."""
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, f"cannot be read ({exc.strerror})"
    try:
        data = json.loads(text)
    except ValueError as exc:
        return {}, f"is not valid JSON ({exc})"
    if not isinstance(data, dict):
        return {}, "is not a JSON object"
    return data, None


def update(path: Path, change: Callable[[dict], None]) -> None:
    """Apply ``change`` to the settings and write them back atomically (hardware/atomic_file.py:
    temp file in the same folder, fsync, rename, the temp removed on any failure), so a
    power cut or an error leaves either the old file or the new one."""
    path = Path(path)
    data = read(path)
    change(data)
    atomic_file.write_bytes(path, json.dumps(data, indent=2).encode("utf-8"))

"""Writing an owner's file so that no failure leaves part of it behind (issue 31): the
settings and calibration (``config.json``), the deck's catalog files and card pictures.

The bytes are made first (a value that cannot be encoded fails before any file exists), then
written to a temporary file in the target's own folder (a rename within one file system is
atomic), synced, and renamed over the target; the folder is synced so the rename survives a
power cut. On any failure the temporary file is removed. A power cut between the write and
the rename can still leave one behind: `clean_stale` removes them when the app starts.
Here rather than in companion/ because hardware/config_file.py writes through it too (the
hardware layer imports nothing of the app).
"""
from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

SUFFIX = ".tmp"  # every temporary file of this module ends so; `clean_stale` removes them


def sync_dir(directory: Path) -> None:
    """Make a rename in ``directory`` durable (a no-op where folders cannot be synced)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_temp(directory: Path, stem: str, data: bytes) -> Path:
    """``data`` in a new synced file ``<stem>.<random>.tmp`` of ``directory``; nothing is
    left on failure."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{stem}.{secrets.token_hex(6)}{SUFFIX}"
    try:
        with open(path, "xb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            path.unlink()
        raise
    return path


def commit(temp: Path, target: Path) -> None:
    """``temp`` becomes ``target`` in one rename (the folder synced); ``temp`` is removed
    if the rename fails."""
    try:
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(temp).unlink()
        raise
    sync_dir(Path(target).parent)


def write_bytes(target: Path, data: bytes) -> None:
    """``target`` holds ``data`` afterwards, or is unchanged and no temporary file is left."""
    target = Path(target)
    commit(write_temp(target.parent, f".{target.name}", data), target)


def clean_stale(directory: Path, recursive: bool = True) -> list[Path]:
    """Remove the temporary files a power cut left in ``directory`` (at start, before any
    write); the removed paths."""
    directory = Path(directory)
    if not directory.is_dir():
        return []
    found = directory.rglob(f"*{SUFFIX}") if recursive else directory.glob(f"*{SUFFIX}")
    removed = []
    for path in found:
        if path.is_file():
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    return removed

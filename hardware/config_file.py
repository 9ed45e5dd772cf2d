"""The data directory's config.json, where hardware settings live (camera, dice): read it
leniently, and change one part of it without losing the others or leaving half a file.

Always valid JSON (RFC 8259, hardware/strict_json.py): a number is finite. ``NaN``,
``Infinity`` or an overflowing ``1e309`` make the file "not valid JSON" when read
(`companion doctor` says so) and are never written (`update` refuses them before touching
the file)."""
from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from hardware import atomic_file, strict_json

log = logging.getLogger(__name__)


def dumps(data) -> bytes:
    """The file's bytes; ValueError for a number that is not finite (nothing written)."""
    return strict_json.dumps(data, indent=2).encode("utf-8")


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
    except UnicodeDecodeError:
        return {}, "is not valid JSON (not UTF-8 text)"
    try:
        data = strict_json.loads(text)
    except ValueError as exc:
        return {}, f"is not valid JSON ({exc})"
    except RecursionError:
        return {}, "is not valid JSON (nested too deeply)"
    if not isinstance(data, dict):
        return {}, "is not a JSON object"
    return data, None


def update(path: Path, change: Callable[[dict], None]) -> None:
    """Apply ``change`` to the settings and write them back atomically (hardware/atomic_file.py:
    temp file in the same folder, fsync, rename, the temp removed on any failure), so a
    power cut or an error leaves either the old file or the new one. A file that is there but
    cannot be used is kept beside it (``config.json.unusable``) before the new one replaces
    it, so the owner's hand-edited settings are never silently lost."""
    path = Path(path)
    data, unusable = read_checked(path)
    change(data)
    body = dumps(data)  # a NaN raises here: the file is left as it was
    if unusable is not None and path.exists():
        aside = path.with_name(path.name + ".unusable")
        atomic_file.write_bytes(aside, path.read_bytes())
        log.warning("%s %s; kept as %s and written anew", path, unusable, aside)
    atomic_file.write_bytes(path, body)

"""The sticker payload format, version 1 (documented in docs/tags.md).

    TC1:<NAMESPACE>:<KIND>:<CODE>        e.g.  TC1:WWE:E:7K2Q

Everything is upper case letters, digits, ``-`` and ``:`` so the QR code uses alphanumeric
mode: a card payload is 14-15 characters and fits a version-2 symbol (25 modules) at error
correction level H (30 % of the symbol may be damaged). Small symbols mean big modules, and
big modules are what a camera 60 cm above the table can read.

``CODE`` is a 4-character base-36 digest of the catalog id (`short_code`), not the id itself:
catalog ids such as ``sell_wool_cloth`` would need a version-3 or -4 symbol. The companion
maps codes back to catalog ids with the catalog it has loaded (`resolve`); a collision
inside one namespace and kind is detected when the sheet is made.

The hardware side knows no game: it only splits a payload into (namespace, kind, code).
``TC1:TC:M:NORTH`` is reserved for the board reference marker that defines north, and
``TC1:TC:M:NW`` / ``NE`` / ``SE`` / ``SW`` for the corner markers that pin down the board's
perspective under a tilted camera (hardware.camera.calibration).
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

VERSION = "TC1"
# One capital letter per kind keeps the payload short. Which letters a namespace uses, and
# what they mean, each game declares (engine.api.StickerKind); "M" in the system namespace
# is the board marker.
MARKER = "M"
SYSTEM_NAMESPACE = "tc"
BOARD_MARKER = "TC1:TC:M:NORTH"
CORNER_MARKERS = {corner: f"TC1:TC:M:{corner}" for corner in ("NW", "NE", "SE", "SW")}
BOARD_MARKERS = frozenset({BOARD_MARKER, *CORNER_MARKERS.values()})

_PAYLOAD = re.compile(r"^TC(?P<version>\d+):(?P<ns>[A-Z0-9]{1,6}):(?P<kind>[A-Z]):"
                      r"(?P<code>[A-Z0-9-]{1,8})$")


class TagError(ValueError):
    """A payload that is not a tag of a version we read; ``code`` is a translatable key."""

    def __init__(self, code: str, payload: str) -> None:
        super().__init__(f"{code}: {payload!r}")
        self.code = code
        self.payload = payload


@dataclass(frozen=True)
class Tag:
    """A parsed sticker: an opaque (namespace, kind, code) triple plus the raw payload."""

    namespace: str  # lower case, e.g. "wwe"; "tc" for the system's own markers
    kind: str  # one capital letter, e.g. "E" (its meaning is the namespace's business)
    code: str  # the short code printed in the QR (see short_code)
    payload: str

    @property
    def is_board_marker(self) -> bool:
        """The NORTH marker or a corner marker (a reference, never a card)."""
        return self.payload in BOARD_MARKERS


def parse(payload: str) -> Tag:
    """Split a payload into a `Tag`, or raise `TagError` (unknown format, other version)."""
    match = _PAYLOAD.match(payload)
    if match is None:
        raise TagError("tag_not_ours", payload)
    if f"TC{match['version']}" != VERSION:
        raise TagError("tag_version_unsupported", payload)
    return Tag(match["ns"].lower(), match["kind"], match["code"], payload)


def short_code(catalog_id: str) -> str:
    """The 4-character base-36 code for a catalog id (first 20 bits of its SHA-1)."""
    number = int.from_bytes(hashlib.sha1(catalog_id.encode()).digest()[:4], "big") % 36**4
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out = ""
    for _ in range(4):
        number, rest = divmod(number, 36)
        out = digits[rest] + out
    return out


def card_payload(namespace: str, letter: str, catalog_id: str) -> str:
    """The payload printed on the sticker of one catalog entry (``letter``: its kind)."""
    if not re.fullmatch(r"[A-Z]", letter) or (letter == MARKER
                                               and namespace == SYSTEM_NAMESPACE):
        raise ValueError(f"not a card kind letter: {letter}")
    if not re.fullmatch(r"[a-z0-9]{1,6}", namespace):
        raise ValueError(f"namespace must be 1-6 lower-case letters or digits: {namespace}")
    return f"{VERSION}:{namespace.upper()}:{letter}:{short_code(catalog_id)}"


def code_table(catalog_ids: Iterable[str]) -> dict[str, str]:
    """short code -> catalog id for one namespace and kind; raises ValueError on a collision."""
    table: dict[str, str] = {}
    for catalog_id in catalog_ids:
        code = short_code(catalog_id)
        if code in table and table[code] != catalog_id:
            raise ValueError(f"tag code collision: {table[code]} and {catalog_id} -> {code}")
        table[code] = catalog_id
    return table


def resolve(tag: Tag, catalog_ids: Iterable[str]) -> str | None:
    """The catalog id among ``catalog_ids`` whose sticker carries ``tag``, or None."""
    return code_table(catalog_ids).get(tag.code)

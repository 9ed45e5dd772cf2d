"""Loading a game catalog from its JSON files, with the owner's overrides merged in.

The shipped files live in the game's own package (``GameInfo.catalog``, e.g.
``engine/wwe/data/``); the owner's own cards go into ``<data_dir>/catalogs/<game>/*.json``
(see docs/catalog.md). An override file is named after the part it changes
(``event_cards.json``, or ``event_cards.chapter3.json``: the part is the name up to the
first dot). How a part merges is declared by the game (`engine.api.CatalogPart`): in
"by_key" parts an override entry replaces the shipped entry with the same id, a new id is
added, ``{"id": ..., "remove": true}`` deletes one, and ``{"replace": true, "entries":
[...]}`` discards all shipped entries of that part; "deep" parts merge key by key (nested
objects too) and a ``nested`` list inside them merges by id; "replace" parts are replaced.

Then every part is checked against its JSON Schema and the game's own checks run. Problems
(bad JSON, bad shape, anything the checks find) are reported with the file they come from,
so an owner knows which of their files to fix. Knows no game: only `GameInfo`.
"""
from __future__ import annotations

import copy
import hashlib
import json
import logging
import re
from collections.abc import Callable
from functools import partial
from importlib.resources import files
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from companion.game import games
from companion.server import locks
from companion.server import text as text_rule
from engine.api import catalog_problem
from hardware import strict_json

log = logging.getLogger(__name__)

# English templates of the loader's own problem codes (the game's checks bring their own).
REASONS = {
    "not_readable": "cannot read the file: {message}",
    "json_syntax": "invalid JSON at line {line}, column {column}: {message}",
    "duplicate_key": "the key {key} appears twice in one object",
    "bad_text": "the text of {key} holds a character that is not plain text (a control "
                "character or broken Unicode)",
    "unknown_file": "{name} is not a catalog file (expected one of: {expected})",
    "override_shape": "an override of {part} must be {expected}",
    "schema": "{message}",
    "check_failed": "the game's checks could not run ({message})",
    "unknown_game": "no catalog for the game {game}",
    # the owner's catalog tools (companion/box/deck.py)
    "unknown_part": "{part} is not a part of this catalog (expected one of: {expected})",
    "entry_shape": "an entry of {part} must be {expected}",
    "bundle_shape": "not a catalog export: {detail}",
    "bundle_version": "catalog export version {version} is not supported (expected {expected})",
    "bundle_game": "this export holds the catalog of {found}, not of {game}",
    "bad_entry_id": "{name} cannot name a picture (letters, digits, - and _ only)",
    "no_picture": "the picture could not be made: {detail}",
    "not_in_view": "the camera does not see the sticker of this card now",
    # teaching the camera a die's faces (companion/box/taught_dice.py)
    "not_taught_die": "{die} is not a die the camera can be taught (expected one of: "
                      "{expected})",
    "not_a_face": "{face} is not a face of this die (its faces: {faces})",
    "die_request": "the request must name the die (role, as text) and one of its faces "
                   "(face, a whole number)",
    "no_die": "the camera sees no die in the tray: put the die in the tray, face up",
    "several_dice": "the camera sees more than one die in the tray: leave only this die",
    "hand": "a hand or something large is over the tray: take it away",
    "not_flat": "the die is not lying flat: let it settle on one face",
    "no_tray": "the camera shows no dice tray in colour yet (set the tray zone on the camera page)",
    # teaching the camera cards by their face (companion/box/taught_cards.py)
    "not_face_card": "{card} is not a card the camera can learn by its face",
    "face_request": "the request must name the card (entry, as text)",
    "not_an_image": "this is not a picture (a PNG or JPEG of the card's face)",
    "picture_too_large": "this picture holds {megapixels} million pixels; at most {limit} "
                         "million are taken (a phone photo of the card is enough)",
    "face_shape": "a picture of {width}×{height} pixels is not a card's face (too small or "
                  "too long)",
    "no_card": "the camera sees no card in the dice tray: lay the card there alone, face up "
               "and upright",
    "several_cards": "the camera sees more than one card in the dice tray: leave only this card",
    "no_unknown_card": "the camera asks about no card there any more",
}


problem = partial(catalog_problem, REASONS)  # (file, entry, field, code, **params)


class CatalogError(Exception):
    """The catalog cannot be used; ``problems`` says where and why."""

    def __init__(self, problems: list[dict]) -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} catalog problem(s): "
                         + "; ".join(format_problem(p) for p in problems[:3]))


def format_problem(p: dict) -> str:
    """One line: file, entry, field, reason."""
    entry = "-" if p.get("entry") is None else p["entry"]
    field = "-" if p.get("field") is None else p["field"]
    return f"{p['file']}: entry {entry}: field {field}: {p['reason']}"


def installed_info(game: str):
    """The installed game's declarations; CatalogError ``unknown_game`` when none is."""
    try:
        return games.module_of(game).info
    except KeyError:
        raise CatalogError([problem("(catalog)", None, None, "unknown_game", game=game)]) from None


def shipped_dir(game: str) -> Path:
    """The folder of the catalog files shipped inside the game's package."""
    return Path(str(files(installed_info(game).catalog)))


def override_dir(data_dir: str | Path, game: str) -> Path:
    return Path(data_dir) / "catalogs" / game


def read_json(path: Path) -> tuple[Any, list[dict]]:
    """The parsed file, or None and the problems (syntax errors with line and column)."""
    duplicates: list[str] = []

    def pairs(items):
        seen = set()
        for key, _ in items:
            if key in seen:
                duplicates.append(key)
            seen.add(key)
        return dict(items)

    try:
        text = path.read_text(encoding="utf-8-sig")  # a BOM from Windows editors is fine
    except (OSError, UnicodeDecodeError) as exc:
        return None, [problem(str(path), None, None, "not_readable", message=str(exc))]
    try:
        data = strict_json.loads(text, object_pairs_hook=pairs)  # finite numbers only
    except (json.JSONDecodeError, RecursionError) as exc:
        return None, [problem(str(path), None, None, "json_syntax",
                              line=getattr(exc, "lineno", 0), column=getattr(exc, "colno", 0),
                              message=getattr(exc, "msg", "nested too deeply"))]
    # the one rule for text (companion/server/text.py), files included
    bad = text_rule.first_bad(data)
    if bad is not None:
        return None, [problem(str(path), None, bad, "bad_text", key=bad)]
    duplicated = [problem(str(path), None, key, "duplicate_key", key=key) for key in duplicates]
    return text_rule.normalise(data), duplicated


def part_of(path: Path) -> str:
    """The catalog part a file is of (``events.json``, ``events.owner.json`` -> events)."""
    return path.name.split(".", 1)[0]


class _Loaded:
    """A catalog being assembled: the data, where each entry came from, the problems."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.info = installed_info(game)
        self.parts = {part.id: part for part in self.info.parts}
        self.data: dict[str, Any] = {}
        self.part_file: dict[str, str] = {}  # part -> file it was read from
        self.sources: dict[tuple, str] = {}  # (part, entry) -> override file it came from
        self.problems: list[dict] = []

    def read_base(self, directory: Path) -> None:
        for part in self.parts:
            path = directory / f"{part}.json"
            self.part_file[part] = str(path)
            if not path.exists():
                continue  # the checks report the missing part
            data, problems = read_json(path)
            self.problems += problems
            if data is not None:
                self.data[part] = data

    def apply_override(self, path: Path) -> None:
        part = self.parts.get(part_of(path))
        if part is None:
            self.problems.append(problem(
                str(path), None, None, "unknown_file", name=path.name,
                expected=", ".join(f"{p}.json" for p in self.parts)))
            return
        data, problems = read_json(path)
        self.problems += problems
        if data is None:
            return
        self.sources[(part.id, None)] = str(path)  # part-wide problems point at the override
        if part.merge == "deep":
            self._merge_deep(path, part, data)
        elif part.merge == "replace":
            self.data[part.id] = data
        else:
            self._merge_list(path, part.id, data, key=part.key)

    def _shape(self, path: Path, part: str, expected: str) -> None:
        self.problems.append(problem(str(path), None, None, "override_shape",
                                     part=part, expected=expected))

    def _merge_list(self, path: Path, part: str, data: Any, key: str = "id",
                    nested: str | None = None) -> None:
        replace = False
        if isinstance(data, dict) and nested is None:
            replace = data.get("replace") is True
            data = data.get("entries")
        if not isinstance(data, list) or not all(
                isinstance(e, dict) and key in e for e in data):
            self._shape(path, part, f"a list of entries with {key}s, or "
                                    "{\"replace\": true, \"entries\": [...]}")
            return
        if nested is None:
            base = self.data.get(part)
            current = list(base) if isinstance(base, list) and not replace else []
        else:
            current = list((self.data.get(part) or {}).get(nested) or [])
        position = {entry_key(e.get(key)): i for i, e in enumerate(current)
                    if isinstance(e, dict)}
        for entry in data:
            eid = entry_key(entry[key])
            if entry.get("remove") is True:
                if eid in position:
                    current[position[eid]] = None
                continue
            self.sources[(part, eid)] = str(path)
            if eid in position and current[position[eid]] is not None:
                current[position[eid]] = entry
            else:
                position[eid] = len(current)
                current.append(entry)
        merged = [e for e in current if e is not None]
        if nested is None:
            self.data[part] = merged
        else:
            self.data[part][nested] = merged

    def _merge_deep(self, path: Path, part, data: Any) -> None:
        if not isinstance(data, dict):
            self._shape(path, part.id, "an object")
            return
        base = self.data.get(part.id)
        if part.nested is None:
            self.data[part.id] = deep_merge(base if isinstance(base, dict) else {}, data)
            for key in data:
                self.sources[(part.id, key)] = str(path)
            return
        self.data[part.id] = dict(base) if isinstance(base, dict) else {}
        for key, value in data.items():
            if key == part.nested:
                self._merge_list(path, part.id, value, part.key, nested=part.nested)
            else:
                self.data[part.id][key] = value
                self.sources[(part.id, key)] = str(path)

    def all_problems(self) -> list[dict]:
        """Reading problems, then the schemas' and the game's, each naming its file."""
        problems = list(self.problems)
        for p in check(self.info, self.data):
            part = p["file"].removesuffix(".json")
            key = (part, entry_key(p["entry"]))
            p["file"] = self.sources.get(key) or self.part_file.get(part, p["file"])
            problems.append(p)
        return problems

    def finish(self) -> dict:
        """Check; return the catalog or raise CatalogError with every problem."""
        problems = self.all_problems()
        if problems:
            raise CatalogError(problems)
        return self.data


# The problems found in each catalog checked, kept for the process's life: the deck page loads
# and checks its catalog at every request, and a check (every part's JSON Schema, then the
# game's own checks) took 0.25 s of a 0.27 s load of the largest shipped catalog on a PC,
# where reading the files takes 0.02 s. Keyed by the game's declarations and the catalog's
# own content (a digest of its repr), never by file names or times: an owner's file edited
# by hand, however quickly, is a new catalog and checked anew. At most `_CHECKED_MOST` kept
# (one or two per game). Read and written without a lock, one dict get or set at a time
# (docs/server.md's memos): a catalog is loaded under other locks (the camera's dice, a
# leaf), and whoever checks a catalog finds the same problems.
_CHECKED: dict[tuple, tuple[Any, list[dict]]] = {}  # (id(info), digest) -> (info, problems)
_CHECKED_MOST = 16


def check(info, catalog: dict) -> list[dict]:
    """The problems of a whole catalog: every part's JSON Schema, then the game's checks;
    a catalog checked before (the same declarations, the same content) is not checked
    again (`_CHECKED`)."""
    # repr, not json.dumps: JSON would write the keys 1 and "1" alike
    key = (id(info), hashlib.sha256(repr(catalog).encode("utf-8", "surrogatepass")).digest())
    kept = _CHECKED.get(key)
    if kept is not None and kept[0] is info:  # the same declarations, not a reused id
        return copy.deepcopy(kept[1])
    problems = _check(info, catalog)
    if len(_CHECKED) >= _CHECKED_MOST:
        _CHECKED.clear()
    _CHECKED[key] = (info, copy.deepcopy(problems))
    return problems


def _check(info, catalog: dict) -> list[dict]:
    """`check`'s work, done every time."""
    problems = []
    for part in info.parts:
        if part.id not in catalog:
            continue  # the game's checks name a missing part in their own words
        for error in Draft202012Validator(part.schema).iter_errors(catalog[part.id]):
            path = list(error.absolute_path)
            entry = None
            if path and isinstance(path[0], int) and isinstance(catalog[part.id], list):
                item = catalog[part.id][path[0]]
                entry = item.get(part.key) if isinstance(item, dict) else path[0]
            field = ".".join(str(x) for x in path[1:] if not isinstance(x, int)) or None
            problems.append(problem(f"{part.id}.json", entry_key(entry), field, "schema",
                                    message=error.message[:300], **_rule(error)))
    if info.check_catalog is not None:
        try:
            own = info.check_catalog(catalog)
        except Exception as exc:  # a game's checks must never take the loader down
            log.warning("the catalog checks of %s failed", info.id, exc_info=True)
            own = [problem("(catalog)", None, None, "check_failed",
                           message=f"{type(exc).__name__}: {exc}"[:300])]
        # where the game's own checks say what is wrong with a field, in its own words, the
        # schema's message about the same field adds nothing
        said = {(p.get("file"), entry_key(p.get("entry")), _field_root(p.get("field")))
                for p in own}
        problems = [p for p in problems
                    if (p["file"], p["entry"], _field_root(p["field"])) not in said]
        problems += own
    return problems


def _rule(error) -> dict:
    """What a schema error broke, as params a page can translate: ``rule`` (the keyword,
    ``type_integer`` for a type) and ``limit`` (the bound, the allowed values, the missing or
    unexpected keys)."""
    rule, value, instance = error.validator, error.validator_value, error.instance
    if rule == "type":
        return {"rule": f"type_{value}" if isinstance(value, str) else "type"}
    if rule in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
                "maxLength", "minItems", "maxItems"):
        return {"rule": rule, "limit": value}
    if rule == "enum":
        return {"rule": rule, "limit": ", ".join(str(v) for v in value)[:300]}
    if rule == "oneOf" and all(isinstance(s, dict) and "const" in s for s in value):
        return {"rule": "enum", "limit": ", ".join(str(s["const"]) for s in value)[:300]}
    if rule == "required" and isinstance(instance, dict):
        return {"rule": rule, "limit": ", ".join(k for k in value if k not in instance)}
    if rule == "additionalProperties" and isinstance(instance, dict):
        known = set(error.schema.get("properties") or {})
        return {"rule": rule, "limit": ", ".join(str(k) for k in instance if k not in known)}
    return {"rule": str(rule)}


def _field_root(field: Any) -> str | None:
    """The top field of a path: "corners[0]" and "corners" -> "corners"."""
    return re.split(r"[.\[]", field, maxsplit=1)[0] if isinstance(field, str) else None


def entry_key(value: Any) -> Any:
    """An entry's id as a dict key and in a problem report (any JSON value may be one)."""
    return value if isinstance(value, str | int | float | bool | type(None)) else repr(value)


def deep_merge(base: dict, new: dict) -> dict:
    """``new`` over ``base``, objects merged key by key at every depth."""
    out = dict(base)
    for key, value in new.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def override_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.json") if p.is_file())


def load_catalog(game: str, data_dir: str | Path | None = None) -> dict:
    """The shipped catalog with the owner's overrides from ``<data_dir>/catalogs/<game>/``.

    Raises CatalogError(problems) when anything is wrong, so a broken owner file never
    half-applies.
    """
    overrides = override_files(override_dir(data_dir, game)) if data_dir is not None else []
    return load_files(game, shipped_dir(game), overrides)


def load_kind(name: str, data_dir: str | None, overrides: dict | None = None) -> games.GameKind:
    """The game ``name`` with its current catalog: an override from the config, else the
    installed plug-in with the shipped catalog and the owner's files merged in."""
    if overrides and name in overrides:
        module, catalog = overrides[name]
        return games.kind_of(module, catalog)
    module = games.module_of(name)
    return games.kind_of(module, load_catalog(name, data_dir))


class Kinds:
    """The installed games with the owner's catalogs, each loaded once and loaded afresh
    after the owner changes it (`changed`, from the deck page's routes): new games get the
    new catalog, games already created keep theirs (the game service pins it). Its
    subscribers (`subscribe`: the camera's taught dice and faces) are told the game's name.

    Loaded outside the lock (a catalog takes a while); a load that a change overtook is
    used once but not kept."""

    def __init__(self, data_dir: str | Path, overrides: dict | None = None) -> None:
        self.data_dir, self._overrides = str(data_dir), overrides
        self._listeners: tuple[Callable[[str], None], ...] = ()  # replaced whole
        self._kinds: dict[str, games.GameKind] = {}
        self._changes = 0  # how many catalog changes so far: a load keeps only if none
        self._lock = locks.lock("kinds")

    def get(self, name: str) -> games.GameKind:
        with self._lock:
            kind, changes = self._kinds.get(name), self._changes
        if kind is None:
            kind = load_kind(name, self.data_dir, self._overrides)
            with self._lock:
                if changes == self._changes:
                    kind = self._kinds.setdefault(name, kind)
        return kind

    __call__ = get

    def subscribe(self, listener: Callable[[str], None]) -> None:
        """``listener(name)`` is told of every change of a game's catalog (`changed`)."""
        with self._lock:
            self._listeners = (*self._listeners, listener)

    def changed(self, name: str) -> None:
        """The owner's catalog of ``name`` changed: loaded afresh next time; listeners told."""
        with self._lock:
            self._kinds.pop(name, None)
            self._changes += 1
            listeners = self._listeners
        for listener in listeners:
            listener(name)


def assemble(game: str, base_dir: str | Path, overrides: list[Path] = ()) -> _Loaded:
    """The catalog being assembled (data, sources, problems), without raising."""
    loaded = _Loaded(game)
    loaded.read_base(Path(base_dir))
    for path in overrides:
        loaded.apply_override(Path(path))
    return loaded


def load_files(game: str, base_dir: str | Path, overrides: list[Path] = ()) -> dict:
    """A catalog from a directory holding every part, then override files in order."""
    return assemble(game, base_dir, overrides).finish()


def check_path(path: str | Path, game: str) -> dict:
    """Load what ``companion catalog check PATH`` names (see docs/catalog.md).

    A file: an override over the shipped catalog. A directory holding every part file: a
    complete catalog on its own. A data directory (with ``catalogs/<game>/``) or any other
    directory: its JSON files as overrides over the shipped catalog.
    """
    path = Path(path)
    info = installed_info(game)
    if path.is_file():
        return load_files(game, shipped_dir(game), [path])
    if not path.is_dir():
        raise CatalogError([problem(str(path), None, None, "not_readable",
                                    message="no such file or directory")])
    if (path / "catalogs" / game).is_dir():
        return load_files(game, shipped_dir(game), override_files(path / "catalogs" / game))
    if all((path / f"{part.id}.json").is_file() for part in info.parts):
        return load_files(game, path)
    return load_files(game, shipped_dir(game), override_files(path))


def demo_entries(catalog: dict, game: str) -> list[dict]:
    """Which entries (or fields of entries) are demo data, not the owner's real cards."""
    info = installed_info(game)
    if info.demo_entries is not None:
        return info.demo_entries(catalog)
    out = []
    for part in info.parts:
        entries = catalog.get(part.id)
        if isinstance(entries, dict) and part.nested:
            entries = entries.get(part.nested)
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and entry.get("demo"):
                out.append({"file": f"{part.id}.json", "entry": entry.get(part.key),
                            "fields": entry.get("demo_fields") or None})
    return out

"""Loading a game catalog from its JSON files, with the owner's overrides merged in.

The shipped files live in ``companion/catalogs/<game>/``; the owner's own cards go into
``<data_dir>/catalogs/<game>/*.json`` (see docs/catalog.md). An override file is named
after the part it changes (``event_cards.json``, or ``event_cards.chapter3.json``: the part
is the name up to the first dot). In list parts an override entry replaces the shipped
entry with the same id, a new id is added, ``{"id": ..., "remove": true}`` deletes one,
and ``{"replace": true, "entries": [...]}`` discards all shipped entries of that part.
``game.json`` is merged key by key (nested objects too); in ``plague.json`` the
``locations`` merge by id and other keys are replaced.

Problems (bad JSON, bad shape, anything the pure validator finds) are reported with the
file they come from, so an owner knows which of their files to fix.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.wwe import catalog as wwe_catalog

SHIPPED = Path(__file__).parent / "catalogs"
VALIDATORS = {"wwe": wwe_catalog}
LIST_PARTS = ("action_cards", "event_cards", "projects", "building_sites")


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


def shipped_dir(game: str = "wwe") -> Path:
    return SHIPPED / game


def override_dir(data_dir: str | Path, game: str = "wwe") -> Path:
    return Path(data_dir) / "catalogs" / game


def _module(game: str):
    if game not in VALIDATORS:
        raise CatalogError([{"file": "(catalog)", "entry": None, "field": None,
                             "code": "unknown_game", "params": {"game": game},
                             "reason": f"unknown_game: no catalog for the game {game}"}])
    return VALIDATORS[game]


def read_json(path: Path, mod=wwe_catalog) -> tuple[Any, list[dict]]:
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
        return None, [mod.problem(str(path), None, None, "not_readable", message=str(exc))]
    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        return None, [mod.problem(str(path), None, None, "json_syntax", line=exc.lineno,
                                  column=exc.colno, message=exc.msg)]
    return data, [mod.problem(str(path), None, key, "duplicate_key", key=key)
                  for key in duplicates]


def _part_of(path: Path) -> str:
    return path.name.split(".", 1)[0]


class _Loaded:
    """A catalog being assembled: the data, where each entry came from, the problems."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.mod = _module(game)
        self.data: dict[str, Any] = {}
        self.part_file: dict[str, str] = {}  # part -> file it was read from
        self.sources: dict[tuple, str] = {}  # (part, entry) -> override file it came from
        self.problems: list[dict] = []

    def read_base(self, directory: Path) -> None:
        for part in self.mod.PARTS:
            path = directory / f"{part}.json"
            self.part_file[part] = str(path)
            if not path.exists():
                continue  # the validator reports the missing part
            data, problems = read_json(path, self.mod)
            self.problems += problems
            if data is not None:
                self.data[part] = data

    def apply_override(self, path: Path) -> None:
        part = _part_of(path)
        if part not in self.mod.PARTS:
            self.problems.append(self.mod.problem(
                str(path), None, None, "unknown_file", name=path.name,
                expected=", ".join(f"{p}.json" for p in self.mod.PARTS)))
            return
        data, problems = read_json(path, self.mod)
        self.problems += problems
        if data is None:
            return
        self.sources[(part, None)] = str(path)  # part-wide problems point at the override
        if part == "game":
            self._merge_game(path, data)
        elif part == "plague":
            self._merge_plague(path, data)
        else:
            self._merge_list(path, part, data)

    def _shape(self, path: Path, part: str, expected: str) -> None:
        self.problems.append(self.mod.problem(str(path), None, None, "override_shape",
                                              part=part, expected=expected))

    def _merge_list(self, path: Path, part: str, data: Any, key: str | None = None) -> None:
        replace = False
        if isinstance(data, dict) and key is None:
            replace = data.get("replace") is True
            data = data.get("entries")
        if not isinstance(data, list) or not all(
                isinstance(e, dict) and "id" in e for e in data):
            self._shape(path, part, "a list of entries with ids, or {\"replace\": true, "
                                    "\"entries\": [...]}")
            return
        if key is None:
            base = self.data.get(part)
            current = list(base) if isinstance(base, list) and not replace else []
        else:
            current = list((self.data.get(part) or {}).get(key) or [])
        position = {e.get("id"): i for i, e in enumerate(current) if isinstance(e, dict)}
        for entry in data:
            eid = entry["id"]
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
        if key is None:
            self.data[part] = merged
        else:
            self.data[part][key] = merged

    def _merge_game(self, path: Path, data: Any) -> None:
        if not isinstance(data, dict):
            self._shape(path, "game", "an object")
            return
        base = self.data.get("game")
        self.data["game"] = _deep_merge(base if isinstance(base, dict) else {}, data)
        for key in data:
            self.sources[("game", key)] = str(path)

    def _merge_plague(self, path: Path, data: Any) -> None:
        if not isinstance(data, dict):
            self._shape(path, "plague", "an object")
            return
        base = self.data.get("plague")
        self.data["plague"] = dict(base) if isinstance(base, dict) else {}
        for key, value in data.items():
            if key == "locations":
                self._merge_list(path, "plague", value, key="locations")
            else:
                self.data["plague"][key] = value
                self.sources[("plague", key)] = str(path)

    def finish(self) -> dict:
        """Validate; return the catalog or raise CatalogError with every problem."""
        problems = list(self.problems)
        for p in self.mod.validate(self.data):
            part = p["file"].removesuffix(".json")
            key = (part, p["entry"])
            p["file"] = self.sources.get(key) or self.part_file.get(part, p["file"])
            problems.append(p)
        if problems:
            raise CatalogError(problems)
        return self.data


def _deep_merge(base: dict, new: dict) -> dict:
    out = dict(base)
    for key, value in new.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def override_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.json") if p.is_file())


def load_catalog(game: str = "wwe", data_dir: str | Path | None = None) -> dict:
    """The shipped catalog with the owner's overrides from ``<data_dir>/catalogs/<game>/``.

    Raises CatalogError(problems) when anything is wrong, so a broken owner file never
    half-applies.
    """
    overrides = override_files(override_dir(data_dir, game)) if data_dir is not None else []
    return load_files(game, shipped_dir(game), overrides)


def load_files(game: str, base_dir: str | Path, overrides: list[Path] = ()) -> dict:
    """A catalog from a directory holding every part, then override files in order."""
    loaded = _Loaded(game)
    loaded.read_base(Path(base_dir))
    for path in overrides:
        loaded.apply_override(Path(path))
    return loaded.finish()


def check_path(path: str | Path, game: str = "wwe") -> dict:
    """Load what ``companion catalog check PATH`` names (see docs/catalog.md).

    A file: an override over the shipped catalog. A directory holding every part file: a
    complete catalog on its own. A data directory (with ``catalogs/<game>/``) or any other
    directory: its JSON files as overrides over the shipped catalog.
    """
    path = Path(path)
    mod = _module(game)
    if path.is_file():
        return load_files(game, shipped_dir(game), [path])
    if not path.is_dir():
        raise CatalogError([mod.problem(str(path), None, None, "not_readable",
                                        message="no such file or directory")])
    if (path / "catalogs" / game).is_dir():
        return load_files(game, shipped_dir(game), override_files(path / "catalogs" / game))
    if all((path / f"{part}.json").is_file() for part in mod.PARTS):
        return load_files(game, path)
    return load_files(game, shipped_dir(game), override_files(path))


def demo_entries(catalog: dict, game: str = "wwe") -> list[dict]:
    """Which entries (or fields of entries) are demo data, not the owner's real cards."""
    return _module(game).demo_entries(catalog)

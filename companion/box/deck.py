"""The owner's own box: how far the catalog is entered, saving one entry, export and import,
card pictures. Knows no game: only `GameInfo.parts` and the loader of companion/box/catalog.py.

The owner's entries live in ``<data>/catalogs/<game>/<part>.json`` (override files, see
docs/catalog.md); pictures in ``<data>/catalogs/<game>/pictures/<entry>.jpg``. Every write
goes through the same checks as ``companion catalog check`` on the whole merged catalog
first, and is atomic (temporary file, fsync, rename): a failed check writes nothing and
raises `CatalogError` whose problems name file, entry and field.

Games are pinned to the catalog they were created with (companion/game/service.py), so nothing
here changes a game already created; new games use the new catalog once the app reloads it
(the context's ``kinds.changed(game)``).
"""
from __future__ import annotations

import json
import logging
import os
import re
import secrets
import shutil
from pathlib import Path
from typing import Any

from companion.box.catalog import (
    CatalogError,
    assemble,
    entry_key,
    installed_info,
    override_dir,
    override_files,
    part_of,
    problem,
    read_json,
    shipped_dir,
)
from hardware import atomic_file

log = logging.getLogger(__name__)

BUNDLE_FORMAT = "table-companion-catalog"
BUNDLE_VERSION = 1
PROGRESS = "{entered} of {total} {part} entered"  # English template (gettext msgid)
BACKUP_SUFFIX = ".before-import"
_ENTRY_ID = re.compile(r"^[A-Za-z0-9_-]{1,80}$")
_FILE_NAME = re.compile(r"^[A-Za-z0-9_]+(\.[A-Za-z0-9_-]+)*\.json$")


# ------------------------------------------------------------------------------- status
def _part(info, part_id: str):
    for part in info.parts:
        if part.id == part_id:
            return part
    raise CatalogError([problem("(catalog)", None, None, "unknown_part", part=part_id,
                                expected=", ".join(p.id for p in info.parts))])


def _ids(part, data: dict) -> list:
    """The entries of a part the status counts: list entries by key, or an object's keys."""
    value = data.get(part.id)
    if part.nested is not None:
        value = value.get(part.nested) if isinstance(value, dict) else None
    if isinstance(value, list):
        return [entry_key(e.get(part.key)) for e in value if isinstance(e, dict)]
    if isinstance(value, dict):
        return list(value)
    return []


def _demo(game: str, data: dict) -> list[dict]:
    from companion.box.catalog import demo_entries

    try:
        return demo_entries(data, game)
    except Exception:  # a half-broken catalog: the problems say why, the log says where
        log.warning("no demo entries for %s", game, exc_info=True)
        return []


def _status(game: str, loaded, problems: list[dict]) -> dict:
    info = loaded.info
    demos = _demo(game, loaded.data)
    bad = {(part_of(Path(p["file"])), entry_key(p["entry"])) for p in problems}
    parts = []
    for part in info.parts:
        ids = _ids(part, loaded.data)
        whole = part.merge == "replace" and (part.id, None) in loaded.sources
        entered = [i for i in ids if whole or (part.id, i) in loaded.sources]
        demo_ids = {entry_key(d["entry"]) for d in demos if d["file"] == f"{part.id}.json"}
        checked = 0 if (part.id, None) in bad else sum((part.id, i) not in bad for i in entered)
        title = part.title or part.id
        params = {"entered": len(entered), "total": len(ids), "part": title}
        parts.append({
            "part": part.id, "title": title, "stickers": part.stickers,
            "total": len(ids), "demo": len(demo_ids & set(ids)), "entered": len(entered),
            "checked": checked, "entered_ids": entered,
            "other_demo": sorted(str(i) for i in demo_ids - set(ids)),
            "progress": {"template": PROGRESS, "params": params,
                         "text": PROGRESS.format(**{**params, "part": title.lower()})},
        })
    return {"game": game, "ok": not problems, "problems": problems, "parts": parts,
            "total": sum(p["total"] for p in parts), "entered": sum(p["entered"] for p in parts),
            "demo": sum(p["demo"] for p in parts)}


def status(game: str, data_dir: str | Path) -> dict:
    """How far the owner's catalog of ``game`` is entered, per part.

    ``{"game", "ok", "problems": [...], "total", "entered", "demo", "parts": [{"part",
    "title", "stickers", "total", "demo", "entered", "checked", "entered_ids",
    "other_demo", "progress": {"template", "params", "text"}}]}``: ``total`` entries in
    the merged catalog, ``demo`` of them still demo data, ``entered`` in the owner's files,
    ``checked`` of those that pass every check; ``progress.text`` is e.g. "37 of 44 event
    cards entered" (``template`` + ``params`` for translation, ``part`` being the part's
    title msgid)."""
    loaded = assemble(game, shipped_dir(game), override_files(override_dir(data_dir, game)))
    return _status(game, loaded, loaded.all_problems())


# ------------------------------------------------------------------------ atomic writes
def _fsync_dir(directory: Path) -> None:
    atomic_file.sync_dir(directory)


def _write_temp(directory: Path, part: str, data: Any) -> Path:
    """``data`` as JSON in a new temporary file beside its target (synced to disk). Its
    name keeps the part (``<part>.pending.….tmp``) so the loader can check it in place.
    Encoded before any file exists, so a value that cannot be written leaves nothing."""
    body = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    return atomic_file.write_temp(directory, f"{part}.pending", body)


def _commit(temp: Path, target: Path) -> None:
    atomic_file.commit(temp, target)


def _check_with(game: str, overrides: list[Path], rename: dict[str, str]) -> list[dict]:
    """Problems of the shipped catalog with ``overrides`` (temporary files named back)."""
    problems = assemble(game, shipped_dir(game), overrides).all_problems()
    for p in problems:
        for old, new in rename.items():
            p["file"] = p["file"].replace(old, new)
            p["reason"] = p["reason"].replace(old, new)
    return problems


# ------------------------------------------------------------------------- saving entries
def _mark_real(entry: dict) -> dict:
    out = {k: v for k, v in entry.items() if k != "demo_fields"}
    out["demo"] = False
    return out


def _file_with(files: list[Path], key: str, eid, nested: str | None) -> Path | None:
    """The last override file of a part that holds the entry (it is the one that counts)."""
    for path in reversed(files):
        data, _ = read_json(path)
        if nested is not None:
            data = data.get(nested) if isinstance(data, dict) else None
        elif isinstance(data, dict):
            data = data.get("entries")
        if isinstance(data, list) and any(isinstance(e, dict) and entry_key(e.get(key)) == eid
                                          for e in data):
            return path
    return None


def _put(entries: list, key: str, entry: dict) -> list:
    out = [e for e in entries]
    for i, e in enumerate(out):
        if isinstance(e, dict) and entry_key(e.get(key)) == entry_key(entry[key]):
            out[i] = entry
            return out
    return [*out, entry]


def check_entry(game: str, data_dir: str | Path, part_id: str, entry: dict) -> list[dict]:
    """The problems ``entry`` would bring if saved (`save_entry`'s checks; nothing is
    written): what the deck page shows while the owner types."""
    try:
        save_entry(game, data_dir, part_id, entry, write=False)
    except CatalogError as exc:
        return exc.problems
    return []


def save_entry(game: str, data_dir: str | Path, part_id: str, entry: dict, *,
               real: bool = True, write: bool = True) -> dict:
    """Save one entry (a form's dict) into the owner's override file of its part.

    List parts: ``entry`` carries the part's key and replaces the owner's entry with that
    key or is added. A part with a ``nested`` list: an entry with the key goes into that
    list, other keys merge into the object. Other object parts: ``entry`` holds sections
    merged key by key. ``real`` (default) marks a list entry as the owner's real data
    (``"demo": false``, no ``demo_fields``). The whole merged catalog is checked first; on
    a problem nothing is written and `CatalogError` names file, entry and field. Returns
    ``{"file", "entry", "status"}`` (``status`` as `status` gives it)."""
    info = installed_info(game)
    part = _part(info, part_id)
    directory = override_dir(data_dir, game)
    files = [p for p in override_files(directory) if part_of(p) == part.id]
    target = directory / f"{part.id}.json"
    eid = None
    if not isinstance(entry, dict):
        raise CatalogError([problem(str(target), None, None, "entry_shape", part=part.id,
                                    expected="an object")])
    keyed = part.merge == "by_key" or (part.nested is not None and part.key in entry)
    if keyed:
        if part.key not in entry:
            raise CatalogError([problem(str(target), None, part.key, "entry_shape",
                                        part=part.id, expected=f"an object with {part.key}")])
        eid = entry_key(entry[part.key])
        entry = _mark_real(entry) if real else dict(entry)
        target = _file_with(files, part.key, eid, part.nested) or target
    current = None
    if target.exists():
        current, problems = read_json(target)
        if current is None or problems:
            raise CatalogError(problems)
    if part.merge == "by_key":
        if isinstance(current, dict) and isinstance(current.get("entries"), list):
            content = {**current, "entries": _put(current["entries"], part.key, entry)}
        else:
            content = _put(current if isinstance(current, list) else [], part.key, entry)
    elif part.merge == "replace":
        content = entry
    else:
        content = dict(current) if isinstance(current, dict) else {}
        if keyed:
            content[part.nested] = _put(content.get(part.nested) or [], part.key, entry)
        else:
            from companion.box.catalog import deep_merge
            content = deep_merge(content, entry)
    temp = _write_temp(directory, part.id, content)
    try:
        overrides = sorted({*override_files(directory), target})
        overrides = [temp if p == target else p for p in overrides]
        problems = _check_with(game, overrides, {str(temp): str(target)})
        if problems:
            raise CatalogError(problems)
        if not write:
            return {"file": str(target), "entry": eid, "status": None}
        _commit(temp, target)
    finally:
        temp.unlink(missing_ok=True)
    return {"file": str(target), "entry": eid, "status": status(game, data_dir)}


# --------------------------------------------------------------------- export and import
def export_bundle(game: str, data_dir: str | Path) -> dict:
    """The owner's entered catalog of ``game`` as one JSON object:
    ``{"format": "table-companion-catalog", "version": 1, "game", "files": {name: data}}``.
    The owner's files are checked first (an export always imports)."""
    directory = override_dir(data_dir, game)
    paths = override_files(directory)
    problems = assemble(game, shipped_dir(game), paths).all_problems()
    if problems:
        raise CatalogError(problems)
    files = {}
    for path in paths:
        data, _ = read_json(path)
        files[path.name] = data
    return {"format": BUNDLE_FORMAT, "version": BUNDLE_VERSION, "game": game, "files": files}


def _bundle_problems(game: str, bundle: Any) -> list[dict]:
    where = "(export)"
    if not isinstance(bundle, dict) or bundle.get("format") != BUNDLE_FORMAT:
        return [problem(where, None, "format", "bundle_shape",
                        detail=f"format must be {BUNDLE_FORMAT!r}")]
    if bundle.get("version") != BUNDLE_VERSION:
        return [problem(where, None, "version", "bundle_version",
                        version=bundle.get("version"), expected=BUNDLE_VERSION)]
    if bundle.get("game") != game:
        return [problem(where, None, "game", "bundle_game", found=bundle.get("game"),
                        game=game)]
    files = bundle.get("files")
    if not isinstance(files, dict):
        return [problem(where, None, "files", "bundle_shape",
                        detail="files must be an object {file name: content}")]
    return [problem(where, None, "files", "bundle_shape",
                    detail=f"{str(name)[:80]!r} is not a catalog file name")
            for name in files if not isinstance(name, str) or not _FILE_NAME.match(name)]


def import_bundle(game: str, data_dir: str | Path, bundle: Any) -> dict:
    """Make an export (see `export_bundle`) the owner's catalog of ``game`` on this table.

    Checked first, whole (shape, version, game, every file merged over the shipped catalog):
    on any problem nothing changes and `CatalogError` is raised, problems naming
    ``export:<file>``. Otherwise the exported files replace the owner's files (the previous
    ones are kept in ``catalogs/<game>.before-import/``; pictures, taught dice and faces stay).
    Games already created keep the catalog they were created with. Returns the new
    `status`."""
    problems = _bundle_problems(game, bundle)
    if problems:
        raise CatalogError(problems)
    target = override_dir(data_dir, game)
    staging = target.parent / f".{game}.import-{secrets.token_hex(6)}"
    staging.mkdir(parents=True)
    try:
        for name, data in bundle["files"].items():
            with open(staging / name, "x", encoding="utf-8") as f:
                json.dump(data, f, indent=2, ensure_ascii=False)
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())
        problems = _check_with(game, override_files(staging), {f"{staging}{os.sep}": "export:"})
        if problems:
            raise CatalogError(problems)
        _fsync_dir(staging)
        backup = target.parent / f"{game}{BACKUP_SUFFIX}"
        if target.exists():
            for kept in ("pictures", "dice", "faces"):  # card pictures, taught dice, faces
                if (target / kept).is_dir():
                    os.replace(target / kept, staging / kept)
            shutil.rmtree(backup, ignore_errors=True)
            os.replace(target, backup)
        os.replace(staging, target)
        _fsync_dir(target.parent)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return status(game, data_dir)


# ------------------------------------------------------------------------------ pictures
def picture_path(game: str, data_dir: str | Path, entry: Any) -> Path:
    """Where the picture of ``entry`` is kept (``catalogs/<game>/pictures/<entry>.jpg``)."""
    name = str(entry)
    if isinstance(entry, bool) or not _ENTRY_ID.match(name):
        raise CatalogError([problem("(pictures)", entry_key(entry), None, "bad_entry_id",
                                    name=name[:80])])
    return override_dir(data_dir, game) / "pictures" / f"{name}.jpg"


def save_picture(game: str, data_dir: str | Path, entry: Any, frame, corners, layout,
                 width: int = 480, quality: int = 90) -> Path:
    """Store a cropped, straightened picture of a card from a camera frame.

    ``corners``: the card's sticker symbol as decoded (top-left, top-right, bottom-right,
    bottom-left, image pixels; `hardware.camera.decode.Detection.corners`); ``layout``: the
    card's rectangle in sticker sides (`hardware.camera.picture.CardLayout`, a game's own
    card geometry). Written atomically; returns the path."""
    import cv2

    from hardware.camera.picture import card_picture

    path = picture_path(game, data_dir, entry)
    try:
        image = card_picture(frame, corners, layout, width)
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    except (ValueError, cv2.error) as exc:
        raise CatalogError([problem(str(path), entry_key(entry), None, "no_picture",
                                    detail=str(exc)[:200])]) from None
    if not ok:
        raise CatalogError([problem(str(path), entry_key(entry), None, "no_picture",
                                    detail="JPEG encoding failed")])
    atomic_file.write_bytes(path, jpeg.tobytes())
    return path

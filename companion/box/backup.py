"""Online backups of the live game database, with daily rotation, and restore.

The server keeps every game in ``DIR/companion.sqlite3`` (SQLite, WAL). A backup is taken with
SQLite's own backup API in one step, i.e. inside one read transaction: in WAL mode that never
blocks the server's writers and always gives a consistent snapshot, even while games are being
played. Each backup is a single self-contained file (rollback journal, not WAL) that can be
copied off the Pi as it is.

A restore first proves the file is a sound SQLite database (``PRAGMA integrity_check``) that
this app would have written (companion/box/restore_check.py: the schema object by object, known
statuses, every game replayed from its action log), keeps the database it replaces aside in
``DIR/backups/``, and refuses while the server has the database open, because a server would
keep writing its own idea of the games over the restored ones.
"""
from __future__ import annotations

import datetime as dt
import os
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from companion.server import systemd

DB_NAME = "companion.sqlite3"
BACKUP_DIR = "backups"
SERVICE = "table-companion.service"
# Names written by `backup`; rotation only ever deletes files matching this pattern.
_BACKUP_RE = re.compile(r"^companion-(\d{8})-(\d{6})(?:-(\d+))?\.sqlite3$")


class BackupError(Exception):
    """A backup or restore that could not be done; the message says why and what to do."""


@dataclass(frozen=True)
class RestoreResult:
    restored_from: Path
    kept_aside: Path | None
    problems: list[str] = field(default_factory=list)  # games that do not replay (--force)


def db_path(data_dir: Path | str) -> Path:
    return Path(data_dir) / DB_NAME


def backup(data_dir: Path | str, keep: int = 7, now: dt.datetime | None = None) -> Path:
    """Copy the live database to ``DIR/backups/companion-YYYYmmdd-HHMMSS.sqlite3``; rotate.

    Returns the new backup's path. ``keep`` is the number of days for which the newest backup
    is kept (0 keeps everything).
    """
    source = db_path(data_dir)
    if not source.is_file():
        raise BackupError(f"no database at {source} (start the server once, or check --data)")
    now = now or dt.datetime.now()
    folder = Path(data_dir) / BACKUP_DIR
    folder.mkdir(parents=True, exist_ok=True)
    target = _free_name(folder, now)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        _copy_database(source, partial, single_file=True)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    _fsync_dir(folder)
    if keep > 0:
        rotate(folder, keep)
    return target


def rotate(folder: Path | str, keep: int) -> list[Path]:
    """Keep the newest backup of each of the ``keep`` most recent days; delete the rest.

    Only files named like ``backup()`` names them are considered. Returns the deleted paths.
    """
    ours = [p for p in Path(folder).iterdir() if _BACKUP_RE.match(p.name) and p.is_file()]
    kept_days: list[str] = []
    deleted = []
    for path in sorted(ours, key=_age_key, reverse=True):  # newest first
        day = _age_key(path)[0]
        if day not in kept_days and len(kept_days) < keep:
            kept_days.append(day)
            continue
        path.unlink()
        deleted.append(path)
    return deleted


def list_backups(data_dir: Path | str) -> list[Path]:
    """The rotation-managed backups in ``DIR/backups``, oldest first."""
    folder = Path(data_dir) / BACKUP_DIR
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.iterdir() if _BACKUP_RE.match(p.name)), key=_age_key)


def check_database(path: Path | str) -> None:
    """Raise BackupError unless ``path`` is a readable SQLite database passing integrity_check."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"{path} does not exist")
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = con.execute("PRAGMA integrity_check").fetchall()
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a valid SQLite database ({exc})") from exc
    if rows != [("ok",)]:
        problems = "; ".join(str(r[0]) for r in rows[:3])
        raise BackupError(f"{path} fails the integrity check: {problems}")


def check_backup(path: Path | str, data_dir: Path | str | None = None) -> list[str]:
    """Is ``path`` a database this app would have written? Raises BackupError when it is not
    (another application's file, an extra trigger, view, index or column, an unknown status:
    companion/box/restore_check.py); returns one line per game that does not replay from its
    action log alone or whose snapshots differ from the replay."""
    from companion.box import restore_check

    try:
        restore_check.check_schema(Path(path))
    except restore_check.NotOurs as exc:
        raise BackupError(f"{path} is {exc}") from exc
    return restore_check.replay_problems(Path(path), data_dir)


def restore(file: Path | str, data_dir: Path | str, force: bool = False,
            now: dt.datetime | None = None) -> RestoreResult:
    """Replace the live database by ``file`` after checking it; keep the old one aside.

    The file is first copied to a staging file (so what is checked is what is swapped in),
    checked (integrity, the schema object by object, every game replayed from its log), and
    only then copied over the live database in one SQLite transaction. A refusal leaves the
    live database byte for byte as it was. Never while the server has the database open: it
    would keep writing sequence numbers from memory into the swapped file. ``force`` restores
    a file whose some games do not replay (they stay listed as broken); never one whose
    schema is not the app's."""
    import tempfile

    file = Path(file)
    check_database(file)
    target = db_path(data_dir)
    holders = server_holding(target)
    if holders:
        raise BackupError(
            f"the server is running ({holders}): stop it first "
            f"(sudo systemctl stop {SERVICE}), restore, then start it again")
    with tempfile.TemporaryDirectory() as tmp:
        staged = Path(tmp) / "staged.sqlite3"
        _copy_database(file, staged, single_file=True)
        check_database(staged)
        try:
            problems = check_backup(staged, data_dir)
        except BackupError as exc:
            raise BackupError(str(exc).replace(str(staged), str(file), 1)) from None
        if problems and not force:
            raise BackupError(f"{file}: some games do not replay from their action log "
                              "(restore anyway with --force; they stay listed as broken):\n  "
                              + "\n  ".join(problems))
        fresh_screens(staged)  # before it is swapped in: no token of the file opens anything
        now = now or dt.datetime.now()
        kept = None
        Path(data_dir).mkdir(parents=True, exist_ok=True)
        if target.exists():
            folder = Path(data_dir) / BACKUP_DIR
            folder.mkdir(parents=True, exist_ok=True)
            kept = folder / f"replaced-{now:%Y%m%d-%H%M%S}.sqlite3"
            n = 1
            while kept.exists():
                kept = folder / f"replaced-{now:%Y%m%d-%H%M%S}-{n}.sqlite3"
                n += 1
            _copy_database(target, kept, single_file=True)
        # Writing through SQLite (not replacing the file) is one transaction and keeps the
        # WAL and -shm files coherent: the live file holds either all the old or all the new.
        _copy_database(staged, target, single_file=False)
    return RestoreResult(restored_from=file, kept_aside=kept, problems=problems)


def server_holding(database: Path) -> str:
    """Say how the server is known to be running with this database, or '' if it is not.

    Two independent signs: the systemd service is active (on the Pi), or a process other than
    this one has the database (or its WAL) open, found through /proc (any Linux).
    """
    signs = []
    if systemd.is_active(SERVICE):
        signs.append(f"{SERVICE} is active")
    pids = processes_with_open(database)
    if pids:
        signs.append("database open by pid " + ", ".join(str(p) for p in pids))
    return "; ".join(signs)


def processes_with_open(database: Path) -> list[int]:
    """Pids of other processes that have ``database`` or its -wal/-shm files open."""
    wanted = set()
    for suffix in ("", "-wal", "-shm"):
        candidate = Path(str(database) + suffix)
        if candidate.exists():
            wanted.add(str(candidate.resolve()))
    if not wanted:
        return []
    pids = []
    me = os.getpid()
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else []:
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            links = [os.readlink(fd) for fd in (entry / "fd").iterdir()]
        except OSError:  # gone, or not ours to look at
            continue
        if wanted.intersection(links):
            pids.append(int(entry.name))
    return sorted(pids)


def fresh_screens(database: Path) -> None:
    """Every screen pairs again after a restore (issue 67): the file's tokens (seats, hosts,
    table displays, pairing codes) are deleted and every seat gets a new join code, so a
    token or a code planted in a backup, or kept by a phone since, opens nothing. The host
    logs in with the PIN and seats the phones again from the host page (it says so)."""
    from companion.server.security import new_join_code

    con = sqlite3.connect(database, timeout=30)
    try:
        with con:
            con.execute("DELETE FROM tokens")
            for game, seat in con.execute("SELECT game, seat FROM seats").fetchall():
                con.execute("UPDATE seats SET join_code = ? WHERE game = ? AND seat = ?",
                            (new_join_code(), game, seat))
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"clearing the tokens of {database} failed: {exc}") from exc
    finally:
        con.close()


def _copy_database(source: Path, target: Path, single_file: bool) -> None:
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    try:
        dst = sqlite3.connect(target, timeout=30)
        try:
            src.backup(dst)  # pages=-1: the whole database in one step, one read transaction
            if single_file:
                dst.execute("PRAGMA journal_mode=DELETE")
            dst.commit()
        finally:
            dst.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"copying {source} to {target} failed: {exc}") from exc
    finally:
        src.close()
    if single_file:
        with open(target, "rb") as fh:
            os.fsync(fh.fileno())


def _age_key(path: Path) -> tuple[str, str, int]:
    day, time, again = _BACKUP_RE.match(path.name).groups("0")
    return day, time, int(again)


def _free_name(folder: Path, now: dt.datetime) -> Path:
    path = folder / f"companion-{now:%Y%m%d-%H%M%S}.sqlite3"
    n = 1
    while path.exists():
        path = folder / f"companion-{now:%Y%m%d-%H%M%S}-{n}.sqlite3"
        n += 1
    return path


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

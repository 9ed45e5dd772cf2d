"""A catalog is checked once per content (companion/box/catalog.py `check`): the deck page
loads its catalog at every request, and the check (every part's JSON Schema, then the game's
own checks) is most of a load. The promise kept (docs/catalog.md): the deck page reads the
owner's files at every request, so a file edited by hand is seen at the next one, also when
the edit keeps the file's size and time."""
from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest

from companion.box import catalog as loader


def feast(name: str) -> list[dict]:
    """The demo card "Feast" as an owner's override, under a name of the test's own (a
    catalog no other test has loaded in this process)."""
    entry = next(e for e in loader.load_catalog("wwe")["event_cards"] if e["id"] == "demo_feast")
    return [dict(entry, names=dict(entry["names"], en=name))]


def write_keeping_time(path: Path, data) -> None:
    """``data`` written over ``path`` with the same size and the same modification time: an
    edit that a cache keyed on the file's name, size and time would not see."""
    before = path.stat() if path.exists() else None
    text = json.dumps(data, ensure_ascii=False)
    if before is not None:
        assert len(text.encode()) == before.st_size
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if before is not None:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert path.stat().st_mtime_ns == before.st_mtime_ns


@pytest.fixture
def schemas_checked(monkeypatch) -> list:
    """One item per part's JSON Schema check run from now on."""
    runs: list = []
    real = loader.Draft202012Validator

    def counted(schema, *args, **kwargs):
        runs.append(schema)
        return real(schema, *args, **kwargs)

    monkeypatch.setattr(loader, "Draft202012Validator", counted)
    return runs


def test_a_catalog_is_checked_once_and_each_load_is_its_own(tmp_path, schemas_checked):
    name = f"Feast {uuid.uuid4().hex[:8]}"
    path = tmp_path / "catalogs" / "wwe" / "event_cards.json"
    write_keeping_time(path, feast(name))
    parts, before = len(loader.installed_info("wwe").parts), len(schemas_checked)
    first = loader.load_catalog("wwe", tmp_path)
    assert len(schemas_checked) == before + parts
    second = loader.load_catalog("wwe", tmp_path)
    assert len(schemas_checked) == before + parts  # not again
    assert second == first and second is not first
    assert next(e for e in second["event_cards"] if e["id"] == "demo_feast")["names"]["en"] == name
    # a load is the caller's own: changing it changes no later load
    first["event_cards"].clear()
    assert loader.load_catalog("wwe", tmp_path) == second


def test_an_owners_file_edited_by_hand_is_seen_at_the_next_load(tmp_path):
    tag = uuid.uuid4().hex[:8]
    path = tmp_path / "catalogs" / "wwe" / "event_cards.json"
    write_keeping_time(path, feast(f"Feast {tag}"))
    loader.load_catalog("wwe", tmp_path)
    # the same size and time, another name: the new name is loaded
    write_keeping_time(path, feast(f"Fiest {tag}"))
    catalog = loader.load_catalog("wwe", tmp_path)
    assert next(e for e in catalog["event_cards"]
                if e["id"] == "demo_feast")["names"]["en"] == f"Fiest {tag}"
    # the same size and time, a value the schema refuses: refused, naming the file
    broken = feast(f"Feast {tag}")
    broken[0]["arrow"] = 9
    write_keeping_time(path, broken)
    with pytest.raises(loader.CatalogError) as err:
        loader.load_catalog("wwe", tmp_path)
    assert {(p["file"], p["entry"], p["field"]) for p in err.value.problems} == {
        (str(path), "demo_feast", "arrow")}


def test_the_problems_found_are_the_callers_own(tmp_path):
    """The deck page renames the files in the problems it is given (companion/box/deck.py
    `_check_with`): what one caller changes is not what the next one is told."""
    broken = feast(f"Feast {uuid.uuid4().hex[:8]}")
    broken[0]["arrow"] = 9
    path = tmp_path / "catalogs" / "wwe" / "event_cards.json"
    write_keeping_time(path, broken)
    info = loader.installed_info("wwe")
    catalog = loader.assemble("wwe", loader.shipped_dir("wwe"), [path]).data
    for _ in range(3):  # checked, then told twice from what was kept
        told = loader.check(info, catalog)
        assert told and {p["file"] for p in told} == {"event_cards.json"}
        assert "changed" not in {p["reason"] for p in told}
        for p in told:
            p["file"], p["reason"] = "renamed", "changed"

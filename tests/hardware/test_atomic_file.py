"""Owner files are written whole or not at all (issue 31): the one helper every owner file
goes through (settings, calibration, the deck's catalog files and pictures), on a real
folder. A failure is made where it can happen (a value that cannot be encoded, a rename
that fails) and no temporary file may be left; a power cut's leftovers go at start."""
from __future__ import annotations

import os

import pytest

from companion import context
from hardware import atomic_file, config_file


def test_a_write_replaces_the_file_whole(tmp_path):
    target = tmp_path / "config.json"
    target.write_text("old")
    atomic_file.write_bytes(target, b"new")
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json"]


def test_a_failed_rename_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "config.json"
    target.write_text('{"a": 1}')

    def refuse(*_args):
        raise OSError("disk gone")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        config_file.update(target, lambda data: data.update(b=2))
    assert target.read_text() == '{"a": 1}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json"]


def test_a_deck_value_that_cannot_be_written_leaves_nothing(tmp_path):
    """The deck's save below the HTTP door (which refuses such text first): the truncated
    ``*.pending-*.tmp`` of issue 31 is not made at all."""
    from companion.box import deck

    with pytest.raises(UnicodeEncodeError):
        deck.save_entry("wwe", tmp_path, "projects", {"id": "bridge",
                                                      "names": {"en": "Bri\ud800dge"}})
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_stale_temps_are_removed_at_start(tmp_path):
    from companion.app import create_app

    data = tmp_path / "data"
    (data / "catalogs" / "wwe" / "pictures").mkdir(parents=True)
    stale = [data / "config.json.tmp", data / "catalogs" / "wwe" / "projects.pending-ab12.tmp",
             data / "catalogs" / "wwe" / "pictures" / ".bridge.jpg.cd34.tmp"]
    for path in stale:
        path.write_text("half")
    keep = data / "catalogs" / "wwe" / "projects.json"
    keep.write_text("[]")
    staging = data / "catalogs" / ".wwe.import-0011"
    staging.mkdir()
    (staging / "projects.json").write_text("[")
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    context.of(app).service.store.close()
    assert not any(p.exists() for p in stale) and not staging.exists()
    assert keep.read_text() == "[]"

"""A .po text is parsed once per process (companion/server/i18n.py `compiled_mo`): every app
compiles its languages into its own data directory, and the tests make hundreds of apps in
one process. An edited .po is compiled anew, also when the edit keeps its size and time."""
from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from babel.support import Translations

from companion.server import i18n


def write_po(source: Path, greeting: str) -> Path:
    """A Polish .po of one text under ``source``; written again, it keeps its size and its
    modification time (an edit a cache keyed on the name, size and time would not see)."""
    po = source / "pl" / "LC_MESSAGES" / "messages.po"
    text = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
            f'"Language: pl\\n"\n\nmsgid "Hello"\nmsgstr "{greeting}"\n')
    before = po.stat() if po.exists() else None
    po.parent.mkdir(parents=True, exist_ok=True)
    po.write_text(text, encoding="utf-8")
    if before is not None:
        assert po.stat().st_size == before.st_size
        os.utime(po, ns=(before.st_atime_ns, before.st_mtime_ns))
    return po


def hello(target: Path) -> str:
    return Translations.load(str(target), ["pl"]).gettext("Hello")


@pytest.fixture
def parsed(monkeypatch) -> list:
    """One item per .po parsed from now on."""
    runs: list = []
    real = i18n.pofile.read_po

    def counted(*args, **kwargs):
        runs.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(i18n.pofile, "read_po", counted)
    return runs


def test_a_po_is_parsed_once_and_written_into_every_data_dir(tmp_path, parsed):
    greeting = f"Cześć {uuid.uuid4().hex[:8]}"  # a .po text no other test compiled
    write_po(tmp_path / "src", greeting)
    assert i18n.compile_translations(tmp_path / "src", tmp_path / "one") == ["pl"]
    assert len(parsed) == 1
    assert i18n.compile_translations(tmp_path / "src", tmp_path / "two") == ["pl"]
    assert len(parsed) == 1  # not parsed again
    mo = Path("pl") / "LC_MESSAGES" / "messages.mo"
    assert (tmp_path / "two" / mo).read_bytes() == (tmp_path / "one" / mo).read_bytes()
    assert hello(tmp_path / "two") == greeting


def test_an_edited_po_is_compiled_anew(tmp_path):
    tag = uuid.uuid4().hex[:8]
    write_po(tmp_path / "src", f"Hejka {tag}")
    i18n.compile_translations(tmp_path / "src", tmp_path / "one")
    assert hello(tmp_path / "one") == f"Hejka {tag}"
    write_po(tmp_path / "src", f"Witaj {tag}")  # the same size and time
    i18n.compile_translations(tmp_path / "src", tmp_path / "two")
    assert hello(tmp_path / "two") == f"Witaj {tag}"

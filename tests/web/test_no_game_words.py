"""The shared web client knows no game: no World Without End word in the shared web files
(templates, scripts, styles, UI strings), comments excepted. The game's own words live in
its web folder (web/games/<id>/). The word list is tests/game_words.py."""
from __future__ import annotations

from pathlib import Path

from tests.game_words import game_words, hits_by_line

WEB = Path(__file__).resolve().parents[2] / "web"
SHARED = [*sorted((WEB / "templates").glob("*.html")),
          *sorted((WEB / "static" / "js").glob("*.js")),
          *sorted((WEB / "static" / "css").glob("*")),
          WEB / "ui_strings.json"]


def test_the_shared_web_files_name_no_game_word():
    found = []
    for path in SHARED:
        suffix = path.suffix.lstrip(".")
        for number, line, words in hits_by_line(path.read_text(encoding="utf-8"), suffix):
            found.append(f"{path.relative_to(WEB)}:{number}: {sorted(set(words))}: {line[:90]}")
    assert not found, "game words in the shared web files:\n" + "\n".join(found)


def test_the_check_sees_words_and_skips_comments():
    assert game_words("W.chapterRound(m)", "js") == ["chapter"]
    assert game_words("var taxDie = 1; // the tax die", "js") == ["tax", "tax die"]
    assert game_words("/* favor track */ .track {}", "css") == []
    assert game_words('{# the plague #}<div id="plague-panel">', "html") == ["plague"]
    assert game_words('"x": "World Without End"', "json") == ["world without end"]
    assert game_words("priority prioritise", "js") == []

"""World Without End words that code outside the game's own folders must not name.

One list for every "the app knows no game" test: tests/web/test_no_game_words.py (the shared
web files) and the companion/ and hardware/ test. A file's words are its identifiers and
texts split at case changes, digits, ``_``, ``-``, ``.`` and spaces, lower-cased:
``chapterRound`` -> chapter, round; ``tax_die_faces`` -> tax, die, faces. Comments are
excepted (`strip_comments`).
"""
from __future__ import annotations

import re

GAME_WORDS = frozenset({
    "wwe", "chapter", "chapters", "favor", "favour", "plague", "wool", "cloth", "council",
    "tax", "penance", "begging", "cathedral", "prior", "prioress", "bishop", "grain",
    "piety", "loyalty", "spire", "outlaws", "kingsbridge", "donation", "donor", "duty",
    "duties", "punishment", "punishments", "guild", "mk",
})
GAME_PHRASES = ("world without end", "royal court", "medical knowledge", "tax die")

_TOKEN = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
_COMMENTS = {
    "js": re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S),
    "css": re.compile(r"/\*.*?\*/", re.S),
    "html": re.compile(r"<!--.*?-->|\{#.*?#\}", re.S),
    "py": re.compile(r"#[^\n]*|\"\"\".*?\"\"\"|'''.*?'''", re.S),
    "json": None,
}


def strip_comments(text: str, suffix: str) -> str:
    """``text`` without the comments of its language (``suffix``: js, css, html, py, json)."""
    pattern = _COMMENTS.get(suffix.lstrip("."))
    if pattern is None:
        return text
    return pattern.sub(lambda m: "\n" * m.group().count("\n") or " ", text)


def words(text: str) -> list[str]:
    """The lower-cased words of ``text`` (identifiers split at case changes and _-. )."""
    return [w.lower() for w in _TOKEN.findall(text)]


def game_words(text: str, suffix: str) -> list[str]:
    """The game words and phrases in ``text`` outside comments, in order, with repeats."""
    code = strip_comments(text, suffix)
    hits = [w for w in words(code) if w in GAME_WORDS]
    flat = " ".join(words(code))
    hits += [p for p in GAME_PHRASES if p in flat]
    return hits


def hits_by_line(text: str, suffix: str) -> list[tuple[int, str, list[str]]]:
    """(line number, line, game words) for every line with a hit, comments excepted."""
    out = []
    for number, line in enumerate(strip_comments(text, suffix).splitlines(), 1):
        found = game_words(line, "json")  # comments are gone already (newlines kept)
        if found:
            out.append((number, line.strip(), found))
    return out

"""Words of particular games that must not appear in the shared code (issue 9).

companion/, hardware/ and the shared web client know no game: a hit means the plug-in
interface is missing something. One list for every such test (code in Python, JS, CSS,
templates and the shared UI strings): tests/companion/test_no_game_words.py (companion/ and
hardware/) and tests/web/test_no_game_words.py (the shared web files). Comments and
docstrings may name games in examples.
"""
import re

WORDS = (
    # World Without End
    "wwe", "chapter", "chapters", "favor", "favour", "plague", "wool", "cloth", "council",
    "tax", "penance", "piety", "grain", "loyalty", "kingsbridge", "prior", "prioress",
    "bishop", "medicine", "begging", "spire", "outlaws", "donation", "donor", "duty",
    "duties", "punishment", "punishments", "mk",
    # The Pillars of the Earth
    "pillars", "cathedral", "craftsman", "craftsmen", "architect", "shiring",
    # Monasterium
    "monasterium", "novice", "novices", "chapel", "cloister", "messenger",
)
# Several words: found in the words of a text joined by single spaces (see `words`).
PHRASES = ("world without end", "royal court", "medical knowledge", "tax die")
# A word right after a dot is a file's extension ("Arduino.mk"), not a game's word.
PATTERN = re.compile(r"(?<![A-Za-z.])(" + "|".join(WORDS) + r")(?![a-z])", re.IGNORECASE)


def hits(text: str) -> list[str]:
    """The game words in ``text`` (as whole words or the start of a camelCase part)."""
    return [m.group(0) for m in PATTERN.finditer(text)]


# ---- the shared web files: words of identifiers and texts, comments stripped -----------
GAME_WORDS = frozenset(WORDS)
_TOKEN = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
_COMMENTS = {
    "js": re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S),
    "css": re.compile(r"/\*.*?\*/", re.S),
    "html": re.compile(r"<!--.*?-->|\{#.*?#\}", re.S),
    "json": None,
}


def strip_comments(text: str, suffix: str) -> str:
    """``text`` without the comments of its language (``suffix``: js, css, html, json); a
    comment becomes its newlines, so line numbers stay."""
    pattern = _COMMENTS.get(suffix.lstrip("."))
    if pattern is None:
        return text
    return pattern.sub(lambda m: "\n" * m.group().count("\n") or " ", text)


def words(text: str) -> list[str]:
    """The lower-cased words of ``text``, identifiers split at case changes, digits and
    ``_-.``: ``chapterRound`` -> chapter, round; ``tax_die_faces`` -> tax, die, faces."""
    return [w.lower() for w in _TOKEN.findall(text)]


def game_words(text: str, suffix: str) -> list[str]:
    """The game words and phrases in ``text`` outside comments, in order, with repeats."""
    found = words(strip_comments(text, suffix))
    flat = " ".join(found)
    return [w for w in found if w in GAME_WORDS] + [p for p in PHRASES if p in flat]


def hits_by_line(text: str, suffix: str) -> list[tuple[int, str, list[str]]]:
    """(line number, line, game words) for every line with a hit, comments excepted."""
    out = []
    for number, line in enumerate(strip_comments(text, suffix).splitlines(), 1):
        found = game_words(line, "json")  # comments are gone already (newlines kept)
        if found:
            out.append((number, line.strip(), found))
    return out

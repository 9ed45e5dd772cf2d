"""Words of particular games that must not appear in the shared code (issue 9).

companion/, hardware/ and the shared web client know no game: a hit means the plug-in
interface is missing something. One list for every such test (code in Python, JS and
templates); comments and docstrings may name games in examples.
"""
import re

WORDS = (
    # World Without End
    "wwe", "chapter", "favor", "favour", "plague", "wool", "cloth", "council", "tax",
    "penance", "piety", "grain", "loyalty", "kingsbridge", "prior", "bishop", "medicine",
    # The Pillars of the Earth
    "pillars", "cathedral", "craftsman", "craftsmen", "architect", "shiring",
    # Monasterium
    "monasterium", "novice", "novices", "chapel", "cloister", "messenger",
)
PATTERN = re.compile(r"(?<![A-Za-z])(" + "|".join(WORDS) + r")(?![a-z])", re.IGNORECASE)


def hits(text: str) -> list[str]:
    """The game words in ``text`` (as whole words or the start of a camelCase part)."""
    return [m.group(0) for m in PATTERN.finditer(text)]

"""Where the rules references and rulebook seeds are: ``../shared`` beside the checkout, as
developers and CI have it (never an absolute path of one machine). A test that needs them and
does not find them is skipped with the reason, shown in pytest's summary (``-ra``)."""
from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
RULES = SHARED / "rules"
SEEDS = SHARED / "seeds"


def needed(path: Path) -> Path:
    """``path``, or a visible skip saying it is missing."""
    if not path.exists():
        pytest.skip(f"the rules reference {path} is missing (../shared beside the checkout)")
    return path

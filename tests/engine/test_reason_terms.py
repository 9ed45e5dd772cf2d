"""Every `reason` World Without End puts on a vp or gain event has a term, so the log says
"Ala: -8 VP (duties)." in the reader's language and never shows a raw code."""
from __future__ import annotations

import re
from pathlib import Path

from engine.wwe.texts import TERMS

SRC = Path(__file__).resolve().parents[2] / "engine" / "wwe"


def reasons() -> set[str]:
    found = set()
    for path in SRC.glob("*.py"):
        text = path.read_text()
        found |= set(re.findall(r"add_vp\([^)]*?,\s*\"([a-z_]+)\"\)", text))
        found |= set(re.findall(r"\"reason\":\s*\"([a-z_]+)\"", text))
        found |= set(re.findall(r"reason=\"([a-z_]+)\"", text))
    return found


def test_every_reason_has_a_term():
    found = reasons()
    assert {"duties", "income", "rent", "trade"} <= found
    missing = sorted(r for r in found if f"reason:{r}" not in TERMS and r not in TERMS)
    assert not missing, missing

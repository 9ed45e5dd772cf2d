"""The action as the rules use it, found by watching the rules (``GameInfo.canonical``):
apply the action to the state (the rules are pure: the state is not changed) with a dict
that notes every field the rules look at, and keep only those. A game whose rules read
their actions by field (``action.get("column")``, ``action["die"]``) gets its canonical
form this way without listing which act uses which field.

Conservative: a rule that walks the whole action (``dict(action)``, ``action.items()``)
counts as reading every field, and an action the rules refuse is kept as sent."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.api import Refused

KEPT = ("type", "by")  # what every action keeps


class Reads(dict):
    """An action that notes which of its fields were read."""

    def __init__(self, action: dict) -> None:
        super().__init__(action)
        self.read: set = set()
        self.everything = False

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key) -> bool:
        self.read.add(key)
        return super().__contains__(key)

    def _all(self) -> None:
        self.everything = True

    def __iter__(self):  # also makes dict(self) and {**self} go through keys/__getitem__
        self._all()
        return super().__iter__()

    def keys(self):
        self._all()
        return super().keys()

    def items(self):
        self._all()
        return super().items()

    def values(self):
        self._all()
        return super().values()

    def copy(self):
        self._all()
        return dict(super().items())

    def __reduce_ex__(self, protocol):  # a deepcopy or a pickle sees every field
        self._all()
        return dict, (dict(super().items()),)


def by_reads(apply: Callable[[Any, Any], Any], state: Any, action: dict) -> dict:
    """``action`` without the fields ``apply`` does not read in ``state``; the action
    itself when it reads them all or refuses it."""
    reads = Reads(action)
    try:
        apply(state, reads)
    except Refused:
        return action
    if reads.everything:
        return action
    kept = {k: v for k, v in action.items() if k in KEPT or k in reads.read}
    return action if len(kept) == len(action) else kept

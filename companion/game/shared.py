"""What every view of one game state shares: computed once per state, reused by each view.

Four phones and the table display each get a view built from the same state. The public
view, each seat's view, the legal moves of a seat, the prompts and the visible log do not
change with who looks at them, and once translated they change with the language only; a
World Without End seat's legal moves alone try every card on a copy of the state. `Shared`
keeps them for one state: each value is made on first use by the same function the
uncached path calls (`views.build(..., shared=Fresh(live))`), and nobody changes it after.

The key is the state object itself (with the version): `GameService` replaces ``live.state``
with a new object at every action, undo and rebuild, so a value of an older state is never
served, even when an undo returns to a version number seen before. The state before is kept
one step only so that the parts of the public view that did not change keep their
translation (`views.localized_public`; compared as bytes, so only equal parts are reused).
Privacy is unchanged: a value is keyed by everything its content depends on (seat and
language), and `views.build` picks the entries of its recipient only.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.game.patches import same


class Shared:
    """Derived values of one state of one game, by key (part, seat or asker, language)."""

    keep = True

    def __init__(self, live, previous: Shared | None = None) -> None:
        self.state = live.state
        self.version = live.version
        self._memo: dict[tuple, Any] = {}
        # the values of the state before (only to reuse what did not change; never served)
        self.previous = previous

    def current(self, live) -> bool:
        return self.state is live.state and self.version == live.version

    def peek(self, key: tuple) -> Any:
        """The value of ``key`` if it was made, else None."""
        return self._memo.get(key)

    def get(self, key: tuple, make: Callable[[], Any]) -> Any:
        """The value of ``key``, made by ``make()`` the first time (then shared)."""
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = make()
            return value

    def get_for(self, key: tuple, owner: Any, make: Callable[[], Any]) -> Any:
        """The value of ``key`` made from ``owner`` (an object given to every recipient of one
        push: the hardware status), made once per ``owner`` (by identity: the entry holds
        it); a value made anew that is the same JSON as the one before (of this state, else
        of the state before) is that one, so the patches skip it at once."""
        found = self._memo.get(key)
        if found is not None and found[0] is owner:
            return found[1]
        value = make()
        if found is None and self.previous is not None:
            found = self.previous.peek(key)
        if found is not None and same(found[1], value):
            value = found[1]
        self._memo[key] = (owner, value)
        return value


class Fresh(Shared):
    """Makes every value anew: the uncached path (tests compare both, recipient by recipient)."""

    keep = False

    def get(self, key: tuple, make: Callable[[], Any]) -> Any:
        return make()

    def get_for(self, key: tuple, owner: Any, make: Callable[[], Any]) -> Any:
        return make()


def of(live) -> Shared:
    """The shared values of ``live``'s current state (a new, empty set after any change).
    Call under ``live.lock``, as the views are built."""
    shared = live.shared
    if shared is None or not shared.current(live):
        if shared is not None:
            shared.previous = None  # one state back is enough
        shared = live.shared = Shared(live, shared)
    return shared


def choices(live, shared: Shared, asker: str) -> list:
    """The choices of ``asker`` in ``shared``'s state. A game that answers several askers at
    once (``choices_of``, engine/api.py) is asked once for every seat and the table, so
    askers offered the same decision share its trials; the uncached path (`Fresh`) asks
    ``choices`` per asker, as before."""
    module = live.kind.module
    together = getattr(module, "choices_of", None)
    if together is not None and shared.keep:
        askers = [*live.seats, "table"]
        found = shared.get(("choices_of",), lambda: together(live.state, askers))
        if asker in found:
            return found[asker]
    return shared.get(("choices", asker), lambda: module.choices(live.state, asker))

"""What is private stays private: the kit's check of a game's own declaration of its secrets
(`GameInfo.secrets`, engine/api.py), in any form a view or an event could show one, by
counterfactual: the same position or the same action with the secrets swapped.

- *Nothing a viewer is shown changes when a secret does* (the views). Each holder's secrets
  are replaced by other values of the same shape (another value seen at that kind of place:
  another card id, another die face; else the count plus one, the text with a mark added);
  the public view, the prompts, the table's choices and every other seat's view and the
  options it is offered and refused must stay exactly the same. A die shown as a number, as
  text, summed or compared all change with it. (A choice's ``cost`` and ``effect`` are left
  out: they preview what the rules would do, and rules that compare holdings in public, as
  World Without End's spire does for the most loyal, show in them.)
- *Nothing an action tells changes when a secret does* (the events, hence the log's texts,
  which are worded from the events' fields). Every action the kit's games play or probe is
  applied a second time, to the state before it with one holder's secrets swapped; the
  events each other seat and the table are sent must be the same in both worlds, unless the
  action spent the secret (the holder's secrets after the action are the same in both: the
  dice of a round the call ends) or showed it to that viewer (its view, prompts and choices
  after the action differ: a card turned face up). Whatever the words: a card id many hold,
  a die face, a role, a count. When the swap makes the action impossible (the card played
  is no longer in the hand) that world is not compared. The event types a game declares
  the rules announce from a secret (`GameInfo.announced`: World Without End's `lose`, a
  loss paid from hidden resources, told in the log) are not compared.

A secret is private while the game's declaration names it: a game that shows every hand at
the end stops declaring them then.
"""
from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

MISSING = object()
Path = tuple


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


def get(node: Any, path: Path) -> Any:
    """The value at ``path`` (keys and list indexes), or MISSING."""
    for key in path:
        found = (key in node if isinstance(node, dict) else
                 isinstance(node, list) and type(key) is int and -len(node) <= key < len(node))
        if not found:
            return MISSING
        node = node[key]
    return node


def shown(path: Path) -> str:
    return ".".join(str(p) for p in path) or "(the whole state)"


def leaves(value: Any, at: Path = ()) -> Iterator[tuple[Path, Any]]:
    """(path, scalar) of every scalar inside ``value``."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, at + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from leaves(item, at + (i,))
    else:
        yield at, value


def strings(value: Any) -> Iterator[str]:
    """Every text inside ``value``, dict keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def _copy_along(state: Any, paths: list[Path]) -> Any:
    """``state`` with every container from the root to each of ``paths`` copied and each
    path's own value copied whole: what `Privacy.swapped` may change, and nothing else."""
    if any(not path for path in paths):
        return copy.deepcopy(state)
    out = copy.copy(state)
    copied = {(): out}
    for path in paths:
        node = out
        for depth, key in enumerate(path):
            at = path[:depth + 1]
            if at not in copied:
                child = node[key]
                node[key] = copied[at] = (copy.deepcopy(child) if depth == len(path) - 1
                                          else copy.copy(child))
            node = node[key]
    return out


def first_difference(a: Any, b: Any, at: str = "") -> str:
    """Where two JSON values first differ, as a dotted path ("dice.E.0")."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key, MISSING) != b.get(key, MISSING):
                return first_difference(a.get(key), b.get(key), f"{at}.{key}" if at else str(key))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{at}.{i}" if at else str(i))
    return at or "(the whole value)"


class Privacy:
    """The checks of one game's secrets, with the values seen so far to swap them with."""

    def __init__(self, module: Any, rnd: Any, note: Callable[[str, str], None]) -> None:
        self.module, self.rnd, self.note = module, rnd, note
        self.declare = getattr(module.info, "secrets", None)
        # the event types the rules announce from a secret (GameInfo.announced): not compared
        self.announced = frozenset(getattr(module.info, "announced", None) or ())
        self.pool: dict[tuple, list] = {}
        self.said: set[tuple] = set()  # (event type, kind of secret place) reported

    # ---- the declaration ------------------------------------------------------------------
    def secrets(self, where: str, state: Any) -> dict[Any, list[Path]]:
        """{holder: [path]} of ``state`` as declared; problems noted, missing paths left out."""
        if self.declare is None:
            return {}
        try:
            declared = self.declare(state)
        except Exception as exc:  # noqa: BLE001 - the kit reports it, the game's author fixes it
            self.note(where, f"GameInfo.secrets raised {type(exc).__name__}: {exc}")
            return {}
        if not isinstance(declared, dict):
            self.note("info", "GameInfo.secrets must return {holder: [path, ...]}")
            return {}
        out = {}
        for holder, paths in declared.items():
            found = []
            for path in paths or ():
                path = tuple(path) if isinstance(path, list | tuple) else (path,)
                if get(state, path) is MISSING:
                    self.note("info", f"GameInfo.secrets names {shown(path)}, which is not "
                                      f"in the state")
                else:
                    found.append(path)
            if found:
                out[holder] = found
        self.learn(state, out)
        return out

    @staticmethod
    def _key(holder: Any, path: Path) -> tuple:
        return tuple("*" if p == holder else "#" if type(p) is int else p for p in path)

    def learn(self, state: Any, secrets: dict) -> None:
        """Remember the values seen at each kind of secret place, to swap secrets with."""
        for holder, paths in secrets.items():
            for path in paths:
                for at, leaf in leaves(get(state, path)):
                    seen = self.pool.setdefault(self._key(holder, path + at), [])
                    if leaf not in seen and len(seen) < 64:
                        seen.append(leaf)

    def other(self, key: tuple, value: Any) -> Any:
        """Another value for the scalar ``value`` at a place of kind ``key``."""
        if isinstance(value, bool):
            return not value
        choices = [v for v in self.pool.get(key, ()) if v != value and type(v) is type(value)]
        if choices:
            return self.rnd.choice(choices)
        if isinstance(value, int | float):
            return value + 1
        if isinstance(value, str):
            return value + "~"
        return value

    def swapped(self, state: Any, holder: Any, paths: list[Path]) -> Any:
        """A copy of ``state`` with every scalar under ``paths`` replaced (shapes kept). Only
        the containers on the way to a secret are copied (the rest, the catalog a state
        carries above all, is shared: the rules never change the state they are given, which
        the kit checks on every action it applies)."""
        out = _copy_along(state, paths)
        for path in paths:
            for at, leaf in list(leaves(get(out, path))):
                full = path + at
                parent = get(out, full[:-1])
                parent[full[-1]] = self.other(self._key(holder, full), leaf)
        return out

    # ---- views --------------------------------------------------------------------------
    def seen_by(self, state: Any, viewer: str) -> dict:
        """All a viewer is shown of ``state``: "public" (the TV: the public view, prompts
        and the table's choices), else a seat's view and choices. (The scores are shown only
        once the game is over, when the standings are everyone's.)"""
        m = self.module
        if viewer == "public":
            return as_json({"public view": m.public_view(state),
                            "prompts": [p.to_json() for p in m.prompts(state)],
                            "table choices": [c.to_json() for c in m.choices(state, "table")]})
        return as_json({f"{viewer}'s view": m.seat_view(state, viewer),
                        f"{viewer}'s choices": [{"action": c.action, "refused": c.refused}
                                                for c in m.choices(state, viewer)]})

    def check_views(self, where: str, state: Any, seats: list[str], secrets: dict) -> None:
        """No viewer but the holder sees anything change when the holder's secrets do."""
        before = {v: self.seen_by(state, v) for v in ["public", *seats]}
        for holder, paths in secrets.items():
            viewers = [v for v in before if v != holder]
            changed = self._changed(state, holder, paths, viewers, before)
            if not changed:
                continue
            viewer, detail = changed
            # name the one secret place that shows (try them one by one)
            culprit = next((p for p in paths if self._changed(state, holder, [p], [viewer],
                                                              before)), None)
            whose = f"{holder}'s secret" if holder is not None else "the secret"
            at = shown(culprit) if culprit else ", ".join(shown(p) for p in paths[:3])
            self.note(where, f"{viewer if viewer == 'public' else viewer + ' sees'}: "
                             f"{detail} changes with {whose} {at} (GameInfo.secrets): "
                             f"it shows {'to everyone' if viewer == 'public' else 'to ' + viewer}")

    def _changed(self, state, holder, paths, viewers, before) -> tuple[str, str] | None:
        other = self.swapped(state, holder, paths)
        for viewer in viewers:
            try:
                after = self.seen_by(other, viewer)
            except Exception as exc:  # noqa: BLE001 - reading another's secret to crash on it
                return viewer, f"the view (it raised {type(exc).__name__} reading it)"
            if after != before[viewer]:
                return viewer, first_difference(before[viewer], after)
        return None

    # ---- events: the same action, other secrets ----------------------------------------
    def check_action(self, where: str, before: Any, action: dict, after: Any, events: list,
                     seats: list[str], secrets: dict, secrets_after: dict,
                     one_holder: bool = False) -> None:
        """What an action tells a seat that may not know a secret does not change with it.

        For each holder, the action is applied again to ``before`` with the holder's secrets
        swapped (`swapped`). A viewer other than the holder (every other seat and the table)
        sees a leak when the events it is sent differ between the two worlds while (a) the
        holder's secrets after the action differ too (the difference is about a secret still
        kept, not one the action spent: the dice of a round that is over) and (b) everything
        the viewer is shown after the action (its view, prompts and choices) is the same (the
        action did not reveal it to all: a card turned face up shows in the view)."""
        if not events or not isinstance(events, list):
            return
        holders = list(secrets.items())
        if one_holder and holders:  # between the checked positions: one holder a move
            holders = [self.rnd.choice(holders)]
        for holder, paths in holders:
            viewers = [s for s in seats if s != holder] + ["public"]
            found = self._leak(before, action, after, events, holder, paths, viewers,
                               secrets_after.get(holder, []))
            if found is None:
                continue
            viewer, kind, detail = found
            culprit = next((p for p in paths if self._leak(
                before, action, after, events, holder, [p], [viewer],
                secrets_after.get(holder, [])) is not None), None)
            said = (kind, shown(self._key(holder, culprit)) if culprit else None)
            if said in self.said:
                continue
            self.said.add(said)
            whose = f"{holder}'s secret" if holder is not None else "the secret"
            at = shown(culprit) if culprit else ", ".join(shown(p) for p in paths[:3])
            fix = f"give it \"private\": {holder!r} or " if holder is not None else ""
            self.note(where, f"event {kind!r} shows {whose} {at} to {viewer} ({detail} "
                             f"differs when that secret does, and nothing else {viewer} is "
                             f"shown does): {fix}leave the secret out")
            return

    def _leak(self, before, action, after, events, holder, paths, viewers, kept
              ) -> tuple[str, str, str] | None:
        """(viewer, event type, where the events differ) of a leak found by applying
        ``action`` to ``before`` with ``paths`` swapped, or None."""
        other = self.swapped(before, holder, paths)
        try:
            result = self.module.apply(other, action)
            after_other, events_other = result
            events_other, mine_all = as_json(events_other), as_json(events)
        except Exception:  # noqa: BLE001 - the action needs the secret it had (a card played)
            return None  # (or the events are not JSON: the events' own check says so)
        if not isinstance(events_other, list):
            return None
        announced = self.announced
        mine_all = [e for e in mine_all if not _of_type(e, announced)]
        events_other = [e for e in events_other if not _of_type(e, announced)]
        if all(get(after, p) == get(after_other, p) for p in kept):
            return None  # the secrets swapped were spent: nothing still kept can show
        for viewer in viewers:
            mine, theirs = _sent(mine_all, viewer), _sent(events_other, viewer)
            if mine == theirs:
                continue
            try:
                if self.seen_by(after, viewer) != self.seen_by(after_other, viewer):
                    continue  # the action shows it to this viewer anyway
            except Exception:  # noqa: BLE001 - the view checks report a view that breaks
                continue
            at = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
                      min(len(mine), len(theirs)))
            event = mine[at] if at < len(mine) else theirs[at]
            kind = event.get("type") if isinstance(event, dict) else None
            detail = (f"its {first_difference(mine[at], theirs[at])}" if at < len(mine)
                      and at < len(theirs) else "which events are sent")
            return viewer, kind, detail
        return None


def _of_type(event: Any, kinds: frozenset) -> bool:
    return isinstance(event, dict) and event.get("type") in kinds


def _sent(events: list, viewer: str) -> list:
    """The events ``viewer`` is sent: every event but those private to another seat."""
    return [e for e in events if not isinstance(e, dict) or e.get("private") is None
            or (viewer != "public" and e.get("private") == viewer)]

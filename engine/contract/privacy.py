"""What is private stays private: the kit's check of a game's own declaration of its secrets
(`GameInfo.secrets`, engine/api.py), in any form a view or an event could show one.

Two ways, because a secret can leak as itself or as anything made from it:

- *Nothing changes when a secret does* (the views). Each holder's secrets are replaced by
  other values of the same shape (another card id seen in a hand, another die face, the
  count plus one); the public view, the prompts, the table's choices and every other seat's
  view and the options it is offered and refused must stay exactly the same. A die shown as
  a number, as text, summed or compared all change with it. (A choice's ``cost`` and
  ``effect`` are left out: they preview what the rules would do, and rules that compare
  holdings in public, as World Without End's spire does for the most loyal, show in them.)
- *No event names a secret* (the log). A card drawn, dice rolled, a secret count corrected:
  the event telling it goes to its holder only (``"private": seat``). An event another seat
  sees may not hold a secret the holder keeps after the action, as a text, as a list or as a
  list written out ("3 5 1"), or a secret number of two digits or more (a coin count, the
  seed) as a number or written in a text, unless that seat sees the value anyway (a card
  played is public from then on; a word or number found elsewhere in the state, a card id
  many hold, names nobody's secret). Smaller numbers (a die face, a count of 3) are not
  matched in events: they are in every bid and every count. An event worded from a secret (a
  sum, a comparison) is not caught: the rules announce such things (a spire to the most
  loyal, a challenge's count).

A secret is private while the game's declaration names it: a game that shows every hand at
the end stops declaring them then.
"""
from __future__ import annotations

import copy
import json
import re
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


def outside(state: Any, paths: list[Path]) -> tuple[set[str], set]:
    """Every text (dict keys included) and every number of ``state`` but those under
    ``paths``."""
    cut = set(map(tuple, paths))
    texts: set[str] = set()
    found: set = set()
    stack: list[tuple[Path, Any]] = [((), state)]
    while stack:
        at, node = stack.pop()
        if at in cut:
            continue
        if isinstance(node, str):
            texts.add(node)
        elif type(node) in (int, float):
            found.add(node)
        elif isinstance(node, dict):
            texts.update(str(k) for k in node)
            stack.extend((at + (k,), v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((at + (i,), v) for i, v in enumerate(node))
    return texts, found


def parts(value: Any) -> Iterator[Any]:
    """``value`` and every list and dict inside it."""
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from parts(item)
    elif isinstance(value, list):
        for item in value:
            yield from parts(item)


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


def numbers(value: Any) -> Iterator[int | float]:
    """Every number inside ``value`` (not booleans)."""
    for _at, leaf in leaves(value):
        if type(leaf) in (int, float):
            yield leaf


NUMBER_AT_LEAST = 10  # a secret number this big is looked for in events (smaller are everywhere)


def text_forms(value: Any) -> list[str]:
    """How a list of dice or numbers could be written in a text ("3 5 1", "3, 5, 1", ...)."""
    if not isinstance(value, list) or len(value) < 2 or not all(
            type(v) in (int, str) for v in value):
        return []
    items = [str(v) for v in value]
    return [f for f in (" ".join(items), ", ".join(items), ",".join(items), str(value),
                        "".join(items)) if len(f) >= 3]


class Privacy:
    """The checks of one game's secrets, with the values seen so far to swap them with."""

    def __init__(self, module: Any, rnd: Any, note: Callable[[str, str], None]) -> None:
        self.module, self.rnd, self.note = module, rnd, note
        self.declare = getattr(module.info, "secrets", None)
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
        """A copy of ``state`` with every scalar under ``paths`` replaced (shapes kept)."""
        out = copy.deepcopy(state)
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

    # ---- events -------------------------------------------------------------------------
    def check_events(self, where: str, after: Any, events: list, seats: list[str],
                     secrets_after: dict) -> None:
        """Events another seat sees name no secret the holder still keeps after the action
        (a card drawn, dice rolled, a secret count corrected): as a text, a list, a list
        written out or a number of two digits or more; each event type and kind of secret
        place reported once."""
        if not events:
            return
        every = [path for paths in secrets_after.values() for path in paths]
        unsecret = _Memo(lambda: outside(after, every))  # one walk of the state for all

        def elsewhere_of(holder: Any) -> tuple[set, set]:
            """What the state holds outside ``holder``'s secrets: the unsecret part and the
            other holders' secrets."""
            words, found = set(unsecret()[0]), set(unsecret()[1])
            for other, paths in secrets_after.items():
                for path in paths if other != holder else ():
                    words.update(strings(get(after, path)))
                    found.update(numbers(get(after, path)))
            return words, found

        for holder, paths in secrets_after.items():
            elsewhere = _Memo(lambda holder=holder: elsewhere_of(holder))
            for viewer in [s for s in seats if s != holder] + ["public"]:
                leaked = self._shown_in_events(after, viewer, paths, events, elsewhere)
                said = leaked and (leaked[0], shown(self._key(holder, leaked[3])))
                if leaked and said not in self.said:
                    self.said.add(said)
                    whose = f"{holder}'s secret" if holder is not None else "the secret"
                    fix = f"give it \"private\": {holder!r} or " if holder is not None else ""
                    self.note(where, f"event {leaked[0]!r} shows {whose} {leaked[1]} "
                                     f"({leaked[2]}) to {viewer}: {fix}leave the secret out")
                    return

    def _known(self, after: Any, viewer: str, elsewhere: _Memo) -> tuple | None:
        """(texts, numbers, lists and objects) of the viewer's view; None when the view
        cannot be made."""
        try:
            view = as_json(self.module.public_view(after) if viewer == "public" else
                           self.module.seat_view(after, viewer))
        except Exception:  # noqa: BLE001 - the views' own checks report a broken view
            return None
        return (set(strings(view)), set(numbers(view)),
                [p for p in parts(view) if isinstance(p, list | dict)])

    def _shown_in_events(self, after, viewer, paths, events, elsewhere):
        """(event type, place, what showed, path) of the first secret an event shows the
        viewer, or None. What the viewer knows anyway is worked out only for a match."""
        visible = [e for e in events if e.get("private") is None
                   or (viewer != "public" and e.get("private") == viewer)]
        if not visible:
            return None
        known = _Memo(lambda: self._known(after, viewer, elsewhere))

        def unknown(kind: int, value: Any) -> bool:
            """Not a text or number found elsewhere in the state (a card id many hold), nor
            in the viewer's view (a card played is public from then on)."""
            if kind < 2 and value in elsewhere()[kind]:
                return False
            found = known()
            return found is not None and value not in found[kind]

        for path in paths:
            value = get(after, path)
            words = {w for w in strings(value) if len(w) >= 3}
            numbers_ = {n for n in numbers(value) if abs(n) >= NUMBER_AT_LEAST}
            written = [re.compile(rf"(?<![\w.]){re.escape(str(n))}(?![\w]|\.\d)")
                       for n in numbers_]
            forms = text_forms(value)
            composite = value if isinstance(value, list | dict) and len(list(leaves(value))) > 1 \
                else MISSING
            if not (words or numbers_ or forms or composite is not MISSING):
                continue
            for event in visible:
                for word in strings(event):
                    hit = next((w for w in words if (w == word or (len(w) >= 5 and w in word))
                                and unknown(0, w)), None)
                    if hit is None and forms and any(f in word for f in forms) and \
                            unknown(2, value):
                        hit = next(f for f in forms if f in word)
                    if hit is None:
                        hit = next((m.group(0) for n, r in zip(numbers_, written, strict=True)
                                    if (m := r.search(word)) and unknown(1, n)), None)
                    if hit is not None:
                        return event.get("type"), shown(path), repr(hit), path
                number = next((n for n in numbers(event) if n in numbers_ and unknown(1, n)),
                              None)
                if number is not None:
                    return event.get("type"), shown(path), repr(number), path
                if composite is not MISSING and any(p == composite for p in parts(event)) \
                        and unknown(2, value):
                    return event.get("type"), shown(path), json.dumps(composite), path
        return None


class _Memo:
    """A value worked out on first use, then kept."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make, self.done, self.value = make, False, None

    def __call__(self) -> Any:
        if not self.done:
            self.value, self.done = self.make(), True
        return self.value

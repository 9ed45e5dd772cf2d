"""The checks every game plug-in must pass, as a kit an outside package runs in its own tests.

The app relies on a game keeping the contract of `engine.api` (docs/engine.md): states, views
and events are plain JSON; ``apply`` never changes the state it is given and refuses with
`Refused` (nothing else) without changing anything; a record replays to the same state; a
seat's view holds no other seat's private part; every action the game offers fits the shape
it declares; every prompt, event and refusal has its English text; each rules version step
has its migration. ``check_game`` plays seeded random games and returns the broken promises in
words; ``assert_game_keeps_contract`` fails a test with them. The three shipped games and the
toy plug-in run it in CI::

    from engine.contract import assert_game_keeps_contract
    from companion.box.catalog import load_catalog
    from companion.game.reasons import SERVER_REASONS
    from my_game import GAME

    def test_my_game_keeps_the_contract():
        assert_game_keeps_contract(GAME, load_catalog(GAME.info.id),
                                   app_reasons=SERVER_REASONS)

Pure (no I/O): the caller passes the catalog, the kit only plays.
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator

from engine.api import GameModule, Refused, random_move, template_fields

# values a plug-in meets in a field that still fits the field's shape (wrong id, zero, blank)
ODD_VALUES: tuple[Any, ...] = ("", "no_such_id", 0, -1, 999, True, False, None, [], {})


def setups(module: GameModule, seed: int = 0) -> Iterator[dict]:
    """One new-game setup per player count the game declares, as the new-game form makes
    them (``start_seat`` the last seat taken, a text seed, the options' defaults)."""
    info = module.info
    for n in range(info.min_players, info.max_players + 1):
        seats = [s.id for s in info.seats[:n]]
        yield {"players": [{"seat": s, "name": f"Player {s}"} for s in seats],
               "seed": f"contract-{seed}-{n}", "start_seat": seats[-1],
               "options": {o.id: o.default for o in info.options}}


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


def _words(node: Any) -> set[str]:
    """Every text inside ``node`` (keys not included)."""
    out: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


class _Checker:
    """One game's problems, collected while random games are played."""

    def __init__(self, module: GameModule, rnd: random.Random, app_reasons: Any,
                 unique_ids: bool) -> None:
        self.module, self.info, self.rnd, self.unique_ids = module, module.info, rnd, unique_ids
        self.reasons = set(self.info.texts.reasons) | set(app_reasons)
        self.shapes = {t: Draft202012Validator(s) for t, s in self.info.action_shapes.items()}
        self.problems: list[str] = []

    def note(self, where: str, problem: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(f"{where}: {problem}")

    def state_is_json(self, where: str, state: Any) -> None:
        try:
            if _json(state) != state:
                self.note(where, "the state changes through a JSON round trip")
        except (TypeError, ValueError) as exc:
            self.note(where, f"the state is not JSON ({exc})")

    def views(self, where: str, state: Any, seats: list[str]) -> None:
        module = self.module
        try:
            public = _json(module.public_view(state))
            mine = {seat: _json(module.seat_view(state, seat)) for seat in seats}
        except (TypeError, ValueError) as exc:
            self.note(where, f"a view is not JSON ({exc})")
            return
        if _json(module.public_view(state)) != public:
            self.note(where, "two public views of one state differ")
        private_view = getattr(module, "private_view", None)
        for seat in seats:
            if private_view is not None and mine[seat] != {
                    **public, **_json(private_view(state, seat))}:
                self.note(where, f"seat_view({seat}) is not public_view + private_view")
        if not self.unique_ids:
            return
        # with unique ids, what only one seat may do names what only it holds (a card in
        # its hand): such a word must not appear in another seat's view
        public_words = _words(public) | set(seats)
        offered = {seat: _words([{k: v for k, v in c.action.items() if k not in ("type", "by")}
                                 for c in module.choices(state, seat)]) for seat in seats}
        for seat in seats:
            seen = _words(mine[seat]) - public_words - offered[seat]
            for other in seats:
                leaked = seen & offered[other] if other != seat else set()
                if leaked:
                    self.note(where, f"{seat}'s view holds {sorted(leaked)[:3]}, which only "
                              f"{other} may play")

    def texts(self, where: str, state: Any, events: list) -> None:
        for prompt in self.module.prompts(state):
            if prompt.kind not in self.info.texts.prompts:
                self.note(where, f"prompt {prompt.kind!r} has no text in Texts.prompts")
        for event in events:
            template = self.info.texts.events.get(event.get("type"))
            if template is None:
                self.note(where, f"event {event.get('type')!r} has no text in Texts.events")
                continue
            missing = template_fields(template) - event.keys()
            if missing:  # the log would show "{field}" (an old record: Texts.older_events)
                self.note(where, f"event {event.get('type')!r} lacks {sorted(missing)}, "
                                 f"which its text names")

    def fits_shape(self, where: str, action: dict) -> bool:
        validator = self.shapes.get(action.get("type"))
        if validator is None:
            self.note(where, f"action type {action.get('type')!r} has no shape")
            return False
        if not validator.is_valid(action):
            self.note(where, f"{action} does not fit its shape")
            return False
        return True

    def odd_action(self, where: str, state: Any, action: dict) -> None:
        """A legal action with one field changed, still of its shape: refused with a code
        that has a text, or applied; never another exception, never a change in place."""
        fields = [k for k in action if k not in ("type", "by")]
        if not fields:
            return
        odd = dict(action, **{self.rnd.choice(fields): self.rnd.choice(ODD_VALUES)})
        if not self.shapes[action["type"]].is_valid(odd):
            return
        before = json.dumps(state, sort_keys=True)
        try:
            self.module.apply(state, odd)
        except Refused as refused:  # anything else is a crash the test shows as it is
            if refused.code not in self.reasons:
                self.note(where, f"refusal {refused.code!r} has no text in Texts.reasons")
        if json.dumps(state, sort_keys=True) != before:
            self.note(where, f"apply({odd}) changed the state it was given")


def check_game(module: GameModule, catalog: Any, *, games: int = 3, most_actions: int = 400,
               seed: int = 0, app_reasons: Any = (), unique_ids: bool = False) -> list[str]:
    """The contract's broken promises over ``games`` random games per player count (empty
    when the game keeps it). ``catalog``: what the app would pass to ``setup``;
    ``app_reasons``: refusal codes the app has texts for
    (``companion.game.reasons.SERVER_REASONS``), which a game may raise without a text of its own;
    ``unique_ids``: every card or piece a seat may hold has an id of its own (then no seat's view
    may name one only another seat may play; games with many copies of a card, like the three
    shipped ones, check their privacy with their own tests, e.g.
    tests/companion/test_privacy.py)."""
    from engine.record import RecordError, build, current_rules, replay

    rnd = random.Random(seed)
    check = _Checker(module, rnd, app_reasons, unique_ids)
    version, steps = current_rules(module.info), getattr(module.info, "migrations", {})
    if type(version) is not int or version < 1 or sorted(steps) != list(range(1, version)):
        check.note("info", f"rules_version {version!r} needs one migration per step from 1 "
                   f"(migrations has {sorted(steps)})")
    for number in range(games):
        for setup in setups(module, seed * 1000 + number):
            where = f"game {number}, {len(setup['players'])} players"
            state = module.setup(catalog, setup)
            seats = [p["seat"] for p in setup["players"]]
            actions: list[dict] = []
            for step in range(most_actions):
                here = f"{where}, action {step + 1}"
                action = random_move(module, state, rnd)
                if action is None:
                    break
                if not check.fits_shape(here, action):
                    break
                check.odd_action(here, state, action)
                before = json.dumps(state, sort_keys=True)
                state_after, events = module.apply(state, action)
                if json.dumps(state, sort_keys=True) != before:
                    check.note(here, f"apply({action}) changed the state it was given")
                state = state_after
                actions.append(action)
                check.state_is_json(here, state)
                check.texts(here, state, events)
                for event in events:
                    if "private" in event and event["private"] not in seats:
                        check.note(here, f"event {event['type']} is private to no seat")
                if step % 5 == 0 or module.is_over(state):
                    check.views(here, state, seats)
            try:
                replayed, _ = replay(module, catalog, build(module.info.id, setup, actions,
                                                                 current_rules(module.info)))
            except RecordError as exc:
                check.note(where, f"the record does not replay: {exc.problems}")
                continue
            if json.dumps(replayed, sort_keys=True) != json.dumps(state, sort_keys=True):
                check.note(where, "the record replays to another state")
    return check.problems


def assert_game_keeps_contract(module: GameModule, catalog: Any, **options: Any) -> None:
    """Fail (AssertionError listing every problem) unless ``module`` keeps the contract."""
    problems = check_game(module, catalog, **options)
    assert not problems, f"{module.info.id} breaks the plug-in contract:\n" + "\n".join(problems)


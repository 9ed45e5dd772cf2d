"""The checks every game plug-in must pass, as a kit an outside package runs: one command,
``companion contract <game id>`` (companion/commands/contract.py: it reads the game's
translations and catalog and calls `check_game`), or `assert_game_keeps_contract` in the
game's own tests.

The app relies on a game keeping the contract of `engine.api` (docs/engine.md, "The contract
kit"). The kit plays seeded random games for every player count and, at positions of them,
sends targeted probes; it fails listing every broken promise:

- the declarations: ``GameInfo.secrets`` (what is private), ``languages``, the host's count
  correction ``adjust``, a migration per rules version;
- privacy (`engine.contract.privacy`): no view, choice, prompt, score or event shows a seat's
  secret to another seat or the table, in any form;
- words (`engine.contract.words`): every refusal code the rules raise (in their source, in
  play, in probes) and every code ``choices`` gives has its text, in every declared
  language; every event's, refusal's and prompt's text names only fields it has;
- probes (`engine.contract.probes`): actions of the game's own shapes, from every sender,
  refused with `Refused` (never another exception) or applied; ``adjust`` and the
  corrections the game offers are exercised;
- turns (`engine.contract.turns`): the chosen start player starts; scores and the end;
- the rest of the contract: plain JSON states and views, ``apply`` never changing its input,
  ``seat_view`` = ``public_view`` + ``private_view``, records that replay to the same state.

Pure apart from reading the game's own source files (the refusal codes it raises); the caller
passes the catalog and the translations.
"""
from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from jsonschema import Draft202012Validator

from engine.api import GameModule, Refused, random_move
from engine.contract import turns
from engine.contract.numbers import unbounded_numbers
from engine.contract.privacy import Privacy, as_json
from engine.contract.probes import (
    NEUTRAL_REASON,
    ODD_VALUES,
    SKIP,
    Values,
    probe_actions,
    unasked_actions,
)
from engine.contract.words import Words

__all__ = ["ODD_VALUES", "assert_game_keeps_contract", "check_game", "setups"]
MOST_PROBLEMS = 60


def setups(module: GameModule, seed: int = 0) -> Iterator[dict]:
    """One new-game setup per player count the game declares, as the new-game form makes
    them (``start_seat`` the last seat taken, a text seed, the options' defaults)."""
    info = module.info
    for n in range(info.min_players, info.max_players + 1):
        seats = [s.id for s in info.seats[:n]]
        yield {"players": [{"seat": s, "name": f"Player {s}"} for s in seats],
               "seed": f"contract-{seed}-{n}", "start_seat": seats[-1],
               "options": {o.id: o.default for o in info.options}}


def _short(action: Any) -> str:
    return json.dumps(action, sort_keys=True)[:160]


class Report:
    """The broken promises, each said once (where it was first seen), at most MOST_PROBLEMS."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.said: set[str] = set()

    def note(self, where: str, problem: str) -> None:
        if problem not in self.said and len(self.problems) < MOST_PROBLEMS:
            self.said.add(problem)
            self.problems.append(f"{where}: {problem}")


class _Checker:
    """One game's checks, run while random games are played."""

    def __init__(self, module: GameModule, catalog: Any, rnd: random.Random, report: Report,
                 app_reasons: Any, translated: Mapping | None, probes: int) -> None:
        self.module, self.info, self.catalog, self.rnd = module, module.info, catalog, rnd
        self.note = report.note
        self.words = Words(self.info, app_reasons, translated, self.note)
        self.privacy = Privacy(module, rnd, self.note)
        self.values = Values(rnd)
        self.probes = probes
        self.shapes = {t: Draft202012Validator(s) for t, s in self.info.action_shapes.items()}
        self.adjust_tries = self.adjust_accepted = 0
        self._snapshot: tuple[Any, Any] | None = None  # (state, its copy): `snapshot`

    # ---- what the game declares -----------------------------------------------------------
    def declarations(self) -> None:
        from engine.record import current_rules

        info = self.info
        version, steps = current_rules(info), getattr(info, "migrations", {})
        if type(version) is not int or version < 1 or sorted(steps) != list(range(1, version)):
            self.note("info", f"rules_version {version!r} needs one migration per step from 1 "
                              f"(migrations has {sorted(steps)})")
        self.words.languages()
        if getattr(info, "secrets", None) is None:
            self.note("info", "GameInfo.secrets is not declared: say where the state keeps "
                              "what not everyone may see (engine.api.secret_paths(...); "
                              "lambda state: {} when nothing is hidden)")
        if "adjust" not in info.action_shapes or "adjust" not in info.host_actions:
            self.note("info", "the host page's 'Correct a count' sends {type: 'adjust', by: "
                              "'host', seat, item, delta, reason}: declare 'adjust' in "
                              "action_shapes and host_actions (docs/engine.md, Corrections)")
        self.rolls()
        self.catalog_ranges()
        self.words.source(self.module)

    def rolls(self) -> None:
        """A game whose dice the table reads (a serial reader, the camera) names the action
        types that record a roll: while the reader or the camera reads the rolls, the app
        lets no phone send one (issue 45; companion/wiring/dice.py)."""
        bindings = getattr(self.info, "bindings", None)
        dice, roll = getattr(bindings, "dice", ()), getattr(bindings, "roll", None)
        named = set(getattr(bindings, "roll_actions", ()) or ())
        if (dice or roll is not None) and not named:
            self.note("bindings", "the game reads dice (Bindings.dice or roll) but declares no "
                                  "roll_actions: name the action types that record a roll, or "
                                  "a phone may enter any roll while the dice reader or the "
                                  "table camera reads them")
        for kind in sorted(named - set(self.info.action_shapes)):
            self.note("bindings", f"roll action {kind!r} has no shape")

    def catalog_ranges(self) -> None:
        """Every number of every catalog part's schema has a minimum and a maximum."""
        for part in self.info.parts:
            for path in unbounded_numbers(part.schema, part.id):
                self.note("catalog", f"{path} is a number without a minimum and a maximum: an "
                                     "owner's file could hold any (declare its range)")

    # ---- each position --------------------------------------------------------------------
    def fits_shape(self, where: str, action: dict) -> bool:
        validator = self.shapes.get(action.get("type"))
        if validator is None:
            self.note(where, f"action type {action.get('type')!r} has no shape")
            return False
        if not validator.is_valid(action):
            self.note(where, f"{_short(action)} does not fit its shape")
            return False
        return True

    def state_is_json(self, where: str, state: Any) -> None:
        try:
            if as_json(state) != state:
                self.note(where, "the state changes through a JSON round trip")
        except (TypeError, ValueError) as exc:
            self.note(where, f"the state is not JSON ({exc})")

    def views(self, where: str, state: Any, seats: list[str]) -> bool:
        """The views are JSON, stable, and ``seat_view`` is public + private; False when a
        view cannot be made (the other view checks are skipped then)."""
        module = self.module
        try:
            public = as_json(module.public_view(state))
            mine = {seat: as_json(module.seat_view(state, seat)) for seat in seats}
        except (TypeError, ValueError) as exc:
            self.note(where, f"a view is not JSON ({exc})")
            return False
        if as_json(module.public_view(state)) != public:
            self.note(where, "two public views of one state differ")
        private_view = getattr(module, "private_view", None)
        for seat in seats:
            if private_view is not None and mine[seat] != {
                    **public, **as_json(private_view(state, seat))}:
                self.note(where, f"seat_view({seat}) is not public_view + private_view")
        return True

    def events(self, where: str, events: Any, seats: list[str]) -> None:
        if not isinstance(events, list):
            self.note(where, f"apply must return (state, [event]), not {type(events).__name__}")
            return
        for event in events:
            self.words.event(where, event)
            if isinstance(event, dict) and "private" in event and event["private"] not in seats:
                self.note(where, f"event {event.get('type')!r} is private to no seat "
                                 f"({event['private']!r})")

    def snapshot(self, state: Any) -> Any:
        """A deep copy of ``state``, made once for all the probes sent at one position: each
        probe's apply is checked not to change the state by comparing with it (``==``, far
        cheaper than writing a state and its catalog out as JSON for every probe)."""
        if self._snapshot is None or self._snapshot[0] is not state:
            self._snapshot = (state, copy.deepcopy(state))
        return self._snapshot[1]

    def try_action(self, where: str, state: Any, action: dict, seats: list[str]
                   ) -> tuple[Any, list] | None:
        """Apply a probe: refused with words, or applied with words; never a crash, never a
        change to the state given. Returns (state, events) when accepted."""
        before = self.snapshot(state)
        result = None
        try:
            result = self.module.apply(state, action)
        except Refused as refused:
            self.words.refusal(where, refused.code, refused.params,
                               f" (to {_short(action)})")
        except Exception as exc:  # noqa: BLE001 - the kit reports what a phone would crash on
            self.note(where, f"apply({_short(action)}) raised {type(exc).__name__}: {exc} "
                             f"(an action of its shape is refused with Refused, or applied)")
        if state != before:
            self.note(where, f"apply({_short(action)}) changed the state it was given")
            self._snapshot = None
        if result is None:
            return None
        events = result[1] if isinstance(result, tuple) else None
        self.events(where, events, seats)
        if not isinstance(result, tuple) or not isinstance(events, list):
            return None
        # what a probe or a host's correction tells, it tells in the log like any move
        self.privacy.check_action(where, state, action, result[0], events, seats,
                                  self.privacy.secrets(where, state),
                                  self.privacy.secrets(where, result[0]))
        return result

    def probe(self, where: str, state: Any, seats: list[str]) -> None:
        """Near misses of the legal moves, and any action of the game's shapes."""
        module = self.module
        legal, shown, offered = [], [module.public_view(state)], {}
        for asker in [*seats, "table"]:
            offered[asker] = module.choices(state, asker)
            self.words.choices(where, offered[asker])
            legal += [c.action for c in offered[asker] if c.refused is None]
            shown.append([c.action for c in offered[asker]])
        self.values.learn(*shown)
        for action in probe_actions(self.info, self.values, legal, seats, self.probes):
            validator = self.shapes.get(action.get("type"))
            if validator is not None and validator.is_valid(action):
                self.try_action(where, state, action, seats)
        self.unasked(where, state, seats, offered, legal)

    def unasked(self, where: str, state: Any, seats: list[str], offered: dict,
                legal: list[dict]) -> None:
        """Every action kind from every seat neither prompted nor offered it must be refused:
        the seat's own choice of that kind that the game refuses it, else another's legal
        action of that kind sent by this seat, else one made from the kind's shape."""
        asked = {p.seat for p in self.module.prompts(state)}
        for seat in seats:
            if seat in asked:
                continue
            allowed = {c.action.get("type") for c in offered.get(seat, ()) if c.refused is None}
            for kind, action in unasked_actions(self.info, self.values, seat, offered.get(
                    seat, ()), legal, allowed):
                validator = self.shapes.get(kind)
                if validator is None or not validator.is_valid(action):
                    continue
                if self.try_action(where, state, action, seats) is not None:
                    self.note(where, f"{_short(action)} was accepted from {seat}, who was "
                                     f"neither prompted nor offered a {kind!r}: a seat acts "
                                     f"only when asked (refuse it, e.g. not_your_turn)")

    def adjust(self, where: str, state: Any, seats: list[str]) -> None:
        """The host's "Correct a count": accepted for some item, and when accepted it changes
        something and says so in an event (the log is the audit trail)."""
        shape = self.info.action_shapes.get("adjust")
        if not shape:
            return
        props = shape.get("properties", {})
        items = props.get("item", {}).get("enum") or ["vp", *self.values.words[:20]]
        action = {"type": "adjust", "by": "host", "seat": self.rnd.choice(seats),
                  "delta": self.rnd.choice((1, -1)), "reason": NEUTRAL_REASON,
                  "item": self.rnd.choice(items)}
        action = {k: v for k, v in action.items() if k in props or k in ("type", "by")}
        if not self.shapes["adjust"].is_valid(action):
            self.note(where, f"the host page's adjust {_short(action)} does not fit the adjust "
                             f"shape (seat, item, delta, reason)")
            return
        self.adjust_tries += 1
        result = self.try_action(where, state, action, seats)
        if result is None:
            return
        self.adjust_accepted += 1
        after, events = result
        if after == state or not events:
            self.note(where, f"adjust {_short(action)} was accepted but "
                             f"{'changed nothing' if after == state else 'said nothing'} "
                             f"(a correction changes the count and logs an event)")

    def corrections(self, where: str, state: Any, seats: list[str]) -> None:
        """Each correction the game offers the host, sent as is and with a new value."""
        offered = getattr(self.info, "corrections", None)
        if offered is None:
            return
        for form in offered(state) or ():
            for value in (form.get("current"), self.values.make(form.get("schema") or {})):
                if value is SKIP:
                    continue
                action = dict(form.get("action") or {}, value=value, by="host")
                action.setdefault("reason", NEUTRAL_REASON)
                validator = self.shapes.get(action.get("type"))
                if validator is not None and validator.is_valid(action):
                    self.try_action(where, state, action, seats)

    # ---- one whole game -------------------------------------------------------------------
    def play(self, setup: dict, number: int, most_actions: int, every: int) -> bool:
        """One random game from ``setup``; True when it reached its end."""
        from engine.record import RecordError, build, current_rules, replay

        module = self.module
        where = f"game {number}, {len(setup['players'])} players"
        state = module.setup(self.catalog, setup)
        seats = [p["seat"] for p in setup["players"]]
        secrets = self.privacy.secrets(where, state)
        actions: list[dict] = []
        for step in range(most_actions):
            here = f"{where}, action {step + 1}"
            for prompt in module.prompts(state):
                self.words.prompt(here, prompt)
            if step % every == 0:
                self.sample(here, state, seats, secrets, step)
            action = random_move(module, state, self.rnd)
            if action is None or not self.fits_shape(here, action):
                break
            before = json.dumps(state, sort_keys=True)
            try:
                after, events = module.apply(state, action)
            except Refused as refused:
                self.note(here, f"{_short(action)}, offered as allowed, was refused: {refused}")
                break
            except Exception as exc:  # noqa: BLE001 - reported with the move, as a phone meets it
                self.note(here, f"apply({_short(action)}) of a legal move raised "
                                f"{type(exc).__name__}: {exc}")
                break
            if json.dumps(state, sort_keys=True) != before:
                self.note(here, f"apply({_short(action)}) changed the state it was given")
            self.state_is_json(here, after)
            self.events(here, events, seats)
            secrets_after = self.privacy.secrets(here, after)
            self.privacy.check_action(here, state, action, after, events, seats, secrets,
                                      secrets_after, one_holder=step % every != 0)
            state, secrets = after, secrets_after
            actions.append(action)
        over = module.is_over(state)
        if over:
            here = f"{where}, the end"
            self.sample(here, state, seats, secrets, 0, over=True)
            turns.check_over(here, module, state, seats, self.note)
        try:
            replayed, _ = replay(module, self.catalog, build(self.info.id, setup, actions,
                                                             current_rules(self.info)))
        except RecordError as exc:
            self.note(where, f"the record does not replay: {exc.problems}")
        else:
            if json.dumps(replayed, sort_keys=True) != json.dumps(state, sort_keys=True):
                self.note(where, "the record replays to another state")
        return over

    def sample(self, here: str, state: Any, seats: list[str], secrets: dict, step: int,
               over: bool = False) -> None:
        """The checks made at a position: views, privacy, scores, probes, corrections."""
        if not self.views(here, state, seats):
            return
        self.privacy.check_views(here, state, seats, secrets)
        turns.check_scores(here, self.module.scores(state), seats, self.module.is_over(state),
                           self.note)
        self.probe(here, state, seats)
        if not over:
            self.adjust(here, state, seats)
            if step % 4 == 0:
                self.corrections(here, state, seats)


def check_game(module: GameModule, catalog: Any, *, games: int = 3, most_actions: int = 1000,
               seed: int = 0, app_reasons: Any = (), translated: Mapping | None = None,
               probes: int = 6, every: int = 3) -> list[str]:
    """The contract's broken promises (empty when the game keeps it), over ``games`` random
    games per player count, checked and probed at every ``every``-th position.

    ``catalog``: what the app would pass to ``setup``; ``app_reasons``: the refusal codes
    the app words, {code: English template} (``companion.game.reasons.SERVER_REASONS``),
    which a game may raise without a text of its own; ``translated``: {language: the msgids
    translated into it} for the game's languages but English (the game's domain and the
    shared one: companion/commands/contract.py reads them), None to check English only."""
    rnd = random.Random(seed)
    report = Report()
    check = _Checker(module, catalog, rnd, report, app_reasons, translated, probes)
    check.declarations()
    ended: dict[int, bool] = {}
    for number in range(games):
        for setup in setups(module, seed * 1000 + number):
            count = len(setup["players"])
            if number == 0:
                turns.check_start(module, catalog, setup, rnd, report.note)
            ended[count] = check.play(setup, number, most_actions, every) or ended.get(count,
                                                                                      False)
    for count, done in sorted(ended.items()):
        if not done:
            report.note(f"{count} players", f"no random game ended within {most_actions} "
                                             f"actions (is_over never became true)")
    if check.adjust_tries and not check.adjust_accepted:
        report.note("adjust", f"none of {check.adjust_tries} host corrections (adjust, +1/-1 "
                              f"of an item) was accepted: the host's 'Correct a count' would "
                              f"always fail")
    return report.problems


def assert_game_keeps_contract(module: GameModule, catalog: Any, **options: Any) -> None:
    """Fail (AssertionError listing every problem) unless ``module`` keeps the contract."""
    problems = check_game(module, catalog, **options)
    assert not problems, f"{module.info.id} breaks the plug-in contract:\n" + "\n".join(problems)

"""The game-module interface: the one contract between the rules and everything else.

Every game (World Without End, The Pillars of the Earth, Monasterium, and any plug-in) is a
module object implementing `GameModule`. The server, the CLI, the replayer and the tests
talk to games only through it. Documented for people in docs/engine.md.

Conventions shared by every game:
- All values crossing this interface are plain JSON data (dict, list, str, int, float,
  bool, None), so the state, actions and events round-trip through JSON exactly.
- An *action* is a dict with at least ``{"type": <name in words>, "by": <actor>}``.
  ``by`` is a seat id (``"N"``, ``"E"``, ``"S"``, ``"W"`` in World Without End) or
  ``"table"`` for what the table records (an event card revealed, a die rolled) or
  ``"host"`` for host corrections.
- An *event* is a dict ``{"type": <name>, ...params}`` telling what happened, in order.
  Events carrying a seat's private information have ``"private": <seat>``.
- A refusal is raised as `Refused(code, **params)`; the state is never changed by it.
  ``code`` is a stable snake_case key the UI translates; params fill in the message.
- Determinism: the same setup and actions give the same state. Chance decided at the
  table enters as recorded actions; randomness the app itself must produce comes from
  a seeded generator whose seed lives in the state (never in any view).
"""
from __future__ import annotations

import hashlib
import string
from dataclasses import dataclass, field
from typing import Any, Protocol

JSON = Any
State = dict[str, JSON]
Action = dict[str, JSON]
Event = dict[str, JSON]


# Refusal params that tell the acting seat its own holdings ("you have 2 gold"): the app
# drops them from any refusal sent to someone who is not a seat (the host, the table).
PRIVATE_PARAMS = frozenset({"have"})


class Refused(Exception):
    """An illegal action, refused with a translatable reason code and its parameters."""

    def __init__(self, code: str, **params: JSON) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def to_json(self) -> dict[str, JSON]:
        return {"code": self.code, "params": self.params}

    def __str__(self) -> str:
        detail = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.code}({detail})" if detail else self.code


@dataclass(frozen=True)
class Prompt:
    """Who must decide what right now. Several seats may owe a decision at once."""

    seat: str  # a seat id, or "table" for something the table must record
    kind: str  # e.g. "orient_event", "play_card", "answer_trade", "choose_protection"
    params: dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "kind": self.kind, "params": self.params}


@dataclass(frozen=True)
class Choice:
    """One option for a seat: the action to send, its cost and a preview of its effect.

    When ``refused`` is set the option is shown as not possible, with the reason.
    """

    action: Action
    cost: dict[str, JSON] = field(default_factory=dict)
    effect: dict[str, JSON] = field(default_factory=dict)
    refused: dict[str, JSON] | None = None  # Refused.to_json() when not possible

    def to_json(self) -> dict[str, JSON]:
        out = {"action": self.action, "cost": self.cost, "effect": self.effect}
        if self.refused is not None:
            out["refused"] = self.refused
        return out


class GameModule(Protocol):
    """What every game implements. Pure functions of their arguments."""

    name: str  # short id used in records, e.g. "wwe"
    info: GameInfo  # declared below: titles, seats, options, texts, catalog, bindings, web

    def setup(self, catalog: JSON, setup: dict[str, JSON]) -> State:
        """A new game. ``setup`` holds players (name, colour, seat), options and seed."""

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        """The new state and the events, or raise `Refused`. Never mutates ``state``."""

    def prompts(self, state: State) -> list[Prompt]:
        """Every decision owed right now, by whom."""

    def choices(self, state: State, seat: str) -> list[Choice]:
        """The options of ``seat`` now, possible ones and refused ones with reasons."""

    def public_view(self, state: State) -> dict[str, JSON]:
        """What everyone at the table may see."""

    def seat_view(self, state: State, seat: str) -> dict[str, JSON]:
        """Everything ``seat`` may see (public view included) and nothing more."""

    # Optional: ``private_view(state, seat) -> dict``, what ``seat_view`` adds to the public
    # view for ``seat``: ``seat_view(s, seat) == {**public_view(s), **private_view(s, seat)}``.
    # With it the server builds and translates the public part once per state and language
    # for every recipient (companion/game/shared.py); without it, it calls ``seat_view``.
    # Optional: ``choices_of(state, askers) -> {asker: [Choice]}``, ``choices`` of several
    # askers at once, equal to ``{a: choices(state, a) for a in askers}``: the server asks it
    # once per state for every seat and "table", so a game may share work between askers.

    def scores(self, state: State) -> list[dict[str, JSON]]:
        """Standings with tie-breakers, final once the game is over."""

    def is_over(self, state: State) -> bool:
        """True once the game has ended by its rules (no decision is owed any more)."""

    def preview(self, state: State, action: Action) -> dict[str, JSON] | None:
        """What a tentative answer would do, for everyone to see (public parts only), or
        None when the action is not a legal answer now. Never changes anything."""


# ---- what a game declares besides its rules (the plug-in interface) ---------------------
# The app (companion/, hardware/, the shared web client) knows no game: everything it needs
# to offer a game comes from these declarations, found on ``GameModule.info``.


@dataclass(frozen=True)
class SeatInfo:
    """One seat at the physical table. ``name`` is an English msgid ("North")."""

    id: str
    name: str
    colour: str  # the default CSS colour of the seat's pieces


# The languages the app speaks; English is the msgids. A game declares those its texts are
# translated into (`GameInfo.languages`): the app offers only those on the game's pages and
# `web.i18n_tool check` and the contract kit check only those (docs/translations.md).
LANGUAGES = ("en", "it", "pl", "es", "de")


# The four sides of a square table, as most games seat their players (id, English name,
# the usual colour of that side's pieces).
COMPASS_SEATS = (SeatInfo("N", "North", "blue"), SeatInfo("E", "East", "red"),
                 SeatInfo("S", "South", "green"), SeatInfo("W", "West", "yellow"))


@dataclass(frozen=True)
class Option:
    """A rule variant or [BEST READING], offered on the new-game form.

    ``text`` and the values of ``labels`` are English msgids the game's translations cover.
    """

    id: str
    default: JSON
    choices: tuple[JSON, ...]
    text: str
    rule: str = ""  # where in the rules reference, e.g. "A-2, R3.5.5"
    labels: dict[str, str] = field(default_factory=dict)  # str(choice) -> English label
    # True: a [BEST READING] of an unclear rule, folded with the others under "Rule options"
    # on the new-game form (the recommended reading preselected); False: a variant the table
    # chooses (a first-game mode, a shorter game), shown openly
    reading: bool = False

    @classmethod
    def table(cls, options: dict[str, tuple], variants: tuple[str, ...] = ()
              ) -> tuple[Option, ...]:
        """Options from a game's table of readings ``{id: (default, choices, rule, text)}``
        (``variants``: the ids that are variants, not readings); a non-bool choice is
        labelled by its words ("after_income" -> "after income")."""
        return tuple(
            cls(key, default, tuple(allowed), text, rule,
                labels={str(v): str(v).replace("_", " ") for v in allowed
                        if not isinstance(v, bool)}, reading=key not in variants)
            for key, (default, allowed, rule, text) in options.items())

    def check(self, value: JSON) -> JSON:
        """The value if allowed (bools stay bools: 1 is not True), else raise Refused."""
        for allowed in self.choices:
            if type(allowed) is type(value) and allowed == value:
                return value
        raise Refused("bad_option", option=self.id)


@dataclass(frozen=True)
class Texts:
    """English templates the app translates with the game's own message catalog.

    ``reasons``: refusal code -> template; ``events``: event type -> log template;
    ``prompts``: prompt kind -> plain-words template; ``terms``: an engine word found in
    event or refusal params -> English msgid ("param:word" scopes a word to one param);
    ``ui``: key -> English msgid for the game's own pages (web/games/<id>/); ``catalog``:
    the problem codes of ``check_catalog`` -> template (the owner's deck page shows them).
    """

    reasons: dict[str, str] = field(default_factory=dict)
    events: dict[str, str] = field(default_factory=dict)
    prompts: dict[str, str] = field(default_factory=dict)
    terms: dict[str, str] = field(default_factory=dict)
    ui: dict[str, str] = field(default_factory=dict)
    catalog: dict[str, str] = field(default_factory=dict)  # check_catalog problem code -> template
    # event type -> the templates it had before its fields grew, newest first: an event stored
    # with a game record before the change lacks the new field, and the app words it with
    # the newest template whose fields it has (docs/engine.md, "Older events")
    older_events: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # rule id -> {"ref": {lang or "*": rulebook reference}, "text": English msgid}, and
    # "reasons" / "events" / "prompts" -> {code, event type or prompt kind: rule id}
    # (engine/citations.py loads both from the game's rules.json; docs/rules-cited.md)
    rules: dict[str, dict] = field(default_factory=dict)
    cites: dict[str, dict[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class CatalogPart:
    """One file of a game's catalog (``<id>.json``): its JSON Schema and how overrides merge.

    ``merge``: "by_key" (a list of objects; an override entry replaces the entry with the
    same ``key`` or is added), "deep" (an object merged key by key, nested objects too),
    "replace" (the override replaces the whole file). ``nested`` names a key of an object
    file holding a list merged "by_key" (e.g. a plague file's ``locations``).
    The owner's deck page builds its forms from ``schema``: a property's ``title`` (English
    msgid, translated in the game's domain) labels its field, a ``oneOf`` of ``const``s with
    titles is a choice list (docs/catalog.md, "The Your deck page").
    """

    id: str
    schema: dict[str, JSON]
    merge: str = "by_key"
    key: str = "id"
    nested: str | None = None
    title: str = ""  # English msgid, e.g. "Event cards"
    stickers: str | None = None  # the sticker kind word of these entries, e.g. "event"


def catalog_problem(reasons: dict[str, str] | None, file: str, entry: Any, field: str | None,
                    code: str, **params: JSON) -> dict[str, JSON]:
    """One problem of a catalog check (the app's schemas, a game's ``check_catalog``): where
    (file, entry, field), what (``code`` and its ``params``) and, given ``reasons`` (code ->
    English template), the ``reason`` in words. The one builder of the app and every game."""
    out = {"file": file, "entry": entry, "field": field, "code": code, "params": params}
    if reasons is not None:
        out["reason"] = f"{code}: {reasons[code].format(**params)}"
    return out


def template_fields(template: str | list | tuple) -> set[str]:
    """The names of the ``{placeholders}`` of a text (both forms of a plural one): the fields
    an event must carry for its log line (``Texts.older_events``, the contract kit)."""
    forms = template if isinstance(template, list | tuple) else (template,)
    out: set[str] = set()
    for form in forms:
        try:
            out |= {name.split(".")[0].split("[")[0]
                    for _text, name, _spec, _conv in string.Formatter().parse(form) if name}
        except ValueError:  # an unbalanced "{": no field to ask for
            continue
    return out


def choice_schema(titles: dict[Any, str], title: str | None = None) -> dict[str, JSON]:
    """A property that takes one of ``titles``' keys: a ``oneOf`` of ``const``s with their
    titles, which the deck page shows as a choice list of the titles (see CatalogPart)."""
    out: dict[str, JSON] = {"oneOf": [{"const": k, "title": v} for k, v in titles.items()]}
    return {"title": title, **out} if title is not None else out


@dataclass(frozen=True)
class StickerKind:
    """A kind of printed sticker: one capital letter on the code, a word for people."""

    letter: str
    word: str
    part: str  # the catalog part listing the entries that get this sticker
    # the card's rectangle in sticker sides from the symbol's top-left (left, top, width,
    # height): where the owner's card pictures are cut from a camera frame (companion/box/deck.py)
    card: tuple[float, float, float, float] = (-0.3, -0.25, 1.6, 2.3)


@dataclass(frozen=True)
class Zone:
    """A camera zone in board millimetres (x right, y down from the board marker)."""

    id: str
    name: str  # English msgid
    rect: tuple[float, float, float, float]  # x0, y0, x1, y1


# The colour groups the table camera tells dice apart by (hardware/camera/dice_faces/colour.py).
DIE_COLOURS = ("white", "black", "red", "orange", "yellow", "green", "blue", "purple")


@dataclass(frozen=True)
class DieRole:
    """A physical die the game reads: which faces it has (None: the catalog's ``faces_from``)
    and the colour of its body (``colour_from``: a dotted path in the catalog to one of
    `DIE_COLOURS`), by which the camera tells a player's personal dice from the neutral ones.
    A role without a colour is given dice only by id (a serial reader, the host's mapping)."""

    id: str
    name: str  # English msgid
    faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    faces_from: str | None = None  # dotted path in the catalog, e.g. "game.tax_die.faces"
    # faces that are not pips (a tax die of 2-5 gold): the table camera reads the die only
    # once the owner has shown it a picture of each face (the host's "Your deck" page,
    # companion/box/taught_dice.py); until then it is entered by hand
    taught: bool = False
    count: int = 1  # how many dice of this role a roll may carry
    colour_from: str | None = None  # dotted path in the catalog, e.g. "board.dice_colours.N"


@dataclass(frozen=True)
class Sighting:
    """A card seen by the camera, in the game's words (the app resolved the sticker)."""

    kind: str  # the sticker kind word, e.g. "event"
    card: str  # the catalog id
    zone: str | None
    rotation: int  # quarter turns clockwise, 0-3
    change: str  # "appeared" | "turned" | "moved" | "removed"


@dataclass(frozen=True)
class DieFace:
    """One die of a settled roll: its role (as configured on the host's dice page) and face."""

    role: str
    face: int
    die: str = ""  # the reader's id for the physical die


# What an input means. A binding returns a list of these; the app carries them out.
@dataclass(frozen=True)
class Act:
    """Apply ``action`` now (``action["by"]`` says who it is recorded for)."""

    action: Action


@dataclass(frozen=True)
class Propose:
    """A tentative answer to a prompt: shown as a preview, applied once it stayed the same
    for the table's commit delay (a card being turned), unless the seat answers first."""

    action: Action


@dataclass(frozen=True)
class Select:
    """Pre-select ``card`` on ``seat``'s phone (None clears it); nothing is applied."""

    seat: str
    card: str | None


@dataclass(frozen=True)
class Warn:
    """Tell the host something is off (``code`` is one of the game's reasons)."""

    code: str
    params: dict[str, JSON] = field(default_factory=dict)


Outcome = Act | Propose | Select | Warn


@dataclass(frozen=True)
class TableStep:
    """A step people do with their hands at the table (cards laid out, an event card
    revealed, dice rolled): who does it, what will confirm it, and what to tap where
    nothing can. The table display, the phones and the host page all say it the same way.

    ``text`` is an English msgid template filled with ``params`` (and ``{who}``: the
    player's name); ``who`` a seat, or "table" (whoever sits nearest); ``confirms`` the
    devices that record it by themselves ("camera", "dice"), ``zone`` the camera zone where
    the card goes; ``done``/``of`` the progress over the step's parts ("craftsman 2 of 4");
    ``fallback`` the action (a table action) the host page or the table display sends where
    nothing confirms it, ``fallback_text`` its button (English msgid); ``by_hand`` an
    English msgid saying where the table display takes the input by hand instead;
    ``rest_text`` (English msgid), when set, a second button that sends the fallback again
    and again until no step of this ``kind`` is owed ("Let the app draw the rest": the whole
    round preparation in one tap, each draw recorded as its own action).
    """

    kind: str
    text: str
    who: str = "table"
    params: dict[str, JSON] = field(default_factory=dict)
    confirms: tuple[str, ...] = ()
    zone: str | None = None
    done: int = 0
    of: int = 0
    fallback: Action | None = None
    fallback_text: str = ""
    by_hand: str = ""
    rest_text: str = ""


@dataclass(frozen=True)
class DemoCard:
    """One card of a game's demo scene for the simulated camera: the catalog part, the card
    (None: the part's first entry), the zone it lies in, and when (``step``: the table step
    kind it answers, so the simulated camera lays it while that step is awaited; None:
    always), turned ``rotation`` quarter turns."""

    part: str
    zone: str
    card: str | None = None
    step: str | None = None
    rotation: int = 0


@dataclass(frozen=True)
class Bindings:
    """What the table's hardware means to the game: pure functions, no hardware imports.

    ``sighting(state, Sighting) -> [Outcome]``; ``roll(state, [DieFace]) -> [Outcome]``.
    A roll entered by hand is the game's own prompt, answered on the phones like any other.
    """

    zones: tuple[Zone, ...] = ()
    dice: tuple[DieRole, ...] = ()
    sighting: Any = None  # callable(state, Sighting) -> list[Outcome]
    roll: Any = None  # callable(state, list[DieFace]) -> list[Outcome]
    # the action types that record a roll of these dice (what ``roll`` answers with, and what
    # a phone or the table display sends to enter a roll by hand): while the dice reader or
    # the table camera reads the rolls, a phone sends none of them (companion/wiring/dice.py)
    roll_actions: frozenset[str] = frozenset()
    table_steps: Any = None  # callable(state) -> [TableStep]: what the table must do now
    # callable(catalog, state | None) -> [DemoCard]: what the simulated camera shows
    demo_scene: Any = None
    # callable(state) -> {zone: [card ids]}: the cards the game has taken in each camera
    # zone; a setup step the camera ticks ("card:<zone>") needs the game to have it there
    zone_cards: Any = None
    # callable(catalog, state | None) -> [role id]: the dice the table owes a roll of now, one
    # role id per die: the simulated camera throws them in its tray (in their colours), and
    # the camera's roll asks the rolling player for those of them it cannot read (a taught
    # die not taught yet); and the camera's reader is told how many dice that is: it reads no
    # further than that many, and a tray showing more is not the roll
    # (companion/wiring/dice.py `dice_thrown`). Absent: a roll owes one die of each role the
    # camera cannot read, and the reader is told no number (other dice may lie beside them)
    owed_dice: Any = None
    # the catalog parts (ids) whose cards the camera may know by their printed face, taught
    # once from the owner's pictures (companion/box/taught_cards.py), where no sticker is
    # read: a sighting by face is the one its sticker gives (the part's kind word, the id
    # and the card's turn), so the cards whose turn matters (an event card) can go bare
    face_parts: tuple[str, ...] = ()
    # "package:file.json": how the cards of ``face_parts`` are printed, per part the face's
    # regions (fractions of the upright card: a coloured band, the title, a number in a
    # disc, the art) and the catalog field that fills each, so cards apart only by a digit
    # or a band's colour are drawn so: the demo draws the faces from it
    # (companion/wiring/demo_faces.py) and bench/game_faces.py measures which cards the
    # camera tells apart at the table's resolution. Read by the app, never by the rules.
    face_looks: str = ""


@dataclass(frozen=True)
class GameInfo:
    """Everything the app needs to offer a game, besides the rules themselves.

    ``web`` is the importable package holding the game's web folder (board, phone and
    table scripts, partials, styles, translations), e.g. "web.games.wwe".
    ``catalog`` is the importable package holding the shipped catalog files.
    ``check_catalog(catalog) -> [problem]`` runs the game's own fact checks after the
    schemas (problems: {"file", "entry", "field", "code", "params"}).
    ``catalog_state(catalog)`` is what a state carries of the catalog under ``state["cat"]``;
    the app keeps it out of snapshots and records and puts it back from the catalog the game
    was created with (games are pinned to their catalog).
    """

    id: str
    names: dict[str, str]  # language -> the game's title
    seats: tuple[SeatInfo, ...]
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    texts: Texts
    catalog: str
    # a game without cards, stickers or table hardware (a dice game the app rolls) leaves
    # these out: no catalog parts, no stickers, no camera zones or dice
    parts: tuple[CatalogPart, ...] = ()
    stickers: tuple[StickerKind, ...] = ()
    bindings: Bindings = field(default_factory=Bindings)
    web: str = field(kw_only=True)  # required, by name: the package of the web folder
    check_catalog: Any = None
    catalog_state: Any = None
    demo_entries: Any = None  # callable(catalog) -> [{"file", "entry", "fields"}]
    sticker_namespace: str = ""  # on the stickers, 1-6 letters/digits (default: the id)
    start_rule: str = ""  # English msgid: who starts by the rules ("whoever built last")
    table_actions: frozenset[str] = frozenset()  # action types the table display may send
    host_actions: frozenset[str] = frozenset()  # corrections only the host may send
    # callable(state) -> [{"part", "key", "title", "current", "schema", "action"}]: every
    # correction of the public board the host can make now, ``schema`` being the JSON Schema
    # of a new value; send ``{**action, "value": new}`` (see docs/engine.md, Corrections).
    corrections: Any = None
    # callable(state, part, key) -> {"title", "schema"} | None: what a correction of ``part``
    # (and ``key``) is called (English msgid) and the JSON Schema of its value (its "title"s
    # the game's words for fields and choices), also where it cannot be made now: the app
    # words a `corrected` event's before and after with it (the log of an earlier or a
    # finished game's correction, the host's preview). None: the part is unknown.
    correction_form: Any = None
    # "package:file.json": the physical setup step by step (per player count), each player's
    # starting pieces and the tie-break in words; English msgids the game's domain translates
    # (docs/setup-guide.md). Read by the app (companion/table/table_guide.py), never by the rules.
    table_guide: str = ""
    # callable(state) -> {guide step id: [catalog entry id]}: the cards a setup step lays out
    # that the app drew itself with the game's seed (Monasterium's 6 missions), so the step
    # names them and the table lays the cards the rules score, not a draw of its own; the
    # app shows each by its catalog name in the screen's language (docs/setup-guide.md).
    setup_drawn: Any = None
    # action type -> the JSON Schema of what such an action may carry (built with
    # engine/shapes.py): the app refuses a type without a shape, and an action not of its
    # type's shape, as `bad_action` with the path of the first wrong field.
    action_shapes: dict[str, Any] = field(default_factory=dict)
    # callable(catalog) -> {action type: shape}: the shapes whose ids are enums of the
    # catalog a game was created with (a project, a craftsman), replacing those of
    # ``action_shapes`` for that game (issue 31: a shape names the values a field can take).
    catalog_shapes: Any = None
    # callable(state, action) -> action: the action as the rules use it in ``state``, the
    # fields it does not use dropped or a default the rules choose filled in; what the app
    # stores (and cleans an imported record with), so a replay never depends on junk. Only
    # called on actions of their shape; returns the action itself when nothing changes.
    canonical: Any = None
    # English msgid of what the game scores ("VP"; Monasterium: "prestige"), translated in
    # the game's domain: history and exports name the score with it.
    score_name: str = "VP"
    # What a stored setup and action mean (docs/record-format.md, "Rules versions"): raised
    # by a rules change that alters it, with ``migrations[old]``, a pure
    # callable(setup, actions) -> (setup, actions) taking a game from ``old`` to ``old + 1``
    # (raising `Refused("not_migratable", reason=...)` for a game it cannot take).
    rules_version: int = 1
    migrations: dict[int, Any] = field(default_factory=dict)
    # The languages the game's texts are translated into, English first (a subset of
    # `LANGUAGES`): its pages offer only these.
    languages: tuple[str, ...] = LANGUAGES
    # callable(state) -> {holder: [path]}: where the state keeps what not everyone may see.
    # ``holder`` is a seat (its hand, its dice, its coins) or None (nobody: the seed, a
    # face-down pile); a ``path`` is a tuple of keys and list indexes into the state. No view
    # and no event may show a holder's secret to anyone else, in any form: the contract kit
    # (engine/contract) swaps each holder's secrets and checks that every other view, and
    # every event of the same action sent to another, stays the same (docs/engine.md, "What
    # is private"). `secret_paths("hands.{seat}", "seed")` builds one.
    secrets: Any = None
    # Event types the rules announce to everyone though they are worded from a secret its
    # holder keeps (World Without End's `lose`: the log tells everyone the loss an event card
    # makes a seat pay from its hidden resources, and a seat with none pays nothing and is
    # not named). The contract kit does not compare these between its worlds of swapped secrets;
    # every other event an action sends must not depend on a secret another seat keeps.
    announced: frozenset[str] = frozenset()


def secret_paths(*patterns: str):
    """``GameInfo.secrets`` from dotted paths into the state: ``"{seat}"`` stands for every
    key of the object at that place, each key the holder ("hands.{seat}": each seat's hand);
    a pattern without it is nobody's ("seed"). A number is a list index. A pattern that finds
    nothing in a state still names its path, so the contract kit reports it missing."""
    split = [tuple(int(p) if p.isdigit() else p for p in pattern.split("."))
             for pattern in patterns]

    def secrets(state: State) -> dict[str | None, list[tuple]]:
        out: dict[str | None, list[tuple]] = {}
        for parts in split:
            if "{seat}" not in parts:
                out.setdefault(None, []).append(parts)
                continue
            cut = parts.index("{seat}")
            node = state
            for key in parts[:cut]:
                node = node.get(key) if isinstance(node, dict) else None
            if not isinstance(node, dict) or not node:
                out.setdefault(None, []).append(parts[:cut] + ("{seat}",))
                continue
            for seat in node:
                out.setdefault(seat, []).append(parts[:cut] + (seat,) + parts[cut + 1:])
        return out

    secrets.patterns = patterns  # shown in the kit's reports
    return secrets


def sticker_namespace(info: GameInfo) -> str:
    """The namespace printed on a game's stickers (``TC1:<NS>:<letter>:<code>``)."""
    return (info.sticker_namespace or info.id).lower()


def correction_preview(module: GameModule, state: State, action: Action) -> dict[str, JSON]:
    """Before and after of a host correction, for everyone to check before it is sent.

    ``{"before": public view, "after": public view, "changed": [top-level keys of the view
    that differ], "events": [...]}``, or ``{"before": ..., "refused": Refused.to_json()}``.
    Never changes anything (``apply`` never mutates its state)."""
    before = module.public_view(state)
    try:
        after_state, events = module.apply(state, action)
    except Refused as r:
        return {"before": before, "refused": r.to_json()}
    after = module.public_view(after_state)
    changed = sorted(k for k in set(before) | set(after)
                     if k != "version" and before.get(k) != after.get(k))
    return {"before": before, "after": after, "changed": changed, "events": events}


CATALOG_KEY = "cat"  # where a state carries its catalog (see GameInfo.catalog_state)


@dataclass(frozen=True)
class Table:
    """Who sits where, checked from a game's ``setup`` (the new-game form's or a record's)."""

    seats: list[str]  # in table order
    names: dict[str, str]
    seed: int  # a text seed is turned into this int (see `seed_number`)
    start: str  # ``setup["start_seat"]``, as the new-game form and docs/engine.md name it


def seed_number(seed: Any) -> int:
    """``setup["seed"]`` as an int: docs/engine.md allows "int or text"; a text seed gives the
    same int on every machine (sha256, not ``hash``, which changes per process)."""
    if type(seed) is int:
        return seed
    if isinstance(seed, str):
        return int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest()[:8], "big")
    raise Refused("bad_setup", reason="seed must be a number or text")


def table_from_setup(setup: Any, order: tuple[str, ...], fewest: int = 2, most: int = 4
                     ) -> Table:
    """The seats, names, seed and start player of ``setup``, or `Refused("bad_setup")`
    saying what is wrong (the players' count, a seat twice or unknown, the seed, the start)."""
    if not isinstance(setup, dict):
        raise Refused("bad_setup", reason="setup must be an object")
    players = setup.get("players")
    if not isinstance(players, list) or not fewest <= len(players) <= most:
        raise Refused("bad_setup", reason=f"{fewest} to {most} players")
    seats: list[str] = []
    for p in players:
        seat = p.get("seat") if isinstance(p, dict) else None
        if seat not in order or seat in seats:
            raise Refused("bad_setup", reason="each player needs a distinct seat "
                          + ", ".join(order))
        seats.append(seat)
    seats = [x for x in order if x in seats]
    seed = seed_number(setup.get("seed", 0))
    start = setup.get("start_seat", seats[0])
    if start not in seats:
        raise Refused("bad_setup", reason="the start player must be a seat in the game")
    return Table(seats, {p["seat"]: str(p.get("name", p["seat"])) for p in players}, seed,
                 start)


def random_move(module: GameModule, state: State, rnd: Any) -> Action | None:
    """A random legal action for a random player (benches, tests): the game's own
    ``random_action(state, rnd)`` when it declares one, else a random allowed choice of the
    first seat prompted; None once the game is over or nobody has a move."""
    if module.is_over(state):
        return None
    own = getattr(module, "random_action", None)
    if own is not None:
        return own(state, rnd)
    for prompt in module.prompts(state):
        allowed = [c.action for c in module.choices(state, prompt.seat) if c.refused is None]
        if allowed:
            return dict(rnd.choice(allowed))
    return None

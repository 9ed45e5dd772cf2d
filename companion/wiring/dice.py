"""Dice rolls into game actions, through the game's declared bindings.

The dice reader (`hardware.dice`) knows nothing of games; here a settled `Roll` is handed to
the current game (`GameInfo.bindings.roll`) as its dice by role, and what the game says it
means (an action to record, a warning) is carried out. Die ids map to the roles a game
declares (`GameInfo.bindings.dice`) per game in config.json ``dice.roles``; by default a die
whose id is a role's id plays that role. Rolls the game does not ask for are ignored; a
refused one becomes a warning on the host's dice page, and tapping the value in still works.

Settings, all optional, in ``DATA/config.json``::

    {"dice": {"port": "auto" | "/dev/...",        # auto: /dev/dicereader, then VID:PID
              "usb_ids": ["2341:0043", "1a86:*"], # what discovery looks for
              "emulate": "auto" | true | false,   # auto: an emulator when no reader is found
              "emulator_http_port": 8765,         # POST /roll to the emulator (make run)
              "roles": {"<game>": {"<die id>": "<role>"}},
              "source": "serial" | "camera" | "phones"}}

``source`` is the host's choice of what reads the dice (the host page, kept here): the
serial reader (the default), the table camera's tray (companion/wiring/camera_dice.py) or
nobody (the phones: the rolls are entered by hand). Rolls from a source not chosen are
ignored. Every source hands on the same `Roll`: a die's role is the owner's mapping, else
its id, else its colour (``white3`` plays the role whose `DieRole.colour_from` says white).
A camera roll with unreadable dice, or owing a die the camera has not learnt yet (a taught
die not taught: `untaught_owed`), waits for the rolling player to enter those dice only
(`enter_face`), then goes to the game whole, once.

All but ``roles`` are start-up settings (`companion.server.settings.DiceSettings`: the environment,
e.g. ``COMPANION_DICE_EMULATE``, and the app config ``DICE_EMULATE`` go over config.json);
``emulate`` defaults to ``off``, so a Pi without a reader shows the dice as absent (tapping in
works) rather than a fake reader. ``roles`` are read again at each roll.
"""
from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from companion.game.dice_roles import catalog_value, role_faces
from companion.game.reasons import DeviceRefused
from companion.game.service import GameService, Identity
from companion.server import locks
from companion.server.settings import DiceSettings, Settings
from engine.api import DIE_COLOURS, Act, DieFace, Refused, Warn
from hardware import config_file
from hardware.dice import discovery
from hardware.dice.observations import DiceStatus, Roll

log = logging.getLogger(__name__)

SOURCES = ("serial", "camera", "phones")
# the states of the chosen source in which it records the rolls itself ("untaught_some": the
# camera reads the dice it learnt and asks the rolling player for the others)
READING = frozenset(("ok", "untaught_some"))
_COLOURED = re.compile(r"([a-z]+)(\d+)")  # a camera die id: its colour group, a number


# ------------------------------------------------------------------------- pure rules


def load_settings(data_dir: str | Path) -> dict:
    """The ``dice`` section of DATA/config.json as it is now ({} when absent or unreadable):
    read for the roles, which the host page changes while the server runs."""
    dice = config_file.read(Path(data_dir) / "config.json").get("dice")
    if isinstance(dice, str):
        return {"port": dice}
    return dice if isinstance(dice, dict) else {}


def source_of(settings: dict, default: str = "serial") -> str:
    """The dice source the host chose (``default`` when none is kept)."""
    source = settings.get("source")
    return source if source in SOURCES else default


def save_source(config_path: Path, source: str) -> None:
    """Keep the host's choice in config.json ``dice.source`` (every other key kept)."""
    if source not in SOURCES:
        raise DeviceRefused("dice_bad_source")

    def change(data: dict) -> None:
        dice = data.get("dice")
        dice = {"port": dice} if isinstance(dice, str) else dice
        data["dice"] = dict(dice if isinstance(dice, dict) else {}, source=source)

    config_file.update(config_path, change)


def role_colour(role, catalog) -> str | None:
    """A role's die colour from the catalog (``colour_from``), if it names one."""
    colour = catalog_value(catalog, role.colour_from)
    return colour if colour in DIE_COLOURS else None


def colour_of(die: str) -> str | None:
    """The colour group in a camera die's id (``white3``: white), if it names one."""
    named = _COLOURED.fullmatch(die)
    return named.group(1) if named and named.group(1) in DIE_COLOURS else None


def colour_roles(declared, catalog, dice) -> dict[str, str]:
    """Die id -> role for dice named by colour (``white3``): the role of that colour."""
    by_colour: dict[str, str] = {}
    for role in declared:
        colour = role_colour(role, catalog)
        if colour is not None:
            by_colour.setdefault(colour, role.id)
    return {die: by_colour[colour_of(die)] for die in dice if colour_of(die) in by_colour}


def taught_die_roles(declared, dice) -> dict[str, str]:
    """Die id -> role for dice the camera read by a taught die's pictures: it names them
    after the role (``tax``, a second one ``tax2``; hardware/camera/dice_settle.py)."""
    taught = {role.id for role in declared if role.taught}
    out = {}
    for die in dice:
        base = die.rstrip("0123456789")
        if die in taught or (base in taught and die[len(base):] not in ("", "0", "1")):
            out[die] = die if die in taught else base
    return out


def camera_cannot_read(live, taught, settings: dict) -> str | None:
    """Why the camera gives none of the game's dice a role, or None when it gives some:
    ``untaught`` (its dice are read by taught pictures, not taught yet), ``unmapped`` (its
    dice have no colour in the catalog and the owner mapped none of the camera's dice ids).
    Then the roll is entered by hand, and no screen promises otherwise."""
    declared = live.kind.module.info.bindings.dice if live is not None else ()
    if not declared:
        return None
    mapped = _mapped_roles(live, settings)
    for role in declared:
        if (role.id in taught or role.id in mapped
                or role_colour(role, live.kind.catalog) is not None):
            return None
    if any(role.taught for role in declared):
        return "untaught"
    return "unmapped"


def camera_untaught(live, taught, settings: dict) -> list:
    """The game's dice read by taught pictures (`DieRole.taught`) that the camera has not
    learnt yet and the owner mapped to none of the camera's dice ids: their roles. Until
    the host's deck page teaches them, they are entered by hand, whatever else the camera
    reads of the roll."""
    if live is None:
        return []
    mapped = _mapped_roles(live, settings)
    return [role for role in live.kind.module.info.bindings.dice
            if role.taught and role.id not in taught
            and role.id not in mapped]


def untaught_owed(live, untaught, read_roles) -> dict[str, object]:
    """The dice of a camera roll the camera cannot read because they are not taught yet: die
    id -> role. The game's `Bindings.owed_dice` says which dice the table owes a roll of now
    (without it, one of each untaught role); those of an ``untaught`` role beyond the dice of
    that role the camera did read (``read_roles``) are asked of the rolling player, named as
    the camera would name them once taught (``gem``, a second ``gem2``)."""
    if not untaught:
        return {}
    owed = live.kind.module.info.bindings.owed_dice
    wanted = (list(owed(live.kind.catalog, live.state)) if owed is not None
              else [role.id for role in untaught])
    out: dict[str, object] = {}
    for role in untaught:
        for k in range(1, wanted.count(role.id) - list(read_roles).count(role.id) + 1):
            out[role.id if k == 1 else f"{role.id}{k}"] = role
    return out


def _mapped_roles(live, settings: dict) -> set[str]:
    """The roles the owner gave some camera die id for ``live``'s game (the dice page)."""
    chosen = settings.get("roles") if isinstance(settings.get("roles"), dict) else {}
    mapped = chosen.get(live.kind.name)
    return set(mapped.values()) if isinstance(mapped, dict) else set()


def role_die_ids(role) -> list[str]:
    """The physical dice a role stands for by default: its own id, or ``<role>-1`` … for a
    role a roll carries several of (a game's neutral dice)."""
    count = max(1, int(role.count or 1))
    return [role.id] if count == 1 else [f"{role.id}-{k}" for k in range(1, count + 1)]


def game_dice() -> dict[str, list[int]]:
    """The emulated dice: one per die role of the installed games, named after the role
    (``<role>-<k>`` for a role of several dice)."""
    from companion.game.games import discovered

    dice: dict[str, list[int]] = {}
    for module in discovered().values():
        for role in module.info.bindings.dice:
            for die in role_die_ids(role):
                dice.setdefault(die, list(role.faces))
    return dice or {"d6": [1, 2, 3, 4, 5, 6]}


def roles_for(settings: dict, game: str, declared=()) -> dict[str, str]:
    """Die id → role for ``game``: the owner's mapping, else each declared role's own id."""
    roles = settings.get("roles", {})
    chosen = roles.get(game) if isinstance(roles, dict) else None
    if isinstance(chosen, dict):
        return {str(die): str(role) for die, role in chosen.items()}
    return {die: role.id for role in declared for die in role_die_ids(role)}


def die_faces(roll: Roll, roles: dict[str, str]) -> list[DieFace]:
    """The roll's dice that play a role, in the reader's order."""
    return [DieFace(roles[die], face, die) for die, face in roll.faces.items() if die in roles]


def roll_outcomes(module, state, roll: Roll, roles: dict[str, str]) -> list:
    """What the game says a settled roll means now (engine.api outcomes)."""
    meaning = module.info.bindings.roll
    dice = die_faces(roll, roles)
    return list(meaning(state, dice)) if meaning is not None and dice else []


def roll_step(live):
    """The table step that awaits a roll now (a step the dice confirm), or None."""
    listed = live.kind.module.info.bindings.table_steps
    if listed is None or live.state is None or live.status == "finished":
        return None
    return next((step for step in listed(live.state) if "dice" in step.confirms), None)


@dataclass
class PendingRoll:
    """A camera roll with dice it could not read: the rest waits for the rolling player."""

    game: str
    who: str | None  # the seat that rolled (None: anyone at the table)
    roll: Roll
    faces: dict[str, list[int]]  # each unreadable die that plays a role -> its faces
    roles: dict[str, str]  # die id -> role, for the whole roll
    version: int = 0  # the game's version it was read at: any action since ends the wait
    entered: dict[str, int] = field(default_factory=dict)
    # the dice the camera has not learnt yet (not in the tray's reading at all) -> the name
    # of their role (an English msgid, translated per recipient: hardware_texts.translated)
    untaught: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict:
        # ``version``: the screens stop showing it once the game moved past it
        # (companion/game/hardware_report.py `unstale`)
        return {"game": self.game, "who": self.who, "roll": self.roll.roll,
                "version": self.version,
                "read": len(self.roll.faces),
                "missing": [{"die": die, "colour": colour_of(die),
                             "role": self.roles[die], "faces": faces,
                             "place": list(self.roll.places.get(die) or ()),
                             "face": self.entered.get(die),
                             "untaught": die in self.untaught,
                             "name": self.untaught.get(die)}
                            for die, faces in self.faces.items()]}


# ------------------------------------------------------------------------- the handle


class DiceWiring:
    """The running dice part of the server: a reader (and maybe an emulator) and the
    camera's tray, whose settled rolls go to the current game from the source the host
    chose. Started by `companion.wiring.hardware_manager`; the app's
    `companion.context.DicePort`."""

    def __init__(self, service, changed, settings: DiceSettings, data_dir: str | Path,
                 reader_options: dict | None = None, config_path: Path | None = None) -> None:
        self.service = service
        self.changed = changed
        self.settings = settings
        self.data_dir = Path(data_dir)
        self.config_path = config_path or self.data_dir / "config.json"
        self.at_start = load_settings(data_dir)  # the roles, should the file lose them
        self.source = source_of(self.at_start, settings.default_source)
        self.emulator = None
        self.emulator_http = None
        self.camera = None  # companion.wiring.camera_dice.CameraDice, when a camera runs
        self.warning: dict | None = None
        self.last_applied: dict | None = None
        self.pending: PendingRoll | None = None
        self.rolls_seen = 0
        self.rolls_ignored = 0  # from a source the host did not choose
        self._lock = locks.lock("dice wiring", "dice")
        port = settings.port
        usb_ids = discovery.parse_usb_ids(settings.usb_ids) if settings.usb_ids else None
        emulate = settings.emulate
        if emulate == "on" or (emulate == "auto" and not port
                               and not discovery.candidates(usb_ids)):
            port = self._start_emulator(Path(data_dir))
        from hardware.dice.reader import DiceReader

        self.reader = DiceReader(port, on_observation=self.observed, usb_ids=usb_ids,
                                 **(reader_options or {}))
        self._last_state: str | None = None

    def _start_emulator(self, data_dir: Path) -> str:
        from hardware.dice.emulator import DiceEmulator, serve_http

        self.emulator = DiceEmulator(link=str(data_dir / "dice-emulator.tty"),
                                     dice=game_dice()).start()
        wanted = self.settings.emulator_http_port
        try:
            self.emulator_http = serve_http(self.emulator, wanted)
        except OSError:
            self.emulator_http = serve_http(self.emulator, 0)
        url = f"http://127.0.0.1:{self.emulator_http.server_address[1]}"
        log.info("no dice reader: emulating one on %s; roll with POST %s/roll",
                 self.emulator.port, url)
        return self.emulator.port

    def roles(self, game: str, declared=(), catalog=None, dice=(),
              origin: str = "serial") -> dict[str, str]:
        """Die id -> role, read from config.json at each roll: the host page's changes
        apply to the next roll without a restart (the start-up settings otherwise). Dice
        the mapping does not name play the role of their colour (`colour_roles`), or, from
        the camera, the taught die's role they are named after (`taught_die_roles`; a serial
        reader's die ids are its own, given roles by the owner only)."""
        current = load_settings(self.data_dir)
        mapped = roles_for(current if "roles" in current else self.at_start, game, declared)
        taught = taught_die_roles(declared, dice) if origin == "camera" else {}
        return {**colour_roles(declared, catalog, dice), **taught, **mapped}

    def choose(self, source: str) -> None:
        """The host's choice of dice source, kept on disk; a waiting roll is dropped."""
        save_source(self.config_path, source)
        with self._lock:
            self.source, self.pending, self.warning = source, None, None
        if self.camera is not None:
            self.camera.reset()
        self.changed()

    def chosen_source(self) -> str:
        """What the host chose to read the dice (another thread may be choosing)."""
        with self._lock:
            return self.source

    def tray_changed(self) -> None:
        """The host moved the camera's dice tray: a throw being read is forgotten."""
        if self.camera is not None:
            self.camera.reset()

    def tray_image(self):
        """The dice tray as the camera sees it now, in colour (None: no camera reads it)."""
        return self.camera.tray_image() if self.camera is not None else None

    def start(self) -> DiceWiring:
        self.reader.start()
        self.service.gates.add(self.refuse_hand_roll)
        return self

    def stop(self) -> None:
        self.service.gates.remove(self.refuse_hand_roll)
        self.reader.stop()
        if self.emulator_http is not None:
            self.emulator_http.shutdown()
        if self.emulator is not None:
            self.emulator.stop()

    # observations arrive in the reader thread
    def observed(self, observation) -> None:
        if isinstance(observation, Roll):
            self.apply_roll(observation)
            self.changed()
        elif isinstance(observation, DiceStatus) and observation.state != self._last_state:
            self._last_state = observation.state
            self.changed()

    def apply_roll(self, roll: Roll, origin: str = "serial") -> dict | None:
        """Give the roll to the current game if it asks for it and ``origin`` is the chosen
        source. A roll with dice that play a role and were not read waits for them
        (`pending`): from the camera, the unreadable ones and those it has not learnt yet
        (`untaught_owed`). Returns the applied action."""
        with self._lock:
            if origin != self.source:
                self.rolls_ignored += 1
                return None
        live = self.service.access.current()
        if live is None:
            with self._lock:
                self.rolls_seen += 1
            return None
        untaught = self._camera_untaught(live) if origin == "camera" else []
        with live.lock:  # the prompt check and the action are one step
            module = live.kind.module
            declared = module.info.bindings.dice
            roles = self.roles(live.kind.name, declared, live.kind.catalog,
                               [*roll.faces, *roll.unreadable], origin)
            faces = {r.id: role_faces(r, live.kind.catalog) for r in declared}
            missing = {die: faces[roles[die]] for die in roll.unreadable
                       if roles.get(die) in faces}
            unseen = {die: role for die, role in untaught_owed(
                live, untaught, [roles[d] for d in roll.faces if d in roles]).items()
                if die not in roll.faces and die not in missing}
            if missing or unseen:
                roles = {**roles, **{die: role.id for die, role in unseen.items()}}
                missing.update({die: faces[role.id] for die, role in unseen.items()})
                step = roll_step(live)
                who = step.who if step is not None and step.who in live.seats else None
                with self._lock:
                    self.rolls_seen += 1
                    self.pending = PendingRoll(live.id, who, roll, missing, roles,
                                               live.version, untaught={
                                                   die: role.name for die, role in unseen.items()})
                return None
            return self._give(live, roll, roles)

    def _camera_untaught(self, live) -> list:
        """The roles of ``live``'s dice the camera has not learnt yet, when it reads some of
        its dice (`untaught_some`); none when it reads none of them (then the whole roll is
        entered by hand, as the screens say)."""
        taught = self.camera.status().get("taught", ()) if self.camera is not None else ()
        settings = load_settings(self.data_dir)
        if camera_cannot_read(live, taught, settings) is not None:
            return []
        return camera_untaught(live, taught, settings)

    def _give(self, live, roll: Roll, roles: dict[str, str]) -> dict | None:
        """The game's answer to a whole roll, carried out (under ``live.lock``)."""
        locks.owned(live.lock, "the game a roll is given to")
        action = warning = None
        for outcome in roll_outcomes(live.kind.module, live.state, roll, roles):
            if isinstance(outcome, Warn):
                warning = {"code": outcome.code, "params": outcome.params}
            elif isinstance(outcome, Act) and action is None:
                try:
                    self.service.act(Identity("table", live.id), outcome.action)
                    action = outcome.action
                except Refused as exc:
                    warning = exc.to_json()
        with self._lock:
            self.rolls_seen += 1
            self.pending = None
            if warning is not None:
                self.warning = dict(warning, roll=roll.roll, game=live.id)
                log.warning("dice roll %s refused: %s", roll.roll, warning)
            elif action is not None:
                self.warning = None
                self.last_applied = dict(action, roll=roll.roll, game=live.id,
                                         recovered=roll.recovered)
        return action

    def enter_face(self, identity, die, face) -> dict | None:
        """A die the camera could not read, entered on the rolling player's phone (or by
        the host). Once every such die is entered the whole roll goes to the game.
        Refused when no such die waits, the face is not one of the die's, or the seat is
        not the one that rolled."""
        live = self.service.get(identity.game)
        with live.lock:
            pending = self.waiting()
            if pending is None or pending.game != live.id or type(die) is not str \
                    or die not in pending.faces:
                raise DeviceRefused("dice_not_waiting")
            if identity.role not in ("host", "table") and pending.who not in (None,
                                                                               identity.seat):
                raise DeviceRefused("dice_not_your_roll")
            if type(face) is not int or face not in pending.faces[die]:
                raise DeviceRefused("dice_bad_face", die=str(die))
            with self._lock:
                pending.entered[die] = face
                complete = pending.entered.keys() >= pending.faces.keys()
            action = None
            if complete:
                roll = pending.roll
                whole = Roll(roll.roll, {**roll.faces, **pending.entered}, roll.recovered,
                             time.time(), (), roll.places)
                action = self._give(live, whole, pending.roles)
        self.changed()
        return action

    def waiting(self) -> PendingRoll | None:
        """The roll waiting for dice, unless its game moved on since (the roll entered by
        hand, an undo, the game ended): then it is dropped."""
        with self._lock:
            pending = self.pending
        if pending is None:
            return None
        try:
            live = self.service.get(pending.game)
        except Refused:
            live = None
        if live is None or live.version != pending.version or live.status == "finished":
            with self._lock:
                if self.pending is pending:
                    self.pending = None
            return None
        return pending

    def reads(self, live) -> str | None:
        """The chosen source that reads ``live``'s rolls now ("serial", "camera"), or None:
        the phones, or a reader or camera that cannot (absent, silent, no tray, none of the
        game's dice learnt), or ``live`` is not the game at the table."""
        at_table = self.service.access.current()
        if at_table is None or at_table.id != live.id:
            return None
        status = self.status()
        return status["source"] if status.get("reads") else None

    def refuse_hand_roll(self, live, identity, action: dict) -> None:
        """A `GameService` gate: while the reader or the camera reads the rolls, a phone
        enters no roll by hand (only the dice it is asked for, through `enter_face`, while
        it is asked); the table display and the host still may, as the step's fallback."""
        if identity.role != "seat" or action.get(
                "type") not in live.kind.module.info.bindings.roll_actions:
            return
        source = self.reads(live)
        if source is not None:
            raise Refused(f"roll_read_by_{source}")

    def on_camera_roll(self, roll: Roll) -> None:
        """A throw the camera's tray reader settled (the camera thread)."""
        self.apply_roll(roll, "camera")
        self.changed()

    def on_camera_too_many(self, seen: int, thrown: int) -> None:
        """The camera's tray shows more dice than the awaited roll has (the camera thread):
        nothing is recorded, and the screens say why (the warning goes with the next roll
        recorded)."""
        live = self.service.access.current()
        with self._lock:
            self.warning = {"code": "dice_too_many", "params": {"seen": seen, "thrown": thrown},
                            "game": live.id if live is not None else None}
        self.changed()

    def status(self) -> dict:
        """The state of the chosen source: the reader's, the camera's tray, or ``phones``."""
        reader = self.reader.status()
        pending = self.waiting()
        with self._lock:
            source = self.source
            out = {"source": source, "reader": reader.to_json(), "warning": self.warning,
                   "last_applied": self.last_applied, "rolls_seen": self.rolls_seen,
                   "rolls_ignored": self.rolls_ignored,
                   "pending": pending.to_json() if pending is not None else None}
        if source == "serial":
            state = {"connected": "ok", "silent": "error"}.get(reader.state, "absent")
            out.update(state=state, detail=reader.message)
        elif source == "camera":
            camera = self.camera.status() if self.camera is not None else {
                "state": "absent", "detail": "no camera is running"}
            out.update(state=camera["state"], detail=camera["detail"], tray=camera)
            live, taught = self.service.access.current(), camera.get("taught", ())
            settings = load_settings(self.data_dir)
            why = camera_cannot_read(live, taught, settings)
            untaught = [role.id for role in camera_untaught(live, taught, settings)]
            out["untaught"] = untaught
            if camera["state"] == "ok" and why is not None:
                out.update(state=why, detail=f"the camera reads none of this game's dice ({why})")
            elif camera["state"] == "ok" and untaught:
                out.update(state="untaught_some", detail="the camera has not learnt these "
                           f"dice yet: {', '.join(untaught)} (asked of the rolling player)")
        else:
            out.update(state="phones", detail="the rolls are entered by hand")
        # the chosen device records the rolls: the phones enter none by hand (`reads`)
        out["reads"] = source != "phones" and out["state"] in READING
        if self.emulator is not None:
            http_port = self.emulator_http.server_address[1]
            out["emulator"] = {"port": self.emulator.port, "http": f"http://127.0.0.1:{http_port}"}
        return out


def start(settings: Settings, service: GameService, changed, camera=None, kinds=None,
          reader_options: dict | None = None) -> DiceWiring:
    """The hardware manager's entry point (see companion/wiring/hardware_manager.py): the
    reader, and the tray of ``camera`` (a running `CameraWiring`) when there is one; the
    camera's taught dice, and the screens' dice status, follow the catalog changes ``kinds``
    tells."""
    wiring = DiceWiring(service, changed, settings.dice, settings.data_dir, reader_options,
                        settings.config_path)
    if camera is not None:
        attach_camera(wiring, service, camera)
        if kinds is not None:
            kinds.subscribe(wiring.camera.catalog_changed)
            # every screen's dice status names the dice the camera has learnt: a face taught,
            # a catalog saved or imported on the deck page re-sends the views at once
            kinds.subscribe(lambda _game: changed())
    return wiring.start()


def attach_camera(wiring: DiceWiring, service: GameService, camera) -> None:
    """Let the running camera (companion/wiring/camera.py) read the dice tray for ``wiring``:
    every frame goes to a `CameraDice`, whose rolls come back as the camera's."""
    from companion.wiring.camera_dice import CameraDice

    wiring.camera = CameraDice(wiring.config_path, wiring.on_camera_roll,
                               lambda: wiring.chosen_source() == "camera",
                               lambda: expects_roll(service),
                               lambda: _state_of(camera.status()),
                               lambda: _game_at_table(service), wiring.data_dir,
                               lambda: dice_thrown(service.access.current()),
                               wiring.on_camera_too_many)
    camera.listen(wiring.camera.on_frame, lambda: wiring.camera.reading, wiring.camera.draw)


def _game_at_table(service) -> str | None:
    live = service.access.current()
    return live.kind.name if live is not None else None


def _state_of(status: dict) -> tuple[str, str]:
    return status.get("state", "absent"), status.get("detail", "")


def dice_thrown(live) -> int | None:
    """How many dice the roll ``live``'s game awaits has: as many as its
    `Bindings.owed_dice` names now; None when no game is at the table, it owes none, or it
    does not say (no ``owed_dice``: a role's `DieRole.count` is only the most a roll may
    carry, and other dice may lie in the tray beside them, a World Without End tax die
    beside an ordinary one). The camera's reader reads no further than that many, and a
    tray showing more is not the roll (hardware knows no game: this plain number is all
    it is told)."""
    owed = live.kind.module.info.bindings.owed_dice if live is not None else None
    if owed is None or live.state is None:
        return None
    return len(list(owed(live.kind.catalog, live.state))) or None


def expects_roll(service) -> bool:
    """The current game awaits a roll at the table now."""
    live = service.access.current()
    return live is not None and roll_step(live) is not None

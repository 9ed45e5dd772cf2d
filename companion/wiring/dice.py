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
              "roles": {"<game>": {"<die id>": "<role>"}}}}

All but ``roles`` are start-up settings (`companion.server.settings.DiceSettings`: the environment,
e.g. ``COMPANION_DICE_EMULATE``, and the app config ``DICE_EMULATE`` go over config.json);
``emulate`` defaults to ``off``, so a Pi without a reader shows the dice as absent (tapping in
works) rather than a fake reader. ``roles`` are read again at each roll.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path

from companion.server.settings import DiceSettings, from_app
from engine.api import Act, DieFace, Refused, Warn
from hardware import config_file
from hardware.dice import discovery
from hardware.dice.observations import DiceStatus, Roll

log = logging.getLogger(__name__)


# ------------------------------------------------------------------------- pure rules


def load_settings(data_dir: str | Path) -> dict:
    """The ``dice`` section of DATA/config.json as it is now ({} when absent or unreadable):
    read for the roles, which the host page changes while the server runs."""
    dice = config_file.read(Path(data_dir) / "config.json").get("dice")
    if isinstance(dice, str):
        return {"port": dice}
    return dice if isinstance(dice, dict) else {}


def role_die_ids(role) -> list[str]:
    """The physical dice a role stands for by default: its own id, or ``<role>-1`` … for a
    role a roll carries several of (a game's neutral dice)."""
    count = max(1, int(getattr(role, "count", 1) or 1))
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


# ------------------------------------------------------------------------- the handle


class DiceWiring:
    """The running dice part of the server: a reader (and maybe an emulator) whose settled
    rolls go to the current game. Started by `companion.wiring.hardware_manager`."""

    def __init__(self, service, changed, settings: DiceSettings, data_dir: str | Path,
                 reader_options: dict | None = None) -> None:
        self.service = service
        self.changed = changed
        self.settings = settings
        self.data_dir = Path(data_dir)
        self.at_start = load_settings(data_dir)  # the roles, should the file lose them
        self.emulator = None
        self.emulator_http = None
        self.warning: dict | None = None
        self.last_applied: dict | None = None
        self.rolls_seen = 0
        self._lock = threading.Lock()
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

    def roles(self, game: str, declared=()) -> dict[str, str]:
        """Die id -> role, read from config.json at each roll: the host page's changes
        apply to the next roll without a restart (the start-up settings otherwise)."""
        current = load_settings(self.data_dir)
        return roles_for(current if "roles" in current else self.at_start, game, declared)

    def start(self) -> DiceWiring:
        self.reader.start()
        return self

    def stop(self) -> None:
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

    def apply_roll(self, roll: Roll) -> dict | None:
        """Give the roll to the current game if it asks for it. Returns the applied action."""
        live = self.service.current()
        if live is None:
            with self._lock:
                self.rolls_seen += 1
            return None
        from companion.game.service import Identity

        with live.lock:  # the prompt check and the action are one step
            module = live.kind.module
            roles = self.roles(live.kind.name, module.info.bindings.dice)
            action = warning = None
            for outcome in roll_outcomes(module, live.state, roll, roles):
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
            if warning is not None:
                self.warning = dict(warning, roll=roll.roll, game=live.id)
                log.warning("dice roll %s refused: %s", roll.roll, warning)
            elif action is not None:
                self.warning = None
                self.last_applied = dict(action, roll=roll.roll, game=live.id,
                                         recovered=roll.recovered)
        return action

    def status(self) -> dict:
        reader = self.reader.status()
        state = {"connected": "ok", "silent": "error"}.get(reader.state, "absent")
        with self._lock:
            out = {"state": state, "detail": reader.message, "reader": reader.to_json(),
                   "warning": self.warning, "last_applied": self.last_applied,
                   "rolls_seen": self.rolls_seen}
        if self.emulator is not None:
            http_port = self.emulator_http.server_address[1]
            out["emulator"] = {"port": self.emulator.port, "http": f"http://127.0.0.1:{http_port}"}
        return out


def start(app, service, changed) -> DiceWiring:
    """The hardware manager's entry point (see companion/wiring/hardware_manager.py)."""
    settings = from_app(app)
    wiring = DiceWiring(service, changed, settings.dice, settings.data_dir,
                        app.config.get("DICE_READER_OPTIONS"))
    return wiring.start()

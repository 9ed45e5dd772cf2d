"""Dice rolls into game actions.

The dice reader (`hardware.dice`) knows nothing of games; here a settled `Roll` becomes an
engine action when the game asks for it. Die ids map to roles per game (config.json
``dice.roles``; default: the die ``tax`` is World Without End's tax die). In World Without
End, while a ``roll_tax`` prompt is open, the tax die's face becomes
``{"type": "roll_tax", "by": "table", "value": n}``; a face outside the catalog's tax-die
faces is refused with a warning (the engine would refuse it too) and tapping the value in
still works. Rolls nobody asked for are ignored.

Settings, all optional, in ``DATA/config.json``::

    {"dice": {"port": "auto" | "/dev/...",        # auto: /dev/dicereader, then VID:PID
              "usb_ids": ["2341:0043", "1a86:*"], # what discovery looks for
              "emulate": "auto" | true | false,   # auto: an emulator when no reader is found
              "emulator_http_port": 8765,         # POST /roll to the emulator (make run)
              "roles": {"wwe": {"tax": "tax"}}}}  # game -> die id -> role

``emulate`` may also come from the app config ``DICE_EMULATE`` or the environment variable
``COMPANION_DICE_EMULATE`` (``auto``/``1``/``0``); the default is ``false``, so a Pi without a
reader shows the dice as absent (tapping in works) rather than a fake reader.
"""
from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from engine.api import Refused
from hardware import config_file
from hardware.dice import discovery
from hardware.dice.observations import DiceStatus, Roll

log = logging.getLogger(__name__)

DEFAULT_ROLES: dict[str, dict[str, str]] = {"wwe": {"tax": "tax"}}
DEFAULT_TAX_FACES = [2, 3, 4, 5]


# ------------------------------------------------------------------------- pure rules


def load_settings(data_dir: str | Path) -> dict:
    """The ``dice`` section of DATA/config.json ({} when absent or unreadable)."""
    dice = config_file.read(Path(data_dir) / "config.json").get("dice")
    if isinstance(dice, str):
        return {"port": dice}
    return dice if isinstance(dice, dict) else {}


def roles_for(settings: dict, game: str) -> dict[str, str]:
    """Die id → role for ``game``: the owner's mapping, else the default."""
    roles = settings.get("roles", {})
    chosen = roles.get(game) if isinstance(roles, dict) else None
    if isinstance(chosen, dict):
        return {str(die): str(role) for die, role in chosen.items()}
    return dict(DEFAULT_ROLES.get(game, {}))


def tax_faces(catalog: dict) -> list[int]:
    """The tax die's distinct faces from the catalog (the engine checks the same list)."""
    faces = catalog.get("game", {}).get("tax_die", {}).get("faces") or DEFAULT_TAX_FACES
    return sorted(set(faces))


def roll_action(game: str, roll: Roll, prompts: list[dict], roles: dict[str, str],
                faces: list[int]) -> tuple[dict | None, dict | None]:
    """What a roll means now: ``(action, None)``, ``(None, warning)`` or ``(None, None)``.

    ``prompts`` are the engine's prompts as JSON (``{"seat", "kind", "params"}``). The
    warning is ``{"code", "params"}`` like an engine refusal, so the UI translates it.
    """
    if game != "wwe":
        return None, None
    tax_dice = [die for die, role in roles.items() if role == "tax" and die in roll.faces]
    if not tax_dice or not any(p.get("kind") == "roll_tax" for p in prompts):
        return None, None
    value = roll.faces[tax_dice[0]]
    if value not in faces:
        return None, {"code": "bad_die_value", "params": {"value": value, "faces": faces}}
    return {"type": "roll_tax", "by": "table", "value": value}, None


def emulate_mode(app_config: dict, settings: dict) -> str:
    """``"on"``, ``"auto"`` or ``"off"`` from the app config, the environment, config.json."""
    for value in (app_config.get("DICE_EMULATE"), os.environ.get("COMPANION_DICE_EMULATE"),
                  settings.get("emulate")):
        if value is None or value == "":
            continue
        if value is True or str(value).lower() in ("1", "true", "on", "yes"):
            return "on"
        if str(value).lower() == "auto":
            return "auto"
        return "off"
    return "off"


def configured_port(settings: dict) -> str | None:
    port = settings.get("port")
    return str(port) if port not in (None, "", "auto") else None


# ------------------------------------------------------------------------- the handle


class DiceWiring:
    """The running dice part of the server: a reader (and maybe an emulator) whose settled
    rolls go to the current game. Started by `companion.hardware_manager`."""

    def __init__(self, service, changed, settings: dict, emulate: str,
                 data_dir: str | Path, reader_options: dict | None = None) -> None:
        self.service = service
        self.changed = changed
        self.settings = settings
        self.data_dir = Path(data_dir)
        self.emulator = None
        self.emulator_http = None
        self.warning: dict | None = None
        self.last_applied: dict | None = None
        self.rolls_seen = 0
        self._lock = threading.Lock()
        port = configured_port(settings)
        ids = settings.get("usb_ids")
        usb_ids = discovery.parse_usb_ids(ids) if isinstance(ids, list) and ids else None
        if emulate == "on" or (emulate == "auto" and not port
                               and not discovery.candidates(usb_ids)):
            port = self._start_emulator(Path(data_dir))
        from hardware.dice.reader import DiceReader

        self.reader = DiceReader(port, on_observation=self.observed, usb_ids=usb_ids,
                                 **(reader_options or {}))
        self._last_state: str | None = None

    def _start_emulator(self, data_dir: Path) -> str:
        from hardware.dice.emulator import DiceEmulator, serve_http

        self.emulator = DiceEmulator(link=str(data_dir / "dice-emulator.tty")).start()
        wanted = int(self.settings.get("emulator_http_port", 8765))
        try:
            self.emulator_http = serve_http(self.emulator, wanted)
        except OSError:
            self.emulator_http = serve_http(self.emulator, 0)
        url = f"http://127.0.0.1:{self.emulator_http.server_address[1]}"
        log.info("no dice reader: emulating one on %s; roll with POST %s/roll",
                 self.emulator.port, url)
        return self.emulator.port

    def roles(self, game: str) -> dict[str, str]:
        """Die id -> role, read from config.json at each roll: the host page's changes
        apply to the next roll without a restart (the start-up settings otherwise)."""
        current = load_settings(self.data_dir)
        return roles_for(current if "roles" in current else self.settings, game)

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
        from companion.service import Identity

        with live.lock:  # the prompt check and the action are one step
            module = live.kind.module
            prompts = [p.to_json() for p in module.prompts(live.state)]
            action, warning = roll_action(live.kind.name, roll, prompts,
                                          self.roles(live.kind.name),
                                          tax_faces(live.kind.catalog or {}))
            if action is not None:
                try:
                    self.service.act(Identity("table", live.id), action)
                except Refused as exc:
                    action, warning = None, exc.to_json()
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
    """The hardware manager's entry point (see companion/hardware_manager.py)."""
    data_dir = app.config["DATA_DIR"]
    settings = load_settings(data_dir)
    wiring = DiceWiring(service, changed, settings, emulate_mode(app.config, settings),
                        data_dir, app.config.get("DICE_READER_OPTIONS"))
    return wiring.start()

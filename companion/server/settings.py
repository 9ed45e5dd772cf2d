"""One settings object for the server: `resolve()` builds a `Settings` from four layers,

    defaults  <  DATA/config.json  <  COMPANION_* environment  <  command line / app config

and every value remembers the layer it came from (``settings.source_of("camera.source")``
is ``"default"``, ``"config.json"``, ``"COMPANION_CAMERA"`` or ``"command line"``), so
`companion doctor` and the host pages can say where a setting was made.

`create_app` resolves it once (the context's ``settings``, companion/context.py); the wiring,
`companion serve` and `companion doctor` read it instead of reading the environment or
config.json themselves. A value of the wrong type in config.json or the environment is a
`problem` naming the key (logged by `create_app`, shown by doctor) and the layer below is
used instead. Values the host pages change while the server runs (dice roles, the camera
calibration) are not settings: they are re-read from config.json where they are used.

Every key, its config.json place, environment variable and app-config key: `KEYS`, and the
"Settings" section of docs/server.md.
"""
from __future__ import annotations

import dataclasses
import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from hardware import config_file
from hardware.camera import board_numbers
from hardware.camera.settings import CameraSettings

DEFAULT = "default"
CONFIG_JSON = "config.json"
COMMAND_LINE = "command line"


@dataclass(frozen=True)
class ServerSettings:
    """How `companion serve` listens (config.json section ``server``)."""

    host: str = "127.0.0.1"  # address to bind; 0.0.0.0 for phones on the LAN
    port: int = 8000
    threads: int = 300  # gunicorn threads: one per connected phone or display, plus requests
    certfile: str | None = None  # https with this certificate (PEM) ...
    keyfile: str | None = None  # ... and its private key; phones need https for Wake Lock
    public_base_url: str | None = None  # e.g. "http://192.168.1.20:8000"; else from requests
    # one line per request on the log (time, method, path without its query, status, ms):
    # off on a table (a phone's polls every few seconds all evening fill the SD card's log);
    # on where a request must be found again (the browser tests: a failed one shows them)
    access_log: bool = False


@dataclass(frozen=True)
class DiceSettings:
    """The dice reader at start-up (config.json section ``dice``; roles are re-read live)."""

    port: str | None = None  # None ("auto"): /dev/dicereader, then USB ports by VID:PID
    usb_ids: tuple[str, ...] = ()  # "2341:0043", "1a86:*": what discovery looks for
    emulate: str = "off"  # "on", "auto" (an emulator when no reader is found) or "off"
    emulator_http_port: int = 8765  # POST /roll to the emulator (make run)
    # what reads the dice until the host chooses (config.json dice.source, the host page):
    # "serial", "camera" (make run: the simulated camera's tray) or "phones"
    default_source: str = "serial"


@dataclass(frozen=True)
class RateLimit:
    """Failed join/PIN attempts allowed per IP and game within ``window_s`` seconds."""

    attempts: int = 5
    window_s: float = 60.0


@dataclass(frozen=True)
class Settings:
    data_dir: Path = Path("instance")  # games, secret key, translations, backups, config.json
    hardware: bool = True  # the server starts the camera and dice (`--no-hardware`: not)
    snapshot_every: int = 25  # a state snapshot every N actions
    server: ServerSettings = field(default_factory=ServerSettings)
    rate_limit: RateLimit = field(default_factory=RateLimit)
    camera: CameraSettings = field(default_factory=CameraSettings)
    dice: DiceSettings = field(default_factory=DiceSettings)
    sources: Mapping[str, str] = field(default_factory=dict)  # key -> layer
    problems: tuple[str, ...] = ()  # values that were refused, and why

    @property
    def config_path(self) -> Path:
        return Path(self.data_dir) / "config.json"

    def get(self, key: str):
        """A value by its dotted key, e.g. ``get("camera.source")``."""
        value = self
        for part in key.split("."):
            value = getattr(value, part)
        return value

    def source_of(self, key: str) -> str:
        return self.sources.get(key, DEFAULT)

    def describe(self) -> list[dict]:
        """Every key with its value and the layer it came from (doctor, host pages)."""
        return [{"key": k.name, "value": _shown(self.get(k.name)), "from": self.source_of(k.name)}
                for k in KEYS]


# ---------------------------------------------------------------------------- the keys


@dataclass(frozen=True)
class Key:
    name: str  # dotted: section.field (config.json place, unless in_json is False)
    parse: Callable  # (value, from_text) -> value; raises ValueError with the reason
    env: str | None = None  # COMPANION_* variable
    app: str | None = None  # app-config key (create_app's test_config, `companion serve`)
    in_json: bool = True


def _text(optional: bool = True, empty: tuple = ("",)):
    def parse(value, from_text):
        if value is None or value in empty:
            if optional:
                return None
            raise ValueError("must not be empty")
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise ValueError("must be a string")
        return str(value)
    return parse


def _ranged(whole: bool, low: float, high: float, above: bool = False):
    """A whole number (``whole``) or a finite number from ``low`` (excluded when ``above``)
    to ``high``: never NaN or infinity, which `float()` reads from "nan" and "1e309"."""
    word = "a whole number" if whole else "a number"

    def parse(value, from_text):
        if from_text:
            try:
                value = int(value) if whole else float(value)
            except ValueError:
                raise ValueError(f"must be {word}") from None
        if isinstance(value, bool) or not isinstance(value, int if whole else int | float):
            raise ValueError(f"must be {word}")
        if not whole:
            try:
                value = float(value)
            except OverflowError:  # an integer beyond a float
                value = math.inf
            if not math.isfinite(value):
                raise ValueError("must be a finite number")
        if value < low or (above and value == low) or value > high:
            raise ValueError(f"must be {'above' if above else 'from'} {low:g} "
                             f"{'and at most' if above else 'to'} {high:g}")
        return value
    return parse


def _integer(low: int, high: int):
    """A whole number from ``low`` to ``high`` (a port, a count of frames)."""
    return _ranged(True, low, high)


def _number(low: float, high: float, above: bool = False):
    return _ranged(False, low, high, above)


TRUE, FALSE = ("1", "true", "on", "yes"), ("0", "false", "off", "no")


def _flag(value, from_text):
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in TRUE + FALSE:
        return value.lower() in TRUE
    raise ValueError("must be true or false")


def _mode(*allowed: str):
    """"on" / "auto" / "off" (true and false, 1 and 0 too), limited to ``allowed``."""
    def parse(value, from_text):
        word = value.lower() if isinstance(value, str) else value
        if value is True or word in TRUE:
            word = "on"
        elif value is False or word in FALSE or word == "":
            word = "off"
        if word not in allowed:
            raise ValueError("must be " + " or ".join(f'"{a}"' for a in allowed))
        return word
    return parse


def _choice(*allowed: str):
    """One of ``allowed`` words."""
    def parse(value, from_text):
        word = value.strip().lower() if isinstance(value, str) else value
        if word not in allowed:
            raise ValueError("must be " + " or ".join(f'"{a}"' for a in allowed))
        return word
    return parse


def _zones(value, from_text):
    """Zone name -> rectangle (or polygon) in board mm, every number finite and in reach
    (hardware/camera/board_numbers.py): a zone that is not one is named, the game's used."""
    return None if value is None else board_numbers.zones(value)


# the camera's board numbers config.json keeps beside the keys (the camera reads them
# itself): checked here too, so that one that is not a number is named, not silently unused
CAMERA_NUMBERS = (("tray", board_numbers.tray_rect), ("markers", board_numbers.markers),
                  ("calibration", board_numbers.calibration))


def _camera_problems(camera) -> list[str]:
    problems = []
    for name, check in CAMERA_NUMBERS if isinstance(camera, dict) else ():
        if name in camera:
            try:
                check(camera[name])
            except ValueError as exc:
                problems.append(f"{CONFIG_JSON}: camera.{name}: {exc}; the camera goes "
                                "without it")
    return problems


USB_ID = re.compile(r"^[0-9a-fA-F]{1,4}(:([0-9a-fA-F]{1,4}|\*)?)?$")


def _usb_ids(value, from_text):
    items = value.split(",") if from_text else value
    if not isinstance(items, list | tuple) or not all(isinstance(i, str) for i in items):
        raise ValueError('must be a list of "VID:PID" strings')
    items = [i.strip() for i in items if i.strip()]
    bad = [i for i in items if not USB_ID.match(i)]
    if bad:
        raise ValueError(f'has {bad[0]!r}, not a "VID:PID" such as "2341:0043" or "1a86:*"')
    return tuple(items)


def _path(value, from_text):
    if isinstance(value, str | os.PathLike) and str(value):
        return Path(value)
    raise ValueError("must be a folder path")


def _mains(value, from_text):
    """The room's mains frequency (issue 62): 50 or 60 Hz."""
    try:
        hz = int(value) if not isinstance(value, bool) else 0
    except (TypeError, ValueError):
        hz = 0
    if hz not in (50, 60) or (not from_text and not isinstance(value, int)):
        raise ValueError("must be 50 or 60 (Hz)")
    return hz


KEYS: tuple[Key, ...] = (
    Key("data_dir", _path, "COMPANION_DATA", "DATA_DIR", in_json=False),
    Key("hardware", _flag, "COMPANION_HARDWARE", "HARDWARE"),
    Key("snapshot_every", _integer(1, 100_000), "COMPANION_SNAPSHOT_EVERY", "SNAPSHOT_EVERY"),
    Key("server.host", _text(optional=False), "COMPANION_HOST", "HOST"),
    Key("server.port", _integer(0, 65535), "COMPANION_PORT", "PORT"),
    Key("server.threads", _integer(1, 10_000), "COMPANION_THREADS", "THREADS"),
    Key("server.certfile", _text(), "COMPANION_CERTFILE", "CERTFILE"),
    Key("server.keyfile", _text(), "COMPANION_KEYFILE", "KEYFILE"),
    Key("server.public_base_url", _text(), "COMPANION_PUBLIC_BASE_URL", "PUBLIC_BASE_URL"),
    Key("server.access_log", _flag, "COMPANION_ACCESS_LOG", "ACCESS_LOG"),
    Key("rate_limit.attempts", _integer(1, 10_000)),
    Key("rate_limit.window_s", _number(0, 86_400, above=True)),
    Key("camera.source", _text(), "COMPANION_CAMERA", "CAMERA_SOURCE"),
    Key("camera.simulate", _mode("auto", "off"), "COMPANION_CAMERA_SIMULATE", "CAMERA_SIMULATE"),
    Key("camera.marker_mm", _number(0, 1000, above=True)),
    Key("camera.appear_frames", _integer(1, 1000)),
    Key("camera.vanish_frames", _integer(1, 1000)),
    Key("camera.hysteresis_deg", _number(0, 180)),
    Key("camera.orient_commit_s", _number(0, 3600)),
    Key("camera.still_stride", _integer(1, 1000)),
    Key("camera.zones", _zones),
    Key("camera.lens_position", _number(0, 15)),  # dioptres a CM3's lens is held at
    Key("camera.mains_hz", _mains, "COMPANION_CAMERA_MAINS_HZ"),
    Key("dice.port", _text(empty=("", "auto")), "COMPANION_DICE_PORT", "DICE_PORT"),
    Key("dice.usb_ids", _usb_ids, "COMPANION_DICE_USB_IDS"),
    Key("dice.emulate", _mode("on", "auto", "off"), "COMPANION_DICE_EMULATE", "DICE_EMULATE"),
    Key("dice.emulator_http_port", _integer(0, 65535), "COMPANION_DICE_EMULATOR_PORT"),
    Key("dice.default_source", _choice("serial", "camera", "phones"),
        "COMPANION_DICE_DEFAULT_SOURCE", "DICE_DEFAULT_SOURCE"),
)
BY_NAME = {k.name: k for k in KEYS}


# ---------------------------------------------------------------------------- resolving


def resolve(overrides: Mapping | None = None, environ: Mapping[str, str] | None = None,
            overrides_from: str = COMMAND_LINE) -> Settings:
    """The settings from defaults, DATA/config.json, ``environ`` (os.environ by default) and
    ``overrides`` (app-config keys: ``{"DATA_DIR": ..., "CAMERA_SOURCE": ...}``), each layer
    over the one before. Keys the overrides do not name (TESTING, GAMES, ...) are ignored.
    ``RATE_LIMIT=(attempts, window_s)`` is accepted too."""
    environ = os.environ if environ is None else environ
    overrides = dict(overrides or {})
    if overrides.get("RATE_LIMIT") is not None:
        overrides["rate_limit.attempts"], overrides["rate_limit.window_s"] = overrides.pop(
            "RATE_LIMIT")
    values: dict[str, object] = {}
    sources: dict[str, str] = {}
    problems: list[str] = []

    def offer(key: Key, value, layer: str, from_text: bool) -> None:
        try:
            values[key.name] = key.parse(value, from_text)
            sources[key.name] = layer
        except ValueError as exc:
            fallback = values.get(key.name, _default(key.name))
            given = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
            problems.append(f"{layer}: {key.name} {exc}, not {given} (using {_shown(fallback)!r}"
                            f" from {sources.get(key.name, DEFAULT)})")

    def layer_over(key: Key, config: dict | None) -> None:
        if config is not None and key.in_json:
            found, value = _json_value(config, key.name)
            if found:
                offer(key, value, CONFIG_JSON, False)
        if key.env and environ.get(key.env, "") != "":
            offer(key, environ[key.env], key.env, True)
        for name in (key.app, key.name):
            if name and overrides.get(name) is not None:
                offer(key, overrides[name], overrides_from, False)

    data_key = BY_NAME["data_dir"]
    layer_over(data_key, None)
    data_dir = Path(values.get("data_dir", _default("data_dir"))).resolve()
    config, unusable = config_file.read_checked(data_dir / "config.json")
    if unusable:
        problems.append(f"{CONFIG_JSON}: the file {unusable}; none of it is used")
    for section in ("server", "rate_limit", "camera", "dice"):
        if section in config and not isinstance(config[section], dict) and not (
                section == "dice" and isinstance(config[section], str)):
            problems.append(f"{CONFIG_JSON}: {section} must be an object, not "
                            f"{config[section]!r}; its settings are not used")
    for key in KEYS:
        if key is not data_key:
            layer_over(key, config)
    values["data_dir"] = data_dir
    camera = config.get("camera")
    problems += _camera_problems(camera)
    extra = CameraSettings.from_json(camera).extra if isinstance(camera, dict) else {}
    return Settings(
        **_top(values), server=_section(ServerSettings, "server", values),
        rate_limit=_section(RateLimit, "rate_limit", values),
        camera=dataclasses.replace(_section(CameraSettings, "camera", values), extra=extra),
        dice=_section(DiceSettings, "dice", values), sources=sources, problems=tuple(problems))


def _json_value(config: dict, name: str) -> tuple[bool, object]:
    section, _, leaf = name.rpartition(".")
    if not section:
        return (leaf in config, config.get(leaf))
    part = config.get(section)
    if section == "dice" and isinstance(part, str):  # the short form: just the port
        part = {"port": part}
    if not isinstance(part, dict):
        return False, None
    return (leaf in part, part.get(leaf))


def _default(name: str):
    section, _, leaf = name.rpartition(".")
    owner = getattr(Settings(), section) if section else Settings()
    return getattr(owner, leaf)


def _top(values: dict) -> dict:
    return {k: v for k, v in values.items() if "." not in k}


def _section(cls, section: str, values: dict):
    prefix = section + "."
    return cls(**{k.removeprefix(prefix): v for k, v in values.items() if k.startswith(prefix)})


def _shown(value):
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def env_names() -> list[str]:
    """The COMPANION_* variables the settings read."""
    return [k.env for k in KEYS if k.env]


def app_config(settings: Settings) -> dict:
    """The resolved data folder as ``current_app.config["DATA_DIR"]`` (the translations read
    it, companion/server/i18n.py); every other setting is read from ``Settings``."""
    return {"DATA_DIR": str(settings.data_dir)}


__all__ = ["KEYS", "DiceSettings", "RateLimit", "ServerSettings", "Settings", "app_config",
           "env_names", "resolve"]

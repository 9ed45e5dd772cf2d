"""`companion doctor`: checks a table's setup and explains each problem with a one-line fix.

Each check is a small function taking the `Context` and returning a `Result`
(``ok`` / ``warn`` / ``fail`` / ``skip``). ``fail`` means the table cannot work as set up
(doctor exits 1); ``warn`` means something optional is missing (no camera: cards are picked
by hand; no dice reader: dice are tapped in). Hardware is reached through the hardware
package's own code (camera frame sources and V4L2 probing, the dice handshake and discovery),
the network through companion/server/netinfo.py and systemd through companion/server/systemd.py, and
the settings are the server's own (companion/server/settings.py, resolved the same way), so doctor
sees a device exactly the way the server will and says where each setting came from.
"""
from __future__ import annotations

import datetime as dt
import functools
import importlib
import json
import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from companion.box import backup as backups
from companion.server import netinfo, systemd
from companion.server import settings as settings_module
from companion.server.settings import Settings
from hardware.camera import devices

OK, WARN, FAIL, SKIP = "ok", "warn", "fail", "skip"
SERVICE = "table-companion.service"
APPLIANCE_ENV = Path("/etc/table-companion/companion.env")
DICE_LINK = "/dev/dicereader"
# Modules the server imports, by import name.
REQUIRED_MODULES = ["flask", "flask_socketio", "simple_websocket", "flask_babel", "gunicorn",
                    "serial", "cv2", "zxingcpp", "qrcode", "PIL", "click"]
MIN_PYTHON = (3, 11)
MIN_FREE_FAIL = 50 * 2**20
MIN_FREE_WARN = 500 * 2**20
MIN_YEAR = 2024
MIN_FPS = 10.0
BACKUP_MAX_AGE = dt.timedelta(days=2)


@dataclass
class Result:
    name: str
    status: str
    summary: str
    fix: str = ""
    details: dict = field(default_factory=dict)


@dataclass
class Context:
    """What doctor looks at; tests point the paths and devices elsewhere."""

    data_dir: Path
    port: int = 8000
    scheme: str = "http"
    camera: str | None = None       # a frame-source spec; None: the configured or found one
    dice: str | None = None         # a serial port; None: the configured or found one
    camera_seconds: float = 1.0
    optics: dict | None = None  # the Pi camera's focus and flicker, as check_camera saw them
    save_focus: bool = False  # keep a focus scan's result in config.json (--save-focus)
    focus_found: float | None = None  # the dioptres a focus scan found while measuring
    dice_timeout: float = 3.0
    video_glob: str = "/dev/video*"
    dice_link: str = DICE_LINK
    service: str = SERVICE
    now: Callable[[], dt.datetime] = dt.datetime.now
    settings: Settings | None = None  # None: resolved for data_dir as the server would

    def __post_init__(self) -> None:
        if self.settings is None:
            self.settings = settings_module.resolve({"DATA_DIR": str(self.data_dir)})


# --------------------------------------------------------------------------- settings


def check_settings(ctx: Context) -> Result:
    """The server's settings as it would resolve them, and where each one was made."""
    resolved = ctx.settings
    rows = resolved.describe()
    details = {"config_json": str(resolved.config_path), "settings": rows,
               "problems": list(resolved.problems)}
    made = [f"{r['key']} from {r['from']}" for r in rows
            if r["from"] != settings_module.DEFAULT and r["key"] != "data_dir"]
    if resolved.problems:
        more = f" (and {len(resolved.problems) - 1} more)" if len(resolved.problems) > 1 else ""
        return Result("settings", WARN, resolved.problems[0] + more,
                      f"correct it in {resolved.config_path} or the environment "
                      "(docs/server.md, Settings); meanwhile the value shown is used", details)
    return Result("settings", OK, ("; ".join(made) if made else "all defaults")
                  + f" (data: {resolved.data_dir})", details=details)


# --------------------------------------------------------------------------- software


def check_python(ctx: Context) -> Result:
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info[:2] >= MIN_PYTHON:
        return Result("python", OK, f"Python {version}")
    return Result("python", FAIL, f"Python {version} is too old (needs 3.11 or newer)",
                  "use Raspberry Pi OS Bookworm (Python 3.11) and re-run deploy/install.sh")


def check_packages(ctx: Context) -> Result:
    from importlib import metadata

    missing, found = {}, {}
    for name in REQUIRED_MODULES:
        try:
            module = importlib.import_module(name)
        except Exception as exc:  # ImportError, or a broken binary wheel raising anything
            missing[name] = f"{type(exc).__name__}: {exc}"
            continue
        found[name] = _dist_version(metadata, name) or getattr(module, "__version__", None)
    if missing:
        return Result("packages", FAIL, "cannot import " + ", ".join(sorted(missing)),
                      "reinstall the app: sudo deploy/install.sh (or pip install -e . here)",
                      {"missing": missing, "found": found})
    return Result("packages", OK, f"{len(found)} packages import", details={"found": found})


def check_numpy_abi(ctx: Context) -> Result:
    """The NumPy ABI trap (companion/server/numpy_abi.py): apt modules built for NumPy 1.x that a
    --system-site-packages virtualenv with NumPy 2 sees, and cannot import."""
    from companion.server import numpy_abi

    found = numpy_abi.find_trapped()
    details = asdict(found)
    if found.trapped:
        names = ", ".join(sorted(found.trapped))
        first = next(iter(found.trapped.values())).splitlines()[0]
        return Result("numpy", WARN,
                      f"{names}: built for apt's NumPy {found.system_numpy}, this environment "
                      f"has NumPy {found.numpy}, so their import fails ({first})",
                      numpy_abi.FIX, details)
    if not found.system_dirs:
        return Result("numpy", OK, f"NumPy {found.numpy}; no apt modules seen", details=details)
    return Result("numpy", OK, f"NumPy {found.numpy}; the apt modules seen "
                  f"(NumPy {found.system_numpy or 'none'}) import", details=details)


@functools.cache
def _distributions() -> dict:
    from importlib import metadata

    return metadata.packages_distributions()


def _dist_version(metadata, module: str) -> str | None:
    dists = _distributions().get(module, [])
    for dist in dists:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return None


# --------------------------------------------------------------------------- data and clock


def check_data_dir(ctx: Context) -> Result:
    data = Path(ctx.data_dir)
    existing = data
    while not os.path.exists(existing) and existing != existing.parent:  # never raises
        existing = existing.parent
    if existing != data and not os.path.isdir(existing):
        return Result("data", FAIL, f"{data} cannot be created: {existing} is a file",
                      "pass --data with a folder path")
    if existing == data and not os.path.isdir(data):
        return Result("data", FAIL, f"{data} is a file, not a folder", "pass --data with a folder")
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".doctor-"):
            pass
    except OSError as exc:
        return Result("data", FAIL, f"{existing} is not writable ({exc.strerror})",
                      f"sudo chown -R companion: {existing}  (the server runs as that user)")
    free = shutil.disk_usage(existing).free
    details = {"path": str(data), "free_mb": free // 2**20}
    if free < MIN_FREE_FAIL:
        return Result("data", FAIL, f"only {free // 2**20} MB free on {existing}",
                      "free space: delete old backups in DIR/backups or use a bigger SD card",
                      details)
    summary = f"{data} writable, {free // 2**20} MB free"
    if existing != data:
        summary = f"{data} will be created (parent writable), {free // 2**20} MB free"
    database = backups.db_path(data)
    if os.path.isfile(database):
        details["database_mb"] = round(database.stat().st_size / 2**20, 2)
        newest = backups.list_backups(data)
        if newest:
            age = ctx.now() - dt.datetime.fromtimestamp(newest[-1].stat().st_mtime)
            details["last_backup"] = str(newest[-1])
            if age > BACKUP_MAX_AGE:
                return Result("data", WARN, f"{summary}; last backup {age.days} days old",
                              "sudo systemctl enable --now table-companion-backup.timer",
                              details)
        else:
            return Result("data", WARN, f"{summary}; no backup yet",
                          f"companion backup --data {data}  (install.sh sets up a daily one)",
                          details)
    if free < MIN_FREE_WARN:
        return Result("data", WARN, f"{summary}: getting full",
                      "free space: delete old backups in DIR/backups", details)
    return Result("data", OK, summary, details=details)


def check_clock(ctx: Context) -> Result:
    now = ctx.now()
    if now.year < MIN_YEAR:
        return Result("clock", FAIL, f"the clock says {now:%Y-%m-%d}",
                      "connect the Pi to the internet once (NTP) or set it: "
                      "sudo date -s '2026-01-31 20:00'")
    synced = systemd.ntp_synchronized()
    details = {"now": now.isoformat(timespec="seconds"), "ntp_synchronized": synced}
    if synced is False:
        return Result("clock", WARN, f"{now:%Y-%m-%d %H:%M}, not NTP-synchronised",
                      "connect to a network with internet, or check: timedatectl", details)
    return Result("clock", OK, f"{now:%Y-%m-%d %H:%M}" + (", NTP-synchronised" if synced else ""),
                  details=details)


# --------------------------------------------------------------------------- network and service


def check_network(ctx: Context) -> Result:
    addresses = netinfo.ipv4_addresses()
    lan = [a for a in addresses if not a.startswith("127.")]
    details = {"addresses": addresses, "hostname": socket.gethostname()}
    if not lan:
        return Result("network", FAIL, "no network address besides 127.0.0.1",
                      "connect the Pi to Wi-Fi or Ethernet, or install with --hotspot", details)
    primary = join_ip(lan)
    details["join_url"] = join_url(ctx, primary)
    details["local_name"] = f"{socket.gethostname()}.local"
    others = [a for a in lan if a != primary]
    also = f" (also {', '.join(others)})" if others else ""
    return Result("network", OK, f"join URL {details['join_url']}{also}", details=details)


def join_ip(lan: list[str]) -> str:
    """The address phones should use: the server's own choice when it is one of ``lan``."""
    chosen = netinfo.lan_ip()
    return chosen if chosen in lan else lan[0]


def join_url(ctx: Context, ip: str) -> str:
    return f"{ctx.scheme}://{ip}:{ctx.port}/"


def check_service(ctx: Context) -> Result:
    state = systemd.unit_state(ctx.service)
    answering = port_open("127.0.0.1", ctx.port)
    details = {"systemd": state, "port": ctx.port, "answering": answering}
    health = server_health(ctx) if answering else None
    if health is not None:
        details["health"] = health
    if state == "failed":
        return Result("service", FAIL, f"{ctx.service} has failed",
                      "see why: journalctl -u table-companion -e; then "
                      "sudo systemctl restart table-companion", details)
    if state == "active" and not answering:
        return Result("service", WARN, f"{ctx.service} is active but port {ctx.port} "
                      "does not answer yet", "wait a few seconds; else journalctl -u "
                      "table-companion -e", details)
    if answering:
        how = f"{ctx.service} active, " if state == "active" else ""
        games = f" ({health['games']} games)" if health and "games" in health else ""
        return Result("service", OK, f"{how}a server answers on port {ctx.port}{games}",
                      details=details)
    start = ("sudo systemctl start table-companion" if state is not None
             else f"companion serve --host 0.0.0.0 --port {ctx.port} --data {ctx.data_dir}")
    what = f"{ctx.service} is {state}, " if state else ""
    return Result("service", WARN, f"{what}nothing answers on port {ctx.port}", start, details)


def server_health(ctx: Context) -> dict | None:
    """The running server's ``/healthz`` (games count, camera and dice status), if it has one."""
    import ssl
    import urllib.request

    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # our own self-signed certificate, on this machine
    try:
        with urllib.request.urlopen(f"{ctx.scheme}://127.0.0.1:{ctx.port}/healthz", timeout=2,
                                    context=context) as reply:
            data = json.loads(reply.read())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


# --------------------------------------------------------------------------- camera

def measure_fps(spec: str, seconds: float, rpicam_options: dict | None = None) -> dict:
    """Open ``spec`` with the camera code's frame sources and grab frames for ``seconds``."""
    from hardware.camera.sources import SourceLost, open_source

    source = open_source(spec, rpicam_options)
    try:
        source.open()
        frame = source.read()  # the first frame may take long (exposure); not counted
        count, start = 0, time.monotonic()
        while time.monotonic() - start < seconds:
            frame = source.read()
            count += 1
        elapsed = time.monotonic() - start
    except SourceLost as exc:
        raise CameraProblem(str(exc)) from exc
    finally:
        source.close()
    height, width = frame.shape[:2]
    measured = {"fps": round(count / elapsed, 1), "width": width, "height": height,
                "frames": count}
    sensor = source.describe()  # the Pi camera: sensor, modes, stride
    if sensor is not None:
        measured["sensor"] = sensor
        measured["optics"] = source.optics_status()  # its focus and flicker
    return measured


def camera_in_server(ctx: Context) -> dict | None:
    """The camera status the running server reports on /healthz, when it runs one."""
    if not port_open("127.0.0.1", ctx.port):
        return None
    status = ((server_health(ctx) or {}).get("hardware") or {}).get("camera")
    if not isinstance(status, dict) or status.get("state") in (None, "absent"):
        return None
    return status


def in_use_result(spec: str, status: dict, details: dict) -> Result:
    state, detail = status.get("state"), status.get("detail") or ""
    fps = status.get("fps")
    rate = f", {fps:.1f} fps" if isinstance(fps, int | float) else ""
    if isinstance(status.get("sensor"), str):  # the Pi camera: sensor, modes, strides
        rate += f" ({status['sensor']})"
    if state == "ok":
        slow = isinstance(fps, int | float) and fps < MIN_FPS
        return Result("camera", WARN if slow else OK,
                      f"camera {spec} running in the server{rate}" + (" (slow)" if slow else ""),
                      "more light, or a camera with MJPG at 720p" if slow else "", details)
    if state == "starting":
        return Result("camera", WARN, f"camera {spec} is starting in the server",
                      "run doctor again in a few seconds", details)
    return Result("camera", FAIL, f"the server cannot use camera {spec}: {state} {detail}".strip(),
                  "check the cable, then: sudo systemctl restart table-companion", details)


class CameraProblem(Exception):
    pass


def check_camera(ctx: Context) -> Result:
    found = devices.v4l2_devices(ctx.video_glob)
    capture, pi_nodes = devices.usb_cameras(found), devices.pi_camera_nodes(found)
    libcamera = devices.picamera2_cameras()
    details = {"v4l2": found, "picamera2": libcamera}
    configured = ctx.settings.camera.source
    if configured is not None:
        details["configured"] = {"source": configured,
                                 "from": ctx.settings.source_of("camera.source")}
    spec = ctx.camera or configured
    if spec is None:
        if capture:
            spec = capture[0]["path"]
        elif pi_nodes and devices.rpicam_program():
            spec = "rpicam"
        elif libcamera:
            spec = "picamera2"
    if spec is None:
        if pi_nodes:
            return Result("camera", FAIL, "a Pi camera is attached but rpicam-vid is missing",
                          "sudo apt install rpicam-apps-lite (deploy/install.sh does on a Pi)",
                          details)
        return Result("camera", WARN, "no camera found (cards can still be picked by hand)",
                      "plug in a USB webcam, or connect the Pi camera and check: "
                      "rpicam-hello --list-cameras", details)
    details["source"] = spec
    if ctx.camera is None and configured is not None:
        # The running server owns the camera: grabbing frames here would fight it.
        in_use = camera_in_server(ctx)
        if in_use is not None:
            details["server_status"] = in_use
            ctx.optics = in_use.get("optics") if isinstance(in_use.get("optics"), dict) \
                else None
            return in_use_result(spec, in_use, details)
    try:
        # the Camera Module's focus and flicker settings, for the sources that take them
        extra = {"rpicam_options": _rpicam_options(ctx)} if spec in ("rpicam", "auto") else {}
        measured = measure_fps(spec, ctx.camera_seconds, **extra)
    except ImportError as exc:
        return Result("camera", SKIP, f"camera {spec} found; frame grabbing not available "
                      f"({exc})", "reinstall the app: sudo deploy/install.sh", details)
    except CameraProblem as exc:
        return Result("camera", FAIL, f"camera {spec} gives no frames: {exc}",
                      "check the cable and that no other program uses it (sudo fuser -v "
                      f"{spec if spec.startswith('/dev/') else '/dev/video*'})", details)
    details.update(measured)
    ctx.optics = measured.get("optics")
    summary = f"camera {spec}: {measured['width']}x{measured['height']} at {measured['fps']} fps"
    if measured.get("sensor"):
        summary += f" ({measured['sensor']})"
    if measured["fps"] < MIN_FPS:
        return Result("camera", WARN, summary + " (slow: cards will feel sluggish)",
                      "use a USB 2 port without a hub, more light, or a camera that does "
                      "MJPG at 720p", details)
    if configured is None:  # the server only runs a camera it is told to use
        setting = json.dumps({"camera": {"source": spec}})
        return Result("camera", WARN, summary + ", but the server is not set to use it",
                      f"add {setting} to {Path(ctx.data_dir) / 'config.json'} and restart "
                      "the server", details)
    if ctx.camera is None:
        summary += f" (camera.source from {ctx.settings.source_of('camera.source')})"
    return Result("camera", OK, summary, details=details)


def _rpicam_options(ctx: Context) -> dict:
    """The Camera Module's focus and flicker settings as the server passes them. A focus
    scan's result is only reported (`Context.focus_found`): a diagnostic changes no setting
    unless asked to (`--save-focus` keeps it as camera.lens_position)."""
    from hardware.camera.settings import rpicam_options

    options = rpicam_options(ctx.settings.camera, ctx.settings.config_path,
                             os.environ.get("LANG", "").partition(".")[0])
    keep = options["on_focus"]

    def found(dioptres: float) -> None:
        ctx.focus_found = round(dioptres, 3)
        if ctx.save_focus:
            keep(dioptres)

    options["on_focus"] = found
    return options


def check_focus(ctx: Context) -> Result:
    """The Pi camera's focus: sensor, focus mode, lens position, measured sharpness."""
    optics = ctx.optics
    if not optics or not optics.get("sensor"):
        return Result("focus", SKIP, "no Pi camera measured (focus is checked on a Camera "
                      "Module)")
    mode, lens = optics.get("focus_mode"), optics.get("lens_position")
    sharp, sharpness = optics.get("sharp"), optics.get("sharpness")
    where = f"lens at {lens:.2f} dioptres ({1 / lens:.2f} m)" if isinstance(lens, (int, float)) \
        and lens > 0 else "no lens position"
    focus = {"manual": f"focus held, {where}", "auto": f"one focus scan at start, {where}",
             "continuous": "continuous autofocus (the lens follows hands)",
             "ring": "focus ring (turned by hand)"}.get(mode, str(mode))
    summary = (f"focus: sensor {optics['sensor']}, {focus}, sharpness {sharpness} "
               f"({'sharp' if sharp else 'soft'})")
    if ctx.focus_found is not None:  # this run's scan: said, saved only when asked
        summary += (f"; the scan found the table at {ctx.focus_found:.2f} dioptres, " +
                    ("saved as camera.lens_position" if ctx.save_focus else
                     "not saved (companion doctor --save-focus keeps it)"))
    if not sharp:
        fix = ("turn the lens ring slowly until the setup guide's focus step says sharp"
               if mode == "ring" else "focus on the table again: remove camera.lens_position "
               "from config.json and restart the companion (one new scan on the table)")
        return Result("focus", WARN, summary, fix, optics)
    if mode in ("auto", "continuous"):
        return Result("focus", WARN, summary, "start the companion once with the table clear: "
                      "its scan's position is kept (camera.lens_position)", optics)
    return Result("focus", OK, summary, details=optics)


def check_flicker(ctx: Context) -> Result:
    """Mains flicker: the banding the camera measures, and the mains frequency cancelled."""
    optics = ctx.optics
    if not optics or not optics.get("sensor"):
        return Result("flicker", SKIP, "no Pi camera measured")
    mains, ripple = optics.get("mains_hz"), optics.get("banding") or 0.0
    exposure = optics.get("exposure_us")
    if not optics.get("flickering"):
        return Result("flicker", OK, f"no light flicker seen (cancelling {mains} Hz mains)"
                      if mains else "no light flicker seen", details=optics)
    summary = f"the room's lights flicker (bands of {ripple * 100:.0f} % in the picture)"
    # a shutter under one period of the lights (whole microseconds: 8333 for 8333.3) is
    # left as it is by the AGC: the bands stay whatever the setting
    if mains and isinstance(exposure, (int, float)) and exposure < 0.98e6 / (2 * mains):
        return Result("flicker", WARN, summary + f" with a {exposure / 1000:.1f} ms shutter",
                      "the room is bright enough for a shutter shorter than the lights' "
                      "period: shade the table from the lamp or use a lamp without flicker",
                      optics)
    other = 60 if mains == 50 else 50
    return Result("flicker", WARN, summary, f"the room's lights flicker: set {other} Hz "
                  "(host page, camera: mains)", optics)


# --------------------------------------------------------------------------- dice reader


def dice_candidates(ctx: Context) -> list[str]:
    """Configured port, else /dev/dicereader (the udev rule), else USB ports by VID:PID."""
    chosen = ctx.dice or ctx.settings.dice.port
    if chosen:
        return [chosen]
    if os.path.exists(ctx.dice_link):
        return [ctx.dice_link]
    try:
        from hardware.dice import discovery
    except ImportError:
        return []
    usb_ids = ctx.settings.dice.usb_ids
    return discovery.candidates(discovery.parse_usb_ids(usb_ids) if usb_ids else None)


def port_busy(exc: Exception) -> bool:
    """The serial port is held by another program (pyserial's exclusive lock)."""
    return "lock" in str(exc).lower() or getattr(exc, "errno", None) == 11


def check_dice(ctx: Context) -> Result:
    candidates = dice_candidates(ctx)
    details: dict = {"candidates": candidates}
    if not candidates:
        return Result("dice", WARN, "no dice reader found (dice can be tapped in)",
                      "plug in the reader; if it has an unusual USB id: "
                      "sudo deploy/install.sh --dice-usb VID:PID", details)
    try:
        from hardware.dice import discovery, protocol
    except ImportError as exc:
        return Result("dice", SKIP, f"dice reader at {candidates[0]}; protocol code missing "
                      f"({exc})", "reinstall the app: sudo deploy/install.sh", details)
    if not ctx.dice and ctx.settings.dice.port:
        details["configured"] = {"port": ctx.settings.dice.port,
                                 "from": ctx.settings.source_of("dice.port")}
    problems = []
    for path in candidates:
        try:
            hello = discovery.hello(path, ctx.dice_timeout, any_version=True)
        except Exception as exc:  # serial errors come in many kinds
            if not port_busy(exc):
                problems.append(f"{path}: {exc}")
                continue
            health = server_health(ctx) or {}
            status = (health.get("hardware") or {}).get("dice")
            if status:
                details["server_status"] = status
                return Result("dice", OK if status.get("state") in ("ok", "connected") else WARN,
                              f"{path} is held by the running server, which reports: "
                              f"{json.dumps(status, sort_keys=True)}",
                              "stop the server to test the reader here", details)
            return Result("dice", WARN, f"{path} is in use by another program (the server?)",
                          "the host page shows the reader's status; stop the server to test it "
                          "here", details)
        if hello is None:
            problems.append(f"{path}: no HELLO within {ctx.dice_timeout:g} s")
            continue
        details["path"] = path
        details.update(proto=hello.proto, fw=hello.fw, dice=hello.dice, uid=hello.uid)
        if hello.proto not in protocol.PROTOCOL_VERSIONS:
            spoken = " and ".join(str(v) for v in sorted(protocol.PROTOCOL_VERSIONS))
            return Result("dice", FAIL, f"dice reader at {path} speaks protocol {hello.proto}, "
                          f"this companion speaks {spoken}",
                          "flash the reader with the firmware of this version "
                          "(hardware/firmware/) or update the companion", details)
        return Result("dice", OK, f"dice reader at {path}: protocol {hello.proto}, firmware "
                      f"{hello.fw}, {hello.dice} dice", details=details)
    details["problems"] = problems
    return Result("dice", FAIL, "no dice reader answered: " + "; ".join(problems),
                  "check the reader runs the dicereader firmware at 115200 baud "
                  "(companion dice listen PORT shows what it sends)", details)


# --------------------------------------------------------------------------- running it all

CHECKS: list[Callable[[Context], Result]] = [
    check_settings, check_python, check_packages, check_numpy_abi, check_data_dir, check_clock,
    check_network, check_service, check_camera, check_focus, check_flicker, check_dice,
]


def run_checks(ctx: Context, checks=None) -> list[Result]:
    results = []
    for check in checks or CHECKS:
        try:
            results.append(check(ctx))
        except Exception as exc:  # a doctor that crashes explains nothing
            name = check.__name__.removeprefix("check_")
            results.append(Result(name, FAIL, f"the check itself failed: {exc!r}",
                                  "please report this with the output of companion doctor"))
    return results


def appliance_environment(path: Path = APPLIANCE_ENV) -> dict[str, str]:
    """The variables of the installed appliance's companion.env (the service's environment),
    {} when there is none."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return {}
    return dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))


def appliance_settings(path: Path = APPLIANCE_ENV) -> dict:
    """Port and scheme from the installed appliance's companion.env, when there is one."""
    values = appliance_environment(path)
    out: dict = {}
    if values.get("COMPANION_PORT", "").isdigit():
        out["port"] = int(values["COMPANION_PORT"])
    if "--certfile" in values.get("COMPANION_SERVE_ARGS", ""):
        out["scheme"] = "https"
    return out


def report(results: list[Result]) -> dict:
    join = next((r.details.get("join_url") for r in results if r.name == "network"), None)
    return {"ok": not any(r.status == FAIL for r in results), "join_url": join,
            "checks": [asdict(r) for r in results]}


def render(results: list[Result]) -> str:
    marks = {OK: "ok  ", WARN: "WARN", FAIL: "FAIL", SKIP: "skip"}
    lines = ["Table Companion doctor"]
    for r in results:
        lines.append(f"  {marks[r.status]}  {r.name:<9} {r.summary}")
        if r.fix and r.status != OK:
            lines.append(f"        {'':<9} fix: {r.fix}")
    summary = report(results)
    if summary["join_url"]:
        lines.append(f"Players join at {summary['join_url']}")
    failed = sum(r.status == FAIL for r in results)
    lines.append("All essential checks passed." if not failed else f"{failed} problem(s) to fix.")
    return "\n".join(lines)

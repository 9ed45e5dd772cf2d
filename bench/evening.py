"""An evening at the table, as the Pi would feel it: the companion process's share of one core.

For each game: the real production server (`companion serve`, gunicorn, as a subprocess)
with its camera reading 30 raw gray frames a second (the Y plane a Pi camera hands over,
no JPEG to decode) from a folder of frames rendered before the run (a still table seen
through a noisy sensor; every ``--card-every`` seconds a card is laid or turned, a hand
laying each card and taking each card away, as on a real table), its
dice reader on a pseudo-terminal fed by the dice emulator (a roll every ``--roll-every``
seconds), four phones and the table display connected through real
Socket.IO clients, and an action every ``--action-every`` seconds (a random choice that a
client's screen offers in the views it received, sent by that client: no roll by hand on a
phone while the dice source reads the rolls, as TC.diceRead; so ``refused`` counts only
real refusals).

The emulator, the clients and the frame rendering run in this process; only the server's
worker is measured: its CPU over wall time from the kernel's CPU clock of the process (the
share of one core, in nanoseconds, ended threads included: `process_cpu`), the camera's and
the dice's shares from their threads (/proc/<pid>/task/*/schedstat, nanoseconds,
named by companion/server/threadnames.py), the hardware-status tick's (``tick``) and the
view sender's (``views``), the server's as the rest (sockets, views, SQLite), its
memory, and the Pi estimate (x5: a Raspberry Pi 4 core against this machine's) beside each.
At the end the server's record is read: ``lost`` counts acknowledged actions missing from it.
Each server runs its tree's compiled bytecode (`compile_tree`), as the appliance does.

Memory over the evening (issue 37): the worker's RSS every ``--sample-every`` seconds and
``rss_slope_mb_per_hour``, the least-squares slope after ``--warmup`` minutes (default: the
last half of the run); ``--tracemalloc`` traces the worker's allocations from its start
and prints the lines whose memory grew most between ``--trace-from`` of the run and its
end (``--trace-frames 6`` names the callers too; tracing costs CPU and memory, so its
core share and RSS are not the evening's). Before each run the capture path's cost is
measured in this process on the run's frames, copied per frame (the old path) and mapped
(``capture_share_copy``, ``capture_share_mapped``), and the camera threads over the
run's frames in this process, looking at every frame against the still table's stride
(``camera_share_every_frame``, ``camera_share_stride``, ``--camera-ab`` seconds each,
interleaved; 0 skips it).

Targets (docs/pi-appliance.md, issue 37): core_share <= 0.03 (0.15 of a Pi core),
rss_mb <= 120 at the end (master and worker, PSS), worker_rss_mb <= 110 (issue 71: the
figure its 113 MB was), rss_slope_mb_per_hour <= 2 after the warm-up, lost 0. Usage:
    .venv/bin/python bench/evening.py [--games wwe,pillars] [--minutes 3] [--repeat 1]
        [--sample-every 15] [--warmup MIN] [--tracemalloc [--trace-frames 6]] [--no-camera]
        [--no-dice]
        [--parallel] [--camera-ab 10] [--against COMMIT [--rounds 8]]
``--against COMMIT`` (issue 71) runs the same evening on COMMIT's server too, at the same
time: COMMIT checked out into a temporary ``git worktree`` (removed after), its server
started from that checkout (its cwd, its source first on PYTHONPATH, this venv's packages;
the process prints where it imported ``companion`` from and the bench stops unless it is
that checkout), the same frames, the same seed, its own table, dice and data. Both are
measured over the same minutes (they start measuring together), so whatever loads the
machine loads both: the ratios this / against (``ratio``: total and per part, with
``server_views_tick`` for a commit without those threads; ``ratio_threads``: per named
thread; ``ratio_per_minute``: the median, min and max of each minute's ratio) show a
regression however busy the machine is. (Running both at once is interleaving taken to the limit:
each minute of one has the same minute of the other beside it, with no start-ups between.)
``--rounds N`` splits that evening into N rounds, both servers started afresh for each (the
side started first alternating ABBA): a pair of processes keeps a bias of its own all its
life (wake-up phases, cores, memory), which fresh pairs draw anew; the rounds' ratios, their
median and their geometric mean with a 95 % interval (``ratio_over_rounds``) say whether a
difference is real (an A/A run, COMMIT this tree's own, must hold 1.0).
``--parallel`` runs the games' evenings at the same time, a process each (core share is CPU
time, not wall time; the load each adds is in ``loadavg_1m``).
The server imports only the packages the Pi installs (deploy/requirements-pyXY.txt): this
venv's others (the tests') are hidden from it (`PI_PACKAGES`); ``--dev-packages`` lets it
import them as before (about 7 MB more RSS, none of it the Pi's).
``--no-camera`` leaves the camera lost and idle (the server and the dice alone: whose
memory grows); ``--no-dice`` the dice reader (its port not there). ``lost`` compares each
acknowledged action in the canonical form the server
stores (``GameInfo.canonical``, made from the replayed record's state before it).
JSON last line: {"games": {"<id>": {"core_share", "rss_mb", "rss_slope_mb_per_hour",
"lost", "rss_samples", "capture_share_copy", "capture_share_mapped",
"camera_share_every_frame", "camera_share_stride", "parts", "per_minute", ...}}};
with ``--against``: {"games": {"<id>": {"this": {...}, "against": {...}, "ratio": {...},
"ratio_threads": {...}, "ratio_per_minute": {...}, "ratio_over_rounds": {...}}},
"against": "<full commit>", ...}.
"""
from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import math
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import socketio  # noqa: E402

from companion.box.catalog import load_catalog  # noqa: E402
from companion.game import games  # noqa: E402
from companion.game.patches import Replica  # noqa: E402
from companion.wiring.dice import role_die_ids  # noqa: E402
from engine.api import sticker_namespace  # noqa: E402
from hardware.dice.emulator import DiceEmulator  # noqa: E402
from hardware.synthetic.scene import HEIGHT, WIDTH, Camera, Hand, Placement, Style  # noqa: E402
from hardware.synthetic.video import (  # noqa: E402
    CARRY_SPEED,
    MARKER_AT,
    Script,
    board_to_table,
    carried,
)
from hardware.tags.format import BOARD_MARKER, card_payload  # noqa: E402

PI = 5  # a Raspberry Pi 4 core against this machine's
TICK = os.sysconf("SC_CLK_TCK")
# shares of a core kept to 1e-6: the server's ~0.0025 read to 0.04 % a round. Rounded to
# 1e-4 (until session 90) a round's server + views + tick ratio moved in steps of 4-8 %
# (1.0769 = 14/13), which the nanosecond reading (`threads_cpu`, `process_cpu`) would not
# have mended (issue 71, session 90)
SHARE_DIGITS = 6
TARGETS = {"core_share": 0.03, "rss_mb": 120, "worker_rss_mb": 110, "rss_slope_mb_per_hour": 2,
           "lost": 0}
# the parts by thread name (companion/server/threadnames.py); "server" is the rest (sockets,
# SQLite, gunicorn, and threads that ended: a view sender idle 5 s ends and a new one
# starts): "tick" is the hardware-status thread (issue 65), "views" the view sender (an
# older commit may build views elsewhere, so compare server + views + tick too)
PARTS = (("camera", ("capture", "camera", "texture")), ("dice", ("dice",)),
         ("tick", ("hardware-status",)), ("views", ("views",)))


# the camera's frames, rendered before the run ------------------------------------------
HAND_SPEED = CARRY_SPEED  # flat px a frame a hand carries a card at (video.py's lift scripts)
HAND_REACH = 4  # frames a hand takes from the picture's edge to a card it will take
HAND_REST = 5  # frames a fingertip rests on a card's edge before it lifts it or after laying


def hand_towards(x: float, y: float) -> float:
    """Where a hand comes from for a card at (x, y) flat px: the nearest of the right,
    bottom and left edges (degrees clockwise from image up), never over the board marker
    at the top."""
    return min(((WIDTH - x, 90.0), (HEIGHT - y, 180.0), (x, 270.0)))[1]


def _in_hand(card: dict, k: int) -> tuple[float, float, tuple[float, float]] | None:
    """The card ``card`` (``"x"``, ``"y"``, ``"towards"``) ``k`` flat steps of a hand away
    from its spot towards its edge (video.py's `carried`); None once no part is in view."""
    return carried(card["x"], card["y"], card["towards"], k, HAND_SPEED)


def steps_out(card: dict) -> int:
    """How many steps of a hand carry ``card`` from its spot out of view."""
    k = 1
    while _in_hand(card, k) is not None:
        k += 1
    return k


def card_script(game: str, seconds: float, every: float, fps: float) -> Script:
    """The arrangement at each frame: the board marker and the game's own cards, one laid
    (in the next zone the game declares) or the last one turned a quarter (over 10 frames)
    every ``every`` seconds. As on a real table, a hand lays each card (it brings it in
    from the nearest side edge, rests its fingertip on it, withdraws) and a hand takes each
    card away (the oldest of five, or a card laid again elsewhere: fingertip on its edge,
    then lifted and carried out, as video.py's `_carry_away`), the taking before the
    laying. The frames' placements and hands (`Script`; no expected observations)."""
    module = games.module_of(game)
    info = module.info
    catalog = load_catalog(game)
    cards = []
    for kind in info.stickers:
        for entry in (catalog.get(kind.part) or [])[:3]:
            cards.append(card_payload(sticker_namespace(info), kind.letter, entry["id"]))
    zones = [z.rect for z in info.bindings.zones] or [(-50, 20, 50, 100)]
    spots = [board_to_table((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in zones]
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    # {"payload", "x", "y", "angle", "turning": first frame or None, "towards",
    #  "lay": first frame of the laying hand, "take": first frame of the taking hand}
    laid: list[dict] = []
    frames, hands, event, nxt = [], [], 0, 0
    per_event = round(every * fps)
    for i in range(round(seconds * fps)):
        if i and i % per_event == 0:
            if (event % 2 == 0 or not any(c["take"] is None for c in laid)) and cards:
                payload = cards[nxt % len(cards)]
                staying = [c for c in laid if c["take"] is None]
                going = [c for c in staying if c["payload"] == payload]
                going += [c for c in staying if c not in going][:max(0, len(staying)
                                                                    - len(going) - 3)]
                for c in going:  # 4 cards at most
                    c["take"] = i
                x, y = spots[nxt % len(spots)]
                towards = hand_towards(x, y)
                after = max((HAND_REACH + HAND_REST + c["steps"] for c in going), default=0)
                card = {"payload": payload, "x": x, "y": y, "angle": 2.0, "turning": None,
                        "towards": towards, "lay": i + after, "take": None}
                card["steps"] = steps_out(card)
                laid.append(card)
                nxt += 1
            else:
                [c for c in laid if c["take"] is None][-1]["turning"] = i
            event += 1
        shown, over = [marker], []
        for card in list(laid):
            angle = card["angle"]
            if card["turning"] is not None:
                step = i - card["turning"] + 1  # 9 degrees a frame, a quarter in 10 frames
                angle += 9.0 * min(step, 10)
                if step >= 10:
                    card["angle"], card["turning"] = card["angle"] + 90.0, None
            if card["take"] is not None:  # reaches in, fingertip on its edge, carries it out
                reach = HAND_REACH - (i - card["take"])
                if reach > 0:  # the hand coming in from its edge to the card's
                    t = math.radians(card["towards"])
                    d = 120 + HAND_SPEED * reach
                    shown.append(Placement(card["payload"], card["x"], card["y"], angle))
                    over.append(Hand(card["x"] + math.sin(t) * d, card["y"] - math.cos(t) * d,
                                     card["towards"]))
                    continue
                k = max(0, i - card["take"] - HAND_REACH - HAND_REST)
                at = _in_hand(card, k)
                if at is None:
                    laid.remove(card)
                    continue
                x, y, out = at
                motion = (out[0] * HAND_SPEED / 2, out[1] * HAND_SPEED / 2) if k else (0.0, 0.0)
                shown.append(Placement(card["payload"], x, y, angle, motion=motion))
                over.append(Hand(x + out[0] * 120, y + out[1] * 120, card["towards"]))
                continue
            if i < card["lay"]:
                continue
            # brought in from out of view, fingertip rests on it, the hand withdraws
            k = card["steps"] - (i - card["lay"])
            if k > 0:
                at = _in_hand(card, k)
                if at is None:  # still out of view: the hand comes in
                    continue
                x, y, out = at
                shown.append(Placement(card["payload"], x, y, angle,
                                       motion=(-out[0] * HAND_SPEED / 2,
                                               -out[1] * HAND_SPEED / 2)))
                over.append(Hand(x + out[0] * 120, y + out[1] * 120, card["towards"]))
                continue
            shown.append(Placement(card["payload"], card["x"], card["y"], angle))
            back = -k - HAND_REST  # the hand's steps back out after resting
            t = math.radians(card["towards"])
            out = (math.sin(t), -math.cos(t))
            if back < 0 or _in_hand(card, back) is not None:
                d = 120 + HAND_SPEED * max(0, back)
                over.append(Hand(card["x"] + out[0] * d, card["y"] + out[1] * d,
                                 card["towards"]))
        frames.append(shown)
        hands.append(over)
    return Script(frames, [], fps, hands)


def render_frames(folder: Path, script: Script, noise: int = 4) -> int:
    """The frames as a Pi camera hands them over: raw gray Y planes (``.npy``, what
    `Picamera2Source` returns; a YUYV camera's Y bytes are the same), so the server
    decodes nothing, as on the appliance. Each is rendered once through a JPEG round
    trip (the synthetic camera's optics and noise) and its gray plane stored; named in
    order, a still arrangement shows ``noise`` renders with different sensor noise in
    turn; equal frames are hard links to one file. Returns how many distinct images were
    rendered."""
    folder.mkdir(parents=True, exist_ok=True)
    camera = Camera.create(3, Style())
    rendered: dict[tuple, Path] = {}
    for index, placements in enumerate(script.frames):
        hands = script.hands_at(index)
        key = (tuple((p.payload, round(p.x, 1), round(p.y, 1), round(p.angle, 1))
                     for p in placements), tuple(hands), index % noise)
        path = rendered.get(key)
        if path is None:
            image, _ = camera.render(placements, Style(), len(rendered), hands)
            path = rendered[key] = folder / f"unique-{len(rendered):04d}.raw"
            with path.open("wb") as out:
                np.save(out, cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
        os.link(path, folder / f"{index:06d}.npy")
    return len(rendered)


def capture_cost(folder: Path, frames: int = 300, fps: float = 30.0) -> dict:
    """The capture path's share of a core at ``fps``, before (each raw frame loaded: a
    full-frame copy) and after (`hardware.camera.sources._load_raw`: the file mapped and
    handed over), in this process, interleaved, on the run's own frames; median of 5."""
    from hardware.camera.sources import _load_raw

    paths = sorted(folder.glob("*.npy"))[:frames]
    ways = {"copy": lambda p: np.load(p, allow_pickle=False), "mapped": _load_raw}
    shares: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(5):
        for name, read in ways.items():
            start = time.thread_time()
            for path in paths:
                frame = read(path)
                frame[::4, ::4].sum()  # touch it, as the recogniser's thumbnail does
            shares[name].append((time.thread_time() - start) / len(paths) * fps)
    out = {f"capture_share_{name}": round(statistics.median(v), 4)
           for name, v in shares.items()}
    out["capture_share_spread"] = {name: round(max(v) - min(v), 4) for name, v in shares.items()}
    out["capture_copy_over_mapped"] = round(out["capture_share_copy"]
                                            / max(out["capture_share_mapped"], 1e-9), 1)
    return out


def camera_cost(folder: Path, seconds: float, fps: float = 30.0, rounds: int = 2) -> dict:
    """The camera threads' share of a core (capture, recogniser, texture map: a
    `CameraService` over the run's frames at ``fps``, in this process, CPU time from
    /proc/self/task/*/schedstat) looking at every frame of a still table
    (``still_stride`` 1, the old path) and at every ``still_stride``-th one (the default),
    ``rounds`` times each, interleaved, ``seconds`` each; the median of each and their
    ratio."""
    from hardware.camera.capture import CameraService
    from hardware.camera.recognizer import ChangeSettings, Recognizer
    from hardware.camera.sources import FolderSource

    def thread_seconds(ids) -> float:
        total = 0
        for tid in ids:
            try:
                total += int(Path(f"/proc/self/task/{tid}/schedstat").read_text().split()[0])
            except (OSError, ValueError):
                continue
        return total / 1e9

    strides = {"every_frame": 1, "stride": ChangeSettings().still_stride}
    shares: dict[str, list[float]] = {name: [] for name in strides}
    for _ in range(rounds):
        for name, stride in strides.items():
            before = {t.native_id for t in threading.enumerate()}
            service = CameraService(FolderSource(folder, fps=fps),
                                    Recognizer(change=ChangeSettings(still_stride=stride)))
            service.start()
            time.sleep(2.0)  # the first frames: the first whole-frame decodes
            ids = {t.native_id for t in threading.enumerate()} - before
            used, started = thread_seconds(ids), time.monotonic()
            time.sleep(seconds)
            used = thread_seconds(ids) - used
            shares[name].append(used / (time.monotonic() - started))
            service.stop()
    out = {f"camera_share_{name}": round(statistics.median(v), 4) for name, v in shares.items()}
    out["camera_share_spread"] = {name: round(max(v) - min(v), 4) for name, v in shares.items()}
    out["camera_every_frame_over_stride"] = round(
        out["camera_share_every_frame"] / max(out["camera_share_stride"], 1e-9), 2)
    return out


# the server ------------------------------------------------------------------------------
# Run in the server process when tracing: tracemalloc from the start (it survives
# gunicorn's fork), and in the forked worker a thread that dumps a snapshot whenever a
# ``*.want`` file appears in the trace folder (threads do not survive a fork, hence the hook).
# First in the server process: where its code comes from (checked against its root).
IMPORTED = "import companion; print('imported companion from', companion.__file__, " \
    "flush=True)\n"
# Before that, unless --dev-packages: the packages the Pi has not hidden from the server.
# The appliance installs deploy/requirements-pyXY.txt and nothing else; this venv also
# holds the tests' (the Socket.IO client's requests and websocket-client, watchdog, ...),
# and the server imports some of them only because they are there (engineio's client
# tries requests and websocket at import): about 7 MB of RSS the Pi never carries. Hidden
# (``sys.modules[name] = None``, so importing them fails as on the Pi): every top-level
# module whose distributions are all missing from the lock, but for this project, pip,
# setuptools and installed game plug-ins (an owner may add one).
PI_PACKAGES = """
import importlib.metadata as _m, re as _re, sys as _s
def _name(text):
    return _re.sub(r"[-_.]+", "-", text).lower()
_keep = {_name(l.split("==")[0]) for l in open({lock!r}) if _re.match(r"[A-Za-z]", l)}
_keep |= {"table-companion", "pip", "setuptools"}
_keep |= {_name(p.dist.name) for p in _m.entry_points(group="table_companion.games") if p.dist}
_hidden = sorted(top for top, dists in _m.packages_distributions().items()
                 if top not in _s.modules and not {_name(d) for d in dists} & _keep)
_s.modules.update(dict.fromkeys(_hidden, None))
print("hidden from the server (not on the Pi):", " ".join(_hidden), flush=True)
"""


def lock_file() -> Path:
    """The Pi's lock for this interpreter's version (deploy/install.sh picks it the same way)."""
    mine = ROOT / "deploy" / f"requirements-py{sys.version_info[0]}{sys.version_info[1]}.txt"
    return mine if mine.exists() else ROOT / "deploy" / "requirements-py311.txt"


TRACED_MAIN = """
import os, sys, threading, time, tracemalloc
from pathlib import Path
folder = Path(os.environ["EVENING_TRACE_DIR"])
tracemalloc.start(int(os.environ.get("EVENING_TRACE_FRAMES", "1")))
def _poll():
    while True:
        for want in sorted(folder.glob("*.want")):
            snap = want.with_suffix(".part")
            tracemalloc.take_snapshot().dump(str(snap))
            snap.rename(want.with_suffix(".snap"))
            want.unlink()
        time.sleep(0.2)
def _start():
    threading.Thread(target=_poll, name="tracemalloc", daemon=True).start()
os.register_at_fork(after_in_child=_start)
from companion.cli import main; main()
"""


class Server:
    """`companion serve` with camera and dice, on a temp data directory."""

    def __init__(self, data: Path, game: str, frames: Path | None, dice_port: str,
                 trace: Path | None = None, trace_frames: int = 1,
                 root: Path = ROOT, dev_packages: bool = False) -> None:
        self.data = data
        self.trace = trace
        self.root = root
        # no frames: a folder that is not there, so the camera is lost and idle (the
        # server and the dice alone, to tell whose memory grows)
        camera = frames if frames is not None else data / "no-camera"
        # ``root``'s own source first on the path (another commit's checkout for --against:
        # this venv's packages, its own code), and the process says where it imported from
        compile_tree(root)
        env = dict(os.environ, PYTHONUNBUFFERED="1", COMPANION_CAMERA=f"folder:{camera}",
                   COMPANION_DICE_PORT=dice_port, COMPANION_DICE_EMULATE="off",
                   PYTHONPATH=os.pathsep.join(
                       [str(root), *filter(None, [os.environ.get("PYTHONPATH")])]))
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # its bytecode read, as on the appliance
        first = IMPORTED if dev_packages else \
            PI_PACKAGES.replace("{lock!r}", repr(str(lock_file()))) + IMPORTED
        code = first + "from companion.cli import main; main()"
        if trace is not None:
            trace.mkdir(parents=True, exist_ok=True)
            env.update(EVENING_TRACE_DIR=str(trace), EVENING_TRACE_FRAMES=str(trace_frames))
            code = first + TRACED_MAIN
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, "serve",
             "--host", "127.0.0.1", "--port", "0", "--data", str(data), "--threads", "60",
             "--demo", "--demo-game", game],
            cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True, env=env)
        self.imported: Path | None = None  # where its `companion` package came from
        self.joins: dict[str, str] = {}
        self.pair_url = None
        self.log: list[str] = []
        port = None
        for line in self.proc.stdout:
            self.log.append(line)
            if m := re.match(r"imported companion from (\S+)", line):
                self.imported = Path(m.group(1)).resolve().parent.parent
            if m := re.search(r"Table display:\s+(\S+)", line):
                self.pair_url = m.group(1)
            if m := re.search(r"Join (\w+):\s+(\S+)", line):
                self.joins[m.group(1)] = m.group(2)
            if m := re.search(r"Listening at: http://127\.0\.0\.1:(\d+)", line):
                port = int(m.group(1))
                break
        if port is None:
            raise SystemExit("the server did not start:\n" + "".join(self.log[-20:]))
        if self.imported != root.resolve():
            self.stop()
            raise SystemExit(f"the server under {root} imported its code from "
                             f"{self.imported}, not its own")
        threading.Thread(target=self._drain, daemon=True).start()
        self.port, self.url = port, f"http://127.0.0.1:{port}"
        self.game_id = urlparse(self.pair_url).path.split("/")[2]
        for _ in range(200):
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.05)

    def snapshot(self, name: str, timeout: float = 120.0):
        """A tracemalloc snapshot of the worker (only when started with ``trace``)."""
        import tracemalloc
        (self.trace / f"{name}.want").touch()
        done = self.trace / f"{name}.snap"
        deadline = time.monotonic() + timeout
        while not done.exists():
            if time.monotonic() > deadline:
                raise SystemExit(f"no tracemalloc snapshot {name} from the worker")
            time.sleep(0.2)
        return tracemalloc.Snapshot.load(str(done))

    def _drain(self) -> None:
        for line in self.proc.stdout:
            self.log.append(line)
            del self.log[:-200]

    def request(self, method, path):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request(method, path)
        response = conn.getresponse()
        return response.status, response.getheaders(), response.read()

    def worker(self) -> int:
        kids = [int(p.name) for p in Path("/proc").iterdir()
                if p.name.isdigit() and _ppid(int(p.name)) == self.proc.pid]
        if not kids:
            raise SystemExit("no gunicorn worker")
        return kids[0]

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)


APP_PACKAGES = ("companion", "engine", "hardware", "web")  # pyproject.toml's


def compile_tree(root: Path) -> None:
    """``root``'s packages compiled to bytecode (``__pycache__``, git-ignored) before its
    server starts, as the appliance has them (pip compiles the app when it installs it).
    A machine that forbids writing bytecode (``PYTHONDONTWRITEBYTECODE``) would otherwise
    have the server compile every module at its start, and the worker it forks keep the
    compiler's memory: 4 MB more RSS than a Pi's for this tree, 1.5 MB for 81a2886's."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", *APP_PACKAGES], cwd=root,
                   env=env, check=True, stdout=subprocess.DEVNULL)


def _ppid(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def cpu_of(stat_path: Path) -> float:
    """user + system seconds from a /proc stat file."""
    fields = stat_path.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def schedstat_seconds(schedstat_path: Path) -> float:
    """A thread's CPU seconds from its /proc schedstat: the first field, nanoseconds on the
    CPU (the second is time spent waiting for one, the third the times it ran)."""
    return int(schedstat_path.read_text().split()[0]) / 1e9


def process_cpu(pid: int) -> float:
    """A process's CPU seconds to the nanosecond: the kernel's CPU clock of the process
    (clock_getcpuclockid's id, CPUCLOCK_SCHED: ``(~pid << 3) | 2``), its threads'
    runtime, ended threads included (the kernel adds an ended thread's runtime to the
    process's sum as it exits: a view sender idle 5 s ends and a new one starts). Summing
    the live threads' schedstat would drop theirs; the process stat's user + system
    (`cpu_of`) counts them but in ticks (10 ms; issue 71, session 90). The stat when the
    clock cannot be read (OSError: the process is gone, or the kernel refuses)."""
    try:
        return time.clock_gettime_ns((~pid << 3) | 2) / 1e9
    except OSError:
        return cpu_of(Path(f"/proc/{pid}/stat"))


def threads_cpu(pid: int, proc: Path = Path("/proc")) -> dict[int, tuple[str, float]]:
    """Each live thread's name and CPU seconds, from its schedstat (nanoseconds; its stat's
    user + system were ticks: 10 ms, a tick a round = 0.0001 of a core; issue 71,
    session 90). A thread that ends between the listing and the reading is left out."""
    out = {}
    for task in (proc / str(pid) / "task").iterdir():
        try:
            out[int(task.name)] = ((task / "comm").read_text().strip(),
                                   schedstat_seconds(task / "schedstat"))
        except (OSError, ValueError, IndexError):
            continue
    return out


def part_of(comm: str) -> str:
    for part, prefixes in PARTS:
        if comm.startswith(prefixes):
            return part
    return "server"


def memory_mb(pid: int, master: int) -> dict:
    def field(p, path, name):
        for line in Path(f"/proc/{p}/{path}").read_text().splitlines():
            if line.startswith(name + ":"):
                return int(line.split()[1]) / 1024
        return 0.0

    return {"worker_rss": field(pid, "status", "VmRSS"),
            # its private memory (heap, arenas, numpy's buffers): what a leak grows. RSS
            # also counts the libraries' file pages it maps, and how many a page fault maps
            # depends on the page cache (a .so read whole before, e.g. by `cat`, is cached
            # in large folios: cv2.abi3.so then maps 37 MB resident instead of 11; issue 71)
            "worker_anon": field(pid, "smaps_rollup", "Anonymous"),
            # the rest of its RSS: file pages mapped (the libraries' code, the camera's
            # frames). Clean, so the kernel drops them when memory is short; how many are
            # resident depends on how the page cache holds the file, not on the server (the
            # same 228 reads of a copy of cv2.abi3.so mapped 14.2 MB when cp had just written
            # it, 39.7 MB when its cache was dropped first: notes s86/i71/folio_probe.py); a
            # run read worker RSS 146 MB with 62 MB anonymous, cv2's code 35 of its 57 MB
            # resident (issue 71, session 86). ``worker_private``: its pages no
            # other process maps (USS: anonymous ones not shared with the master, and the
            # frames it maps), what it alone costs
            "worker_file": field(pid, "smaps_rollup", "Rss") - field(pid, "smaps_rollup",
                                                                     "Anonymous"),
            "worker_private": field(pid, "smaps_rollup", "Private_Clean")
            + field(pid, "smaps_rollup", "Private_Dirty"),
            "master_rss": field(master, "status", "VmRSS"),
            "worker_pss": field(pid, "smaps_rollup", "Pss"),
            "master_pss": field(master, "smaps_rollup", "Pss"),
            "pss": field(pid, "smaps_rollup", "Pss") + field(master, "smaps_rollup", "Pss")}


class RssSampler:
    """The worker's RSS every ``every`` seconds in a thread: (minutes since start, MB);
    ``anon`` its anonymous memory the same way (`memory_mb`'s ``worker_anon``)."""

    def __init__(self, pid: int, every: float) -> None:
        self.pid, self.every = pid, every
        self.samples: list[tuple[float, float]] = []
        self.anon: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="rss sampler", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            try:
                memory = memory_mb(self.pid, self.pid)
            except OSError:
                return
            at = round((time.monotonic() - self._started) / 60, 3)
            self.samples.append((at, memory["worker_rss"]))
            self.anon.append((at, memory["worker_anon"]))
            if self._stop.wait(self.every):
                return

    def stop(self) -> list[tuple[float, float]]:
        self._stop.set()
        self._thread.join(10)
        return self.samples


class MinuteSampler:
    """The worker's share of a core in each minute, total and per part (`part_of`), read
    from /proc in a thread: what `--against` sets side by side minute by minute."""

    def __init__(self, pid: int, every: float = 60.0) -> None:
        self.pid, self.every = pid, every
        self.minutes: list[dict] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="minute sampler", daemon=True)
        self._thread.start()

    def _read(self) -> tuple[float, float, dict[int, tuple[str, float]]]:
        return (time.monotonic(), process_cpu(self.pid), threads_cpu(self.pid))

    def _run(self) -> None:
        try:
            last = self._read()
            while not self._stop.wait(self.every):
                now = self._read()
                self.minutes.append(shares_between(last, now))
                last = now
        except OSError:
            return

    def stop(self) -> list[dict]:
        self._stop.set()
        self._thread.join(10)
        return self.minutes


def shares_between(first, second) -> dict:
    """The worker's share of a core between two `MinuteSampler` readings, and its parts'."""
    wall = second[0] - first[0]
    parts: dict[str, float] = {}
    for tid, (comm, used) in second[2].items():
        used -= first[2].get(tid, (comm, 0.0))[1]
        parts[part_of(comm)] = parts.get(part_of(comm), 0.0) + used
    total = second[1] - first[1]
    parts["server"] = server_rest(total, parts)
    return {"core_share": round(total / wall, SHARE_DIGITS),
            **{k: round(v / wall, SHARE_DIGITS) for k, v in sorted(parts.items())}}


def server_rest(total: float, parts: dict[str, float]) -> float:
    """The server's share: ``total`` less every named part's (`PARTS`)."""
    return max(0.0, total - sum(parts.get(name, 0.0) for name, _ in PARTS))


def slope_mb_per_hour(samples: list[tuple[float, float]], after_minutes: float) -> float | None:
    """The least-squares slope of RSS (or of what ``samples`` hold) over the samples after
    the warm-up, in MB an hour."""
    tail = [(t, mb) for t, mb in samples if t >= after_minutes]
    if len(tail) < 3 or tail[-1][0] == tail[0][0]:
        return None
    fit = statistics.linear_regression([t for t, _ in tail], [mb for _, mb in tail])
    return round(fit.slope * 60, 2)


def _traced(snapshot):
    import tracemalloc
    return snapshot.filter_traces([tracemalloc.Filter(False, tracemalloc.__file__),
                                   tracemalloc.Filter(False, "<frozen importlib._bootstrap*>")])


def _where(stat) -> str:
    return " <- ".join(f"{f.filename.replace(str(ROOT) + '/', '')}:{f.lineno}"
                       for f in stat.traceback)


def growers(first, second, limit: int) -> list[str]:
    """The lines whose live memory grew most between two tracemalloc snapshots."""
    first, second = _traced(first), _traced(second)
    key = "traceback" if second.traceback_limit > 1 else "lineno"
    return [f"{stat.size_diff / 1024:+9.1f} kB {stat.count_diff:+7d} blocks  {_where(stat)}"
            for stat in second.compare_to(first, key)[:limit]]


def holders(snapshot, limit: int) -> list[str]:
    """The lines holding the most live memory in a tracemalloc snapshot (what a worker
    keeps, e.g. one game's against another's)."""
    snapshot = _traced(snapshot)
    key = "traceback" if snapshot.traceback_limit > 1 else "lineno"
    return [f"{stat.size / 1024:9.1f} kB {stat.count:7d} blocks  {_where(stat)}"
            for stat in snapshot.statistics(key)[:limit]]


def cookie_of(headers, prefix):
    for key, value in headers:
        if key.lower() == "set-cookie" and value.startswith(prefix):
            return value.split(";", 1)[0].split("=", 1)[1]
    return None


# the table: four phones and the display ------------------------------------------------
class Table:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.game = server.game_id
        self.replicas: dict[str, Replica] = {}
        self.clients: dict[str, socketio.Client] = {}
        self.cond = threading.Condition()
        for seat, url in server.joins.items():
            parsed = urlparse(url)
            _, headers, _ = server.request("GET", f"{parsed.path}?{parsed.query}")
            self._connect(seat, {"role": "seat", "game": self.game,
                                 "token": cookie_of(headers, f"tc_seat_{self.game}")})
        parsed = urlparse(server.pair_url)
        _, headers, _ = server.request("GET", f"{parsed.path}?{parsed.query}")
        self._connect("table", {"role": "table", "game": self.game,
                                "table_token": cookie_of(headers, f"tc_table_{self.game}")})

    def _connect(self, name: str, auth: dict) -> None:
        sio = socketio.Client(reconnection=False,
                              websocket_extra_options={"skip_utf8_validation": True})

        def seen(_message):
            with self.cond:
                self.cond.notify_all()

        replica = self.replicas[name] = Replica(seen)
        sio.on("view", replica.view)
        sio.on("patch", replica.patch)
        sio.connect(self.server.url, auth=auth, transports=["websocket"], wait_timeout=30)
        self.clients[name] = sio

    def version(self, name: str) -> int:
        view = self.replicas[name].current
        return view["version"] if view else -1

    def wait_all(self, version: int, timeout: float = 20.0) -> bool:
        with self.cond:
            return self.cond.wait_for(
                lambda: all(self.version(n) >= version for n in self.replicas), timeout)

    def options(self, roll_actions: frozenset[str] = frozenset()) -> list[tuple[str, dict]]:
        """Every allowed choice any client's screen offers now, with the client offering it
        (`offered`)."""
        return [(name, action) for name, replica in self.replicas.items()
                for action in offered(replica.current or {}, name, roll_actions)]

    def close(self) -> None:
        for sio in self.clients.values():
            sio.disconnect()


def offered(view: dict, name: str, roll_actions: frozenset[str]) -> list[dict]:
    """The actions ``name``'s screen offers in ``view``: its allowed choices, less a roll by
    hand on a seat's phone while the dice source reads the rolls (the view's
    ``hardware.dice.reads``: the phones' TC.diceRead hides those buttons, and the server's
    `DiceWiring.refuse_hand_roll` refuses them, roll_read_by_serial). The table display
    keeps them, as the step's fallback."""
    if view.get("status") != "active":
        return []
    reads = name != "table" and bool(((view.get("hardware") or {}).get("dice") or {})
                                     .get("reads")) and not view.get("closed")
    return [c["action"] for c in view.get("choices") or []
            if not c.get("refused") and not (reads and c["action"].get("type") in roll_actions)]


# one evening -----------------------------------------------------------------------------
def dice_for(game: str) -> dict[str, list[int]]:
    out = {}
    for role in games.module_of(game).info.bindings.dice:
        for die in role_die_ids(role):
            out[die] = list(role.faces)
    return out or {"d6": [1, 2, 3, 4, 5, 6]}


def evening(game: str, args, work: Path) -> dict:
    """One evening of ``game`` on this tree's server (the frames rendered first)."""
    frames, capture = prepare(game, args, work)
    return {**capture, **play(game, args, work, frames)}


def prepare(game: str, args, work: Path) -> tuple[Path, dict]:
    """The run's frames rendered into ``work``, and the capture path's (and, with
    ``--camera-ab``, the camera threads') cost measured on them in this process."""
    seconds = args.minutes * 60
    frames = work / f"frames-{game}"
    t = time.perf_counter()
    script = card_script(game, seconds + 90, args.card_every, args.fps)
    unique = render_frames(frames, script)
    print(f"{game}: {len(script.frames)} frames ({unique} rendered) in "
          f"{time.perf_counter() - t:.0f} s", flush=True)
    capture = capture_cost(frames, fps=args.fps)
    print(f"{game}: capture path at {args.fps:g} fps, share of a core: copied "
          f"{capture['capture_share_copy']:.4f}, mapped {capture['capture_share_mapped']:.4f} "
          f"(same process, median of 5)", flush=True)
    if args.camera_ab:
        from hardware.camera import STILL_STRIDE

        capture.update(camera_cost(frames, args.camera_ab, args.fps))
        print(f"{game}: camera threads at {args.fps:g} fps, share of a core: every frame "
              f"{capture['camera_share_every_frame']:.4f}, a still table's one frame "
              f"in {STILL_STRIDE} "
              f"{capture['camera_share_stride']:.4f} (same process, interleaved, median of 2 "
              f"x {args.camera_ab:g} s)", flush=True)
    return frames, capture


def play(game: str, args, work: Path, frames: Path, root: Path = ROOT,
         together: threading.Barrier | None = None) -> dict:
    """The evening on the server of ``root``'s source (this tree, or another commit's
    checkout), measured from when it settled (and, with ``together``, the other server
    too: both measured over the same minutes); the worker's CPU read every minute too
    (``per_minute``: each minute's share, total and per part)."""
    seconds = args.minutes * 60
    emulator = DiceEmulator(dice_for(game), link=str(work / f"dice-{game}"),
                            seed=args.seed).start() if args.dice else None
    # no dice: a port that is not there, so the reader is lost and idle (like the camera)
    server = Server(work / f"data-{game}", game, frames if args.camera else None,
                    emulator.port if emulator is not None else str(work / "no-dice"),
                    trace=work / "trace" if args.tracemalloc else None,
                    trace_frames=args.trace_frames, root=root,
                    dev_packages=args.dev_packages)
    table = None
    sampler = None
    grown: list[str] = []
    held: list[str] = []
    rnd = random.Random(args.seed)
    roll_actions = games.module_of(game).info.bindings.roll_actions
    acked: list[tuple[int, dict, str]] = []
    refused, latency = 0, []
    refusals: list[str] = []  # the first few refused actions and the server's answer
    unanswered: list[str] = []  # acts with no ack (a socket dropped on a loaded machine)
    try:
        table = Table(server)
        table.wait_all(0)
        worker = server.worker()
        time.sleep(args.settle)  # the camera's first frames and the dice reader's hello
        if together is not None:
            together.wait(600)  # the other server settled too: the same minutes measured
        start_cpu, start_threads = process_cpu(worker), threads_cpu(worker)
        start_master = process_cpu(server.proc.pid)
        started = time.monotonic()
        sampler = RssSampler(worker, args.sample_every)
        minutes = MinuteSampler(worker)
        trace_at = started + seconds * args.trace_from
        first_snapshot = None
        next_action = started + args.action_every
        next_roll = started + args.roll_every
        while time.monotonic() - started < seconds:
            now = time.monotonic()
            if args.tracemalloc and first_snapshot is None and now >= trace_at:
                first_snapshot = server.snapshot("first")
            if now >= next_roll:
                next_roll += args.roll_every
                if emulator is not None:
                    emulator.roll()
            if now >= next_action:
                next_action += args.action_every
                options = table.options(roll_actions)
                if options:
                    name, action = rnd.choice(options)
                    sent = time.perf_counter()
                    try:
                        ack = table.clients[name].call("act", {"action": action}, timeout=30)
                    except socketio.exceptions.SocketIOError as error:  # dropped or no answer
                        unanswered.append(f"{type(error).__name__} at "
                                          f"{(time.monotonic() - started) / 60:.1f} min")
                        continue
                    if ack.get("ok"):
                        by = name if name != "table" else "table"
                        acked.append((ack["version"], action, by))
                        if table.wait_all(ack["version"]):
                            latency.append((time.perf_counter() - sent) * 1000)
                    else:
                        # a real refusal (the seats choose only what their screens
                        # offer, `offered`): a camera action came first, say
                        refused += 1
                        if len(refusals) < 5:
                            refusals.append(f"{(time.monotonic() - started) / 60:.1f} min "
                                            f"{name} {action}: {ack}")
            time.sleep(max(0.0, min(next_action, next_roll) - time.monotonic()))
        wall = time.monotonic() - started
        per_minute = minutes.stop()
        cpu = process_cpu(worker) - start_cpu
        master = process_cpu(server.proc.pid) - start_master
        end_threads = threads_cpu(worker)
        memory = memory_mb(worker, server.proc.pid)
        if args.tracemalloc and first_snapshot is not None:
            last = server.snapshot("last")
            grown = growers(first_snapshot, last, args.trace_top)
            held = holders(last, args.trace_top)
    finally:
        samples = sampler.stop() if sampler is not None else []
        if together is not None:
            together.abort()  # a server that failed: the other one does not wait for it
        if table is not None:
            table.close()
        server.stop()
        if emulator is not None:
            emulator.stop()
    parts: dict[str, float] = {}
    names: dict[str, float] = {}
    for tid, (comm, used) in end_threads.items():
        used -= start_threads.get(tid, (comm, 0.0))[1]
        parts[part_of(comm)] = parts.get(part_of(comm), 0.0) + used
        names[comm] = names.get(comm, 0.0) + used
    # the server: everything but the named parts, threads that ended included
    parts["server"] = server_rest(cpu, parts)
    lost = lost_actions(server.data, server.game_id, acked)
    warmup = args.minutes / 2 if args.warmup is None else args.warmup
    anon = sampler.anon if sampler is not None else []
    return {"rss_slope_mb_per_hour": slope_mb_per_hour(samples, warmup),
            "anon_slope_mb_per_hour": slope_mb_per_hour(anon, warmup), "anon_samples": anon,
            "worker_anon_mb": round(memory["worker_anon"], 1),
            "worker_file_mb": round(memory["worker_file"], 1),
            "worker_private_mb": round(memory["worker_private"], 1),
            "rss_warmup_minutes": warmup, "rss_samples": samples, "growers": grown,
            "held": held,
            "core_share": round(cpu / wall, SHARE_DIGITS),
            "pi_core_share": round(cpu / wall * PI, 3),
            "parts": {k: round(v / wall, SHARE_DIGITS) for k, v in sorted(parts.items())},
            "threads": {k: round(v / wall, SHARE_DIGITS) for k, v in
                        sorted(names.items(), key=lambda kv: -kv[1]) if v >= 0.0005},
            "thread_count": len(end_threads),
            "master_share": round(master / wall, SHARE_DIGITS),
            "rss_mb": round(memory["pss"], 1), "worker_rss_mb": round(memory["worker_rss"], 1),
            "worker_pss_mb": round(memory["worker_pss"], 1),
            "master_pss_mb": round(memory["master_pss"], 1),
            "lost": lost, "actions": len(acked), "refused": refused, "refusals": refusals,
            "unanswered": unanswered,
            "latency_ms_median": round(statistics.median(latency), 1) if latency else None,
            "per_minute": per_minute,
            "minutes": args.minutes, "wall_s": round(wall, 1)}


def against(game: str, args, work: Path, other: Path) -> dict:
    """The same evening on this tree's server and on ``other``'s (another commit's
    checkout), at the same time: the same frames, the same seed, each its own table, dice
    and data; both measured over the same minutes, so the machine's load falls on both.
    With ``--rounds N`` the evening is N shorter rounds, both servers started afresh for
    each (each pair's wake-up phases, memory and cores drawn anew), the side started first
    alternating ABBA. Returns each one's figures (the rounds' merged: `merge_rounds`) and
    the ratios (this / against): over the whole run, the median of the minutes' ratios
    (with their spread), and over the rounds (`ratio_over_rounds`: median, geometric mean
    and its 95 % interval)."""
    frames, capture = prepare(game, args, work)
    rounds = max(1, args.rounds)
    each = argparse.Namespace(**{**vars(args), "minutes": args.minutes / rounds})
    if rounds > 1:
        each.settle = max(args.settle, args.round_settle)
    results: list[tuple[dict, dict]] = []
    firsts: list[str] = []  # the side each round started first
    for k in range(rounds):
        order = [("this", ROOT), ("against", other)]
        if k % 4 in (1, 2):  # ABBA: the side started first alternates
            order.reverse()
        folder = work / f"round-{k}" if rounds > 1 else work
        folder.mkdir(exist_ok=True)
        seen = frames
        if rounds > 1 and args.round_spread:
            # the round's own slice of the evening: its frames from k/N of the evening on,
            # less the start-up and settle (measured from about k/N on)
            start = round((k * each.minutes * 60 - each.settle - ROUND_START_S) * args.fps)
            seen = rotated(frames, folder / "frames", max(0, start))
        out = pair(game, each, folder, seen, order)
        firsts.append(order[0][0])
        results.append((out["this"], out["against"]))
        if rounds > 1:
            r = round_ratio(out["this"], out["against"], "core_share")
            print(f"{game}: round {k + 1}/{rounds} ({order[0][0]} first): core share "
                  f"{out['this']['core_share']:.4f} / {out['against']['core_share']:.4f} "
                  f"= {r}", flush=True)
    this = merge_rounds([a for a, _ in results])
    base = merge_rounds([b for _, b in results])
    keys = ["core_share", *sorted(set(this["parts"]) | set(base["parts"]))]

    keys.append("server_views_tick")  # the server as a commit without those threads had it

    ratio = {k: round(share(this, k) / share(base, k), 3) if share(base, k) else None
             for k in keys}
    # each named thread's (the camera's capture, recogniser and texture map apart)
    ratio_threads = {name: round(used / base["threads"][name], 3)
                     for name, used in this["threads"].items()
                     if base["threads"].get(name)}
    minutes = [(a, b) for a, b in zip(this["per_minute"], base["per_minute"], strict=False)]
    per_minute = {}
    for k in keys:
        each_ratio = [share_of(a, k) / share_of(b, k) for a, b in minutes if share_of(b, k)]
        if each_ratio:
            per_minute[k] = {"median": round(statistics.median(each_ratio), 3),
                             "min": round(min(each_ratio), 3),
                             "max": round(max(each_ratio), 3), "minutes": len(each_ratio)}
    over_rounds = {}
    if rounds > 1:
        for k in keys:
            over_rounds[k] = ratio_over_rounds([round_ratio(a, b, k) for a, b in results],
                                               firsts)
    return {**capture, "this": this, "against": base, "ratio": ratio,
            "ratio_threads": ratio_threads, "ratio_per_minute": per_minute,
            "ratio_over_rounds": over_rounds, "rounds": rounds}


ROUND_START_S = 8.0  # a round's servers start and connect in about this (load 10-15)


def rotated(frames: Path, folder: Path, start: int) -> Path:
    """``frames`` as seen from frame ``start`` on (hard links renamed in order, looping):
    a round that plays the evening's later part, its table as it is by then."""
    names = sorted(name for name in os.listdir(frames) if name.endswith(".npy"))
    folder.mkdir()
    for j in range(len(names)):
        os.link(frames / names[(start + j) % len(names)], folder / names[j])
    return folder


def pair(game: str, args, work: Path, frames: Path, order) -> dict:
    """One evening on both servers at once (``order``: (name, root) pairs, the first
    started first), measured over the same minutes."""
    together = threading.Barrier(2)
    out: dict[str, dict] = {}
    failed: list[str] = []

    def run(name: str, root: Path) -> None:
        (work / name).mkdir()
        try:
            out[name] = play(game, args, work / name, frames, root, together)
        except BaseException as error:  # noqa: BLE001 (SystemExit too: said, then raised)
            failed.append(f"{name}: {error}")
            together.abort()

    threads = [threading.Thread(target=run, args=item) for item in order]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failed:
        raise SystemExit("; ".join(failed))
    return out


def share(r: dict, key: str) -> float:
    """A part's share over a run (``server_views_tick``: those three, as a commit without
    the views and tick threads has them)."""
    if key == "server_views_tick":
        return sum(r["parts"].get(k, 0.0) for k in ("server", "views", "tick"))
    return r["core_share"] if key == "core_share" else r["parts"].get(key, 0.0)


def round_ratio(this: dict, base: dict, key: str) -> float | None:
    return round(share(this, key) / share(base, key), 4) if share(base, key) else None


# Student's t at 97.5 % for n - 1 degrees of freedom (a 95 % two-sided interval; no scipy
# in the venv): the interval of the rounds' mean log ratio
T975 = {1: 12.71, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.16, 14: 2.145, 15: 2.131,
        16: 2.12, 17: 2.11, 18: 2.101, 19: 2.093, 20: 2.086, 25: 2.06, 30: 2.042}


def ratio_over_rounds(ratios: list[float | None], first: list[str] | None = None) -> dict:
    """The rounds' ratios: their median, and their geometric mean with its 95 % interval
    (the mean of the log ratios, Student's t over the rounds: each round's servers started
    afresh, so the rounds are independent draws of whatever a pair of processes gets).
    An interval that holds 1.0 says the run cannot tell the two apart. ``first``: which
    side each round started first ("this", "against"): the geometric mean of each side's
    rounds apart (``by_first``; session 91: over 14 runs of 4-8 rounds, sessions 86-91, the
    camera's ratio read 2.4 % (0.9-3.9 %) higher in the rounds this tree started first, in
    12 of them; ABBA's even count each way cancels it in the geometric mean, and pairing
    the rounds (AB, BA) widened the interval in 13 of 14: notes s91/i71 order_effect.py)."""
    each = [r for r in ratios if r]
    if len(each) < 2:
        return {"rounds": len(each), "each": each}
    logs = [np.log(r) for r in each]
    mean, sd = statistics.fmean(logs), statistics.stdev(logs)
    df = len(logs) - 1
    t = T975.get(df) or T975[max(k for k in T975 if k <= df)]
    half = t * sd / len(logs) ** 0.5
    out = {"median": round(statistics.median(each), 3),
           "geomean": round(float(np.exp(mean)), 3),
           "ci95": [round(float(np.exp(mean - half)), 3), round(float(np.exp(mean + half)), 3)],
           "rounds": len(each), "each": each}
    if first is not None:
        sides = {side: [r for r, f in zip(ratios, first, strict=True) if r and f == side]
                 for side in ("this", "against")}
        if all(sides.values()):
            out["by_first"] = {side: {"geomean": round(float(np.exp(statistics.fmean(
                np.log(got)))), 3), "rounds": len(got)} for side, got in sides.items()}
    return out


def merge_rounds(runs: list[dict]) -> dict:
    """One side's rounds as one evening: shares averaged (the rounds are equally long),
    memory the largest round's, counts summed, the minutes one after the other; no RSS
    slope (a round of a minute or two is the warm-up: one long run, ``--rounds 1``,
    measures it)."""
    if len(runs) == 1:
        return runs[0]
    first = runs[0]

    def mean(key):
        return round(statistics.fmean(r[key] for r in runs), SHARE_DIGITS)

    def mean_of(key):
        names = {n for r in runs for n in r[key]}
        return {n: round(statistics.fmean(r[key].get(n, 0.0) for r in runs), SHARE_DIGITS)
                for n in sorted(names)}

    latencies = [r["latency_ms_median"] for r in runs if r["latency_ms_median"] is not None]
    return {**first,
            "core_share": mean("core_share"), "pi_core_share": round(mean("core_share") * PI, 3),
            "master_share": mean("master_share"), "parts": mean_of("parts"),
            "threads": dict(sorted(mean_of("threads").items(), key=lambda kv: -kv[1])),
            **{k: max(r[k] for r in runs) for k in ("rss_mb", "worker_rss_mb",
                                                     "worker_pss_mb", "master_pss_mb",
                                                     "worker_anon_mb", "worker_file_mb",
                                                     "worker_private_mb")},
            **{k: sum(r[k] for r in runs) for k in ("lost", "actions", "refused")},
            "refusals": [x for r in runs for x in r["refusals"]][:5],
            "unanswered": [x for r in runs for x in r["unanswered"]],
            "latency_ms_median": round(statistics.median(latencies), 1) if latencies else None,
            "rss_slope_mb_per_hour": None, "anon_slope_mb_per_hour": None,
            "per_minute": [m for r in runs for m in r["per_minute"]],
            "core_share_rounds": [r["core_share"] for r in runs],
            "minutes": sum(r["minutes"] for r in runs),
            "wall_s": round(sum(r["wall_s"] for r in runs), 1)}


def share_of(minute: dict, key: str) -> float:
    """A part's share in one `MinuteSampler` minute (``server_views_tick``: those three)."""
    if key == "server_views_tick":
        return sum(minute.get(k, 0.0) for k in ("server", "views", "tick"))
    return minute.get(key, 0.0)


def checkout(commit: str, folder: Path) -> tuple[Path, str]:
    """``commit`` checked out into a temporary `git worktree` under ``folder`` (removed by
    `remove_checkout`): its own source, run with this venv's packages."""
    full = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{commit}^{{commit}}"],
                          check=True, capture_output=True, text=True).stdout.strip()
    path = folder / f"against-{full[:7]}"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), full],
                   check=True, capture_output=True, text=True)
    return path, full


def remove_checkout(path: Path) -> None:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
                   capture_output=True, text=True)
    subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], capture_output=True)


def lost_actions(data: Path, game_id: str, acked: list) -> int:
    """Acknowledged actions not in the server's record at the place their version says
    (camera and dice actions come in between, so the place, not the count, is checked).
    The server stores an action in its canonical form (``GameInfo.canonical``: no fields
    the rules do not read), so each one sent is compared in that form, made from the
    state the record had before it (the record replayed through the rules)."""
    from companion.game.games import kind_of
    from companion.game.service import GameService, canonical
    from companion.game.store import Store

    store = Store(data / "companion.sqlite3")
    try:
        service = GameService(store, lambda name: kind_of(games.module_of(name),
                                                          load_catalog(name)))
        row = next(r for r in store.games() if r["id"] == game_id)
        kind = service.rebuilder.kind_for(row)
        stored = [a["action"] for a in store.actions(game_id)]
        state = service.rebuilder.setup(kind, row["setup"])
    finally:
        store.close()
    before = []  # the state before each stored action
    for action in stored:
        before.append(state)
        state, _ = kind.module.apply(state, action)
    lost = 0
    for version, action, by in acked:
        sent = dict(action, by=by)
        if version > len(stored) or stored[version - 1] != canonical(kind, before[version - 1],
                                                                     sent):
            lost += 1
            if lost <= 3:
                print(f"  lost: version {version} {sent} stored "
                      f"{stored[version - 1] if version <= len(stored) else None}", flush=True)
    return lost


def playable() -> list[str]:
    out = []
    for name in games.known():
        web = getattr(games.module_of(name).info, "web", None)
        try:
            if web and importlib.util.find_spec(web):
                out.append(name)
        except (ImportError, ValueError):
            continue
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(playable()))
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=1, help="runs per game (median shown)")
    parser.add_argument("--action-every", type=float, default=2.0)
    parser.add_argument("--card-every", type=float, default=20.0)
    parser.add_argument("--roll-every", type=float, default=30.0)
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds after connecting before measuring")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-camera", dest="camera", action="store_false",
                        help="the server without its camera (lost, idle): the server and "
                             "the dice alone")
    parser.add_argument("--no-dice", dest="dice", action="store_false",
                        help="the server without its dice reader (lost, idle): whose memory "
                             "the dice hold")
    parser.add_argument("--sample-every", type=float, default=15.0,
                        help="seconds between the worker's RSS samples")
    parser.add_argument("--warmup", type=float, default=None,
                        help="minutes left out of the RSS slope (default: the first half)")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="trace the worker's allocations and print the top growers "
                             "between --trace-from of the run and its end (slows it)")
    parser.add_argument("--trace-from", type=float, default=0.4,
                        help="fraction of the run at which the first snapshot is taken")
    parser.add_argument("--trace-frames", type=int, default=1,
                        help="frames kept per allocation (more names the caller)")
    parser.add_argument("--trace-top", type=int, default=15)
    parser.add_argument("--camera-ab", type=float, default=10.0,
                        help="seconds of each of 2 x 2 interleaved runs of the camera threads "
                             "in this process before the evening, every frame against the "
                             "still table's stride (0: skip)")
    parser.add_argument("--dev-packages", action="store_true",
                        help="let the server import this venv's packages that the Pi has not "
                             "(the tests'): by default they are hidden, so its memory is the "
                             "Pi's (before 2026-11-27 they were not: ~7 MB more RSS)")
    parser.add_argument("--parallel", action="store_true",
                        help="the games' evenings at the same time, each in its own process "
                             "(CPU time is what core share counts, so a 30-minute run of three "
                             "games takes 30 minutes, not 90)")
    parser.add_argument("--against", metavar="COMMIT",
                        help="run the same evening at the same time on COMMIT's server "
                             "(checked out into a temporary git worktree) and print the "
                             "ratios this / against: total and per part")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --against: the evening split into this many rounds, both "
                             "servers started afresh for each (who starts first alternating "
                             "ABBA); the ratio's median and 95 %% interval over the rounds")
    parser.add_argument("--round-settle", type=float, default=20.0,
                        help="with --rounds: seconds each round's servers settle before "
                             "measuring (a table of cards seen at once: its first reads and "
                             "look)")
    parser.add_argument("--no-round-spread", dest="round_spread", action="store_false",
                        help="with --rounds: every round plays the evening's first minutes "
                             "(by default round k plays its k/N slice of the evening's frames)")
    args = parser.parse_args()
    if args.against:
        if args.tracemalloc or args.parallel or args.repeat != 1:
            parser.error("--against runs one evening per game, untraced, one game at a time")
        main_against(args)
        return
    if args.parallel and "," in args.games:
        out = in_parallel(args.games.split(","), [a for a in sys.argv[1:] if a != "--parallel"])
        print(json.dumps({"games": out, "loadavg_1m": os.getloadavg()[0],
                          "targets": TARGETS}))
        return
    out = {}
    with tempfile.TemporaryDirectory(prefix="tc-evening-") as tmp:
        for game in args.games.split(","):
            runs = []
            for k in range(args.repeat):
                work = Path(tmp) / f"{game}-{k}"
                work.mkdir()
                runs.append(evening(game, args, work))
                show(game, runs[-1])
            r = dict(min(runs, key=lambda x: abs(x["core_share"] - statistics.median(
                x["core_share"] for x in runs))))
            r["core_share_runs"] = [x["core_share"] for x in runs]
            out[game] = r
    print(json.dumps({"games": out, "loadavg_1m": os.getloadavg()[0],
                      "targets": TARGETS}))


def main_against(args) -> None:
    """`--against COMMIT`: each game's evening on both servers, the ratios printed."""
    out = {}
    with tempfile.TemporaryDirectory(prefix="tc-evening-") as tmp:
        other, full = checkout(args.against, Path(tmp))
        try:
            for game in args.games.split(","):
                work = Path(tmp) / game
                work.mkdir()
                r = out[game] = against(game, args, work, other)
                show(f"{game} (this tree)", r["this"])
                show(f"{game} (against {full[:7]})", r["against"])
                print(f"{game}: ratio this / against {full[:7]}: " + "  ".join(
                    f"{k} {v}" for k, v in r["ratio"].items())
                    + "; per minute (median [min, max]): " + "  ".join(
                    f"{k} {v['median']} [{v['min']}, {v['max']}]"
                    for k, v in r["ratio_per_minute"].items()), flush=True)
                for k, v in r["ratio_over_rounds"].items():
                    if "ci95" in v:
                        print(f"{game}: over {v['rounds']} rounds, {k} ratio median "
                              f"{v['median']}, geometric mean {v['geomean']} (95 % interval "
                              f"{v['ci95'][0]}-{v['ci95'][1]}): {v['each']}"
                              + ("; rounds this first {this[geomean]}, against first "
                                 "{against[geomean]}".format(**v["by_first"])
                                 if "by_first" in v else ""), flush=True)
                print(f"{game}: ratio by thread: " + "  ".join(
                    f"{k} {v}" for k, v in r["ratio_threads"].items()), flush=True)
        finally:
            remove_checkout(other)
    print(json.dumps({"games": out, "against": full, "loadavg_1m": os.getloadavg()[0],
                      "targets": TARGETS}))


def in_parallel(names: list[str], argv: list[str]) -> dict:
    """Each game's evening in a process of its own, started together; their lines shown as
    they come (prefixed by the game), their JSON last lines merged."""
    rest, skip = [], False
    for arg in argv:  # this run's arguments but --games
        if skip:
            skip = False
        elif arg == "--games":
            skip = True
        elif not arg.startswith("--games="):
            rest.append(arg)
    procs = {name: subprocess.Popen([sys.executable, __file__, "--games", name, *rest],
                                    stdout=subprocess.PIPE, text=True) for name in names}
    last: dict[str, str] = {}

    def relay(name: str, proc: subprocess.Popen) -> None:
        for line in proc.stdout:
            if line.startswith("{"):
                last[name] = line
            else:
                print(f"[{name}] {line}", end="", flush=True)

    relays = [threading.Thread(target=relay, args=item) for item in procs.items()]
    for thread in relays:
        thread.start()
    for thread in relays:
        thread.join()
    out = {}
    for name, proc in procs.items():
        if proc.wait() != 0 or name not in last:
            raise SystemExit(f"{name}: its evening failed (exit {proc.returncode})")
        out.update(json.loads(last[name])["games"])
    return out


def show(game: str, r: dict) -> None:
    parts = "  ".join(f"{k} {v:.3f} (Pi {v * PI:.2f})" for k, v in r["parts"].items())
    print(f"{game}: core share {r['core_share']:.3f} (Pi x5: {r['pi_core_share']:.2f})  "
          f"[{parts}]  master {r['master_share']:.3f}  memory {r['rss_mb']:.0f} MB PSS "
          f"(master {r['master_pss_mb']:.0f}, worker {r['worker_pss_mb']:.0f}; worker RSS "
          f"{r['worker_rss_mb']:.0f} MB: anonymous {r['worker_anon_mb']:.0f}, file pages "
          f"{r.get('worker_file_mb', 0):.0f}; its own {r.get('worker_private_mb', 0):.0f})  "
          f"actions {r['actions']}  lost {r['lost']}  refused {r['refused']}  "
          f"latency median {r['latency_ms_median']} ms",
          flush=True)
    print(f"  busiest threads: {r['threads']}", flush=True)
    for line in r.get("refusals", []):
        print(f"  refused: {line}", flush=True)
    print(f"  RSS slope after {r['rss_warmup_minutes']:g} min: "
          f"{r['rss_slope_mb_per_hour']} MB/h; worker RSS (min, MB): "
          + ", ".join(f"{t:.1f} {mb:.1f}" for t, mb in r["rss_samples"][::4]), flush=True)
    print(f"  anonymous memory slope: {r['anon_slope_mb_per_hour']} MB/h; worker anonymous "
          f"{r['worker_anon_mb']:.0f} MB at the end (min, MB): "
          + ", ".join(f"{t:.1f} {mb:.1f}" for t, mb in r["anon_samples"][::4]), flush=True)
    for line in r["growers"]:
        print(f"  grew {line}", flush=True)
    for line in r.get("held", []):
        print(f"  held {line}", flush=True)


if __name__ == "__main__":
    main()

"""The camera's pip-dice reader on rendered throws of every tray family
(hardware/synthetic/dice_tray.py `FAMILIES`, the ``held_out`` one reported apart: no tuning
looked at it) and on real photographs (``--photos``, by default ../shared/data/dice-photos from
the repository: a white die on a light surface, labels.json; missing: not reported).

Per family: faces_right (of the dice lying flat, the share read right: unread counts against
it), faces_wrong (count), unread (share), false_blobs (dice reported where none lies),
faces_misplaced (a face read more than half a side from every die, as between two dice;
misplaced_wrong: of those, a face not the nearest die's), faces_right_95 (the Wilson 95 %
interval of faces_right: 24 throws of 10 dice pin a share to about +-3 points, 120 throws
to about +-1),
colour_right (of the dice given a colour group, the share given their own; "unknown" is
no colour given), colour_named (share of dice given a colour group), colour_named_of_read
(of the dice read with a face, the share given a colour group), rolls_missed,
rolls_doubled, cpu_ms_per_roll (every frame of the throw: motion checks and the reading;
median, x5 for the Pi; after a few untimed throws, `warm_up`). Photographs: right, wrong,
unread, false blobs, CPU per photo.
A baseline in the same run: OpenCV's SimpleBlobDetector counting pips near each true die.
``--malloc app`` (the default): glibc's malloc as `companion serve` sets it
(companion/server/memory.py: a fixed 128 KiB mmap threshold, so every larger temporary is
fresh pages, their faults counted in the process's CPU time), as the reader runs in the app;
``--malloc default``: glibc's own (the figures of the rounds before 2026-11-26 05:00).
Figures are noisy on a shared machine. JSON last line.

``--stages``: CPU only, each stage of the reader's share of a roll (cProfile; `stage_costs`);
with ``--cpu-against REV``, REV's reader's stages beside them, profiled throw by throw in turn.

``--passes``: CPU only, unprofiled, read_tray's passes (the masks, the blobs read, the pip
clusters, the faint mask's dice, ...) in ms a roll, and `read_face`'s calls and ms in each
(`pass_costs`): cProfile's shares (``--stages``) charge Python's work half as much again.

``--count thrown`` (the default): each settler is told the throw's number of dice
(`DICE`), as the app tells it what the game at the table owes (companion/wiring/dice.py
`dice_thrown`): the reader stops once it read that many, and a reading of more is no roll
(it counts as missed); ``--count unknown``: not told, every pass runs (the reader before
2026-11-28). A revision's reader that takes no count (``--cpu-against``) is not told.

``--cpu-against REV``: CPU only, against the reader of git revision REV in the same run.
Each throw of the tuned families is rendered once and fed to a settler with this reader and
one with REV's, in turn (which goes first alternates); CPU time per roll (every frame, as
above) of each, median and spread, the ratio of their medians and the median of the
per-throw ratios, and the load average before and after (a shared machine's other work
inflates both readers' CPU time alike; the ratio stands)."""
from __future__ import annotations

import argparse
import functools
import importlib.util
import inspect
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

from companion.server import memory
from hardware.camera import dice_faces, dice_settle
from hardware.camera.dice_faces import read_tray
from hardware.camera.dice_settle import DiceSettler
from hardware.camera.recognizer import OPENCV_THREADS
from hardware.synthetic import dice_tray

THROWS = 12
DICE = 10
TOLD: int | None = DICE  # what each settler is told the throw has (`--count`)
SIDES = (28.0, 32.0, 36.0, 40.0, 44.0)  # px across: the reader asks for dice >= 28 px
PHOTOS = Path("../shared/data/dice-photos")  # from the repository, as the issue names it


def nearest(dice, x, y, reach):
    best = min(dice, key=lambda d: math.hypot(d.centre[0] - x, d.centre[1] - y), default=None)
    if best is None or math.hypot(best.centre[0] - x, best.centre[1] - y) > reach:
        return None
    return best


def baseline(image, truth) -> list[int]:
    params = cv2.SimpleBlobDetector_Params()
    params.filterByArea, params.minArea, params.maxArea = True, 6, 80
    params.filterByCircularity, params.minCircularity = True, 0.6
    dark = cv2.SimpleBlobDetector_create(params)
    params.blobColor = 255
    light = cv2.SimpleBlobDetector_create(params)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    points = [k.pt for k in dark.detect(gray) + light.detect(gray)]
    return [sum(math.hypot(x - d.x, y - d.y) < d.side * 0.45 for x, y in points) for d in truth]


def score(reading, truth, tally, reach: float = 0.5) -> None:
    """Add one settled tray's reading against its truth to ``tally``. Each die takes the
    nearest reading within ``reach`` of its side from its centre (bench/dice_independent.py:
    `REACH`)."""
    for die in truth:
        tally["dice"] += 1
        seen = nearest(reading.dice, die.x, die.y, die.side * reach)
        if seen is not None and seen.colour != "unknown":
            tally["named"] += 1
            tally["colour_right"] += seen.colour == die.colour
        if seen is not None and seen.face is not None:  # a die read: named?
            tally["read"] = tally.get("read", 0) + 1
            tally["read_named"] = tally.get("read_named", 0) + (seen.colour != "unknown")
        if die.cocked and (seen is None or seen.face is None):
            continue
        tally["counted"] += 1
        if seen is None or seen.face is None:
            tally["unread"] += 1
        elif seen.face == die.face:
            tally["right"] += 1
        else:
            tally["wrong"] += 1
    for seen in reading.dice:
        if not any(math.hypot(seen.centre[0] - d.x, seen.centre[1] - d.y) <= d.side * 0.6
                   for d in truth):
            tally["false_blobs"] += 1
        elif seen.face is not None and not any(
                math.hypot(seen.centre[0] - d.x, seen.centre[1] - d.y) <= d.side / 2
                for d in truth):
            tally["misplaced"] += 1  # a face read off no die's middle (between two dice)
            near = min(truth, key=lambda d: math.hypot(seen.centre[0] - d.x,
                                                        seen.centre[1] - d.y))
            tally["misplaced_wrong"] += seen.face != near.face


def wilson(right: int, counted: int, z: float = 1.96) -> list[float]:
    """The 95 % interval of a share ``right / counted`` (Wilson's score interval)."""
    if not counted:
        return [0.0, 1.0]
    share = right / counted
    middle = (share + z * z / (2 * counted)) / (1 + z * z / counted)
    half = z * math.sqrt(share * (1 - share) / counted + z * z / (4 * counted * counted)) / (
        1 + z * z / counted)
    return [round(max(0.0, middle - half), 4), round(min(1.0, middle + half), 4)]


def warm_up(sides: tuple[float, ...], throws: int = 4) -> None:
    """A few throws read untimed first: the process's first readings pay one-off costs
    (lazily built tables and buffers, cold caches: dark felt's first four trays 24-36 ms,
    the same read again 15-18 ms), which a camera service running all evening pays once,
    not per roll."""
    for seed in range(throws):
        style, colours = dice_tray.family("dark_felt", 990 + seed)
        settler = DiceSettler()
        for image, _, _ in dice_tray.throw(990 + seed, DICE, sides[seed % len(sides)], style,
                                           settled_frames=6, colours=colours):
            settler.feed(image)


def run_family(name: str, throws: int, sides: tuple[float, ...], first: int = 0) -> dict:
    tally = dict.fromkeys(("right", "wrong", "unread", "counted", "false_blobs", "named",
                           "colour_right", "dice", "missed", "doubled", "b_right", "b_counted",
                           "misplaced", "misplaced_wrong"), 0)
    ms = []
    for seed in range(first, first + throws):
        style, colours = dice_tray.family(name, seed)
        settler, rolls, cpu, truth = DiceSettler(), [], 0.0, None
        for image, dice, phase in dice_tray.throw(1000 + seed, DICE, sides[seed % len(sides)],
                                                   style, settled_frames=6, colours=colours):
            start = time.process_time()
            roll = settler.feed(image, thrown=TOLD)
            cpu += time.process_time() - start
            if roll is not None:
                rolls.append(settler.last_reading)
            if phase == "settled":
                truth, last_image = dice, image
        ms.append(cpu * 1000)
        tally["missed"] += not rolls
        tally["doubled"] += max(0, len(rolls) - 1)
        if rolls:
            score(rolls[0], truth, tally)
        for die, count in zip(truth, baseline(last_image, truth), strict=True):
            if not die.cocked:
                tally["b_counted"] += 1
                tally["b_right"] += count == die.face
    counted, named = tally["counted"], tally["named"]
    return {"faces_right": round(tally["right"] / counted, 4) if counted else 0.0,
            "faces_right_95": wilson(tally["right"], counted),
            "faces_wrong": tally["wrong"],
            "unread": round(tally["unread"] / counted, 4) if counted else 1.0,
            "false_blobs": tally["false_blobs"], "faces_misplaced": tally["misplaced"],
            "misplaced_wrong": tally["misplaced_wrong"],
            "colour_right": round(tally["colour_right"] / named, 4) if named else 1.0,
            "colour_named": round(named / max(1, tally["dice"]), 4),
            "colour_named_of_read": round(tally.get("read_named", 0) / max(1, tally.get(
                "read", 0)), 4),
            "rolls_missed": tally["missed"], "rolls_doubled": tally["doubled"],
            "dice": tally["dice"], "flat_dice": counted,
            "cpu_ms_per_roll": round(statistics.median(ms), 1),
            "cpu_ms_spread": [round(min(ms), 1), round(max(ms), 1)],
            "baseline_blob_faces_right": round(tally["b_right"] / max(1, tally["b_counted"]), 4)}


def run_photos(folder: Path) -> dict | None:
    labels_file = folder / "labels.json"
    if not labels_file.is_file():
        return None
    labels = json.loads(labels_file.read_text())
    right = wrong = unread = false_blobs = 0
    ms = []
    for name, face in sorted(labels.items()):
        image = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
        start = time.process_time()
        reading = read_tray(image)
        ms.append((time.process_time() - start) * 1000)
        h, w = image.shape[:2]
        seen = nearest(reading.dice, w / 2, h / 2, min(h, w) / 3)  # the die: mid-picture
        false_blobs += len(reading.dice) - (seen is not None)
        if seen is None or seen.face is None:
            unread += 1
        elif seen.face == face:
            right += 1
        else:
            wrong += 1
    return {"photos": len(labels), "right": right, "wrong": wrong, "unread": unread,
            "false_blobs": false_blobs, "cpu_ms_per_photo": round(statistics.median(ms), 2)}


def reader_at(rev: str):
    """``read_tray`` of hardware/camera/dice_faces as it is at git revision ``rev``: one
    module then (before issue 64), or the package of its stages (imported under a name of
    its own from a copy of that revision's files: its modules import each other relatively)."""
    root = Path(__file__).resolve().parent.parent
    name = "dice_faces_at_" + "".join(c if c.isalnum() else "_" for c in rev)
    single = subprocess.run(["git", "show", f"{rev}:hardware/camera/dice_faces.py"], cwd=root,
                            capture_output=True, text=True)
    if single.returncode == 0:
        module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, None))
        sys.modules[name] = module  # dataclasses look their module up
        exec(compile(single.stdout, f"{rev}:hardware/camera/dice_faces.py", "exec"),
             module.__dict__)
        return _untold(module.read_tray)
    folder = Path(tempfile.mkdtemp(prefix="dice-faces-")) / name
    folder.mkdir()
    listed = subprocess.run(["git", "ls-tree", "--name-only", f"{rev}:hardware/camera/dice_faces"],
                            cwd=root, capture_output=True, text=True, check=True).stdout.split()
    for file in (f for f in listed if f.endswith(".py")):
        (folder / file).write_text(subprocess.run(
            ["git", "show", f"{rev}:hardware/camera/dice_faces/{file}"], cwd=root,
            capture_output=True, text=True, check=True).stdout)
    spec = importlib.util.spec_from_file_location(name, folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return _untold(module.read_tray)


def _untold(reader):
    """``reader`` as the settler calls it (``thrown=``), for a revision's reader that
    takes no count of the dice thrown: it is not told."""
    if "thrown" in inspect.signature(reader).parameters:
        return reader

    @functools.wraps(reader)  # its ``__wrapped__``: where its package lies (`stage_costs`)
    def untold(image, die_px=None, taught=(), thrown=None):
        return reader(image, die_px, taught)

    return untold


def use_reader(reader) -> None:
    """The reader every DiceSettler reads its rolls with from now: the settler imports
    ``read_tray`` from the dice faces' package at each roll (issue 71: loaded at the first),
    so that package's name is the one swapped (setting ``dice_settle.read_tray`` swapped
    nothing: both readers of ``--against`` were this tree's)."""
    dice_faces.read_tray = reader


def roll_cpu(frames, reader) -> float:
    """CPU ms a settler reading with ``reader`` spends on a throw's frames."""
    use_reader(reader)
    try:
        settler, cpu = DiceSettler(), 0.0
        for image, _, _ in frames:
            start = time.process_time()
            settler.feed(image, thrown=TOLD)
            cpu += time.process_time() - start
        return cpu * 1000
    finally:
        use_reader(read_tray)


def cpu_against(rev: str, families: list[str], throws: int, sides: tuple[float, ...]) -> dict:
    base_reader, ours, base = reader_at(rev), [], []
    load_before = os.getloadavg()
    for name in families:
        for seed in range(throws):
            style, colours = dice_tray.family(name, seed)
            frames = dice_tray.throw(1000 + seed, DICE, sides[seed % len(sides)], style,
                                     settled_frames=6, colours=colours)
            pair = [(ours, read_tray), (base, base_reader)]
            for spent, reader in pair if seed % 2 else pair[::-1]:
                spent.append(roll_cpu(frames, reader))
    ratios = [a / b for a, b in zip(ours, base, strict=True)]
    return {"cpu_against": rev, "rolls": len(ours),
            "cpu_ms_per_roll": round(statistics.median(ours), 2),
            "cpu_ms_spread": [round(min(ours), 1), round(max(ours), 1)],
            "cpu_ms_quartiles": [round(q, 2) for q in statistics.quantiles(ours, n=4)],
            "baseline_cpu_ms_per_roll": round(statistics.median(base), 2),
            "baseline_cpu_ms_spread": [round(min(base), 1), round(max(base), 1)],
            "ratio_of_medians": round(statistics.median(ours) / statistics.median(base), 3),
            "median_ratio": round(statistics.median(ratios), 3),
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in os.getloadavg()],
            "families": families, "opencv_threads": cv2.getNumThreads()}


def stage_costs(families: list[str], throws: int, sides: tuple[float, ...],
                against: str | None = None) -> dict:
    """Which stage of the reader (a module of hardware/camera/dice_faces) costs what, as
    shares of a roll's CPU (every frame, as `roll_cpu`), under cProfile: each of the package's
    functions is charged its own time and that of the calls it makes outside the stages
    (OpenCV, numpy, the shared helpers of common.py);
    the rest (motion checks, the still frames' mean) is the settler's. The profiler slows
    Python more than C: the shares, not its milliseconds, are the figures.
    ``against``: git revision REV's reader profiled too, throw by throw in turn with this
    one (which goes first alternates): each stage's share and profiled ms a roll of both."""
    import cProfile
    import pstats

    readers = [(read_tray, str(Path(dice_settle.__file__).parent / "dice_faces"))]
    if against:
        base = reader_at(against)
        readers.append((base, str(Path(inspect.unwrap(base).__code__.co_filename).parent)))
    profiles = [cProfile.Profile(time.process_time) for _ in readers]  # CPU, as the others
    for name in families:
        for seed in range(throws):
            style, colours = dice_tray.family(name, seed)
            frames = dice_tray.throw(1000 + seed, DICE, sides[seed % len(sides)], style,
                                     settled_frames=6, colours=colours)
            turns = list(zip(readers, profiles, strict=True))
            for (reader, _), profile in turns if seed % 2 else turns[::-1]:
                use_reader(reader)
                try:
                    settler = DiceSettler()
                    for image, _, _ in frames:
                        profile.runcall(settler.feed, image, thrown=TOLD)
                finally:
                    use_reader(read_tray)
    rolls = len(families) * throws
    result = _stage_shares(pstats.Stats(profiles[0]).stats, readers[0][1], rolls)
    if against:
        other = _stage_shares(pstats.Stats(profiles[1]).stats, readers[1][1], rolls)
        result["against"] = against
        result["against_stage_shares"] = other["stage_shares"]
        result["against_profiled_ms_per_roll"] = other["profiled_ms_per_roll"]
    result.update(families=families, throws_per_family=throws)
    return result


PASSES = (  # read_tray's passes, as hardware/camera/dice_faces/tray.py names what it calls
    ("hand", "_hand"), ("floor colour", "floor_colour"), ("masks", "die_masks"),
    ("blobs labelled", "_blobs"), ("blobs read", "_read_mask"), ("rim cut", "_off_the_rim"),
    ("patches", "_on_patches"), ("pip clusters", "_pip_clusters"),
    ("local pip masks", "_local_pips"), ("ones", "_ones"), ("faint mask's dice", "_faint_dice"))


def pass_costs(families: list[str], throws: int, sides: tuple[float, ...]) -> dict:
    """read_tray's CPU a roll, pass by pass, unprofiled: each of `PASSES` wrapped in a CPU
    clock where tray.py calls it (a pass called inside another is the outer one's), and
    `read_face` (where squares.py calls it) counted and timed inside whichever pass calls
    it. What no pass holds (erosions, the dice's size, merging) is "tray, the rest"; what a
    roll spends outside read_tray (motion checks, the still mean) is the settler's. The
    wrappers cost ~1 us a call (a few hundred calls a roll); they are taken off after."""
    from hardware.camera.dice_faces import squares, tray

    spent: dict[str, int] = {}
    faces: dict[str, list[int]] = {}  # pass: [calls, ns]
    inside: list[str] = []

    def face(*args, **kwargs):
        start = time.process_time_ns()
        try:
            return real_face(*args, **kwargs)
        finally:
            tally = faces.setdefault(inside[-1] if inside else "tray, the rest", [0, 0])
            tally[0] += 1
            tally[1] += time.process_time_ns() - start

    def reader(*args, **kwargs):
        start = time.process_time_ns()
        try:
            return read_tray(*args, **kwargs)
        finally:
            spent["read_tray"] = spent.get("read_tray", 0) + time.process_time_ns() - start

    real = {name: getattr(tray, name) for _, name in PASSES}
    real_face = squares.read_face
    rolls, roll_ns = 0, 0
    try:
        for label, name in PASSES:
            setattr(tray, name, _clocked(label, real[name], spent, inside))
        squares.read_face = face
        for family in families:
            for seed in range(throws):
                style, colours = dice_tray.family(family, seed)
                frames = dice_tray.throw(1000 + seed, DICE, sides[seed % len(sides)], style,
                                         settled_frames=6, colours=colours)
                use_reader(reader)
                try:
                    settler = DiceSettler()
                    start = time.process_time_ns()
                    for image, _, _ in frames:
                        settler.feed(image, thrown=TOLD)
                    roll_ns += time.process_time_ns() - start
                finally:
                    use_reader(read_tray)
                rolls += 1
    finally:
        for _, name in PASSES:
            setattr(tray, name, real[name])
        squares.read_face = real_face
    whole = spent.pop("read_tray", 0)
    spent["tray, the rest"] = whole - sum(spent.values())
    spent["settler (motion, mean)"] = roll_ns - whole
    ms = 1e-6 / max(1, rolls)
    return {"pass_ms_per_roll": {k: round(v * ms, 2) for k, v in
                                 sorted(spent.items(), key=lambda kv: -kv[1])},
            "read_face_per_roll": {k: {"calls": round(n / max(1, rolls), 1),
                                       "ms": round(t * ms, 2)} for k, (n, t) in faces.items()},
            "read_tray_ms_per_roll": round(whole * ms, 2),
            "cpu_ms_per_roll": round(roll_ns * ms, 2), "rolls": rolls,
            "families": families, "throws_per_family": throws}


def _clocked(label: str, function, spent: dict[str, int], inside: list[str]):
    """``function`` timing itself (CPU ns) into ``spent[label]``, unless called inside
    another clocked pass (``inside``: the passes under way): that pass's time then (the
    patches' own masks and blobs are the patches')."""
    def clocked(*args, **kwargs):
        if inside:
            return function(*args, **kwargs)
        inside.append(label)
        start = time.process_time_ns()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0) + time.process_time_ns() - start
            inside.pop()
    return clocked


def _stage_shares(stats: dict, package: str, rolls: int) -> dict:
    """`stage_costs`' shares of one reader's profile (``package``: its stages' folder)."""
    total = sum(tt for _, _, tt, _, _ in stats.values())

    def stage(func) -> str | None:
        """A stage's module; the shared helpers (common.py) are charged to their callers."""
        name = Path(func[0]).stem if func[0].startswith(package) else None
        return None if name in ("common", "__init__") else name

    spent: dict[str, float] = {}
    for func, (_, _, tt, _, callers) in stats.items():
        if stage(func):
            spent[stage(func)] = spent.get(stage(func), 0.0) + tt
            continue
        for caller, (_, _, _, ct) in callers.items():
            if stage(caller):  # a library call made by a stage: that stage's
                spent[stage(caller)] = spent.get(stage(caller), 0.0) + ct
    spent["settler (motion, mean)"] = total - sum(spent.values())
    return {"stage_shares": {k: round(v / total, 3) for k, v in
                             sorted(spent.items(), key=lambda kv: -kv[1])},
            "profiled_ms_per_roll": round(1000 * total / rolls, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", default=",".join(f"{s:g}" for s in SIDES),
                        help="die sizes in px across, comma-separated (default %(default)s)")
    parser.add_argument("--throws", type=int, default=THROWS, help="throws per family")
    parser.add_argument("--first", type=int, default=0,
                        help="the first throw (seed) of each family: throws beyond those "
                             "tuned on (0-119) check what no tuning saw")
    parser.add_argument("--families", default=",".join(dice_tray.FAMILIES),
                        help="tray families, comma-separated (default: all)")
    parser.add_argument("--photos", default=str(PHOTOS), help="folder of real photographs")
    parser.add_argument("--malloc", choices=("app", "default"), default="app",
                        help="glibc's malloc as `companion serve` sets it (app: a fixed 128 KiB "
                             "mmap threshold, every larger temporary fresh pages) or glibc's "
                             "own (default: the threshold rises, temporaries reuse the heap)")
    parser.add_argument("--cpu-against", metavar="REV",
                        help="CPU only: this reader against git revision REV's, in turn")
    parser.add_argument("--stages", action="store_true",
                        help="CPU only: each stage's share of a roll's CPU (cProfile)")
    parser.add_argument("--passes", action="store_true",
                        help="CPU only, unprofiled: read_tray's passes in ms a roll, and "
                             "read_face's calls and ms in each")
    parser.add_argument("--count", choices=("thrown", "unknown"), default="thrown",
                        help="tell each settler how many dice were thrown (as the app does "
                             "from the game) or not")
    args = parser.parse_args()
    global TOLD
    TOLD = DICE if args.count == "thrown" else None
    sides = tuple(float(s) for s in args.sides.split(","))
    malloc = memory.configure() if args.malloc == "app" else {}
    if OPENCV_THREADS > 0:  # as the app's camera pipeline runs (hardware/camera/recognizer.py)
        cv2.setNumThreads(OPENCV_THREADS)
    if args.passes:
        warm_up(sides)
        tuned = [n for n in args.families.split(",") if n != "held_out"]
        result = pass_costs(tuned, args.throws, sides)
        faces = result["read_face_per_roll"]
        print(f"{'pass':24s} {'ms a roll':>9s} {'read_face calls':>15s} {'its ms':>7s}")
        for name, ms in result["pass_ms_per_roll"].items():
            calls = faces.get(name, {"calls": 0.0, "ms": 0.0})
            print(f"{name:24s} {ms:9.2f} {calls['calls']:15.1f} {calls['ms']:7.2f}")
        print(f"{'read_tray':24s} {result['read_tray_ms_per_roll']:9.2f}")
        print(f"{'a roll, in all':24s} {result['cpu_ms_per_roll']:9.2f}")
        print(json.dumps(result))
        return
    if args.stages:  # first: with --cpu-against, that revision's stages beside these
        warm_up(sides)
        tuned = [n for n in args.families.split(",") if n != "held_out"]
        result = stage_costs(tuned, args.throws, sides, args.cpu_against)
        ours, theirs = result["profiled_ms_per_roll"], result.get("against_profiled_ms_per_roll")
        print(f"{'stage':24s} {'share':>7s} {'ms a roll':>9s}" + (
            f" {args.cpu_against + ' share':>16s} {'ms a roll':>9s}" if theirs else ""))
        for name, share in result["stage_shares"].items():
            line = f"{name:24s} {100 * share:6.1f}% {share * ours:9.2f}"
            if theirs:
                base = result["against_stage_shares"].get(name, 0.0)
                line += f" {100 * base:15.1f}% {base * theirs:9.2f}"
            print(line)
        print(f"{'profiled, in all':24s} {'':7s} {ours:9.2f}" + (
            f" {'':16s} {theirs:9.2f}" if theirs else ""))
        print(json.dumps(result))
        return
    if args.cpu_against:
        tuned = [n for n in args.families.split(",") if n != "held_out"]
        result = cpu_against(args.cpu_against, tuned, args.throws, sides)
        result["malloc"] = args.malloc
        print(f"cpu/roll {result['cpu_ms_per_roll']} ms {result['cpu_ms_spread']} against "
              f"{args.cpu_against} {result['baseline_cpu_ms_per_roll']} ms "
              f"{result['baseline_cpu_ms_spread']}: ratio {result['ratio_of_medians']} "
              f"(load {result['load_before'][0]} -> {result['load_after'][0]})")
        print(json.dumps(result))
        return
    warm_up(sides)
    families = {}
    for name in args.families.split(","):
        families[name] = result = run_family(name, args.throws, sides, args.first)
        low, high = result["faces_right_95"]
        print(f"{name:12s} right {result['faces_right']:.3f} ({low:.3f}-{high:.3f}) wrong "
              f"{result['faces_wrong']} "
              f"unread {result['unread']:.3f} false blobs {result['false_blobs']} misplaced "
              f"{result['faces_misplaced']} ({result['misplaced_wrong']} wrong) colour right "
              f"{result['colour_right']:.3f} (named {result['colour_named']:.2f}, of read "
              f"{result['colour_named_of_read']:.3f}) cpu/roll "
              f"{result['cpu_ms_per_roll']:.1f} ms ({result['cpu_ms_spread'][0]:.1f}-"
              f"{result['cpu_ms_spread'][1]:.1f})")
    photos = run_photos(Path(args.photos))
    if photos:
        print(f"photographs: {photos}")
    tuned = [r for n, r in families.items() if n != "held_out"]
    per_roll = max((r["cpu_ms_per_roll"] for r in families.values()), default=0.0)
    print(json.dumps({
        "families": families, "held_out": families.get("held_out"), "photos": photos,
        "worst_faces_right": min((r["faces_right"] for r in tuned), default=0.0),
        "faces_wrong": sum(r["faces_wrong"] for r in families.values()),
        "false_blobs": sum(r["false_blobs"] for r in families.values()),
        "faces_misplaced": sum(r["faces_misplaced"] for r in families.values()),
        "misplaced_wrong": sum(r["misplaced_wrong"] for r in families.values()),
        "cpu_ms_per_roll": per_roll, "cpu_ms_per_roll_pi_estimate": round(per_roll * 5, 1),
        "opencv_threads": cv2.getNumThreads(), "malloc": args.malloc, "malloc_set": malloc,
        "die_px": list(sides),
        "throws_per_family": args.throws, "first_throw": args.first}))


if __name__ == "__main__":
    main()

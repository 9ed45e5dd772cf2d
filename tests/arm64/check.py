"""`make arm64-check`: the appliance's stack on the Pi's architecture, every answer the same.

For each Debian release of the Pi (Bookworm: Python 3.11, Trixie: 3.13) an arm64 root is
built and cached (tests/arm64/build_root.sh: debootstrap --foreign, the .debs unpacked, the
Python's hashed lock in a virtualenv there) and run through qemu-aarch64-static -L ROOT
(no binfmt_misc needed). The app is installed from the checkout next to it, then:

- tests/arm64/answers.py, the same script on x86 (this Python) and on arm64: every module
  of engine/, companion/, hardware/ imported; `companion replay` of golden records (digests
  of what it printed and of the state); the camera's readers (QR stickers, card faces,
  dice) on frames rendered once here and photographs. The answers are compared: ids, turns,
  faces, colours, payloads exactly, corners and centres within a pixel, scores within
  0.01; every difference is listed and fails the check;
- `companion serve --demo` under qemu, and a Socket.IO client from here claiming a seat
  and playing an action;
- `companion doctor --json` on that root: what it says about a machine with no camera;
- a planted fault, on the first release: two dice files read again under qemu with the
  dice reader's MAX_PIP_ERROR nudged on the arm64 side only (SELF_TEST); the comparison
  must list differences, or the check fails (it could not see a real one either).

    python tests/arm64/check.py [--short] [--suite bookworm] [--plant MODULE:NAME=VALUE]

``--short`` (CI): fewer frames and one golden record per game, serve and doctor on the
first release only (each costs ~4 minutes of CPU under qemu); both releases, each root
built when missing (about 1.5 minutes of CPU each: the lock installs without the
emulated Python compiling it, and qemu emulates a Pi's core). ``--plant``
changes a constant on the arm64 side only for every answer (the check must then fail; the
planted-fault step is then skipped). Prints each part's time and a JSON last line.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SUITES = {"bookworm": "311", "trixie": "313"}
CACHE = Path(os.environ.get("TC_ARM64_CACHE", "/var/cache/table-companion/arm64"))
PIXEL = 1.0  # px: corners and centres may differ this much
SCORE = 0.01  # scores (similarities, 0-1) may differ this much
ANGLE = 0.5  # degrees: a QR symbol's angle
NEAR = {"corners": PIXEL, "centre": PIXEL, "side": PIXEL, "score": SCORE, "angle": ANGLE}
QEMU_TIMEOUT = 3600
# Bookworm's qemu-user-static names it so; from Trixie on, qemu-user's static binary is
# plain qemu-aarch64 (qemu-user-static a transitional package, the -static names dropped).
QEMU = shutil.which("qemu-aarch64-static") or shutil.which("qemu-aarch64")
# The core qemu emulates, one of the Pi's per release (TC_ARM64_CPU overrides: one for
# both). Not qemu's default "max": that is an Armv9 with SVE and SME, which no Pi has;
# NumPy 2.5.5's OpenBLAS (0.3.34) then takes its armv9sme kernels, and under qemu 7.2
# float32 `A @ A.T` (SSYRK) gave denormals and infinities: every card-face book's own
# likeness table was garbage on Trixie (192 differences). Bookworm runs as a Pi 4
# (Cortex-A72: NEON only), Trixie as a Pi 5 (Cortex-A76: half floats and dot products
# too), so each run covers both boards' kernels.
CPUS = {"bookworm": "cortex-a72", "trixie": "cortex-a76"}
PI_FEATURES_NOT = ("SVE", "SVE2", "SME", "SME2")  # NumPy's names: no Pi's core has these
# The check's own planted fault (each run, on the first release): the dice reader's pips
# must sit 8x nearer their place on the arm64 side only, on a few trays; the comparison
# must list what that changes, or it could not see a real difference either.
SELF_TEST = "hardware.camera.dice_faces.pips:MAX_PIP_ERROR=0.05"
SELF_TEST_FILES = 2


class Timer:
    """Each part's wall time and its programs' CPU time (user + system: on a loaded machine
    the steadier figure), printed as it ends and kept for the JSON line. The serve part's
    server is counted when it has been waited for."""

    def __init__(self) -> None:
        self.parts: dict[str, float] = {}
        self.cpu: dict[str, float] = {}

    def __call__(self, name: str):
        timer = self

        def children_cpu() -> float:
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            return used.ru_utime + used.ru_stime

        class Part:
            def __enter__(self):
                self.start, self.cpu = time.monotonic(), children_cpu()
                print(f"--- {name} ...", flush=True)

            def __exit__(self, *exc):
                took, cpu = time.monotonic() - self.start, children_cpu() - self.cpu
                timer.parts[name], timer.cpu[name] = round(took, 1), round(cpu, 1)
                print(f"--- {name}: {took:.1f} s ({cpu:.1f} s CPU)", flush=True)

        return Part()


# --- comparing answers ------------------------------------------------------------------

def differences(x86, arm, where: str = "") -> list[str]:
    """How ``arm`` differs from ``x86``: discrete values exactly, positions within a pixel,
    scores within SCORE; [] when they agree."""
    key = where.rsplit(".", 1)[-1].split("[")[0]
    if isinstance(x86, dict) and isinstance(arm, dict):
        out = []
        for k in sorted(set(x86) | set(arm)):
            if k not in arm or k not in x86:
                out.append(f"{where}.{k}: only on {'x86' if k in x86 else 'arm64'}")
            else:
                out += differences(x86[k], arm[k], f"{where}.{k}")
        return out
    if isinstance(x86, list) and isinstance(arm, list):
        if len(x86) != len(arm):
            return [f"{where}: {len(x86)} items on x86, {len(arm)} on arm64: "
                    f"{_short(x86)} vs {_short(arm)}"]
        return [d for i, (a, b) in enumerate(zip(x86, arm, strict=True))
                for d in differences(a, b, f"{where}[{i}]")]
    if (key in NEAR and isinstance(x86, (int, float)) and isinstance(arm, (int, float))
            and not isinstance(x86, bool)):
        if math.isclose(x86, arm, abs_tol=NEAR[key]):
            return []
        return [f"{where}: {x86!r} on x86, {arm!r} on arm64 (tolerance {NEAR[key]})"]
    return [] if x86 == arm else [f"{where}: {_short(x86)} on x86, {_short(arm)} on arm64"]


def _short(value) -> str:
    text = json.dumps(value)
    return text if len(text) <= 160 else text[:157] + "..."


def compare(x86: dict, arm: dict) -> tuple[list[str], list[str]]:
    """(differences that fail the check, notes): imports that fail on arm64, replays and
    readers' answers that differ; notes: versions, decoded pixels, bit-identical share."""
    fails = not_a_pi(arm["versions"])
    fails += [f"import {name}: {error}" for name, error in sorted(arm["imports"].items())
              if error != "ok"]
    fails += [f"import {name}: not found on arm64" for name in sorted(x86["imports"])
              if name not in arm["imports"]]
    fails += differences(x86["replays"], arm["replays"], "replays")
    fails += [f"replays.{name}: not the state recorded then" for name, r in
              sorted(arm["replays"].items()) if not r["as_recorded"]]
    notes = [f"versions: x86 {x86['versions']}, arm64 {arm['versions']}"]
    same = 0
    for name in sorted(set(x86["readers"]) | set(arm["readers"])):
        a, b = x86["readers"].get(name), arm["readers"].get(name)
        if a is None or b is None:
            fails.append(f"{name}: read on one side only")
            continue
        if a["pixels"] != b["pixels"]:
            notes.append(f"{name}: decoded to other pixels on arm64")
        same += a["answer"] == b["answer"]
        fails += differences(a["answer"], b["answer"], f"{name} ({a['reader']})")
    notes.append(f"readers: {same} of {len(x86['readers'])} files bit-identical answers")
    return fails, notes


def self_test_files(x86: dict) -> list[str]:
    """The first SELF_TEST_FILES files in which x86 read dice (the nudge changes them)."""
    return [name for name, r in sorted(x86["readers"].items())
            if r["reader"] == "dice" and r["answer"].get("dice")][:SELF_TEST_FILES]


def self_test(x86: dict, nudged: dict) -> tuple[list[str], list[str]]:
    """(failures, differences listed) of the fault planted on the arm64 side (``nudged``:
    the answers read there with SELF_TEST): a failure when nothing is listed."""
    files = sorted(nudged["readers"])
    if not files:
        return ["planted fault: no dice tray to plant it on"], []
    shipped = {"versions": {}, "imports": {}, "replays": {},
               "readers": {name: x86["readers"][name] for name in files}}
    listed, _ = compare(shipped, dict(shipped, readers=nudged["readers"]))
    if listed:
        return [], listed
    return [f"planted fault: {SELF_TEST} on arm64 only, yet no difference listed in "
            f"{', '.join(files)}: the comparison cannot fail"], []


# --- running things ---------------------------------------------------------------------

def run(cmd: list[str], timeout: float = QEMU_TIMEOUT, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:6])}... exited {done.returncode}:\n"
                           f"{done.stdout[-3000:]}\n{done.stderr[-5000:]}")
    return done


class Arm64:
    """One release's root: its virtualenv's Python started through qemu-aarch64-static."""

    def __init__(self, suite: str, venv: Path, app: Path) -> None:
        self.suite, self.venv, self.app = suite, venv, app
        self.root = venv.parents[1]  # ROOT/opt/venv-<lock>

    def command(self, *args: str) -> list[str]:
        return [QEMU, "-cpu", cpu(self.suite), "-L", str(self.root),
                str(self.venv / "bin" / "python"), *args]

    def companion(self, *args: str) -> list[str]:
        return self.command("-c", "from companion.cli import main; main()", *args)

    def env(self) -> dict:
        return dict(os.environ, PYTHONPATH=str(self.app), PYTHONNOUSERSITE="1",
                    PYTHONUNBUFFERED="1")


def cpu(suite: str) -> str:
    """The core qemu emulates for ``suite`` (``CPUS``, or ``TC_ARM64_CPU`` for both)."""
    return os.environ.get("TC_ARM64_CPU") or CPUS[suite]


def not_a_pi(arm_versions: dict) -> list[str]:
    """A failure when the arm64 side ran on a core no Pi has (NumPy sees SVE or SME there:
    its libraries would take kernels a Pi never runs, and their answers prove nothing)."""
    extra = [f for f in arm_versions.get("cpu_features", []) if f in PI_FEATURES_NOT]
    if not extra:
        return []
    return [f"the emulated core has {', '.join(extra)} (BLAS core "
            f"{arm_versions.get('blas_core', '?')}): no Pi has; qemu's -cpu must be a Pi's "
            f"(CPUS, TC_ARM64_CPU)"]


def cached(suite: str) -> bool:
    return any(CACHE.glob(f"{suite}-arm64-*/opt/venv-*/.complete"))


def build(suite: str) -> Path:
    lock = REPO / "deploy" / f"requirements-py{SUITES[suite]}.txt"
    done = run(["bash", str(HERE / "build_root.sh"), suite, str(lock), str(CACHE)],
               timeout=7200, env=dict(os.environ, HOST_PYTHON=sys.executable, QEMU=QEMU,
                                      QEMU_CPU=cpu(suite),
                                      COMPILE_PYTHON=host_python(suite) or ""))
    print("".join(line for line in done.stderr.splitlines(True) if line.startswith("###")),
          end="")
    return Path(done.stdout.strip().splitlines()[-1])


def install_app(target: Path) -> None:
    """The app as install.sh installs it (pip, from a scratch copy of the checkout, no
    dependencies: a build in the checkout would leave build/ and egg-info there); pure
    Python, so this machine's pip builds it, into a folder the arm64 Python has on its path."""
    source = target.with_name(target.name + "-source")
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    for name in ("pyproject.toml", "companion", "engine", "hardware", "web",
                 *(p.name for p in REPO.glob("LICEN[CS]E*"))):
        copy = shutil.copytree if (REPO / name).is_dir() else shutil.copyfile
        copy(REPO / name, source / name, **({"ignore": shutil.ignore_patterns(
            "__pycache__")} if (REPO / name).is_dir() else {}))
    last = None
    for attempt in range(3):
        try:
            run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                 "--disable-pip-version-check", "--target", str(target), str(source)], 900)
            return
        except RuntimeError as exc:  # PyPI (setuptools for the build) may flake
            last = exc
            shutil.rmtree(target, ignore_errors=True)
            time.sleep(10 * (attempt + 1))
    raise last


def plant_and_compare(arm: Arm64, x86: dict, folder: Path) -> list[str]:
    """The self-test: a few trays read under qemu with SELF_TEST planted; [] when the
    comparison lists it (printed), else the failure."""
    files = self_test_files(x86)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    frames = folder.parent / "frames"
    for name in files:
        shutil.copyfile(frames / name, folder / name)
    (folder / "manifest.json").write_text(json.dumps(
        {"files": [{"file": name, "reader": "dice"} for name in files]}))
    out = folder / "answers.json"
    run(arm.command(str(HERE / "answers.py"), "answer", str(folder), str(out),
                    "--readers-only", f"--nudge={SELF_TEST}"), env=arm.env())
    failed, listed = self_test(x86, json.loads(out.read_text()))
    if listed:
        print(f"{arm.suite}: planted fault {SELF_TEST} listed as {len(listed)} differences "
              f"in {len(files)} dice files, e.g. {listed[0]}")
    return failed


def compile_app(app: Path, arm: Arm64) -> str:
    """The app's bytecode for the release's Python, made once: each arm64 process would
    otherwise compile every module under qemu (~30 s of CPU on Trixie's 3.13, whose .pyc
    the host's 3.11 pip did not write; PYTHONDONTWRITEBYTECODE, set on CI machines, keeps
    them from being saved). A host Python of the same version (PYTHON313, as the Makefile
    finds it) writes the very same files in seconds; else the arm64 Python under qemu."""
    python = host_python(arm.suite)
    if python:
        run([python, "-m", "compileall", "-q", str(app)], 600)
        return python
    run(arm.command("-m", "compileall", "-q", str(app)), env=arm.env())
    return "the arm64 Python under qemu"


def host_python(suite: str) -> str | None:
    """A Python here of ``suite``'s version (this one, or ``PYTHON313``/``PYTHON311`` as
    the Makefile finds it), or None: it writes that release's bytecode (a ``.pyc`` is the
    same on both architectures) in seconds, where qemu takes minutes."""
    version = f"{SUITES[suite][0]}.{SUITES[suite][1:]}"
    for python in filter(None, [sys.executable, os.environ.get(f"PYTHON{SUITES[suite]}")]):
        try:
            said = run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], 60)
        except (OSError, RuntimeError):
            continue
        if said.stdout.strip() == version:
            return python
    return None


def serve_and_play(arm: Arm64, data: Path) -> str:
    """`companion serve --demo` under qemu; a Socket.IO client here claims the seat whose
    turn it is and plays a legal action: the answer and the new view."""
    sys.path.insert(0, str(REPO))
    from companion.box.catalog import load_catalog
    from engine.wwe import GAME
    from tests.companion.conftest import Spy
    from tests.companion.test_restart import claim, db_game

    proc = subprocess.Popen(
        arm.companion("serve", "--host", "127.0.0.1", "--port", "0", "--data", str(data),
                      "--demo", "--demo-game", "wwe", "--no-hardware", "--threads", "8"),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=arm.env(),
        start_new_session=True)
    lines: list[str] = []
    port: list[int] = []
    listening = threading.Event()

    def read():
        for line in proc.stdout:
            lines.append(line)
            found = re.search(r"Listening at: http://127\.0\.0\.1:(\d+)", line)
            if found:
                port.append(int(found.group(1)))
                listening.set()

    threading.Thread(target=read, daemon=True).start()
    spy = None
    try:
        if not listening.wait(600):
            raise RuntimeError("serve did not listen:\n" + "".join(lines))
        url = f"http://127.0.0.1:{port[0]}"
        deadline = time.monotonic() + 600
        while True:  # the worker imports the app (slow under qemu)
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=30) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("serve never answered /healthz:\n" + "".join(lines))
            time.sleep(0.5)
        joins = {m.group(1): m.group(2).replace(":0/", f":{port[0]}/")
                 for m in (re.search(r"Join (\w+):\s+(\S+)", line) for line in lines) if m}
        game_id, setup, _ = db_game(data)
        state = GAME.setup(load_catalog("wwe", str(data)), setup)
        action = GAME.random_action(state, random.Random(7))
        seat = action["by"] if action["by"] in joins else sorted(joins)[0]
        token = claim(joins[seat], port[0])
        auth = {"role": "seat", "game": game_id, "token": token}
        if action["by"] not in joins:  # the table's own action: played by the viewer
            auth = {"role": "viewer", "game": game_id}
        spy = Spy(url, auth)
        if not spy.got_view.wait(120):
            raise RuntimeError("no view after joining")
        version = spy.views[-1]["version"]
        ack = spy.sio.call("act", {"action": action}, timeout=120)
        if not ack.get("ok"):
            raise RuntimeError(f"the action was refused: {ack}")
        view = spy.wait_version(version + 1, timeout=120)
        return (f"seat {seat} joined game {game_id}, played {action['type']}: "
                f"acknowledged, view {version} -> {view['version']}")
    finally:
        if spy is not None:
            spy.close()
        os.killpg(proc.pid, 15)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait(10)


def doctor(arm: Arm64, data: Path) -> str:
    """`companion doctor --json` on the root: each check's status, one line."""
    done = subprocess.run(arm.companion("doctor", "--json", "--data", str(data)),
                          capture_output=True, text=True, timeout=1200, env=arm.env())
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError as exc:
        raise RuntimeError(f"doctor printed no JSON ({exc}):\n{done.stdout[-2000:]}"
                           f"\n{done.stderr[-3000:]}") from None
    checks = {c["name"]: c for c in report["checks"]}
    if checks.get("numpy", {}).get("status") != "ok" or "camera" not in checks:
        raise RuntimeError(f"doctor: {json.dumps(report)[:3000]}")
    said = "; ".join(f"{c['name']} {c['status']}" for c in report["checks"])
    camera = checks["camera"]
    return f"exit {done.returncode}; {said}; camera: {camera['summary']}"


# --- the check --------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", action="store_true", help="CI's form (see the docstring)")
    parser.add_argument("--suite", action="append", choices=sorted(SUITES),
                        help="only this release (repeatable; default: both)")
    parser.add_argument("--plant", action="append", default=[], metavar="MODULE:NAME=VALUE",
                        help="a constant changed on the arm64 side only (must fail)")
    parser.add_argument("--no-serve", action="store_true", help="skip serve and doctor")
    parser.add_argument("--readers-only", action="store_true",
                        help="only the readers' answers (no imports, replays, serve, doctor)")
    parser.add_argument("--work", type=Path, help="keep the frames and answers here")
    args = parser.parse_args(argv)
    if not QEMU or not shutil.which("debootstrap"):
        print("arm64-check needs qemu-user-static and debootstrap "
              "(tests/install-system-packages.sh)", file=sys.stderr)
        return 2
    suites = args.suite or list(SUITES)
    work = args.work or Path(tempfile.mkdtemp(prefix="arm64-check-"))
    work.mkdir(parents=True, exist_ok=True)
    timer = Timer()
    mode = ["--short"] if args.short else []
    parts = ["--readers-only"] if args.readers_only else []
    answers = str(HERE / "answers.py")
    fails: dict[str, list[str]] = {}
    said: dict[str, dict] = {}
    try:
        venvs = {}
        for suite in suites:
            with timer(f"{suite}: root and lock ({'cached' if cached(suite) else 'building'})"):
                venvs[suite] = build(suite)
        with timer("app installed from the checkout"):
            install_app(work / "app")
        for suite in suites:
            with timer(f"{suite}: app compiled for its Python"):
                by = compile_app(work / "app", Arm64(suite, venvs[suite], work / "app"))
            print(f"{suite}: the app's bytecode written by {by}")
        with timer("frames rendered"):
            shutil.rmtree(work / "frames", ignore_errors=True)
            run([sys.executable, answers, "render", str(work / "frames"), *mode])
        with timer("x86 answers"):
            run([sys.executable, answers, "answer", str(work / "frames"),
                 str(work / "x86.json"), *mode, *parts])
        x86 = json.loads((work / "x86.json").read_text())
        for suite in suites:
            arm = Arm64(suite, venvs[suite], work / "app")
            out = work / f"{suite}.json"
            plant = [f"--nudge={p}" for p in args.plant]
            with timer(f"{suite}: arm64 answers"):
                run(arm.command(answers, "answer", str(work / "frames"), str(out), *mode,
                                *parts, *plant), env=arm.env())
            found, notes = compare(x86, json.loads(out.read_text()))
            fails[suite] = found
            said[suite] = {"notes": notes}
            for note in notes:
                print(f"{suite}: {note}")
            for line in found:
                print(f"{suite}: DIFFERENT {line}")
            print(f"{suite}: {len(found)} differences in {len(x86['imports'])} imports, "
                  f"{len(x86['replays'])} replays, {len(x86['readers'])} files read")
            if suite == suites[0] and not args.plant:
                with timer(f"{suite}: planted fault (must be listed)"):
                    blind = plant_and_compare(arm, x86, work / "planted")
                for line in blind:
                    print(f"{suite}: {line}")
                fails[suite] += blind
            if args.no_serve or args.readers_only or (args.short and suite != suites[0]):
                continue  # the short form serves and asks doctor on one release (CPU)
            data = work / f"{suite}-data"
            shutil.rmtree(data, ignore_errors=True)
            with timer(f"{suite}: serve and a Socket.IO client"):
                try:
                    said[suite]["serve"] = serve_and_play(arm, data)
                except Exception as exc:  # noqa: BLE001 - reported as a failure
                    fails[suite].append(f"serve: {exc}")
            with timer(f"{suite}: doctor"):
                try:
                    said[suite]["doctor"] = doctor(arm, data)
                except Exception as exc:  # noqa: BLE001 - reported as a failure
                    fails[suite].append(f"doctor: {exc}")
            for what in ("serve", "doctor"):
                if what in said[suite]:
                    print(f"{suite}: {what}: {said[suite][what]}")
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    failed = sum(len(f) for f in fails.values())
    print("arm64-check: " + (f"FAILED, {failed} differences" if failed
                             else "every answer the same on arm64"))
    print(json.dumps({"suites": suites, "short": args.short, "planted": args.plant,
                      "differences": {s: len(f) for s, f in fails.items()},
                      "seconds": timer.parts, "cpu_seconds": timer.cpu}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

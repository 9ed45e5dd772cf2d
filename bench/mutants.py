"""Would the engine tests notice a broken rule? Sampled single-token mutants of each game's
rule modules, each run against that game's engine tests.

A mutant changes one token of one rule module: a comparison (`<` `<=` `>` `>=` `==` `!=`),
an arithmetic operator (`+` `-` `*` `//` `%`), `and`/`or`, `True`/`False`, `is`/`is not`,
`in`/`not in`, or an integer literal (n -> n+1, n -> n-1). Docstrings, comments and other
strings are never touched. A candidate that does not compile, or whose syntax tree equals the
original's, is not a mutant. For each game, ``--n`` mutants are drawn (random.Random(seed))
from all the candidates of that game's rule modules (RULE_MODULES below).

Each mutant runs in a temporary copy of the tree (one copy per worker, from `git ls-files`:
this worktree is never written): the mutated file is written there, that game's engine tests
run (`python -m pytest -x -q -p no:cacheprovider`, cwd the copy, so its `engine` package is
the one imported; PYTHONDONTWRITEBYTECODE so no stale bytecode survives a same-size edit),
then the original file is put back. A failing test kills it; so does a run past the timeout
(10 times the unmutated run of that game's tests in the same copy, at least 60 s, unless
``--timeout`` says otherwise: a mutant that makes a loop endless is a broken rule the tests
noticed by hanging) or past 4 GB of memory (a loop that grows a list until the machine swaps).

Tests per game (TESTS below): each game's own engine test folder, plus the cross-game engine
tests parametrised over every game. Slow files run last, so a killed mutant usually stops early.

Known equivalent mutants (a change no rule, player or view can tell apart) are listed with
the reason in bench/mutants_equivalent.json, matched on file, the line's text and the change
(and "line" or "col", the token's 0-based column in the file's line, where the same text
or change repeats); they are reported apart and not counted in the percentage.

Usage: .venv/bin/python bench/mutants.py [--n 20] [--seed 1 --seed 2 ...] [--games wwe,...]
       [--modules choices,corrections,...] [--workers 2] [--timeout SECONDS]
Prints per mutant killed/survived with file:line and change, per game and seed the counts,
and a JSON last line {"games": {"<id>": {"killed", "total", "equivalent", "not_run",
"survivors"}}} (summed over the seeds; "total" excludes the listed equivalents and the
mutants a ``--budget`` left unrun).
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tokenize
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from queue import Queue

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENTS = ROOT / "bench" / "mutants_equivalent.json"

RULE_MODULES = {
    "wwe": ["actions", "cards", "duties", "effects", "flow", "projects",
            "choices", "corrections"],
    "pillars": ["architects", "draft", "flow", "resolution", "rules",
                "choices", "corrections", "advisor"],
    "monasterium": ["effects", "missions", "moves", "rules", "scoring",
                    "choices", "corrections"],
}
"""The modules mutated per game: its rules, plus choices.py (what a phone or the table is
offered and the preview shown beside it) and corrections.py (the host's corrections and
their labels), and Pillars' advisor.py (the step-13 conversion: its legality checks and
the best allocation the phones show). Not mutated: options.py (the declared variants: data,
checked by tests/engine/test_options.py), views, texts, catalog and shapes."""
CROSS_GAME = ["tests/engine/test_layers.py", "tests/engine/test_rules_cited.py",
              "tests/engine/test_correction_labels.py",
              "tests/engine/test_viewparts.py", "tests/engine/test_catalog_languages.py"]
SLOW_LAST = ["test_choices_performed.py", "test_fuzz.py", "test_offered_brute.py",
             "test_offered_params.py", "test_properties.py",
             "test_whole_games.py"]
TEST_DIRS = {"wwe": "tests/engine", "pillars": "tests/engine/pillars",
             "monasterium": "tests/engine/monasterium"}

SWAPS = {
    "<": ["<=", ">"], "<=": ["<", ">"], ">": [">=", "<"], ">=": [">", "<"],
    "==": ["!="], "!=": ["=="], "+": ["-"], "-": ["+"], "*": ["//"], "//": ["*"], "%": ["//"],
    "and": ["or"], "or": ["and"], "True": ["False"], "False": ["True"],
}


@dataclass(frozen=True)
class Mutant:
    game: str
    path: str  # relative to the tree
    line: int
    col: int
    end: int  # end column on the same line
    old: str
    new: str
    line_text: str

    @property
    def change(self) -> str:
        return f"{self.old} -> {self.new}"

    def apply(self, source: str) -> str:
        lines = source.splitlines(keepends=True)
        row = lines[self.line - 1]
        lines[self.line - 1] = row[:self.col] + self.new + row[self.end:]
        return "".join(lines)


def tests_for(game: str, tree: Path = ROOT) -> list[str]:
    """The game's engine test files in ``tree``, slow ones last (pytest runs them in the
    order given)."""
    folder = tree / TEST_DIRS[game]
    own = sorted(str(p.relative_to(tree)) for p in folder.glob("test_*.py"))
    if game != "wwe":
        own += CROSS_GAME
    return sorted(own, key=lambda f: Path(f).name in SLOW_LAST)


MODULES_ONLY: list[str] = []
"""``--modules``: sample only these of each game's RULE_MODULES (empty: all of them)."""


def candidates(game: str) -> list[Mutant]:
    out = []
    for module in RULE_MODULES[game]:
        if MODULES_ONLY and module not in MODULES_ONLY:
            continue
        rel = f"engine/{game}/{module}.py"
        source = (ROOT / rel).read_text()
        lines = source.splitlines()
        toks = list(tokenize.generate_tokens(io.StringIO(source).readline))
        for i, tok in enumerate(toks):
            (row, col), (erow, ecol) = tok.start, tok.end
            if row != erow:
                continue
            text = tok.string
            news: list[str] = []
            if tok.type in (tokenize.OP, tokenize.NAME) and text in SWAPS:
                news = SWAPS[text]
            elif tok.type == tokenize.NAME and text == "is":
                nxt = toks[i + 1].string if i + 1 < len(toks) else ""
                news = [] if nxt == "not" else ["is not"]
            elif tok.type == tokenize.NAME and text == "not" and i + 1 < len(toks) \
                    and toks[i + 1].string == "in":
                ecol = toks[i + 1].end[1]
                text, news = "not in", ["in"]
            elif tok.type == tokenize.NAME and text == "in" and i and toks[i - 1].string != "not" \
                    and _in_comparison(toks, i):
                news = ["not in"]
            elif tok.type == tokenize.NUMBER and text.isdigit():
                n = int(text)
                news = [str(n + 1)] + ([str(n - 1)] if n > 0 else [])
            for new in news:
                out.append(Mutant(game, rel, row, col, ecol, text, new, lines[row - 1].strip()))
    return out


def _in_comparison(toks, i) -> bool:
    """`in` as a comparison, not the `in` of a `for` (a `for` before it on the same line
    with no `if` between)."""
    row = toks[i].start[0]
    before = [t.string for t in toks[:i] if t.start[0] == row]
    if "for" not in before:
        return True
    return "if" in before[len(before) - before[::-1].index("for"):]


def real(m: Mutant, source: str, tree_dump: str) -> bool:
    """Compiles and differs from the original's syntax tree."""
    try:
        return ast.dump(ast.parse(m.apply(source))) != tree_dump
    except SyntaxError:
        return False


def sample(game: str, n: int, seed: int) -> list[Mutant]:
    pool = candidates(game)
    random.Random(f"{game}-{seed}").shuffle(pool)
    cache: dict[str, tuple[str, str]] = {}
    chosen = []
    for m in pool:
        if m.path not in cache:
            src = (ROOT / m.path).read_text()
            cache[m.path] = (src, ast.dump(ast.parse(src)))
        if real(m, *cache[m.path]):
            chosen.append(m)
        if len(chosen) == n:
            break
    return chosen


def matching(spec: str) -> list[Mutant]:
    """The mutants a 'PATH:LINE OLD -> NEW' spec names (as the report prints them)."""
    where, change = spec.split(" ", 1)
    path, line = where.rsplit(":", 1)
    game = path.split("/")[1]
    found = [m for m in candidates(game)
             if (m.path, m.line, m.change) == (path, int(line), change.strip())]
    if not found:
        sys.exit(f"no such mutant: {spec}")
    return found


def load_equivalents() -> list[dict]:
    return json.loads(EQUIVALENTS.read_text()) if EQUIVALENTS.exists() else []


def equivalent_reason(m: Mutant, known: list[dict]) -> str | None:
    for e in known:
        if (e["file"], e["line_text"], e["change"]) == (m.path, m.line_text, m.change) \
                and e.get("line", m.line) == m.line \
                and e.get("col", m.col) == m.col:  # "line", "col": only where the text repeats
            return e["reason"]
    return None


def make_copy(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           check=True, capture_output=True, text=True).stdout.splitlines()
    for f in files:
        src = ROOT / f
        if src.is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / f)


TESTS_OVERRIDE: list[str] = []


class BrokenRun(Exception):
    """pytest could not run the tests at all (exit 2-5): neither killed nor survived."""


MEMORY_CAP = 4 << 30  # bytes of address space a test run may use


def _memory_cap() -> None:
    """In the child: a runaway allocation fails (MemoryError, a failing test) instead of
    taking the machine's memory."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_tests(tree: Path, game: str, timeout: float, mutated: str = ""
              ) -> tuple[bool, str, float]:
    """(killed, first failing test or 'timeout', seconds). Only a failing test (pytest's
    exit 1), a run past ``timeout``, or the tests not even loading with a traceback through
    the ``mutated`` file (exit 2 or 4: the mutant breaks an import) kills a mutant."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
           *(TESTS_OVERRIDE or tests_for(game, tree))]
    t0 = time.monotonic()
    # output to a file and the run in its own process group: a test's own subprocess left
    # behind can neither hold a pipe open nor outlive a timeout
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT,
                                text=True, start_new_session=True, preexec_fn=_memory_cap)
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return True, "timeout", time.monotonic() - t0
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        out.seek(0)
        text = out.read()
    failed = next((ln.split(" ")[1] for ln in text.splitlines()
                   if ln.startswith(("FAILED ", "ERROR "))), "")
    if code in (2, 4) and mutated and mutated in text:
        return True, "import fails", time.monotonic() - t0
    if code == 3 and "MemoryError" in text:  # the memory cap stopped a runaway allocation
        return True, "memory", time.monotonic() - t0
    if code not in (0, 1):
        raise BrokenRun(f"exit {code}: " + " / ".join(text.strip().splitlines()[-3:]))
    return code == 1, failed, time.monotonic() - t0


def run_mutant(trees: Queue, m: Mutant, timeout: float, deadline: float
               ) -> tuple[bool, str, float] | None:
    tree = trees.get()
    if deadline and time.monotonic() > deadline:
        trees.put(tree)
        return None
    target = tree / m.path
    original = target.read_text()
    try:
        target.write_text(m.apply(original))
        return run_tests(tree, m.game, timeout, m.path)
    finally:
        target.write_text(original)
        trees.put(tree)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=20, help="mutants per game and seed")
    ap.add_argument("--seed", type=int, action="append", help="repeatable; default 1")
    ap.add_argument("--games", default=",".join(RULE_MODULES))
    ap.add_argument("--modules", default="",
                    help="comma-separated module names (e.g. choices,corrections,advisor): "
                         "sample only these of each game's RULE_MODULES")
    ap.add_argument("--workers", type=int, default=2, choices=(1, 2))
    ap.add_argument("--timeout", type=float, default=0,
                    help="seconds per mutant (default: 10 x the unmutated run, >= 60 s)")
    ap.add_argument("--list", action="store_true", help="print the sample, run nothing")
    ap.add_argument("--only", action="append", metavar="'PATH:LINE OLD -> NEW'",
                    help="run these mutants (every token on the line that matches), "
                         "not a sample; repeatable")
    ap.add_argument("--tests", nargs="+", metavar="FILE",
                    help="run these test files instead of the game's (to see whether a new "
                         "test kills a mutant)")
    ap.add_argument("--budget", type=float, default=0,
                    help="minutes; mutants not started by then are reported as not run")
    ap.add_argument("--resume", type=int, default=0, metavar="K",
                    help="skip the first K mutants of the sample (an interrupted run's done)")
    ap.add_argument("--no-check", action="store_true",
                    help="skip running the unmutated tests in the copy first")
    args = ap.parse_args()
    seeds = args.seed or [1]
    games = args.games.split(",")
    known = load_equivalents()
    TESTS_OVERRIDE[:] = args.tests or []
    MODULES_ONLY[:] = [m for m in args.modules.split(",") if m]

    if args.only:
        jobs = [(0, m) for spec in args.only for m in matching(spec)]
        games = sorted({m.game for _, m in jobs})
    else:
        samples = {(seed, g): sample(g, args.n, seed) for seed in seeds for g in games}
        # interleaved (i-th mutant of every seed and game, then the next): a --budget cuts
        # every game and seed alike
        jobs = [(seed, samples[seed, g][i]) for i in range(args.n) for seed in seeds
                for g in games if i < len(samples[seed, g])][args.resume:]
    if args.list:
        for seed, m in jobs:
            print(f"seed {seed} {m.game} {m.path}:{m.line} {m.change}  | {m.line_text}")
        return

    results: dict[str, dict] = {g: {"killed": 0, "total": 0, "equivalent": 0, "not_run": 0,
                                    "survivors": []} for g in games}
    per_seed: dict[tuple[str, int], list[int]] = {}
    seconds: list[float] = []
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp:
        trees: Queue = Queue()
        for w in range(args.workers):
            tree = Path(tmp) / f"tree{w}"
            make_copy(tree)
            trees.put(tree)
        # the unmutated tests must pass in the copy, or every mutant would look killed
        timeouts = {g: args.timeout or 600.0 for g in games}
        for g in [] if args.no_check else games:
            broken, failed, secs = run_tests(trees.queue[0], g, timeouts[g])
            if broken:
                sys.exit(f"{g}: the unmutated tests fail in the copy ({failed})")
            timeouts[g] = args.timeout or max(60.0, 10 * secs)
            print(f"{g}: unmutated tests {secs:.0f}s, timeout {timeouts[g]:.0f}s", flush=True)
        with ThreadPoolExecutor(args.workers) as pool:
            deadline = time.monotonic() + 60 * args.budget if args.budget else 0
            futures = [(seed, m, pool.submit(run_mutant, trees, m, timeouts[m.game], deadline))
                       for seed, m in jobs]
            for seed, m, fut in futures:
                try:
                    outcome = fut.result()
                except BrokenRun as e:
                    print(f"NOT RUN  seed={seed} {m.path}:{m.line} {m.change}  ({e})")
                    outcome = None
                if outcome is None:
                    results[m.game]["not_run"] += 1
                    continue
                killed, failed, secs = outcome
                seconds.append(secs)
                reason = equivalent_reason(m, known)
                where = f"{m.path}:{m.line} {m.change}  | {m.line_text}"
                r = results[m.game]
                if reason and not killed:
                    r["equivalent"] += 1
                    print(f"equivalent seed={seed} {where}  ({reason})", flush=True)
                    continue
                if reason:
                    print(f"note: listed as equivalent but killed by {failed}: {where}")
                r["total"] += 1
                r["killed"] += killed
                ks = per_seed.setdefault((m.game, seed), [0, 0])
                ks[0] += killed
                ks[1] += 1
                if killed:
                    print(f"killed   seed={seed} {where}  [{failed}] {secs:.0f}s", flush=True)
                else:
                    r["survivors"].append(f"{m.path}:{m.line} {m.change}")
                    print(f"SURVIVED seed={seed} {where}  {secs:.0f}s", flush=True)
    print()
    for (g, seed), (k, t) in sorted(per_seed.items()):
        print(f"{g:12} seed {seed}: {k}/{t} killed")
    for g, r in results.items():
        pct = 100 * r["killed"] / r["total"] if r["total"] else 100.0
        print(f"{g:12} all seeds: {r['killed']}/{r['total']} killed ({pct:.0f}%), "
              f"{r['equivalent']} listed equivalent, {r['not_run']} not run (budget)")
    if seconds:
        print(f"seconds per mutant: median {statistics.median(seconds):.1f}, "
              f"max {max(seconds):.1f} (noisy: shared machine)")
    print(json.dumps({"games": results}))


if __name__ == "__main__":
    main()

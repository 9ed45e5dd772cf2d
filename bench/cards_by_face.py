"""Cards named by their printed face (hardware/camera/card_faces.py) on rendered tables
(hardware/synthetic/card_faces_scene.py): the real playing-card deck (--deck, by default
../shared/data/cards-playing beside the repository; missing: not reported) and the drawn game
cards, on every table family, the ``held_out`` one reported apart (no tuning looked at it).

Per deck and family, of the cards laid: found (an outline found near the card), right, wrong
(a card named as another: must be 0), unknown (found, named None), and the same three with
the true outline given (the face comparison alone, outline finding left out). Turn, over
what the recogniser can tell: turn_right, of the cards named right whose face's turn is
knowable (not in ``FaceBook.turn_alike`` at that width), the turn given and right (a turn
said unknown counts as not right); turn_wrong, how many of them were given a wrong turn
(must be 0); of the cards named right whose face looks alike turned half round, the share
whose turn was said unknown (``turn_known`` False: must be 1) and the share lying the right
way, upright or sideways (turn right up to 180). The held-out family is printed as figures
only, never case by case. False
outlines (found where no card lies); CPU per identification and per frame's outline search
(median and 10-90 % spread, ×5 stated for a Pi). too_alike: the pairs the book says the
camera cannot tell apart at that card width. No settle step is wired here: time from rest
to id is not measured. Outlines are found as the app finds them (companion/wiring/camera_faces.py):
against the empty table as the camera saw it before the cards came (``find_cards(empty=...)``);
--no-empty: from the frame alone (the printed board's lines then cut outlines: session 87).
--against COMMIT: the same cases (this tree's scenes and bench) read by that commit's reader
(its hardware/camera, from ``git archive`` into a temporary folder, in a child process): both
printed, then every card whose answer differs (the held-out family: counts only).
right_distinct: right of the cards whose face is in no too-alike pair (those are refused by
design: they need a sticker).

Real photographs (hardware/synthetic/real_photos.py, --photos; missing: not reported): SET
cards on real tables, taught from one real photograph of each face; per part (dev; licensed:
the one photo kept in the repository; held_out: never looked at while tuning, figures only;
--parts), of the cards laid: right, wrong (must be 0),
unknown, missed (no outline found near it), false (outlines where no card lies), and with the
true outline given; and the CPU of ``recognise`` on the 12-megapixel photo (median and spread
of --repeat runs), then in fresh processes (--fresh, as the app after a restart): the face
book made and the photo recognised with its too-alike verdicts file absent (judged, then
kept), then kept (read back, not judged). Figures are noisy on a shared machine. JSON last
line."""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from hardware.camera import card_faces, card_finding
from hardware.camera.recognizer import OPENCV_THREADS
from hardware.synthetic import card_faces_scene, real_photos
from hardware.synthetic.set_faces import seen_sideways, set_face

PI_FACTOR = 5


def _spread(values: list[float]) -> list[float]:
    if len(values) < 2:
        return [round(v, 2) for v in values * 2]
    q = statistics.quantiles(values, n=10)
    return [round(q[0], 2), round(q[-1], 2)]


def run(faces, book, family: str, scenes: int, card_px: float, seed0: int,
        with_empty: bool, cases: list | None = None) -> dict:
    alike = book.turn_alike_at(card_px)
    twins = book.alike_at(card_px)
    n = found = right = wrong = unknown = turn_right = turn_wrong = knowable = false = 0
    sym_right = sym_said_unknown = sym_sideways = 0
    distinct = distinct_right = 0
    given = {"right": 0, "wrong": 0, "unknown": 0}
    ident_ms, find_ms = [], []
    for seed in range(seed0, seed0 + scenes):
        image, truths, empty = card_faces_scene.scene_and_empty(faces, seed, family, card_px, 4)
        start = time.process_time()
        quads = card_finding.find_cards(image, empty=empty if with_empty else None)
        find_ms.append((time.process_time() - start) * 1000)
        used = set()
        for truth in truths:
            n += 1
            distinct += truth.id not in twins
            centre = np.float32(truth.corners).mean(axis=0)
            near = [i for i, q in enumerate(quads)
                    if np.linalg.norm(q.mean(axis=0) - centre) < 0.3 * card_px]
            seen = card_faces.identify(image, truth.corners, book)
            key = "unknown" if seen.id is None else "right" if seen.id == truth.id else "wrong"
            given[key] += 1
            if cases is not None:  # what --against compares: the card's answer, both ways
                cases.append({"family": family, "seed": seed, "id": truth.id,
                              "given": seen.id, "found": None if not near else "?"})
            if not near:
                if cases is not None:
                    cases[-1]["found"] = "missed"
                continue
            found += 1
            used.add(near[0])
            start = time.process_time()
            seen = card_faces.identify(image, quads[near[0]], book)
            ident_ms.append((time.process_time() - start) * 1000)
            if cases is not None:
                cases[-1]["found"] = seen.id
            if seen.id is None:
                unknown += 1
            elif seen.id != truth.id:
                wrong += 1
                if family != "held_out":  # the held-out family: aggregate figures only
                    print(f"  wrong: scene {seed} {truth.id} named {seen.id} "
                          f"({seen.score:.2f})")
            else:
                right += 1
                distinct_right += truth.id not in twins
                if truth.id in alike:  # its turn is not knowable: said so, sideways right?
                    sym_right += 1
                    sym_said_unknown += not seen.turn_known
                    sym_sideways += (seen.turn - truth.turn) % 180 == 0
                else:
                    knowable += 1
                    turn_right += seen.turn_known and seen.turn == truth.turn
                    turn_wrong += seen.turn_known and seen.turn != truth.turn
        false += len(quads) - len(used)
    ms = statistics.median(ident_ms) if ident_ms else 0.0
    return {"cards": n, "found": round(found / n, 4), "right": round(right / n, 4),
            "wrong": wrong, "unknown": round(unknown / n, 4),
            "right_distinct": round(distinct_right / max(distinct, 1), 4),
            "right_given_outline": round(given["right"] / n, 4),
            "wrong_given_outline": given["wrong"],
            "unknown_given_outline": round(given["unknown"] / n, 4),
            "turn_knowable": knowable, "turn_right": round(turn_right / max(knowable, 1), 4),
            "turn_wrong": turn_wrong, "turn_alike_named": sym_right,
            "turn_alike_said_unknown": round(sym_said_unknown / max(sym_right, 1), 4),
            "turn_alike_sideways_right": round(sym_sideways / max(sym_right, 1), 4),
            "false_outlines": false,
            "cpu_ms_identify": round(ms, 2), "cpu_ms_identify_spread": _spread(ident_ms),
            "cpu_ms_find_per_frame": round(statistics.median(find_ms), 2),
            "cpu_ms_find_spread": _spread(find_ms),
            "frame_px": list(image.shape[1::-1])}


def _near(quads: list[np.ndarray], corners: np.ndarray) -> int | None:
    """The outline found for a true card: the nearest whose centre lies within a third of
    the card's short side of the card's centre."""
    centre = corners.mean(axis=0)
    short = min(float(np.linalg.norm(corners[(i + 1) % 4] - corners[i])) for i in range(4))
    best = None
    for i, quad in enumerate(quads):
        d = float(np.linalg.norm(quad.mean(axis=0) - centre))
        if d < short / 3 and (best is None or d < best[0]):
            best = (d, i)
    return None if best is None else best[1]


def run_photos(book, photos: list, part: str) -> dict:
    """right / wrong / unknown / missed / false on the real photographs of one part."""
    n = right = wrong = unknown = missed = false = 0
    given = {"right": 0, "wrong": 0, "unknown": 0}
    ident_ms, find_ms = [], []
    for photo in photos:
        start = time.process_time()
        quads = card_finding.find_cards(photo.image)
        find_ms.append((time.process_time() - start) * 1000)
        used = set()
        for face, corners in photo.cards:
            n += 1
            seen = card_faces.identify(photo.image, corners, book)
            given["unknown" if seen.id is None else "right" if seen.id == face else "wrong"] += 1
            k = _near(quads, corners)
            if k is None or k in used:
                missed += 1
                continue
            used.add(k)
            start = time.process_time()
            seen = card_faces.identify(photo.image, quads[k], book)
            ident_ms.append((time.process_time() - start) * 1000)
            if seen.id is None:
                unknown += 1
            elif seen.id != face:
                wrong += 1
                if part != "held_out":
                    print(f"  wrong: {photo.name} {face} named {seen.id} ({seen.score:.2f})")
            else:
                right += 1
        false += len(quads) - len(used)
    return {"photos": len(photos), "cards": n, "right": round(right / max(n, 1), 4),
            "wrong": wrong, "unknown": round(unknown / max(n, 1), 4), "missed": missed,
            "false": false, "right_given_outline": round(given["right"] / max(n, 1), 4),
            "wrong_given_outline": given["wrong"],
            "unknown_given_outline": round(given["unknown"] / max(n, 1), 4),
            "cpu_ms_identify": round(statistics.median(ident_ms), 2) if ident_ms else 0.0,
            "cpu_ms_identify_spread": _spread(ident_ms),
            "cpu_ms_find_per_photo": round(statistics.median(find_ms), 1),
            "photo_px": list(photos[0].image.shape[1::-1]) if photos else []}


PARTLY_COLOURS = {"red": (40, 40, 200), "green": (60, 150, 30), "purple": (130, 30, 110)}
PARTLY_LEFT_OUT = ("-1-", "-2-", "capsule", "diamond", "outline", "stripes", "solid")


def partly_faces() -> dict[str, np.ndarray]:
    """36 drawn SET-like faces (hardware/synthetic/set_faces.py): 3 colours, 1 or 2 shapes,
    capsule or diamond, outlined, striped or solid."""
    return {f"{colour}-{count}-{fill}-{shape}": set_face(fill, bgr, shape, count)
            for colour, bgr in PARTLY_COLOURS.items() for count in (1, 2)
            for shape in ("capsule", "diamond") for fill in ("outline", "stripes", "solid")}


def run_partly_taught(widths: tuple[int, ...], left_outs: tuple[str, ...] = PARTLY_LEFT_OUT
                      ) -> dict:
    """A partly taught book, the camera's everyday state (the owner teaches a deck card by
    card): all the drawn faces but those with one value of one feature (one count, one
    shape, one fill, in turn), then every face seen at each width (``seen_sideways``:
    blur, noise, JPEG). An untaught card named at all is wrong ("unknown" is
    its right answer); a taught one is right, wrong or unknown."""
    faces = partly_faces()
    out, ident_ms = {}, []
    for left_out in left_outs:
        book = card_faces.FaceBook.from_pictures(
            {f: p for f, p in faces.items() if left_out not in f})
        r = {"untaught": 0, "untaught_named": 0, "taught": 0, "right": 0, "wrong": 0,
             "unknown": 0}
        named_as = []
        for seed, (face, picture) in enumerate(faces.items()):
            for width in widths:
                frame, corners = seen_sideways(picture, width, seed)
                start = time.process_time()
                got = card_faces.identify(frame, corners, book).id
                ident_ms.append((time.process_time() - start) * 1000)
                if left_out in face:
                    r["untaught"] += 1
                    if got is not None:
                        r["untaught_named"] += 1
                        named_as.append(f"{face}@{width}->{got}")
                else:
                    r["taught"] += 1
                    r["right" if got == face else "unknown" if got is None else "wrong"] += 1
        r["untaught_named_as"] = named_as[:6]
        out[left_out.strip("-")] = r
        print(f"partly   untaught {left_out.strip('-'):8s} named {r['untaught_named']} of "
              f"{r['untaught']} (must be 0) | taught: right {r['right']} wrong {r['wrong']} "
              f"unknown {r['unknown']} of {r['taught']}", flush=True)
    return {"left_out": out, "widths": list(widths),
            "untaught_named": sum(r["untaught_named"] for r in out.values()),
            "taught_right": sum(r["right"] for r in out.values()),
            "taught_wrong": sum(r["wrong"] for r in out.values()),
            "taught": sum(r["taught"] for r in out.values()),
            "cpu_ms_identify": round(statistics.median(ident_ms), 2),
            "cpu_ms_identify_spread": _spread(ident_ms)}


def photo_cpu(book, photo, repeat: int) -> dict:
    """CPU of ``recognise`` on the whole full-size photo (every card found and named)."""
    times, named = [], 0
    for _ in range(repeat):
        start = time.process_time()
        sightings = card_faces.recognise(photo.image, book)
        times.append(time.process_time() - start)
        named = sum(s.id is not None for s in sightings)
    return {"photo": photo.name, "photo_px": list(photo.image.shape[1::-1]),
            "cpu_s_median": round(statistics.median(times), 3),
            "cpu_s_spread": [round(min(times), 3), round(max(times), 3)],
            "runs": repeat, "named": named, "cards": len(photo.cards)}


def fresh_photo_cpu(folder: Path, runs: int) -> dict:
    """The 12-megapixel photo in fresh processes (``_fresh_child``), each making the face
    book with its too-alike verdicts kept in one file: the first with none (judged and
    written), then ``runs`` with it kept. CPU seconds of each child's book and look."""
    with tempfile.TemporaryDirectory() as tmp:
        verdicts = Path(tmp) / "too_alike.json"
        out = []
        for _ in range(1 + runs):
            child = subprocess.run([sys.executable, __file__, "--fresh-child", str(folder),
                                    str(verdicts)], capture_output=True, text=True, check=True)
            out.append(json.loads(child.stdout.strip().splitlines()[-1]))
    first, kept = out[0], out[1:]
    total = [k["book_s"] + k["recognise_s"] for k in kept]
    return {"first": first, "kept": kept,
            "cpu_s_kept_median": round(statistics.median(total), 3) if total else None,
            "cpu_s_kept_spread": [round(min(total), 3), round(max(total), 3)] if total else []}


def _fresh_child(folder: Path, verdicts: Path) -> None:
    """One fresh process's look at the full-size photo: the book made (verdicts in
    ``verdicts``), the photo recognised; prints its CPU seconds as JSON."""
    if OPENCV_THREADS > 0:
        cv2.setNumThreads(OPENCV_THREADS)
    faces = real_photos.load_faces(folder)
    photo = real_photos.photos(folder, ("full_size",))[0]
    existed = verdicts.is_file()
    start = time.process_time()
    book = card_faces.FaceBook.from_pictures(faces, verdicts)
    made = time.process_time()
    sightings = card_faces.recognise(photo.image, book)
    done = time.process_time()
    print(json.dumps({"verdicts_kept_before": existed, "book_s": round(made - start, 3),
                      "recognise_s": round(done - made, 3),
                      "named": sum(s.id is not None for s in sightings),
                      "cards": len(photo.cards)}))


def _outcome(case: dict, key: str) -> str:
    got = case[key]
    return got if got in ("missed", None) else "right" if got == case["id"] else "wrong"


def compare_against(commit: str, cases: dict, deck: str, photos: str) -> dict:
    """The same cases read by ``commit``'s reader: that commit's tree from ``git archive``
    into a temporary folder, this tree's bench/ and hardware/synthetic/ laid over it (the
    same scenes), run in a child with the same arguments (the deck's and the photographs'
    folders made absolute); prints its lines, then every card
    answered otherwise (outline found; outline given), held-out cards as counts only."""
    root = Path(__file__).resolve().parents[1]
    sha = subprocess.run(["git", "rev-parse", "--short", commit], cwd=root, check=True,
                         capture_output=True, text=True).stdout.strip()
    argv = list(sys.argv[1:])
    at = argv.index("--against")
    del argv[at:at + 2]
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", commit], cwd=root, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        for part in ("bench", "hardware/synthetic"):
            subprocess.run(["cp", "-r", str(root / part) + "/.", str(Path(tmp) / part)],
                           check=True)
        out = Path(tmp) / "cases.json"
        child = subprocess.run([sys.executable, str(Path(tmp) / "bench" / Path(__file__).name),
                                *argv, "--deck", str(Path(deck).resolve()),
                                "--photos", str(Path(photos).resolve()),
                                "--cases-out", str(out)], cwd=tmp, text=True,
                               capture_output=True, env={**os.environ, "PYTHONPATH": tmp})
        if child.returncode != 0:
            print(child.stderr[-2000:])
            raise SystemExit(f"the reader of {sha} failed")
        print(f"--- the same cases read by {sha}'s reader:")
        for line in child.stdout.splitlines()[:-1]:
            print(f"  {sha}: {line}")
        theirs = json.loads(out.read_text())
    differ = {}
    for name, ours in cases.items():
        if len(theirs.get(name, [])) != len(ours):
            raise SystemExit(f"{sha}'s bench ran other cases of the {name} deck")
        held, listed = 0, []
        for mine, other in zip(ours, theirs.get(name, []), strict=False):
            for key in ("found", "given"):
                if mine[key] != other[key]:
                    if mine["family"] == "held_out":
                        held += 1
                        continue
                    line = (f"{name} {mine['family']} seed {mine['seed']} {mine['id']} "
                            f"({'outline found' if key == 'found' else 'outline given'}): "
                            f"{sha} {_outcome(other, key)} ({other[key]}) -> here "
                            f"{_outcome(mine, key)} ({mine[key]})")
                    listed.append(line)
                    print("  differs: " + line)
        differ[name] = {"cards": listed, "held_out_differ": held}
        print(f"  {name}: {len(listed)} answers differ from {sha}'s (held out: {held})")
    return {"commit": sha, "differ": differ}


def main() -> None:
    if sys.argv[1:2] == ["--fresh-child"]:
        _fresh_child(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=30, help="scenes (4 cards) per family")
    parser.add_argument("--card-px", type=float, default=120.0, help="card width in px")
    parser.add_argument("--families", default=",".join(card_faces_scene.FAMILIES))
    parser.add_argument("--empty", action=argparse.BooleanOptionalAction, default=True,
                        help="find the cards against the empty table (as seen before), as "
                        "the app does (--no-empty: from the frame alone)")
    parser.add_argument("--against", metavar="COMMIT",
                        help="the same cases read by that commit's reader too (its "
                        "hardware/camera): both printed, then the cards answered otherwise")
    parser.add_argument("--cases-out", help=argparse.SUPPRESS)  # --against's child
    parser.add_argument("--decks", default="playing,game,real,partly",
                        help="which decks to run (real: the real photographs; partly: the "
                        "drawn SET-like faces in a partly taught book)")
    parser.add_argument("--partly-widths", default="200,260",
                        help="card widths (px in the frame) of the partly taught family")
    parser.add_argument("--deck", default=str(card_faces_scene.PLAYING_DECK),
                        help="folder of the real deck's faces (<id>.png)")
    parser.add_argument("--photos", default=str(real_photos.PHOTOS),
                        help="folder of the prepared real photographs (faces/, photos/)")
    parser.add_argument("--parts", default="dev,licensed,held_out",
                        help="parts of the real photographs (licensed: the one kept in the "
                        "repository, tests/data/set-photos/licensed)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of recognise on the 12-megapixel photo")
    parser.add_argument("--fresh", type=int, default=2,
                        help="fresh processes looking at the 12-megapixel photo with its "
                        "too-alike verdicts kept on disk (after one that judges and keeps "
                        "them; 0: none)")
    args = parser.parse_args()
    if OPENCV_THREADS > 0:  # as the app's camera pipeline runs
        cv2.setNumThreads(OPENCV_THREADS)
    decks = {"game": card_faces_scene.game_faces()}
    if Path(args.deck).is_dir():
        decks = {"playing": card_faces_scene.load_faces(Path(args.deck)), **decks}
    decks = {k: v for k, v in decks.items() if k in args.decks.split(",")}
    partly = None
    if "partly" in args.decks.split(","):
        partly = run_partly_taught(tuple(int(w) for w in args.partly_widths.split(",")))
    report, cases = {}, {}
    for deck, faces in decks.items():
        book = card_faces.FaceBook.from_pictures(faces)
        result = {"faces": len(book), "too_alike": book.too_alike(args.card_px),
                  "same_upside_down": len(book.same_upside_down()),
                  "turn_alike": len(book.turn_alike(args.card_px)), "families": {}}
        for index, family in enumerate(args.families.split(",")):
            r = run(faces, book, family, args.scenes, args.card_px, 5000 + 1000 * index,
                    args.empty, cases.setdefault(deck, []))
            result["families"][family] = r
            print(f"{deck:8s} {family:9s} found {r['found']:.3f} right {r['right']:.3f} "
                  f"wrong {r['wrong']} unknown {r['unknown']:.3f} (right of distinct "
                  f"{r['right_distinct']:.3f}) | outline given: right "
                  f"{r['right_given_outline']:.3f} wrong {r['wrong_given_outline']} | turn "
                  f"{r['turn_right']:.3f} of {r['turn_knowable']} wrong {r['turn_wrong']} "
                  f"(alike: said unknown {r['turn_alike_said_unknown']:.3f}, sideways "
                  f"{r['turn_alike_sideways_right']:.3f}) false "
                  f"{r['false_outlines']} | cpu id {r['cpu_ms_identify']:.1f} ms "
                  f"{r['cpu_ms_identify_spread']} find {r['cpu_ms_find_per_frame']:.1f} ms",
                  flush=True)
        result["held_out"] = result["families"].get("held_out")
        report[deck] = result
    real = None
    if real_photos.available(Path(args.photos)) and "real" in args.decks.split(","):
        folder = Path(args.photos)
        book = card_faces.FaceBook.from_pictures(real_photos.load_faces(folder))
        real = {"faces": len(book), "parts": {}}
        for part in args.parts.split(","):
            shots = (real_photos.licensed_photos() if part == "licensed"
                     else real_photos.photos(folder, (part,)))
            if not shots:
                parser.error(f"--parts {part}: no photograph of that part (dev, licensed, "
                             "held_out)")
            r = run_photos(book, shots, part)
            real["parts"][part] = r
            print(f"real     {part:9s} {r['cards']} cards: right {r['right']:.3f} wrong "
                  f"{r['wrong']} unknown {r['unknown']:.3f} missed {r['missed']} false "
                  f"{r['false']} | outline given: right {r['right_given_outline']:.3f} wrong "
                  f"{r['wrong_given_outline']} | cpu id {r['cpu_ms_identify']:.1f} ms "
                  f"{r['cpu_ms_identify_spread']} find {r['cpu_ms_find_per_photo']:.0f} ms "
                  f"per {r['photo_px']} photo", flush=True)
        full = real_photos.photos(folder, ("full_size",))
        if full and args.repeat > 0:
            real["full_size"] = photo_cpu(book, full[0], args.repeat)
            f = real["full_size"]
            print(f"real     12 MP photo {f['photo_px']}: recognise {f['cpu_s_median']:.2f} s "
                  f"CPU (min, max {f['cpu_s_spread']}, {f['runs']} runs), named "
                  f"{f['named']} of {f['cards']}", flush=True)
        if full and args.fresh > 0:
            real["full_size_fresh"] = f = fresh_photo_cpu(folder, args.fresh)
            first = f["first"]
            print(f"real     12 MP photo, fresh process: verdicts judged {first['book_s']:.2f}"
                  f" + {first['recognise_s']:.2f} s CPU (book + look); verdicts "
                  f"kept {f['cpu_s_kept_median']:.2f} s {f['cpu_s_kept_spread']} "
                  f"({args.fresh} runs), named {f['kept'][0]['named']} of "
                  f"{f['kept'][0]['cards']}", flush=True)
    if args.cases_out:
        Path(args.cases_out).write_text(json.dumps(cases))
    against = None
    if args.against:
        against = compare_against(args.against, cases, args.deck, args.photos)
    worst_id = max((f["cpu_ms_identify"] for d in report.values()
                    for f in d["families"].values()), default=0.0)
    print(json.dumps({"decks": report, "real_photos": real, "partly_taught": partly,
                      "card_px": args.card_px,
                      "empty_table": args.empty, "against": against,
                      "scenes_per_family": args.scenes,
                      "wrong": sum(f["wrong"] + f["wrong_given_outline"] for d in report.values()
                                   for f in d["families"].values()) + sum(
                          f["wrong"] + f["wrong_given_outline"]
                          for f in (real or {}).get("parts", {}).values()) + (
                          partly["untaught_named"] + partly["taught_wrong"] if partly else 0),
                      "turn_wrong": sum(f["turn_wrong"] for d in report.values()
                                        for f in d["families"].values()),
                      "cpu_ms_identify": worst_id,
                      "cpu_ms_identify_pi_estimate": round(worst_id * PI_FACTOR, 1),
                      "opencv_threads": cv2.getNumThreads()}))


if __name__ == "__main__":
    main()

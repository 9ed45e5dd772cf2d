"""The dice reader on trays from the independent renderer (hardware/synthetic/
dice_independent.py), which shares nothing with the generator the reader was tuned on: a
yardstick from outside. Each tray's three stills go through a fresh DiceSettler as after a
throw; each true die takes the nearest reading within 0.6 of a side of its centre (`REACH`:
right, wrong or unread), as near as false blobs are judged: readings farther than 0.6 side
from every die are false blobs. A face read between half and 0.6 of a side from every die is
"misplaced", and "misplaced wrong" when it is not the nearest die's; since the eighth
session's issue 64 work it is that die's reading, so a wrong face there counts as wrong (seed
1126 of stop 79: a six 16.2 px from a 31 px five, counted unread when the reach was half a
side, so the wrong face did not show); colour is
scored over the dice read with a colour other than "unknown". One line per floor kind, then
one JSON object.

    .venv/bin/python bench/dice_independent.py [--trays 60] [--first 0] [--die-px 28]
        [--wb 1.3,1.0,0.7]

``--die-px``: every die that size across (px) or at most an eighth more (small dice: the
renderer draws 28-46). ``--against REV``: git revision REV's reader too, on the same
renders (before and after in one run). ``--wb``: the camera's white balance (gains on
linear R, G, B; the renderer draws 0.9-1.1 each): 1.3,1.0,0.7 a strong warm cast,
0.7,1.0,1.3 a cold one.
Colour: right of named, and named of the dice read (right or wrong face; "unknown" is
no colour given).

Seeds 0-59 were looked at while the reader was changed (stop 61); seeds 1000-1059
(`--first 1000`) are held out: read once, with the landed reader.
``--count thrown`` (the default): each settler is told the tray's number of dice, as the app
tells it what the game owes (bench/dice_camera.py ``--count``); ``unknown``: not told.
First run, the reader of commit 6c090ff (60 trays, 470 dice, seeds 0-59): 380 faces right
(80.9 %, Wilson 95 % 77.1-84.2), 2 wrong, 88 unread, 1 false blob, colour 383/383; held
out 81.2 %, 3 wrong. Unread dice gathered where the camera sees a die obliquely (more
than ~25 degrees off vertical), on ones, and on the smallest dice. After stop 61's rules:
86.4 % (2 wrong), held out 87.4 % (84.0-90.1, 1 wrong; docs/camera.md, "fourteenth round").
"""
from __future__ import annotations

import argparse
import json
from collections import defaultdict
from types import SimpleNamespace

from dice_camera import reader_at, score, use_reader, wilson  # scored as the tuned families' bench

from hardware.camera.dice_faces import read_tray
from hardware.camera.dice_settle import DiceSettler
from hardware.synthetic.dice_independent import KINDS, plan, render

# the bench's tally keys (bench/dice_camera.py `score`) -> this bench's figures
FIGURES = {"dice": "dice", "right": "faces_right", "wrong": "faces_wrong", "unread": "unread",
           "false_blobs": "false_blobs", "colour_right": "colour_right",
           "named": "colour_named", "read": "read", "read_named": "read_named",
           "misplaced": "faces_misplaced", "misplaced_wrong": "misplaced_wrong"}


REACH = 0.6  # of a die's side: a reading this near its centre is that die's (as near as a
# reading must be to some die not to be a false blob); half a side hid seed 1126's wrong six


def score_tray(truth, dice) -> dict[str, int]:
    """One tray scored by bench/dice_camera.py's `score` (every die here lies flat), each die
    taking the nearest reading within `REACH` of its side."""
    tally = defaultdict(int)
    score(SimpleNamespace(dice=dice), [SimpleNamespace(
        x=t.centre[0], y=t.centre[1], side=t.side, face=t.face, colour=t.colour,
        cocked=False) for t in truth], tally, reach=REACH)
    return {figure: tally[key] for key, figure in FIGURES.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trays", type=int, default=60)
    ap.add_argument("--first", type=int, default=0, help="first seed")
    ap.add_argument("--die-px", type=float, help="every die this size across, px (or an "
                    "eighth more)")
    ap.add_argument("--wb", help="white balance: gains on linear R,G,B (e.g. 1.3,1.0,0.7)")
    ap.add_argument("--against", metavar="REV",
                    help="also git revision REV's reader on the same renders, reported first")
    ap.add_argument("--count", choices=("thrown", "unknown"), default="thrown",
                    help="tell each settler how many dice lie in the tray (as the app tells "
                         "it what the game owes; a revision's reader without the count is "
                         "not told) or not")
    args = ap.parse_args()
    readers = {"this": read_tray}
    if args.against:
        readers = {args.against: reader_at(args.against), **readers}
    per_kind = {name: defaultdict(lambda: defaultdict(int)) for name in readers}
    no_roll = dict.fromkeys(readers, 0)
    for seed in range(args.first, args.first + args.trays):
        p = plan(seed, die_px=args.die_px,
                 wb=tuple(float(g) for g in args.wb.split(",")) if args.wb else None)
        frames, truth = render(p)
        for name, reader in readers.items():
            use_reader(reader)
            settler = DiceSettler()
            settler.moved()
            roll = None
            for frame in frames:
                roll = settler.feed(frame, thrown=len(truth) if args.count == "thrown"
                                    else None)
            use_reader(read_tray)
            no_roll[name] += roll is None
            reading = settler.last_reading
            s = score_tray(truth, reading.dice if reading is not None else [])
            k = per_kind[name][p.kind]
            k["trays"] += 1
            for key, v in s.items():
                k[key] += v
    outs = {name: report(name, per_kind[name], no_roll[name]) for name in readers}
    out = outs.pop("this")
    out.update({"die_px": args.die_px, "wb": args.wb, "first": args.first})
    if args.against:
        out["against"] = {"rev": args.against, **outs[args.against]}
    print(json.dumps(out))


def report(name: str, per_kind: dict, no_roll: int) -> dict:
    """One reader's lines (per floor kind, then all) and figures."""
    print(f"reader {name}:")
    total: dict[str, int] = defaultdict(int)
    for kind in KINDS:
        if kind not in per_kind:
            continue
        k = per_kind[kind]
        for key, v in k.items():
            total[key] += v
        print(f"{kind:6s} trays {k['trays']:3d}  dice {k['dice']:4d}  right {k['faces_right']:4d}"
              f" ({k['faces_right'] / max(k['dice'], 1):6.1%})  wrong {k['faces_wrong']:3d}"
              f"  unread {k['unread']:3d}  false blobs {k['false_blobs']:3d}"
              f"  misplaced {k['faces_misplaced']} ({k['misplaced_wrong']} wrong)"
              f"  colour {k['colour_right']}/{k['colour_named']}"
              f" (named {k['read_named']}/{k['read']} read)")
    print(f"all    trays {total['trays']:3d}  dice {total['dice']:4d}"
          f"  right {total['faces_right']:4d} ({total['faces_right'] / max(total['dice'], 1):6.1%})"
          f"  wrong {total['faces_wrong']:3d}  unread {total['unread']:3d}"
          f"  false blobs {total['false_blobs']:3d}"
          f"  misplaced {total['faces_misplaced']} ({total['misplaced_wrong']} wrong)"
          f"  colour {total['colour_right']}/{total['colour_named']}"
          f" (named {total['read_named']}/{total['read']} read)  no roll {no_roll}")
    out = {key: total[key] for key in ("faces_right", "faces_wrong", "unread", "false_blobs",
                                       "colour_right", "colour_named", "read", "read_named",
                                       "faces_misplaced", "misplaced_wrong", "trays", "dice")}
    out["faces_right_95"] = wilson(total["faces_right"], total["dice"])
    out["no_roll"] = no_roll
    out["per_kind"] = {kind: dict(per_kind[kind]) for kind in KINDS if kind in per_kind}
    return out


if __name__ == "__main__":
    main()

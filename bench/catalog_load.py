"""A catalog load as the deck page pays it at every request: the shipped files and the owner's
read, merged and checked (companion/box/catalog.py `load_catalog`).

Per game, in one process: a load whose catalog was checked before (the check kept by its
content, `_CHECKED`), against the same load with nothing kept (`_CHECKED` emptied before each
load: every load before the check was kept). The files read and merged alone
(`assemble`, no check) are the floor. The owner's files here: one override of each game's
first part, as the deck page writes it.

Usage: .venv/bin/python bench/catalog_load.py [--runs N]
The last line is a JSON object with, per game, the medians in ms and the ratio.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])  # bench/engine.py is not the engine
import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from companion.box import catalog  # noqa: E402

GAMES = ("wwe", "pillars", "monasterium")


def timed(call, runs: int, before=None) -> list[float]:
    out = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        call()
        out.append((time.perf_counter() - start) * 1000)
    return out


def describe(name: str, samples: list[float]) -> float:
    med = statistics.median(samples)
    print(f"  {name:<28} median {med:8.2f} ms  min {min(samples):8.2f}  max {max(samples):8.2f}"
          f"  stdev {statistics.pstdev(samples):6.2f}  (n={len(samples)})")
    return med


def owner_file(data_dir: Path, game: str) -> None:
    """The shipped first part written back as the owner's own file (a real override)."""
    part = catalog.installed_info(game).parts[0].id
    target = catalog.override_dir(data_dir, game) / f"{part}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(catalog.load_catalog(game)[part], ensure_ascii=False),
                      encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    result: dict = {"runs": args.runs}
    with tempfile.TemporaryDirectory(prefix="catalog-load-") as folder:
        data_dir = Path(folder)
        for game in GAMES:
            owner_file(data_dir, game)
            print(game)
            load = lambda game=game: catalog.load_catalog(game, data_dir)  # noqa: E731
            load()
            kept = describe("load, the check kept", timed(load, args.runs))
            fresh = describe("load, checked anew (before)", timed(load, args.runs,
                                                                  catalog._CHECKED.clear))
            files = describe("files read and merged alone", timed(
                lambda game=game: catalog.assemble(
                    game, catalog.shipped_dir(game),
                    catalog.override_files(catalog.override_dir(data_dir, game))), args.runs))
            print(f"  a load takes {fresh / kept:.1f}x less with the check kept")
            result[game] = {"kept_median_ms": round(kept, 2), "fresh_median_ms": round(fresh, 2),
                            "files_median_ms": round(files, 2),
                            "ratio_fresh_over_kept": round(fresh / kept, 1)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()

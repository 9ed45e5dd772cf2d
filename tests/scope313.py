"""What `make test313` runs on Python 3.13 (Trixie's), and why the rest is left to 3.11.

`make test` has just run the whole suite on 3.11. The 3.13 run is there for what can differ
between the two: the interpreter (its standard library, threads, sockets, ssl, sqlite3,
subprocesses, signals, `importlib.metadata` finding the game plug-ins) and the one pin that
differs in the locks, NumPy (tests/requirements-py311.txt against -py313.txt). So it keeps:

- every module imported (tests/test_every_module_imports.py);
- the engine's tests (pure Python: the interpreter is the whole risk);
- the companion's tests: the server, Socket.IO, persistence, restarts, TLS, threads, the
  CLI, with the camera wiring and the dice wiring on a running server;
- the hardware tests of the serial dice reader, the tags, the QR decode, the camera's
  sources, settings and tracker, the frame cache, and every camera reader once on a few
  frames (the quick tests of each file kept);
- one browser test (tests/web/test_table_game_browser.py): the real server on 3.13, two
  games, phones and TVs in Chromium, the host ending a game.

It leaves out `slow` and `heavy` tests; the single tests in `LEFT_OUT_TESTS`, long random
searches or readings of the schemas whose code the rest of their file runs on 3.13; and the
files in `LEFT_OUT`: the engine's three brute-force comparisons (the same pure Python over
many more positions), whole random games comparing two paths of the views, and many
synthetic camera frames read by the same readers with other seeds, sizes and lighting. The
frames' 3.13 risk is NumPy's: the readers' code is run on 3.13 by the files kept, and
`.ci/run`'s arm64 check reads the same kind of frames on Trixie (Python 3.13, NumPy of the
3.13 lock) and compares every answer with this machine's 3.11 (docs/pi-appliance.md); x86
3.13 read all 97 of its files bit-identically to 3.11 (2026-11-27). 3.11 runs them all in
`make test`.

``python -m tests.scope313`` prints the paths and the ``--ignore`` and ``--deselect``
options for pytest.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

KEPT = ("tests/test_every_module_imports.py", "tests/engine", "tests/companion",
        "tests/hardware", "tests/web/test_table_game_browser.py")

# file: what it reads, and where 3.13 still runs that code
LEFT_OUT = {
    "tests/engine/monasterium/test_offered_brute.py":
        "the offered decisions against a brute force over random positions: pure Python, "
        "the offer code run on 3.13 by test_options, test_rule_edges and test_examples",
    "tests/engine/pillars/test_offered_brute.py":
        "the same brute force for The Pillars of the Earth: its offer code run on 3.13 by "
        "test_option_variants, test_refusals and test_examples",
    "tests/engine/pillars/test_advisor_brute.py":
        "the conversion advisor against a brute force over generated holdings: the "
        "advisor run on 3.13 by test_advisor",
    "tests/hardware/test_camera_lens_covers.py":
        "lens blur, glare and covers over rendered videos: the decoder and recogniser, run "
        "on 3.13 by test_camera_decode, test_camera_motion and test_camera_rescue",
    "tests/hardware/test_camera_real_table.py":
        "rendered videos of real tables: the same decoder and recogniser as above, and "
        "test_camera_conditions' hard frames",
    "tests/hardware/test_camera_dice.py":
        "the pip-dice reader over many rendered trays: run on 3.13 by test_dice_hard_cases, "
        "test_dice_scratch, test_dice_still_mean, test_camera_taught_dice and the "
        "companion's test_camera_dice_wiring",
    "tests/hardware/test_camera_turns.py":
        "a wrong turn never committed, per failure mode over renders: the tracker and the "
        "recogniser, run on 3.13 by test_camera_tracker and test_camera_motion",
    "tests/hardware/test_card_faces.py":
        "cards named by their face on many rendered tables: the face reader, run on 3.13 by "
        "test_card_fill and the companion's test_face_looks",
    "tests/hardware/test_camera_focus_flicker.py":
        "the stand-in Camera Module's lens and lights over many frames: RpicamSource and "
        "the stand-in run on 3.13 by test_camera_rpicam",
    "tests/hardware/test_dice_independent.py":
        "the independent tray renderer's own checks (a yardstick, no app code)",
    "tests/companion/test_card_faces.py":
        "taught faces read from rendered tables: the deck's doors and pictures run on 3.13 "
        "by test_deck, the faces read by test_face_looks",
    "tests/companion/test_focus_watch.py":
        "the focus watch over the stand-in Camera Module: its thread is one more server "
        "thread (test_threads, test_camera_wiring), the source run by test_camera_rpicam",
    "tests/companion/test_camera_untaught_die.py":
        "a server whose camera reads rendered dice: test_camera_dice_wiring runs it on 3.13",
    "tests/companion/test_camera_tax_die.py":
        "the tax die taught and read on a server: test_camera_dice_wiring and test_deck_dice "
        "run it on 3.13",
    "tests/companion/test_shared_views.py":
        "three whole random games comparing the shared views with fresh ones: pure Python "
        "over the same data; every view the kept server tests (test_sockets, "
        "test_wwe_sockets, test_evening) receive is built by the shared path on 3.13",
}

# single tests left out (their files kept): test id -> what it repeats, where 3.13 runs that
# code (a parametrised id leaves out that case alone)
LEFT_OUT_TESTS = {
    "tests/companion/test_restore_text.py::"
    "test_after_any_restore_every_text_passes_the_rule_and_every_page_answers":
        "30 random stored texts restored, every page opened after each: the restore and its "
        "refusals run on 3.13 in the file's other tests, the pages in test_routes and "
        "test_text_doors",
    "tests/companion/test_shapes.py::test_the_fast_check_agrees_with_jsonschema":
        "120 random values checked by the fast check and by jsonschema: pure Python; the fast "
        "check refuses junk on 3.13 in the file's other tests and test_junk_fields",
    "tests/companion/test_numbers_at_doors.py::"
    "test_every_catalog_number_of_every_game_has_a_range":
        "every number of every game's catalog schema has a range: a reading of the schemas, "
        "no 3.13 code path; the doors' number parsing is run by the file's other tests",
    "tests/hardware/test_camera_rpicam.py::"
    "test_a_tray_zone_crops_the_same_table_region_from_both_streams[imx708_wide-pi4]":
        "the same crop with another sensor's modes: kept on 3.13 for imx708 on a Pi 5 and "
        "imx477 on a Pi 4 (both strides)",
    "tests/hardware/test_camera_rpicam.py::"
    "test_a_tray_zone_crops_the_same_table_region_from_both_streams[imx219-pi5]":
        "the same crop with another sensor's modes, as above",
}


def arguments() -> list[str]:
    return [*KEPT, *(f"--ignore={path}" for path in LEFT_OUT),
            *(f"--deselect={test}" for test in LEFT_OUT_TESTS)]


if __name__ == "__main__":
    print(" ".join(arguments()))

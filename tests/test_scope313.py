"""`make test313`'s scope (tests/scope313.py) names files that exist: a renamed or misspelt
path would make pytest run, or leave out, something else without a word."""
from __future__ import annotations

from tests import scope313


def missing(root, paths) -> list[str]:
    return [path for path in paths if not (root / path).exists()]


def test_every_path_of_the_scope_exists():
    assert missing(scope313.ROOT, [*scope313.KEPT, *scope313.LEFT_OUT]) == []


def test_a_file_left_out_is_one_of_a_kept_folder_and_says_why():
    kept = [path for path in scope313.KEPT if not path.endswith(".py")]
    assert all(any(path.startswith(folder + "/") for folder in kept)
               for path in scope313.LEFT_OUT)
    assert all(reason.strip() for reason in scope313.LEFT_OUT.values())


def test_a_misspelt_path_is_found(tmp_path):
    (tmp_path / "tests" / "hardware").mkdir(parents=True)
    (tmp_path / "tests" / "hardware" / "test_camera_dice.py").write_text("")
    assert missing(tmp_path, ["tests/hardware/test_camera_dice.py",
                              "tests/hardware/test_camera_dices.py"]) == [
        "tests/hardware/test_camera_dices.py"]


def test_the_arguments_are_the_kept_paths_then_one_ignore_a_file():
    args = scope313.arguments()
    assert args[:len(scope313.KEPT)] == list(scope313.KEPT)
    assert args[len(scope313.KEPT):] == [f"--ignore={p}" for p in scope313.LEFT_OUT]

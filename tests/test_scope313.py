"""`make test313`'s scope (tests/scope313.py) names files that exist: a renamed or misspelt
path would make pytest run, or leave out, something else without a word."""
from __future__ import annotations

import ast

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


def unknown_tests(root, ids) -> list[str]:
    """The test ids whose file or test function does not exist (pytest's --deselect says
    nothing of an id that names no test); a ``[case]`` is checked among the ids' own."""
    out = []
    for test_id in ids:
        path, _, name = test_id.partition("::")
        name = name.split("[", 1)[0]
        file = root / path
        tree = ast.parse(file.read_text(encoding="utf-8")) if file.exists() else None
        if tree is None or name not in {n.name for n in tree.body
                                        if isinstance(n, ast.FunctionDef)}:
            out.append(test_id)
    return out


def test_every_single_test_left_out_exists_in_a_kept_file_and_says_why():
    assert unknown_tests(scope313.ROOT, scope313.LEFT_OUT_TESTS) == []
    assert not {test.split("::")[0] for test in scope313.LEFT_OUT_TESTS} & set(scope313.LEFT_OUT)
    assert all(reason.strip() for reason in scope313.LEFT_OUT_TESTS.values())


def test_a_misspelt_test_is_found(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("def test_one(): pass\n")
    assert unknown_tests(tmp_path, ["tests/test_x.py::test_one[a-b]", "tests/test_x.py::test_on",
                                    "tests/test_y.py::test_one"]) == [
        "tests/test_x.py::test_on", "tests/test_y.py::test_one"]


def test_the_arguments_are_the_kept_paths_then_one_ignore_a_file_then_the_tests():
    args = scope313.arguments()
    assert args[:len(scope313.KEPT)] == list(scope313.KEPT)
    ignored = len(scope313.KEPT) + len(scope313.LEFT_OUT)
    assert args[len(scope313.KEPT):ignored] == [f"--ignore={p}" for p in scope313.LEFT_OUT]
    assert args[ignored:] == [f"--deselect={t}" for t in scope313.LEFT_OUT_TESTS]

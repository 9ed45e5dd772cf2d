"""Loading the catalog from real files: owner overrides, JSON errors with their line, and the
`companion catalog check` command (through click's CliRunner and as a real subprocess)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.box import catalog as loader
from companion.cli import cli

SHIPPED = loader.shipped_dir("wwe")


def write(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = data if isinstance(data, str) else json.dumps(data, indent=2, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return path


def overrides(data_dir: Path) -> Path:
    return data_dir / "catalogs" / "wwe"


def problems_of(call) -> list[dict]:
    with pytest.raises(loader.CatalogError) as err:
        call()
    return err.value.problems


def where(problems) -> set[tuple]:
    return {(p["file"], p["entry"], p["field"], p["code"]) for p in problems}


def card(catalog: dict, eid: str) -> dict:
    return next(e for e in catalog["event_cards"] if e["id"] == eid)


# ------------------------------------------------------------------------------ loader
def test_shipped_catalog_loads_without_data_dir():
    catalog = loader.load_catalog("wwe")
    assert set(catalog) == {"game", "action_cards", "event_cards", "projects",
                            "building_sites", "plague"}
    assert catalog["game"]["supplies"]["stone"]["size"] == 25
    assert len(catalog["event_cards"]) == 44


def test_empty_data_dir_gives_the_shipped_catalog(tmp_path):
    assert loader.load_catalog("wwe", tmp_path) == loader.load_catalog("wwe")


def test_override_replaces_by_id_and_adds_new_entries(tmp_path):
    real = dict(card(loader.load_catalog("wwe"), "because_the_works"))
    real.update(corners=["wool", "vp", "gold2", "piety"], arrow=2, permanent=True)
    real.pop("demo_fields")
    real["demo"] = False
    extra = dict(card(loader.load_catalog("wwe"), "demo_feast"), id="owner_extra", starred=False)
    write(overrides(tmp_path) / "event_cards.json", [real, extra])
    catalog = loader.load_catalog("wwe", tmp_path)
    assert card(catalog, "because_the_works")["corners"] == ["wool", "vp", "gold2", "piety"]
    assert card(catalog, "owner_extra")["chapter"] == 1
    assert len(catalog["event_cards"]) == 45
    # the order of the shipped file is kept, the new entry comes last
    assert catalog["event_cards"][0]["id"] == "because_the_works"
    assert catalog["event_cards"][-1]["id"] == "owner_extra"
    demo_ids = {d["entry"] for d in loader.demo_entries(catalog, "wwe")}
    assert "because_the_works" not in demo_ids and "demo_feast" in demo_ids


def test_override_removes_entries_and_replaces_a_whole_part(tmp_path):
    write(overrides(tmp_path) / "event_cards.json", [{"id": "demo_feast", "remove": True}])
    catalog = loader.load_catalog("wwe", tmp_path)
    assert "demo_feast" not in {e["id"] for e in catalog["event_cards"]}
    sites = [dict(s, demo=False) for s in loader.load_catalog("wwe")["building_sites"]]
    sites[0]["rent"] = {"item": "vp", "amount": 1}
    write(overrides(tmp_path) / "building_sites.json", {"replace": True, "entries": sites})
    catalog = loader.load_catalog("wwe", tmp_path)
    assert catalog["building_sites"][0]["rent"] == {"item": "vp", "amount": 1}
    assert not any(d["file"] == "building_sites.json" for d in loader.demo_entries(catalog, "wwe"))


def test_game_override_merges_nested_keys(tmp_path):
    write(overrides(tmp_path) / "game.json",
          {"tax_die": {"faces": [2, 2, 3, 4, 5, 5], "demo": False},
           "supplies": {"wool": {"size": 20, "demo": False}}})
    game = loader.load_catalog("wwe", tmp_path)["game"]
    assert game["tax_die"] == {"faces": [2, 2, 3, 4, 5, 5], "demo": False}
    assert game["supplies"]["wool"]["size"] == 20
    assert game["supplies"]["stone"]["size"] == 25  # untouched keys survive
    assert game["favor_track"]["cycle"][0] == "outlaws"


def test_plague_override_merges_locations_by_id(tmp_path):
    write(overrides(tmp_path) / "plague.json",
          {"locations": [{"id": 3, "names": {"en": "House 3", "it": "Casa 3", "pl": "Dom 3",
                                             "es": "Casa 3"}, "reward": {"vp": 3}}],
           "tokens": [1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]})
    plague = loader.load_catalog("wwe", tmp_path)["plague"]
    assert len(plague["locations"]) == 11
    assert next(x for x in plague["locations"] if x["id"] == 3)["reward"] == {"vp": 3}
    assert plague["tokens"][-1] == 5


def test_several_override_files_for_one_part_apply_in_name_order(tmp_path):
    base = card(loader.load_catalog("wwe"), "demo_feast")
    write(overrides(tmp_path) / "event_cards.a.json", [dict(base, arrow=1)])
    write(overrides(tmp_path) / "event_cards.b.json", [dict(base, arrow=3)])
    assert card(loader.load_catalog("wwe", tmp_path), "demo_feast")["arrow"] == 3


def test_broken_json_is_reported_with_file_and_line(tmp_path):
    path = write(overrides(tmp_path) / "event_cards.json",
                 '[\n  {"id": "demo_feast",\n   "arrow": 2,,\n  }\n]\n')
    problems = problems_of(lambda: loader.load_catalog("wwe", tmp_path))
    assert len(problems) == 1
    p = problems[0]
    assert (p["file"], p["code"], p["params"]["line"]) == (str(path), "json_syntax", 3)
    assert "line 3" in p["reason"]


def test_duplicate_keys_are_reported(tmp_path):
    path = write(overrides(tmp_path) / "game.json", '{"rounds": 6, "rounds": 7}')
    problems = problems_of(lambda: loader.load_catalog("wwe", tmp_path))
    assert (str(path), None, "rounds", "duplicate_key") in where(problems)


def test_problem_in_an_override_points_at_the_override_file(tmp_path):
    bad = dict(card(loader.load_catalog("wwe"), "demo_fulling_mill"))
    bad["effects"] = [{"type": "introduce_project", "project": "cathedral"}]
    path = write(overrides(tmp_path) / "event_cards.json", [bad])
    problems = problems_of(lambda: loader.load_catalog("wwe", tmp_path))
    assert where(problems) == {(str(path), "demo_fulling_mill", "effects[0].project",
                                "unknown_reference")}


def test_part_wide_problem_caused_by_an_override_points_at_it(tmp_path):
    starred = dict(card(loader.load_catalog("wwe"), "demo_feast"), starred=True)
    path = write(overrides(tmp_path) / "event_cards.json", [starred])
    problems = problems_of(lambda: loader.load_catalog("wwe", tmp_path))
    assert (str(path), None, "starred", "starred_count") in where(problems)


def test_rule_fact_violation_in_game_override(tmp_path):
    path = write(overrides(tmp_path) / "game.json", {"supplies": {"stone": {"size": 30}}})
    problems = problems_of(lambda: loader.load_catalog("wwe", tmp_path))
    assert where(problems) == {(str(path), "supplies", "stone.size", "rule_fact")}


def test_unknown_override_file_and_wrong_shape(tmp_path):
    odd = write(overrides(tmp_path) / "cards.json", [])
    shaped = write(overrides(tmp_path) / "projects.json", {"bridge": {"stone": 3}})
    problems = problems_of(lambda: loader.load_catalog("wwe", tmp_path))
    assert where(problems) == {(str(odd), None, None, "unknown_file"),
                               (str(shaped), None, None, "override_shape")}


def test_shipped_file_problems_point_at_the_shipped_file(tmp_path):
    full = tmp_path / "full"
    shutil.copytree(SHIPPED, full)
    projects = json.loads((full / "projects.json").read_text(encoding="utf-8"))
    del projects[0]["names"]
    write(full / "projects.json", projects)
    problems = problems_of(lambda: loader.check_path(full, "wwe"))
    assert where(problems) == {(str(full / "projects.json"), "bridge", "names",
                                "missing_field")}


def test_missing_path_and_unknown_game(tmp_path):
    assert problems_of(lambda: loader.check_path(tmp_path / "nope", "wwe"))[0]["code"] == \
        "not_readable"
    assert problems_of(lambda: loader.load_catalog("chess"))[0]["code"] == "unknown_game"


# ---------------------------------------------------------------------------------- CLI
def run(*args):
    return CliRunner().invoke(cli, ["catalog", *map(str, args), "--game", "wwe"])


def test_cli_check_shipped_catalog_is_ok():
    result = run("check", SHIPPED)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("OK: 12 action cards, 44 event cards, 7 projects, "
                                    "14 building sites, 11 plague locations; ")
    assert "82 demo entries" in result.output


def test_cli_check_override_file_with_problems(tmp_path):
    bad = dict(card(loader.load_catalog("wwe"), "demo_feast"), arrow=7)
    bad["names"] = {"en": "Feast"}
    path = write(tmp_path / "event_cards.json", [bad])
    result = run("check", path)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert f"{path}: entry demo_feast: field arrow: out_of_range: must be between 0 and 3" \
        in lines
    assert f"{path}: entry demo_feast: field names.it: missing_language: the name has no it " \
        "translation" in lines
    assert len(lines) == 4  # arrow + it, pl, es


def test_cli_check_data_dir_and_override_dir(tmp_path):
    good = dict(card(loader.load_catalog("wwe"), "demo_feast"), arrow=1)
    write(overrides(tmp_path) / "event_cards.json", [good])
    assert run("check", tmp_path).exit_code == 0
    assert run("check", overrides(tmp_path)).exit_code == 0
    write(overrides(tmp_path) / "game.json", "{")
    result = run("check", tmp_path)
    assert result.exit_code == 1
    assert "game.json: entry -: field -: json_syntax: invalid JSON at line 1" in result.output


def test_cli_demo_lists_demo_entries(tmp_path):
    result = run("demo")
    assert result.exit_code == 0
    assert "DEMO event_cards.json: because_the_works: fields starred, corners, arrow" in \
        result.output
    assert result.output.splitlines()[-1].startswith("82 demo entries: ")


def test_cli_as_a_real_subprocess(tmp_path):
    exe = Path(sys.executable).parent / "companion"
    ok = subprocess.run([exe, "catalog", "check", SHIPPED, "--game", "wwe"],
                        capture_output=True, text=True,
                        timeout=60)
    assert ok.returncode == 0 and ok.stdout.startswith("OK: "), ok.stderr
    path = write(tmp_path / "building_sites.json", '[{"id": "site_01"}')
    bad = subprocess.run([exe, "catalog", "check", path, "--game", "wwe"],
                         capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 1
    assert bad.stdout.startswith(f"{path}: entry -: field -: json_syntax:")
    assert "1 problem(s) found." in bad.stderr


def test_override_saved_with_a_byte_order_mark_is_read(tmp_path):
    path = overrides(tmp_path) / "game.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"tax_die": {"faces": [2, 5]}}).encode())
    assert loader.load_catalog("wwe", tmp_path)["game"]["tax_die"]["faces"] == [2, 5]


def test_file_that_is_not_utf8_is_reported(tmp_path):
    path = overrides(tmp_path) / "game.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"rounds": "\xff"}')
    problems = problems_of(lambda: loader.load_catalog("wwe", tmp_path))
    assert where(problems) == {(str(path), None, None, "not_readable")}


def test_a_game_without_cards_declares_no_parts_and_gets_an_empty_catalog(monkeypatch, tmp_path):
    """docs/engine.md: a game with nothing for the owner to edit (a dice game) names its own
    package as ``catalog`` and declares no ``parts``; `setup` then receives ``{}``, and an
    owner's stray file in its catalog folder is refused by name."""
    from types import SimpleNamespace

    from companion.box import catalog as box
    from companion.game import games

    pig = SimpleNamespace(info=SimpleNamespace(catalog="tc_toygame", parts=(),
                                               check_catalog=None))
    monkeypatch.setattr(games, "module_of", lambda name: pig)
    assert box.load_catalog("pig", tmp_path) == {}
    stray = box.override_dir(tmp_path, "pig")
    stray.mkdir(parents=True)
    (stray / "cards.json").write_text("[]")
    with pytest.raises(box.CatalogError) as e:
        box.load_catalog("pig", tmp_path)
    assert [p["code"] for p in e.value.problems] == ["unknown_file"]

"""The owner's own box (companion/box/deck.py): status, saving one entry, export and import,
games pinned to their catalog across an import and a restart, the command line, and card
pictures cut out of a (synthetic) camera frame."""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion import context
from companion.box import deck
from companion.box.catalog import CatalogError, load_catalog, load_kind
from companion.cli import cli
from companion.game.service import GameService
from companion.game.store import Store
from hardware.camera.decode import Decoder
from hardware.camera.picture import CardLayout, card_picture
from hardware.synthetic.scene import WIDTH, Camera, Placement, Style, _sticker_side

ROOT = Path(__file__).resolve().parents[2]
GAME = "wwe"


def shipped_card(eid: str) -> dict:
    return copy.deepcopy(next(e for e in load_catalog(GAME)["event_cards"] if e["id"] == eid))


def real_card(eid: str = "demo_feast", corners=("wool", "vp", "grain", "mk")) -> dict:
    card = shipped_card(eid)
    card["corners"] = list(corners)
    return card


def owner_dir(data: Path) -> Path:
    return data / "catalogs" / GAME


def snapshot(directory: Path) -> dict:
    """Every file under ``directory`` with its bytes (to prove nothing changed)."""
    if not directory.exists():
        return {}
    return {str(p.relative_to(directory)): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def part(report: dict, part_id: str) -> dict:
    return next(p for p in report["parts"] if p["part"] == part_id)


# ------------------------------------------------------------------------------- status
def test_status_of_the_shipped_catalog(tmp_path):
    report = deck.status(GAME, tmp_path)
    assert report["ok"] and report["problems"] == []
    events = part(report, "event_cards")
    assert (events["total"], events["demo"], events["entered"], events["checked"]) == \
        (44, 44, 0, 0)
    assert events["progress"] == {"template": "{entered} of {total} {part} entered",
                                  "params": {"entered": 0, "total": 44, "part": "Event cards"},
                                  "text": "0 of 44 event cards entered"}
    assert part(report, "action_cards")["demo"] == 0
    assert part(report, "plague")["other_demo"] == ["tokens"]


# ------------------------------------------------------------------------------- saving
def test_save_entry_writes_the_owner_file_and_counts_it(tmp_path):
    result = deck.save_entry(GAME, tmp_path, "event_cards", real_card())
    path = owner_dir(tmp_path) / "event_cards.json"
    assert result["file"] == str(path) and result["entry"] == "demo_feast"
    saved = json.loads(path.read_text())
    assert [e["id"] for e in saved] == ["demo_feast"]
    assert saved[0]["demo"] is False and "demo_fields" not in saved[0]
    events = part(result["status"], "event_cards")
    assert (events["entered"], events["checked"], events["demo"]) == (1, 1, 43)
    assert events["progress"]["text"] == "1 of 44 event cards entered"
    # saved again with other corners: replaced, not added twice
    deck.save_entry(GAME, tmp_path, "event_cards", real_card(corners=("vp",) * 4))
    saved = json.loads(path.read_text())
    assert len(saved) == 1 and saved[0]["corners"] == ["vp"] * 4
    assert [p.name for p in owner_dir(tmp_path).iterdir()] == ["event_cards.json"]
    assert load_catalog(GAME, tmp_path) and \
        next(e for e in load_catalog(GAME, tmp_path)["event_cards"]
             if e["id"] == "demo_feast")["corners"] == ["vp"] * 4


def test_a_failed_check_writes_nothing_and_names_file_entry_field(tmp_path):
    deck.save_entry(GAME, tmp_path, "event_cards", real_card())
    before = snapshot(owner_dir(tmp_path))
    with pytest.raises(CatalogError) as err:
        deck.save_entry(GAME, tmp_path, "event_cards", real_card(corners=("gems",) * 4))
    where = {(p["file"], p["entry"], p["field"]) for p in err.value.problems}
    assert (str(owner_dir(tmp_path) / "event_cards.json"), "demo_feast", "corners[0]") in where
    assert snapshot(owner_dir(tmp_path)) == before           # no change, no temp file left
    with pytest.raises(CatalogError) as err:
        deck.save_entry(GAME, tmp_path, "dragons", {"id": "x"})
    assert err.value.problems[0]["code"] == "unknown_part"
    with pytest.raises(CatalogError) as err:
        deck.save_entry(GAME, tmp_path, "event_cards", {"corners": []})
    assert err.value.problems[0]["code"] == "entry_shape"
    assert snapshot(owner_dir(tmp_path)) == before


def test_an_entry_is_saved_in_the_owner_file_that_holds_it(tmp_path):
    other = owner_dir(tmp_path) / "event_cards.chapter1.json"
    other.parent.mkdir(parents=True)
    other.write_text(json.dumps([real_card()]))
    deck.save_entry(GAME, tmp_path, "event_cards", real_card(corners=("mk",) * 4))
    assert json.loads(other.read_text())[0]["corners"] == ["mk"] * 4
    assert not (owner_dir(tmp_path) / "event_cards.json").exists()


def test_save_into_a_nested_list_and_an_object_part(tmp_path):
    location = copy.deepcopy(load_catalog(GAME)["plague"]["locations"][0])
    location.pop("demo_fields", None)
    deck.save_entry(GAME, tmp_path, "plague", location)
    saved = json.loads((owner_dir(tmp_path) / "plague.json").read_text())
    assert saved["locations"][0]["id"] == location["id"]
    deck.save_entry(GAME, tmp_path, "game", {"tax_die": {"faces": [2, 3, 3, 4, 4, 5],
                                                          "demo": False}})
    report = deck.status(GAME, tmp_path)
    assert part(report, "plague")["entered"] == 1
    game = part(report, "game")
    assert game["entered"] == 1 and game["entered_ids"] == ["tax_die"]
    assert report["ok"]


def test_a_broken_owner_file_blocks_saving_with_its_problem(tmp_path):
    broken = owner_dir(tmp_path) / "building_sites.json"
    broken.parent.mkdir(parents=True)
    broken.write_text('[{"id": "site_01"')
    with pytest.raises(CatalogError) as err:
        deck.save_entry(GAME, tmp_path, "event_cards", real_card())
    assert {p["code"] for p in err.value.problems} == {"json_syntax"}
    assert not (owner_dir(tmp_path) / "event_cards.json").exists()
    report = deck.status(GAME, tmp_path)
    assert not report["ok"] and report["problems"][0]["file"] == str(broken)


# ---------------------------------------------------------------------- export / import
def test_export_and_import_on_another_table(tmp_path):
    here, there = tmp_path / "here", tmp_path / "there"
    deck.save_entry(GAME, here, "event_cards", real_card())
    deck.save_entry(GAME, here, "game", {"tax_die": {"faces": [2, 3, 4, 5], "demo": False}})
    bundle = json.loads(json.dumps(deck.export_bundle(GAME, here)))
    assert bundle["format"] == "table-companion-catalog" and bundle["version"] == 1
    assert bundle["game"] == GAME and sorted(bundle["files"]) == ["event_cards.json",
                                                                  "game.json"]
    (owner_dir(there) / "pictures").mkdir(parents=True)
    (owner_dir(there) / "pictures" / "demo_feast.jpg").write_bytes(b"jpeg")
    (owner_dir(there) / "projects.json").write_text("[]")
    report = deck.import_bundle(GAME, there, bundle)
    assert report["ok"] and part(report, "event_cards")["entered"] == 1
    assert load_catalog(GAME, there) == load_catalog(GAME, here)
    assert (owner_dir(there) / "pictures" / "demo_feast.jpg").read_bytes() == b"jpeg"
    assert not (owner_dir(there) / "projects.json").exists()      # replaced by the import
    backup = there / "catalogs" / f"{GAME}.before-import"
    assert (backup / "projects.json").read_text() == "[]"
    assert sorted(p.name for p in (there / "catalogs").iterdir()) == \
        [GAME, f"{GAME}.before-import"]                         # no staging left over


@pytest.mark.parametrize("change,code", [
    (lambda b: b.update(version=2), "bundle_version"),
    (lambda b: b.update(game="other"), "bundle_game"),
    (lambda b: b.update(format="zip"), "bundle_shape"),
    (lambda b: b["files"].update({"../evil.json": []}), "bundle_shape"),
    (lambda b: b["files"].update({"dragons.json": []}), "unknown_file"),
    (lambda b: b["files"]["event_cards.json"][0].update(corners=["gems"] * 4), "bad_value"),
])
def test_a_bad_import_changes_nothing(tmp_path, change, code):
    here, there = tmp_path / "here", tmp_path / "there"
    deck.save_entry(GAME, here, "event_cards", real_card())
    deck.save_entry(GAME, there, "event_cards", real_card(corners=("vp",) * 4))
    bundle = deck.export_bundle(GAME, here)
    change(bundle)
    before = snapshot(there)
    with pytest.raises(CatalogError) as err:
        deck.import_bundle(GAME, there, bundle)
    assert code in {p["code"] for p in err.value.problems}
    if code == "bad_value":
        assert err.value.problems[0]["file"] == "export:event_cards.json"
        assert err.value.problems[0]["entry"] == "demo_feast"
    assert snapshot(there) == before


def test_a_game_created_before_an_import_keeps_its_catalog_after_a_restart(tmp_path):
    data = tmp_path / "data"
    db = data / "companion.sqlite3"
    data.mkdir()

    def service():
        kinds = {}

        def kind(name):
            if name not in kinds:
                kinds[name] = load_kind(name, str(data))
            return kinds[name]
        running = GameService(Store(db), kind)
        running.load_all()
        return running

    players = [{"seat": "N", "name": "Ann"}, {"seat": "E", "name": "Bob"}]
    first = service()
    old = first.create(GAME, {"players": players}, "1234")
    old_corners = old.state["cat"]["events"]["demo_feast"]["corners"]
    other = tmp_path / "other"
    deck.save_entry(GAME, other, "event_cards", real_card(corners=("vp",) * 4))
    deck.import_bundle(GAME, data, deck.export_bundle(GAME, other))
    assert old.state["cat"]["events"]["demo_feast"]["corners"] == old_corners  # running
    first.store.close()

    again = service()                                                          # restart
    kept = next(g for g in again.all() if g.id == old.id)
    assert kept.state["cat"]["events"]["demo_feast"]["corners"] == old_corners
    assert next(e for e in kept.kind.catalog["event_cards"]
                if e["id"] == "demo_feast")["corners"] == old_corners
    new = again.create(GAME, {"players": players}, "1234")
    assert new.state["cat"]["events"]["demo_feast"]["corners"] == ["vp"] * 4
    again.store.close()


def test_the_app_reloads_a_changed_catalog_for_new_games_only(tmp_path):
    from tests.companion.conftest import make_app

    app = make_app(tmp_path, GAMES={})
    try:
        service = context.of(app).service
        players = [{"seat": "N", "name": "Ann"}, {"seat": "E", "name": "Bob"}]
        old = service.create(GAME, {"players": players}, "1234")
        deck.save_entry(GAME, app.config["DATA_DIR"], "event_cards",
                        real_card(corners=("vp",) * 4))
        context.of(app).kinds.changed(GAME)
        new = service.create(GAME, {"players": players}, "1234")
        assert new.state["cat"]["events"]["demo_feast"]["corners"] == ["vp"] * 4
        assert old.state["cat"]["events"]["demo_feast"]["corners"] != ["vp"] * 4
    finally:
        context.of(app).service.store.close()


# ------------------------------------------------------------------------ command line
def run(*args):
    return CliRunner().invoke(cli, ["catalog", *map(str, args), "--game", GAME])


def test_cli_status_export_import(tmp_path):
    here, there = tmp_path / "here", tmp_path / "there"
    result = run("status", "--data", here)
    assert result.exit_code == 0, result.output
    assert "0 of 44 event cards entered (44 demo, 0 checked)" in result.output
    assert result.output.rstrip().endswith("OK: 0 of 110 entries entered, 77 still demo")
    deck.save_entry(GAME, here, "event_cards", real_card())
    as_json = json.loads(run("status", "--data", here, "--json").output)
    assert part(as_json, "event_cards")["entered"] == 1
    out = tmp_path / "box.json"
    result = run("export", "--data", here, "--output", out)
    assert result.exit_code == 0 and "Exported 1 file(s)" in result.output
    result = run("import", out, "--data", there)
    assert result.exit_code == 0, result.output
    assert "1 of 44 event cards entered" in result.output
    assert load_catalog(GAME, there) == load_catalog(GAME, here)
    bundle = json.loads(out.read_text())
    bundle["files"]["event_cards.json"][0]["corners"] = ["gems"] * 4
    out.write_text(json.dumps(bundle))
    before = snapshot(there)
    result = run("import", out, "--data", there)
    assert result.exit_code == 1
    assert result.output.startswith("export:event_cards.json: entry demo_feast: field corners[0]")
    assert snapshot(there) == before
    (owner_dir(there) / "game.json").write_text("{")
    result = run("status", "--data", there)
    assert result.exit_code == 1 and "json_syntax" in result.output


def test_cli_as_a_real_subprocess(tmp_path):
    deck.save_entry(GAME, tmp_path / "here", "event_cards", real_card())
    command = [sys.executable, "-c", "from companion.cli import main; main()", "catalog"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = tmp_path / "box.json"
    done = subprocess.run([*command, "export", "--data", tmp_path / "here", "-o", out,
                           "--game", GAME], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([*command, "import", out, "--data", tmp_path / "there",
                           "--game", GAME], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([*command, "status", "--data", tmp_path / "there", "--game", GAME],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "1 of 44 event cards entered" in done.stdout
    done = subprocess.run([*command, "import", tmp_path / "missing.json", "--data",
                           tmp_path / "there", "--game", GAME], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "not_readable" in done.stdout


# ------------------------------------------------------------------------------ pictures
STYLE = Style(perspective=0.02, noise_sigma=3.0, blur_sigma=0.6)
PAYLOAD = "TC1:DEMO:E:K7"


def synthetic_layout(style: Style, payload: str) -> CardLayout:
    """The synthetic scene's card (hardware/synthetic/scene.py `_card_patch`) in symbol
    sides: sticker of side ``sw`` centred 10 px below the card's top edge, card
    ``int(1.45 sw)`` x ``int(2.05 sw)``, the symbol inside the sticker's quiet zone."""
    sw = _sticker_side(payload, style)
    quiet = (sw - style.symbol_px) / 2
    w, h = int(sw * 1.45), int(sw * 2.05)
    s = style.symbol_px
    return CardLayout(left=-((w - sw) // 2 + quiet) / s, top=-(10 + quiet) / s,
                      width=w / s, height=h / s)


def test_card_picture_is_cropped_and_straightened(tmp_path):
    camera = Camera.create(3, STYLE)
    frame, _truth = camera.render([Placement(PAYLOAD, 640, 360, 33.0)], STYLE, seed=3)
    found = [d for d in Decoder().decode(frame) if d.payload == PAYLOAD]
    assert found, "the synthetic sticker must decode"
    layout = synthetic_layout(STYLE, PAYLOAD)
    picture = card_picture(frame, found[0].corners, layout, width=300)
    assert picture.shape[:2] == (round(300 * layout.height / layout.width), 300)
    # straight: the sticker reads upright near the top middle of the picture
    again = Decoder().decode(picture)
    assert [d.payload for d in again] == [PAYLOAD]
    angle = again[0].angle
    assert min(angle, 360 - angle) < 4
    cx, cy = again[0].centre
    assert abs(cx - 150) < 12 and cy < picture.shape[0] * 0.4
    # cropped: the card's cream face fills the picture, not the brown table
    inner = picture[int(picture.shape[0] * 0.55):-15, 15:-15].reshape(-1, 3)
    cream = np.all(np.abs(inner.astype(int) - (200, 225, 235)) < 45, axis=1).mean()
    assert cream > 0.6

    path = deck.save_picture(GAME, tmp_path, "demo_feast", frame, found[0].corners, layout,
                             width=300)
    assert path == owner_dir(tmp_path) / "pictures" / "demo_feast.jpg"
    stored = cv2.imread(str(path))
    assert stored.shape == picture.shape
    assert [p.name for p in path.parent.iterdir()] == ["demo_feast.jpg"]  # no temp left


def test_picture_refusals(tmp_path):
    frame = np.zeros((720, WIDTH, 3), np.uint8)
    layout = CardLayout(-0.2, -0.1, 1.4, 2.0)
    for bad in ("../x", "", "a b", True):
        with pytest.raises(CatalogError) as err:
            deck.save_picture(GAME, tmp_path, bad, frame, [(0, 0), (1, 0), (1, 1), (0, 1)],
                              layout)
        assert err.value.problems[0]["code"] == "bad_entry_id"
    with pytest.raises(CatalogError) as err:    # degenerate quad: all corners in one point
        deck.save_picture(GAME, tmp_path, "x", frame, [(5, 5)] * 4, layout)
    assert err.value.problems[0]["code"] == "no_picture"
    with pytest.raises(ValueError):
        CardLayout(0, 0, 0, 1)
    assert not (owner_dir(tmp_path) / "pictures" / "x.jpg").exists()

"""Teaching the camera a die whose faces are not pips (companion/box/taught_dice.py and the
deck page's doors): only the game's taught dice and their faces, a picture only of one die
lying alone and flat, every refusal translated and writing nothing; the stored pictures
make the camera's matcher once every face has one. World Without End's tax die."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.box import taught_dice
from companion.box.catalog import CatalogError, load_catalog
from hardware.camera.dice_faces import lone_die, read_tray
from hardware.synthetic import dice_tray
from tests.companion.conftest import create_game
from tests.companion.test_deck_routes import host


@pytest.fixture
def info():
    from companion.game import games

    return games.module_of("wwe").info


def test_the_tax_die_is_declared_taught_with_the_catalogs_faces(info, tmp_path):
    [role] = taught_dice.taught_roles(info)
    assert role.id == "tax"
    catalog = load_catalog("wwe", tmp_path)
    assert taught_dice.role_faces(role, catalog) == [2, 3, 4, 5]
    status = taught_dice.status("wwe", tmp_path, info, catalog)
    assert status == [{"role": "tax", "name": "Tax die", "taught": 0,
                       "faces": [{"face": f, "taught": False} for f in (2, 3, 4, 5)]}]


def test_pictures_make_the_matcher_only_once_every_face_has_one(info, tmp_path):
    catalog = load_catalog("wwe", tmp_path)
    for face in (2, 3, 4):
        taught_dice.save_face("wwe", tmp_path, info, catalog, "tax", face,
                              lone_die(dice_tray.lone(face, seed=11)))
    assert taught_dice.taught_dice("wwe", tmp_path, info, catalog) == []  # still by hand
    taught_dice.save_face("wwe", tmp_path, info, catalog, "tax", 5,
                          lone_die(dice_tray.lone(5, seed=11)))
    [die] = taught_dice.taught_dice("wwe", tmp_path, info, catalog)
    assert [d.name for d in taught_dice.taught_for("wwe", tmp_path)] == ["tax"]
    assert taught_dice.taught_for("toy", tmp_path) == []
    assert (tmp_path / "catalogs" / "wwe" / "dice" / "tax" / "5.png").is_file()
    image, truth = dice_tray.tray(77, 8, 36.0, cocked=0.0, coins=1)
    [tax] = [d for d in read_tray(image, taught=[die]).dice if d.die == "tax"]
    assert tax.face == next(d.face for d in truth if d.colour == "coin")
    taught_dice.forget_face("wwe", tmp_path, info, catalog, "tax", 5)
    assert taught_dice.taught_dice("wwe", tmp_path, info, catalog) == []


@pytest.mark.parametrize("role, face, code", [("tax", 6, "not_a_face"), ("tax", "3", "not_a_face"),
                                              ("tax", True, "not_a_face"),
                                              ("gold", 3, "not_taught_die")])
def test_only_the_games_taught_dice_and_their_faces(info, tmp_path, role, face, code):
    catalog = load_catalog("wwe", tmp_path)
    with pytest.raises(CatalogError) as caught:
        taught_dice.save_face("wwe", tmp_path, info, catalog, role, face,
                              lone_die(dice_tray.lone(3)))
    assert caught.value.problems[0]["code"] == code
    assert not (tmp_path / "catalogs").exists()


def test_the_doors_refuse_in_the_page_language_and_write_nothing(client, tmp_path):
    game_id = create_game(client)
    headers = host(client, game_id)
    data = client.get(f"/host/{game_id}/deck/dice.json?game=wwe&lang=de").get_json()
    assert data["ok"] and data["dice"][0]["role"] == "tax"
    assert data["dice"][0]["name_text"] == "Steuerwürfel"
    assert client.get(f"/host/{game_id}/deck/dice.json").get_json()["dice"] == []  # toy: none
    # no camera runs in this app: refused, translated
    answer = client.post(f"/host/{game_id}/deck/die_face?lang=pl", headers=headers,
                         json={"game": "wwe", "role": "tax", "face": 3})
    assert answer.status_code == 422
    assert answer.get_json()["problems"][0]["message"] == (
        "kamera nie pokazuje jeszcze tacki na kostki w kolorze "
        "(ustaw strefę tacki na stronie kamery)")
    answer = client.post(f"/host/{game_id}/deck/die_face?lang=es", headers=headers,
                         json={"game": "wwe", "role": "tax", "face": 7})
    assert answer.get_json()["problems"][0]["message"] == \
        "Dado de impuestos: 7 no es una cara de este dado (sus caras: 2, 3, 4, 5)"
    assert client.post(f"/host/{game_id}/deck/die_face", json={
        "game": "wwe", "role": "tax", "face": 3}).status_code == 400  # no CSRF token
    other = client.application.test_client()
    assert other.get(f"/host/{game_id}/deck/dice.json?game=wwe").status_code == 401
    assert other.get(f"/host/{game_id}/deck/die/wwe/tax/3.png").status_code == 401
    assert client.get(f"/host/{game_id}/deck/die/wwe/tax/3.png").status_code == 404
    assert client.get(f"/host/{game_id}/deck/die/wwe/nope/3.png").status_code == 404
    assert not (tmp_path / "data" / "catalogs").exists()


def test_a_lone_die_refusal_names_what_to_do(client, tmp_path, monkeypatch):
    """The camera's picture must show one die lying alone: what it shows otherwise is said.
    (The camera's tray image is given here; the browser test takes it from a real camera.)"""
    from companion.blueprints import deck as deck_routes

    game_id = create_game(client)
    headers = host(client, game_id)
    two = dice_tray.render([dice_tray.Die(150, 180, 36.0, 10.0, 3, "coin"),
                            dice_tray.Die(330, 180, 36.0, 0.0, 4, "white")], seed=2)
    monkeypatch.setattr(deck_routes, "_tray_picture", lambda: two)  # the camera's tray now
    answer = client.post(f"/host/{game_id}/deck/die_face?lang=it", headers=headers,
                         json={"game": "wwe", "role": "tax", "face": 3}).get_json()
    assert answer["problems"][0]["message"] == ("Dado delle Tasse: la fotocamera vede più di "
                                                "un dado nel vassoio: lascia solo questo dado")
    monkeypatch.setattr(deck_routes, "_tray_picture", lambda: dice_tray.lone(3, seed=4))
    answer = client.post(f"/host/{game_id}/deck/die_face", headers=headers,
                         json={"game": "wwe", "role": "tax", "face": 3}).get_json()
    assert answer["ok"]
    picture = client.get(answer["url"])
    assert picture.status_code == 200 and picture.mimetype == "image/png"
    assert cv2.imdecode(np.frombuffer(picture.data, np.uint8),
                        cv2.IMREAD_COLOR).shape == (48, 48, 3)
    status = client.get(f"/host/{game_id}/deck/dice.json?game=wwe").get_json()["dice"][0]
    assert status["taught"] == 1 and status["faces"][1]["url"].endswith("/tax/3.png")


@pytest.mark.heavy
def test_the_dice_command_reads_the_taught_die_with_the_owners_pictures(info, tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    companion = str(Path(sys.executable).parent / "companion")
    image, truth = dice_tray.tray(79, 7, 36.0, cocked=0.0, touching=0.0, coins=1)
    cv2.imwrite(str(tmp_path / "tray.png"), image)
    run = [companion, "camera", "dice", str(tmp_path / "tray.png"), "--game", "wwe",
           "--data", str(tmp_path / "data")]
    untaught = subprocess.run(run, capture_output=True, text=True)
    assert untaught.returncode == 2 and "no die of wwe is taught" in untaught.stderr
    catalog = load_catalog("wwe", tmp_path / "data")
    for face in (2, 3, 4, 5):
        taught_dice.save_face("wwe", tmp_path / "data", info, catalog, "tax", face,
                              lone_die(dice_tray.lone(face, seed=21)))
    line = json.loads(subprocess.run(run, capture_output=True, text=True, check=True).stdout)
    [tax] = [d for d in line["dice"] if d.get("die") == "tax"]
    assert tax["face"] == next(d.face for d in truth if d.colour == "coin")
    assert len(line["dice"]) == 7 and sum("die" in d for d in line["dice"]) == 1


def test_taught_pictures_stay_when_an_export_is_imported(info, tmp_path):
    from companion.box import deck

    catalog = load_catalog("wwe", tmp_path)
    taught_dice.save_face("wwe", tmp_path, info, catalog, "tax", 4,
                          lone_die(dice_tray.lone(4, seed=3)))
    deck.save_entry("wwe", tmp_path, "event_cards",
                    next(e for e in catalog["event_cards"] if e["id"] == "ralph_fitzgerald"))
    bundle = deck.export_bundle("wwe", tmp_path)
    deck.import_bundle("wwe", tmp_path, bundle)
    assert taught_dice.status("wwe", tmp_path, info, catalog)[0]["taught"] == 1
    assert (tmp_path / "catalogs" / "wwe" / "dice" / "tax" / "4.png").is_file()

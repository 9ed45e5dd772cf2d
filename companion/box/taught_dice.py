"""The owner's pictures of dice whose faces are not pips (a `DieRole` with ``taught``: World
Without End's tax die), kept with their catalog: ``<data>/catalogs/<game>/dice/<role>/
<face>.png``, one squared-up picture of the die's top per face, taken from the camera on the
host's "Your deck" page. `taught_dice` turns them into the camera's matchers
(hardware/camera/taught_faces.py) once every face of a die has its picture; until then the
die is entered by hand, as before. Knows no game: only `GameInfo.bindings.dice` and the catalog.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.box.catalog import CatalogError, override_dir, problem
from companion.game.dice_roles import role_faces
from hardware import atomic_file


def taught_roles(info) -> list:
    """The game's dice the camera can be taught."""
    return [role for role in info.bindings.dice if role.taught]


def _role(info, role_id) -> object:
    for role in taught_roles(info):
        if role.id == role_id:
            return role
    raise CatalogError([problem("(dice)", str(role_id)[:40], None, "not_taught_die",
                                die=str(role_id)[:40],
                                expected=", ".join(r.id for r in taught_roles(info)) or "–")])


def _short(value) -> str:
    """A value as a refusal quotes it: a number of 400 digits is not shown whole."""
    shown = str(value)
    return shown if len(shown) <= 12 else shown[:12] + "…"


def face_path(game: str, data_dir: str | Path, role_id: str, face: int) -> Path:
    return override_dir(data_dir, game) / "dice" / role_id / f"{face}.png"


def check_face(info, catalog, role_id, face) -> tuple[object, int]:
    """The role and face asked for, or the reason they are not one of the game's."""
    role = _role(info, role_id)
    faces = role_faces(role, catalog)
    if type(face) is not int or face not in faces:
        raise CatalogError([problem("(dice)", role.id, None, "not_a_face",
                                    face=_short(face), faces=", ".join(map(str, faces)))])
    return role, face


def save_face(game: str, data_dir: str | Path, info, catalog, role_id, face,
              square: np.ndarray) -> Path:
    """Keep ``square`` (the die's top, squared up: `hardware.camera.dice_faces.lone_die`) as
    the picture of ``face`` of the die ``role_id``; written atomically."""
    role, face = check_face(info, catalog, role_id, face)
    ok, png = cv2.imencode(".png", square)
    if not ok:
        raise CatalogError([problem("(dice)", role.id, None, "no_picture",
                                    detail="PNG encoding failed")])
    path = face_path(game, data_dir, role.id, face)
    atomic_file.write_bytes(path, png.tobytes())
    return path


def forget_face(game: str, data_dir: str | Path, info, catalog, role_id, face) -> None:
    """Drop the picture of one face (the owner took a bad one): that face is asked for."""
    role, face = check_face(info, catalog, role_id, face)
    face_path(game, data_dir, role.id, face).unlink(missing_ok=True)


def status(game: str, data_dir: str | Path, info, catalog) -> list[dict]:
    """Per taught die: ``{"role", "name", "faces": [{"face", "taught"}], "taught"}`` with
    ``taught`` the number of faces that have a picture."""
    out = []
    for role in taught_roles(info):
        faces = [{"face": face, "taught": face_path(game, data_dir, role.id, face).is_file()}
                 for face in role_faces(role, catalog)]
        out.append({"role": role.id, "name": role.name, "faces": faces,
                    "taught": sum(f["taught"] for f in faces)})
    return out


def taught_dice(game: str, data_dir: str | Path, info, catalog) -> list:
    """The camera's matchers for the game's dice with every face taught; a die with a face
    still missing is entered by hand, as before any was taught."""
    from hardware.camera.taught_faces import TaughtDie

    out = []
    for role in taught_roles(info):
        faces = {}
        for face in role_faces(role, catalog):
            path = face_path(game, data_dir, role.id, face)
            picture = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
            if picture is None:
                break
            faces[face] = [picture]
        else:
            out.append(TaughtDie(role.id, faces))
    return out


def taught_for(game: str, data_dir: str | Path) -> list:
    """`taught_dice` of an installed game from its owner's data (the camera's dice reader:
    ``DiceSettler(taught=taught_for(game, data_dir))``); none when the catalog is broken."""
    from companion.box.catalog import load_catalog
    from companion.game import games

    try:
        return taught_dice(game, data_dir, games.module_of(game).info,
                           load_catalog(game, data_dir))
    except CatalogError:
        return []

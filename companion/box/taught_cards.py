"""The owner's pictures of card faces the camera knows without a sticker, kept with their
catalog: ``<data>/catalogs/<game>/faces/<entry>.png``, one upright picture per card, taken
from the camera on the host's "Your deck" page (the card alone in the taught zone: the dice
tray) or imported from a scan or photo. Which cards may go bare is the game's declaration
(`Bindings.face_parts`, engine/api.py); this module knows no game.

`face_book` turns the pictures into the camera's recogniser
(`hardware.camera.card_faces.FaceBook`, docs/camera.md); `too_alike` lists the pairs of
taught cards the camera cannot tell apart at the table's resolution, so the owner knows
which still need a sticker. The recogniser's API is used only here (one seam).
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from companion.box.catalog import CatalogError, override_dir, problem
from companion.server import picture_budget
from hardware import atomic_file

MAX_UPLOAD = 4 * 1024 * 1024  # a scan or phone photo of a card (the app's request limit)
MIN_SIDE_PX = 48  # a face smaller than this on its short side holds nothing to tell apart
MAX_ASPECT = 3.0  # a card is never three times longer than wide
# the too-alike verdicts of the taught faces, kept beside them (`verdicts_path`): a 12 MP
# photo's first look in a fresh process 13.5 s without, about 2 s with (issue 63)
VERDICTS_FILE = "too_alike.json"
KEPT_LONG_SIDE = 640  # the picture kept: enough for any table resolution, small on disk
# the card's short side in the table camera's usual frame (docs/camera.md: a 1280x720 frame
# of a table about 50 cm deep): the resolution `too_alike` judges the taught cards at, times
# the source's `sharp_scale` when the camera crops cards from a sharper stream (`card_px`:
# the Pi's full one); faces apart only by a small digit need 150 px (docs/camera.md "What a
# face needs")
TABLE_CARD_PX = 120
# the card width a face is read at from a sharper crop (camera_faces.py brings a wider card
# down to it): the width at which the drawn game cards meet 99 % on every tuned table
# (docs/camera.md "Measured, full-resolution widths": at 180 px the printed board gave
# 0.984, at 240 px 0.995, 0 wrong), above the 150 px a digit pair needs, and one width
# step for every card, so `too_alike`'s judgement (seconds on a Pi) is made once
READ_CARD_PX = 240
TRAY_SHARE = 0.6  # an outline covering more of the tray's picture than this is the tray
TRAY_CARD_SHARE = 0.95  # a card may fill a small tray's depth (at most this much of it)
TRAY_RIM = 0.04  # of the tray picture's short side, cut off each side before looking


@dataclass(frozen=True)
class FaceCard:
    """One card the game lets the camera know by face: its part, the part's kind word (what
    a sticker of it says), its id and its names."""

    part: str
    word: str
    id: str
    names: dict


def face_cards(info, catalog: dict) -> list[FaceCard]:
    """The cards of the game's `face_parts`, in catalog order."""
    words = {k.part: k.word for k in info.stickers}
    out = []
    for part in info.bindings.face_parts:
        for entry in catalog.get(part) or []:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                out.append(FaceCard(part, words.get(part, part), entry["id"],
                                    entry.get("names") or {}))
    return out


def face_looks(info) -> dict[str, dict]:
    """part -> how its cards are printed (`Bindings.face_looks`, the game's data file
    ``package:file.json``: ``{"parts": {part: look}}``); {} when the game says nothing.
    Only the game's ``face_parts`` are kept."""
    where = info.bindings.face_looks
    if not where:
        return {}
    return {part: look for part, look in _looks(where).items()
            if part in info.bindings.face_parts}


@functools.cache
def _looks(where: str) -> dict:
    package, _, name = where.partition(":")
    return json.loads(resources.files(package).joinpath(name).read_text("utf-8"))["parts"]


def check_card(info, catalog, entry) -> FaceCard:
    """The face card ``entry`` names, or the reason it is not one the camera can learn."""
    for card in face_cards(info, catalog):
        if card.id == entry:
            return card
    raise CatalogError([problem("(faces)", None, None, "not_face_card",
                                card=str(entry)[:80])])


def face_path(game: str, data_dir: str | Path, entry: str) -> Path:
    return override_dir(data_dir, game) / "faces" / f"{entry}.png"


def _kept(picture: np.ndarray) -> np.ndarray:
    """The picture as kept: BGR, its long side at most `KEPT_LONG_SIDE`."""
    height, width = picture.shape[:2]
    scale = KEPT_LONG_SIDE / max(height, width)
    if scale < 1:
        picture = cv2.resize(picture, (round(width * scale), round(height * scale)),
                             interpolation=cv2.INTER_AREA)
    return picture


def save_face(game: str, data_dir: str | Path, info, catalog, entry, picture: np.ndarray
              ) -> Path:
    """Keep ``picture`` (the card's face, upright, BGR) as the face of ``entry``; written
    atomically, after every check (nothing changes on a refusal)."""
    card = check_card(info, catalog, entry)
    checked = check_picture(picture)
    ok, png = cv2.imencode(".png", _kept(checked))
    if not ok:
        raise CatalogError([problem("(faces)", card.id, None, "no_picture",
                                    detail="PNG encoding failed")])
    path = face_path(game, data_dir, card.id)
    atomic_file.write_bytes(path, png.tobytes())
    return path


def check_picture(picture) -> np.ndarray:
    """``picture`` as a BGR card face, or the translated reason it is not one."""
    if not isinstance(picture, np.ndarray) or picture.dtype != np.uint8 \
            or picture.ndim != 3 or picture.shape[2] != 3:
        raise CatalogError([problem("(faces)", None, None, "not_an_image")])
    short, long = sorted(picture.shape[:2])
    if short < MIN_SIDE_PX or long > MAX_ASPECT * short:
        raise CatalogError([problem("(faces)", None, None, "face_shape",
                                    width=int(picture.shape[1]), height=int(picture.shape[0]))])
    return picture


def decode_upload(data: bytes) -> np.ndarray:
    """An uploaded scan or photo of a face (PNG or JPEG) as BGR; transparent corners
    become white. Refused (translated) when it is no picture, too large a file, or declares
    more pixels than `picture_budget.MAX_PIXELS` (checked before decoding)."""
    if not isinstance(data, bytes | bytearray) or not data or len(data) > MAX_UPLOAD:
        raise CatalogError([problem("(faces)", None, None, "not_an_image")])
    try:  # the header's size first: a small file may declare gigabytes of pixels
        if picture_budget.header_size(bytes(data)) is None:
            raise CatalogError([problem("(faces)", None, None, "not_an_image")])
    except picture_budget.TooLarge as error:
        raise CatalogError([problem("(faces)", None, None, "picture_too_large",
                                    **error.megapixels())]) from None
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    except cv2.error:
        image = None
    if image is None or image.dtype != np.uint8:
        raise CatalogError([problem("(faces)", None, None, "not_an_image")])
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:  # transparent corners of a scan: white, like a card's edge
        alpha = image[..., 3:4].astype(np.float32) / 255
        image = (image[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    return check_picture(np.ascontiguousarray(image[..., :3]))


def lone_card(tray: np.ndarray) -> np.ndarray:
    """The one card lying in ``tray`` (the taught zone as the camera sees it), straightened
    as it lies (its top towards the picture's top); refused when there is none or several."""
    from hardware.camera.card_finding import find_cards

    # the tray's own rim may look like a card's outline (and hide the card's, centred in
    # it): the rim is cut off, and an outline covering most of the tray is not a card
    m = round(TRAY_RIM * min(tray.shape[:2]))
    tray = tray[m:tray.shape[0] - m, m:tray.shape[1] - m]
    area = tray.shape[0] * tray.shape[1]
    found = [q for q in find_cards(tray, max_share=TRAY_CARD_SHARE)
             if cv2.contourArea(np.float32(q)) < TRAY_SHARE * area]
    if not found:
        raise CatalogError([problem("(camera)", None, None, "no_card")])
    if len(found) > 1:
        raise CatalogError([problem("(camera)", None, None, "several_cards")])
    return straighten(tray, found[0])


def straighten(image: np.ndarray, corners) -> np.ndarray:
    """The quadrilateral ``corners`` of ``image`` cut out and squared up as it lies: the
    corner nearest the picture's top-left first, its sides' own lengths kept."""
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]  # clockwise on screen, starting anywhere
    start = int(np.argmin(quad.sum(axis=1)))  # the top-left corner
    quad = np.roll(quad, -start, axis=0)
    width = round(max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[3])))
    height = round(max(np.linalg.norm(quad[3] - quad[0]), np.linalg.norm(quad[2] - quad[1])))
    target = np.float32([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]])
    matrix = cv2.getPerspectiveTransform(quad, target)
    return cv2.warpPerspective(image, matrix, (max(width, 1), max(height, 1)),
                               flags=cv2.INTER_AREA)


def forget_face(game: str, data_dir: str | Path, info, catalog, entry) -> None:
    """Drop the picture of one card (a bad one): the card needs its sticker again."""
    card = check_card(info, catalog, entry)
    face_path(game, data_dir, card.id).unlink(missing_ok=True)


def pictures(game: str, data_dir: str | Path, info, catalog) -> dict[str, np.ndarray]:
    """card id -> its taught picture, for the cards that have one."""
    out = {}
    for card in face_cards(info, catalog):
        path = face_path(game, data_dir, card.id)
        picture = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
        if picture is not None:
            out[card.id] = picture
    return out


def verdicts_path(game: str, data_dir: str | Path) -> Path:
    """Where the game's too-alike verdicts are kept between runs, beside its taught faces
    (keyed by them: a face taught or forgotten makes the file another book's, judged again)."""
    return override_dir(data_dir, game) / "faces" / VERDICTS_FILE


def face_book(taught: dict[str, np.ndarray], verdicts: str | Path | None = None):
    """The camera's recogniser taught from ``taught`` (id -> upright picture), or None when
    nothing is taught; ``verdicts``: the file its too-alike verdicts are kept in
    (`verdicts_path`; None: judged again in each process)."""
    if not taught:
        return None
    from hardware.camera.card_faces import FaceBook

    return FaceBook(taught, verdicts)


def too_alike(book, card_px: int = TABLE_CARD_PX) -> list[tuple[str, str]]:
    """The pairs of taught cards the camera cannot tell apart at ``card_px``."""
    if book is None:
        return []
    return sorted(tuple(sorted(pair)) for pair in book.too_alike(card_px))


def turn_alike(book, card_px: int = TABLE_CARD_PX) -> list[str]:
    """The taught cards whose turn the camera cannot tell at ``card_px`` (a face that looks
    the same turned half round): a sighting by face gives the game the card's turn, as its
    sticker would, so these keep their sticker."""
    if book is None:
        return []
    return sorted(book.turn_alike(card_px))


def card_px(source) -> int:
    """The card width the camera reads faces at: `TABLE_CARD_PX` in the usual frame, times
    how much sharper the source's crop is (``sharp_scale``: the Pi's full stream, which the
    face reader crops cards from), at most `READ_CARD_PX` (the reader brings a wider card
    down to it); ``source`` None (no camera): the usual frame's."""
    scale = source.sharp_scale() if source is not None else 1.0
    return min(max(TABLE_CARD_PX, round(TABLE_CARD_PX * scale)), READ_CARD_PX)


def judgement(book, card_px: int = TABLE_CARD_PX) -> dict:
    """``{"alike": [[a, b], ...], "turn_alike": [...]}`` of ``book`` at ``card_px`` (judged
    here and now: seconds over a game's faces; the app's `FaceJudge` does it on its thread)."""
    return {"alike": [list(p) for p in too_alike(book, card_px)],
            "turn_alike": turn_alike(book, card_px)}


def status(game: str, data_dir: str | Path, info, catalog, width: int = TABLE_CARD_PX,
           verdict=None) -> dict:
    """The teaching step's state: per face card ``{"id", "part", "names", "taught"}``, the
    number taught, the pairs too alike and the cards whose turn cannot be told, judged at
    ``width`` px (`card_px`). ``verdict(game, width)``: that judgement as the app's
    `FaceJudge` gives it, None while it is under way (``checking`` true, no pairs yet);
    None: judged here and now (seconds)."""
    taught = pictures(game, data_dir, info, catalog)
    cards = [{"id": c.id, "part": c.part, "names": c.names, "taught": c.id in taught}
             for c in face_cards(info, catalog)]
    judged = judgement(face_book(taught), width) if verdict is None else verdict(game, width)
    return {"cards": cards, "taught": len(taught), "card_px": width,
            "checking": judged is None, "alike": [], "turn_alike": [], **(judged or {})}


def book_for(game: str, data_dir: str | Path, catalog_of=None):
    """(the `FaceBook` of an installed game from its owner's pictures, card id -> its
    `FaceCard`); (None, {}) when nothing is taught or the catalog is broken.
    ``catalog_of(game)``: the catalog as the caller holds it already (the server's
    `Kinds`), else it is loaded and checked here."""
    from companion.box.catalog import load_catalog
    from companion.game import games

    try:
        info = games.module_of(game).info
        catalog = catalog_of(game) if catalog_of is not None else load_catalog(game, data_dir)
    except CatalogError:
        return None, {}
    cards = {c.id: c for c in face_cards(info, catalog)}
    return face_book(pictures(game, data_dir, info, catalog),
                     verdicts_path(game, data_dir)), cards

"""The demo's card faces (`make run`, the synthetic camera): a card the game lets the camera
know by face (`Bindings.face_parts`) is drawn bare, without a sticker, once its face is
taught; its face is the owner's taught picture, else one drawn from its catalog entry (its
name over a pattern of shapes and colours made from its id, the same every time, with a
band at the top so its turn shows). Knows no game.
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field

import cv2
import numpy as np

FACE_PX = (300, 430)  # a drawn face, upright (width, height), as a scan of it
CARD_FLAT_PX = (150, 215)  # a card on the synthetic flat table (0.3 mm per pixel): 45 × 65 mm,
# clear of the board marker beside the council space (an outline touching it is no card)


def drawn_face(entry_id: str, name: str = "") -> np.ndarray:
    """A face for ``entry_id``: a cream card, a coloured band at its top with the name,
    and large shapes in colours chosen by the id (told apart at the table's resolution)."""
    rng = np.random.default_rng(zlib.crc32(entry_id.encode()))
    w, h = FACE_PX
    card = np.full((h, w, 3), (214, 232, 240), np.uint8)
    band = tuple(int(c) for c in rng.integers(30, 200, 3))
    # a printed card's light margin all round: its outline stands out from any table
    cv2.rectangle(card, (18, 18), (w - 19, 92), band, -1)
    text = (name or entry_id)[:17]
    cv2.putText(card, text, (30, 64), cv2.FONT_HERSHEY_SIMPLEX, 0.75, (255, 255, 255), 2,
                cv2.LINE_AA)
    for _ in range(int(rng.integers(3, 6))):
        colour = tuple(int(c) for c in rng.integers(0, 230, 3))
        cx, cy = int(rng.integers(70, w - 70)), int(rng.integers(160, h - 70))
        size = int(rng.integers(26, 52))
        shape = int(rng.integers(0, 3))
        if shape == 0:
            cv2.circle(card, (cx, cy), size, colour, -1, cv2.LINE_AA)
        elif shape == 1:
            cv2.rectangle(card, (cx - size, cy - size // 2), (cx + size, cy + size // 2),
                          colour, -1)
        else:
            points = np.int32([[cx, cy - size], [cx + size, cy + size], [cx - size, cy + size]])
            cv2.fillPoly(card, [points], colour, cv2.LINE_AA)
    cv2.rectangle(card, (0, 0), (w - 1, h - 1), (170, 190, 200), 3)
    return card


def face_of(game: str, data_dir, info, catalog, entry: str) -> np.ndarray | None:
    """The face the demo shows of ``entry``: its taught picture, else one drawn from its
    catalog entry; None for a card that is not one of the game's face cards."""
    from companion.box.catalog import CatalogError
    from companion.box.taught_cards import check_card, face_path

    try:
        card = check_card(info, catalog, entry)
    except CatalogError:
        return None
    path = face_path(game, data_dir, card.id)
    picture = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
    if picture is not None:
        return picture
    return drawn_face(card.id, card.names.get("en") or "")


@dataclass(frozen=True)
class BareCard:
    """A card lying face up without a sticker in the demo's scene: drawn by the synthetic
    camera above the table (an object that draws itself, like `foreign_covers`). Equal by
    ``key`` (its id and picture), so an unchanged scene is not drawn again."""

    key: str
    x: float  # flat table pixels
    y: float
    angle: float  # degrees clockwise
    picture: np.ndarray = field(compare=False, repr=False)

    def draw(self, canvas: np.ndarray, scale: float, owner: np.ndarray | None) -> None:
        paste(canvas, self.picture, self.x * scale, self.y * scale, self.angle,
              (CARD_FLAT_PX[0] * scale, CARD_FLAT_PX[1] * scale))


def paste(canvas: np.ndarray, picture: np.ndarray, x: float, y: float, angle: float,
          size: tuple[float, float]) -> None:
    """Lay ``picture`` (upright) on ``canvas`` centred at (x, y), ``size`` pixels wide and
    high, turned ``angle`` degrees clockwise."""
    ph, pw = picture.shape[:2]
    sx, sy = size[0] / pw, size[1] / ph
    t = math.radians(angle)
    cos, sin = math.cos(t), math.sin(t)
    # picture (u, v) -> canvas: scale, move the centre to the origin, turn, move to (x, y)
    a = np.float32([[cos * sx, -sin * sy, 0], [sin * sx, cos * sy, 0]])
    a[:, 2] = np.float32([x, y]) - a[:, :2] @ np.float32([pw / 2, ph / 2])
    h, w = canvas.shape[:2]
    mask = cv2.warpAffine(np.full((ph, pw), 255, np.uint8), a, (w, h))
    laid = cv2.warpAffine(picture, a, (w, h), flags=cv2.INTER_AREA)
    np.copyto(canvas, laid, where=(mask > 127)[..., None])


def bare_card(game: str, data_dir, entry: str, x: float = 0.0, y: float = 0.0,
              angle: float = 0.0) -> BareCard | None:
    """The demo's `BareCard` of ``entry`` when its face is taught (else None: the card
    keeps its sticker)."""
    from companion.box.taught_cards import face_path

    path = face_path(game, data_dir, entry)
    if not path.is_file():
        return None
    picture = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if picture is None:
        return None
    key = f"{entry}:{zlib.crc32(picture.tobytes())}"
    return BareCard(key, x, y, angle, picture)

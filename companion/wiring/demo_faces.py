"""The demo's card faces (`make run`, the synthetic camera): a card the game lets the camera
know by face (`Bindings.face_parts`) is drawn bare, without a sticker, once its face is
taught; its face is the owner's taught picture, else one drawn from its catalog entry as
the game's data says its part is printed (`Bindings.face_looks`: a coloured band, the
title, a number in a disc, art shared by the cards of one kind; `looked_face`), or, for a
game that says nothing, its name over a pattern of shapes and colours made from its id,
the same every time, with a band at the top so its turn shows. Knows no game.
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
        _shape(card, int(rng.integers(0, 3)), (cx, cy), size, colour)
    cv2.rectangle(card, (0, 0), (w - 1, h - 1), (170, 190, 200), 3)
    return card


def _field(entry: dict, path: str):
    """A catalog entry's value at a dotted ``path`` ("names.en"), None when absent."""
    value = entry
    for key in path.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _bgr(hex_colour: str) -> tuple[int, int, int]:
    rgb = bytes.fromhex(hex_colour.lstrip("#"))
    return rgb[2], rgb[1], rgb[0]


def _box(region: dict, w: int, h: int) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = region["box"]
    return round(x0 * w), round(y0 * h), round(x1 * w), round(y1 * h)


def _band_colour(spec: dict, entry: dict) -> tuple[int, int, int]:
    """The band's colour: a catalog field's value looked up in ``values`` (a bool as
    "true"/"false"), else chosen by the value of ``by`` (the id: every card its own)."""
    value = _field(entry, spec["field"]) if "field" in spec else None
    key = str(value).lower() if isinstance(value, bool) else str(value)
    if value is not None and key in spec.get("values", {}):
        return _bgr(spec["values"][key])
    seed = str(_field(entry, spec.get("by", "id")))
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    return tuple(int(c) for c in rng.integers(30, 200, 3))


def _art(card: np.ndarray, box: tuple[int, int, int, int], seed: str) -> None:
    """Large shapes in colours chosen by ``seed`` (cards with the same seed share their
    art, as a real deck's cards of one kind share their picture)."""
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    x0, y0, x1, y1 = box
    for _ in range(int(rng.integers(3, 6))):
        colour = tuple(int(c) for c in rng.integers(0, 230, 3))
        size = int(rng.integers(round(0.09 * (x1 - x0)), round(0.18 * (x1 - x0))))
        cx = int(rng.integers(x0 + size, max(x0 + size + 1, x1 - size)))
        cy = int(rng.integers(y0 + size, max(y0 + size + 1, y1 - size)))
        _shape(card, int(rng.integers(0, 3)), (cx, cy), size, colour)


def _shape(card: np.ndarray, shape: int, centre: tuple[int, int], size: int,
           colour: tuple[int, ...]) -> None:
    """One filled shape of a face's art: 0 a disc, 1 a bar, 2 a triangle."""
    cx, cy = centre
    if shape == 0:
        cv2.circle(card, (cx, cy), size, colour, -1, cv2.LINE_AA)
    elif shape == 1:
        cv2.rectangle(card, (cx - size, cy - size // 2), (cx + size, cy + size // 2),
                      colour, -1)
    else:
        points = np.int32([[cx, cy - size], [cx + size, cy + size], [cx - size, cy + size]])
        cv2.fillPoly(card, [points], colour, cv2.LINE_AA)


def _number(card: np.ndarray, box: tuple[int, int, int, int], value: int) -> None:
    """``value`` in a white disc with a dark ring, as a cost or a plague number is printed."""
    x0, y0, x1, y1 = box
    centre, radius = ((x0 + x1) // 2, (y0 + y1) // 2), min(x1 - x0, y1 - y0) // 2
    cv2.circle(card, centre, radius, (250, 250, 250), -1, cv2.LINE_AA)
    cv2.circle(card, centre, radius, (40, 40, 40), 2, cv2.LINE_AA)
    text = str(value)
    scale = radius / (24 if len(text) == 1 else 34)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
    cv2.putText(card, text, (centre[0] - tw // 2, centre[1] + th // 2),
                cv2.FONT_HERSHEY_DUPLEX, scale, (20, 20, 20), 2, cv2.LINE_AA)


def looked_face(entry: dict, look: dict) -> np.ndarray:
    """A face for the catalog ``entry`` printed as its part's ``look`` says (the game's
    `Bindings.face_looks`): ``paper``; ``band`` (a box and its colour); ``title`` (a box
    and the field whose text fills it); ``number`` (a box and the field whose number is
    printed in a disc, left out for a value in ``skip``); ``art`` (a box and the field
    that chooses its shapes). Boxes are fractions of the upright card (x0, y0, x1, y1)."""
    w, h = FACE_PX
    card = np.full((h, w, 3), _bgr(look.get("paper", "#f0e8d6")), np.uint8)
    if "band" in look:
        x0, y0, x1, y1 = _box(look["band"], w, h)
        cv2.rectangle(card, (x0, y0), (x1, y1), _band_colour(look["band"], entry), -1)
    if "art" in look:
        _art(card, _box(look["art"], w, h), str(_field(entry, look["art"].get("by", "id"))))
    if "title" in look:
        x0, y0, x1, y1 = _box(look["title"], w, h)
        text = str(_field(entry, look["title"]["field"]) or entry.get("id", ""))
        text = text.replace("_", " ")
        scale = (y1 - y0) / 22  # a long title is printed smaller, to fit its box
        wide = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)[0][0]
        scale *= min(1.0, (x1 - x0) / wide)
        cv2.putText(card, text, (x0, y1), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    _bgr(look["title"].get("ink", "#ffffff")), 2 if scale > 0.5 else 1, cv2.LINE_AA)
    number = look.get("number")
    value = _field(entry, number["field"]) if number else None
    if type(value) is int and value not in number.get("skip", []):
        _number(card, _box(number, w, h), value)
    cv2.rectangle(card, (0, 0), (w - 1, h - 1), (170, 190, 200), 3)
    return card


def face_of(game: str, data_dir, info, catalog, entry: str) -> np.ndarray | None:
    """The face the demo shows of ``entry``: its taught picture, else one drawn from its
    catalog entry (as its part's look says, `Bindings.face_looks`); None for a card that
    is not one of the game's face cards."""
    from companion.box.catalog import CatalogError
    from companion.box.taught_cards import check_card, face_looks, face_path

    try:
        card = check_card(info, catalog, entry)
    except CatalogError:
        return None
    path = face_path(game, data_dir, card.id)
    picture = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
    if picture is not None:
        return picture
    look = face_looks(info).get(card.part)
    if look is not None:
        return looked_face(next(e for e in catalog[card.part]
                                if isinstance(e, dict) and e.get("id") == card.id), look)
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

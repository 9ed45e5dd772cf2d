"""The simulated camera of a game's table (`make run` without a camera): the game declares
its demo scene (`Bindings.demo_scene(catalog, state) -> [DemoCard]`, engine/api.py), the
cards the table would have laid now, each in its zone; this source draws them with the
synthetic camera (hardware/synthetic) at the centre of their zone, so a Pillars table's
preview shows Pillars cards and can lay out the round preparation and reveal the event.

The scene follows the game: at each loop the source asks again and redraws only when the
scene changed (two frames: the board marker alone, then with the cards, so every card
"appears" once a loop, like a card laid down again).

The dice: while the game owes a roll, the source also shows a felt tray (`TRAY_MM`, its
``tray_mm``, which the camera's dice reader uses when the owner set no tray) with the dice
the game declares the table would throw (`Bindings.owed_dice`, in their roles' colours,
faces drawn at random): a hand over the tray in the first frame, the settled dice in the
second, so the camera reads one throw a loop (companion/wiring/camera_dice.py).
"""
from __future__ import annotations

import logging
import zlib
from dataclasses import replace

import cv2
import numpy as np

from companion.server import locks
from engine.api import sticker_namespace
from hardware.camera.sources import FrameSource, Pacer

log = logging.getLogger(__name__)

# one loop: 1 s at 30 fps. The cards are out of view long enough for the tracker to
# remove them (vanish_frames = 8) even when a still table's stride passes over the first
# empty frames (camera.still_stride: 2 of them at the default 3), so each loop lays them again
EMPTY_FRAMES, CARD_FRAMES = 11, 19
# the last card frames show a hand come for each card from the bottom edge: the camera
# takes a card for lifted only once something reached it from the frame's edge (issue 50)
TAKE_FRAMES = 3
TRAY_MM = (-180.0, 80.0, -40.0, 170.0)  # the demo's dice tray, in board mm (left of the board)
TRAY_BORDER_PX = 40  # felt drawn beyond the tray: the camera's slight perspective
DIE_MM = 16.0


def placements(info, catalog: dict, cards: list, bare=None) -> list[tuple]:
    """(payload, board x mm, board y mm, degrees) for each `DemoCard`, at the centre of its
    zone; a card whose part has no sticker kind, or an unknown zone, is left out. A card of
    the game's `face_parts` whose face is taught (``bare(card id)`` gives its
    `demo_faces.BareCard`) is laid bare: that object instead of the payload."""
    from hardware.tags.format import card_payload

    letters = {k.part: k.letter for k in info.stickers}
    zones = {z.id: z.rect for z in info.bindings.zones}
    face_parts = set(info.bindings.face_parts)
    out = []
    for card in cards:
        letter, rect = letters.get(card.part), zones.get(card.zone)
        entries = catalog.get(card.part) or []
        card_id = card.card or (entries[0]["id"] if entries else None)
        if letter is None or rect is None or card_id is None:
            continue
        x, y = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
        laid = bare(card_id) if bare is not None and card.part in face_parts else None
        out.append((laid or card_payload(sticker_namespace(info), letter, card_id), x, y,
                    2.0 + 90.0 * (card.rotation % 4)))
    return out


class SceneSource(FrameSource):
    """A looping synthetic camera over ``scene()`` (a callable returning `placements`)."""

    tray_mm = TRAY_MM

    def __init__(self, scene, seed: int = 0, fps: float = 30.0,
                 dice=lambda: (None, ())) -> None:
        self.scene = scene
        self.dice = dice  # () -> (throw key, [colour, ...]): the dice thrown now
        self.seed = seed
        self.name = f"synthetic:{seed}"
        self.index = 0
        self.current: list | None = None
        self.thrown: tuple | None = None
        self.frames: tuple[bytes, bytes, bytes] | None = None
        # the die the host's deck page is teaching, laid alone in the tray (colour, face):
        # a demo has no die to lay there by hand
        self.lone: tuple[str, int] | None = None
        # the card the deck page is teaching by its face, laid alone in the tray
        self.lone_card: np.ndarray | None = None
        self.lone_card_key: int | None = None
        self._pacer = Pacer(fps)
        self._lock = locks.lock("demo scene", "scene")

    def _render(self, cards: list, dice: tuple = (None, ())) -> tuple[bytes, bytes, bytes]:
        """The empty table, the table with the cards, and the cards with a hand at each."""
        from hardware.synthetic.scene import Camera, Hand, Placement
        from hardware.synthetic.video import MARKER_AT, board_to_table
        from hardware.tags.format import BOARD_MARKER

        camera = Camera.create(self.seed)
        marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
        laid = [Placement(payload, *board_to_table(x, y), angle)
                for payload, x, y, angle in cards if isinstance(payload, str)]
        bare = [replace(card, x=board_to_table(x, y)[0], y=board_to_table(x, y)[1], angle=angle)
                for card, x, y, angle in cards if not isinstance(card, str)]
        out = []
        key = zlib.crc32(repr((self.seed, dice[0])).encode())  # new faces for a new throw
        if dice[0] == "lone":
            trays = (lone_frame(*dice[1]),) * 2
        elif dice[0] == "lone_card":
            trays = (lone_card_frame(self.lone_card, self.seed),) * 2
        elif dice[1]:
            trays = throw_frames(dice[1], key)
        else:  # the felt tray, empty, as the preview frames it: no die seen there
            trays = (empty_tray(self.seed),) * 2
        taking = [Hand(p.x + 60, p.y + 90, 180.0) for p in [*laid, *bare]]
        for i, shown in enumerate(([marker], [marker, *laid], [marker, *laid])):
            image, _ = camera.render(shown, seed=self.seed * 1000 + min(i, 1),
                                     hands=(bare if i else []) + (taking if i == 2 else []))
            if trays is not None:
                paste_tray(image, trays[min(i, 1)])
            out.append(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes())
        return out[0], out[1], out[2]

    def open(self) -> None:
        with self._lock:
            self.index = 0

    def _refresh(self) -> None:
        locks.owned(self._lock, "the demo's frames")
        try:
            cards = list(self.scene())
        except Exception:  # noqa: BLE001 - a demo scene never stops the camera
            log.warning("demo scene failed; an empty table shown", exc_info=True)
            cards = []
        try:
            dice = self.dice()
        except Exception:  # noqa: BLE001 - nor do its dice
            log.warning("demo dice failed; no dice shown", exc_info=True)
            dice = (None, ())
        if not dice[1] and self.lone is not None:  # no roll owed: the die being taught
            dice = ("lone", self.lone)
        elif not dice[1] and self.lone_card is not None:  # or the card being taught
            dice = ("lone_card", self.lone_card_key)
        if (cards, dice) != (self.current, self.thrown) or self.frames is None:
            self.frames = self._render(cards, dice)
            self.current, self.thrown = cards, dice

    def lay_die(self, colour: str, face: int) -> None:
        """Lay one die of ``colour`` alone in the tray, ``face`` up, from the next frame on
        (while no roll is owed): the die the host is teaching the camera."""
        with self._lock:
            self.lone, self.lone_card = (colour, int(face)), None
            self.frames = None
            self.index = 0

    def lay_card(self, picture: np.ndarray) -> None:
        """Lay one card face up alone in the tray (``picture`` its upright face), from the
        next frame on, while no roll is owed: the card the host is teaching the camera. It
        takes the die's place there."""
        with self._lock:
            self.lone, self.lone_card = None, picture
            self.lone_card_key = zlib.crc32(picture.tobytes())
            self.frames = None
            self.index = 0

    def read(self) -> np.ndarray:
        self._pacer.wait()
        with self._lock:  # the host's page may lay a card or a die meanwhile (`frames` None)
            step = self.index % (EMPTY_FRAMES + CARD_FRAMES)
            if step == 0 or self.frames is None:
                self._refresh()
            frames = self.frames
            self.index += 1
        jpeg = frames[0 if step < EMPTY_FRAMES else
                      2 if step >= EMPTY_FRAMES + CARD_FRAMES - TAKE_FRAMES else 1]
        return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def tray_px() -> tuple[int, int, int, int]:
    """The demo tray's felt in the flat table's pixels, with its border."""
    from hardware.synthetic.video import board_to_table

    x0, y0 = board_to_table(TRAY_MM[0], TRAY_MM[1])
    x1, y1 = board_to_table(TRAY_MM[2], TRAY_MM[3])
    b = TRAY_BORDER_PX
    return int(x0) - b, int(y0) - b, int(x1) + b, int(y1) + b


def throw_frames(colours, seed: int) -> tuple:
    """The demo tray: a hand over it, then ``colours`` dice settled with random faces."""
    from hardware.synthetic import dice_tray
    from hardware.synthetic.video import MM_PER_PX

    x0, y0, x1, y1 = tray_px()
    style = dice_tray.TrayStyle(width=x1 - x0, height=y1 - y0, margin=14)
    rng = np.random.default_rng(seed)
    side = DIE_MM / MM_PER_PX
    laid = dice_tray.layout(rng, len(colours), side, style.width, style.height,
                            TRAY_BORDER_PX + 14, cocked=0.0, touching=0.0)
    faces = rng.integers(1, 7, len(laid))
    dice = [dice_tray.Die(d.x, d.y, d.side, d.angle, int(f), c)
            for d, f, c in zip(laid, faces, colours, strict=False)]
    return (dice_tray.render([], seed, style, hand=True, frame=1),
            dice_tray.render(dice, seed, style, frame=2))


def _tray_style():
    from hardware.synthetic import dice_tray

    x0, y0, x1, y1 = tray_px()
    return dice_tray.TrayStyle(width=x1 - x0, height=y1 - y0, margin=14)


def empty_tray(seed: int) -> np.ndarray:
    """The demo tray's felt with nothing in it."""
    from hardware.synthetic import dice_tray

    return dice_tray.render([], seed, _tray_style(), frame=2)


def lone_frame(colour: str, face: int) -> np.ndarray:
    """The demo tray with one die of ``colour`` lying flat in its middle, ``face`` up."""
    from hardware.synthetic import dice_tray
    from hardware.synthetic.video import MM_PER_PX

    style = _tray_style()
    face = (int(face) - 1) % 6 + 1  # a face the demo can draw
    die = dice_tray.Die(style.width / 2, style.height / 2, DIE_MM / MM_PER_PX, 12.0, face,
                        colour if colour in dice_tray.COLOURS else "white")
    return dice_tray.render([die], face, style, frame=2)


def lone_card_frame(picture: np.ndarray, seed: int) -> np.ndarray:
    """The demo tray with one card lying face up, upright, in its middle."""
    from companion.wiring.demo_faces import CARD_FLAT_PX, paste

    tray = empty_tray(seed).copy()  # the card at the table's scale, as on the board
    paste(tray, picture, tray.shape[1] / 2, tray.shape[0] / 2, 0.0, CARD_FLAT_PX)
    return tray


def paste_tray(image: np.ndarray, tray: np.ndarray) -> None:
    x0, y0, x1, y1 = tray_px()
    image[y0:y1, x0:x1] = tray[:image.shape[0] - y0, :image.shape[1] - x0]


def dice_for(service):
    """The callable a `SceneSource` asks for its dice: (the throw's key, the colours of the
    dice the current game would throw now) — none while no roll is owed."""
    from companion.wiring.dice import role_colour, roll_step

    def dice() -> tuple:
        live = service.access.current()
        declared = live.kind.module.info.bindings.owed_dice if live else None
        if declared is None or roll_step(live) is None:
            return (None, ())
        roles = {r.id: r for r in live.kind.module.info.bindings.dice}
        colours = tuple(role_colour(roles[r], live.kind.catalog) or "white"
                        for r in declared(live.kind.catalog, live.state) if r in roles)
        return ((live.id, live.version), colours)
    return dice


def scene_for(service, info, catalog, data_dir=None):
    """The callable a `SceneSource` asks: the current game's demo scene (the game of
    ``info`` while none is live); with ``data_dir`` its cards whose faces the owner taught
    lie bare (companion/wiring/demo_faces.py), read by their faces."""
    from companion.wiring.demo_faces import bare_card

    def scene() -> list:
        live = service.access.current()
        game_info, cat, state = info, catalog, None
        if live is not None:
            game_info, cat, state = live.kind.module.info, live.kind.catalog, live.state
        declared = game_info.bindings.demo_scene if game_info is not None else None
        if declared is None or cat is None:
            return []
        bare = None
        if data_dir is not None and live is not None:
            def bare(card_id):
                return bare_card(live.kind.name, data_dir, card_id)
        return placements(game_info, cat, declared(cat, state), bare)
    return scene

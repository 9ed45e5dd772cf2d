"""The simulated camera of a game's table (`make run` without a camera): the game declares
its demo scene (`Bindings.demo_scene(catalog, state) -> [DemoCard]`, engine/api.py), the
cards the table would have laid now, each in its zone; this source draws them with the
synthetic camera (hardware/synthetic) at the centre of their zone, so a Pillars table's
preview shows Pillars cards and can lay out the round preparation and reveal the event.

The scene follows the game: at each loop the source asks again and redraws only when the
scene changed (two frames: the board marker alone, then with the cards, so every card
"appears" once a loop, like a card laid down again).
"""
from __future__ import annotations

import logging
import threading

import cv2
import numpy as np

from engine.api import sticker_namespace
from hardware.camera.sources import FrameSource, _Pacer

log = logging.getLogger(__name__)

EMPTY_FRAMES, CARD_FRAMES = 8, 22  # one loop: 1 s at 30 fps


def placements(info, catalog: dict, cards: list) -> list[tuple[str, float, float, float]]:
    """(payload, board x mm, board y mm, degrees) for each `DemoCard`, at the centre of its
    zone; a card whose part has no sticker kind, or an unknown zone, is left out."""
    from hardware.tags.format import card_payload

    letters = {k.part: k.letter for k in info.stickers}
    zones = {z.id: z.rect for z in info.bindings.zones}
    out = []
    for card in cards:
        letter, rect = letters.get(card.part), zones.get(card.zone)
        entries = catalog.get(card.part) or []
        card_id = card.card or (entries[0]["id"] if entries else None)
        if letter is None or rect is None or card_id is None:
            continue
        x, y = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
        out.append((card_payload(sticker_namespace(info), letter, card_id), x, y,
                    2.0 + 90.0 * (card.rotation % 4)))
    return out


class SceneSource(FrameSource):
    """A looping synthetic camera over ``scene()`` (a callable returning `placements`)."""

    def __init__(self, scene, seed: int = 0, fps: float = 30.0) -> None:
        self.scene = scene
        self.seed = seed
        self.name = f"synthetic:{seed}"
        self.index = 0
        self.current: list | None = None
        self.frames: tuple[bytes, bytes] | None = None
        self._pacer = _Pacer(fps)
        self._lock = threading.Lock()

    def _render(self, cards: list) -> tuple[bytes, bytes]:
        from hardware.synthetic.scene import Camera, Placement
        from hardware.synthetic.video import MARKER_AT, board_to_table
        from hardware.tags.format import BOARD_MARKER

        camera = Camera.create(self.seed)
        marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
        laid = [Placement(payload, *board_to_table(x, y), angle) for payload, x, y, angle in cards]
        out = []
        for i, shown in enumerate(([marker], [marker, *laid])):
            image, _ = camera.render(shown, seed=self.seed * 1000 + i)
            out.append(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes())
        return out[0], out[1]

    def open(self) -> None:
        self.index = 0

    def _refresh(self) -> None:
        try:
            cards = list(self.scene())
        except Exception:  # noqa: BLE001 - a demo scene never stops the camera
            log.warning("demo scene failed; an empty table shown", exc_info=True)
            cards = []
        if cards != self.current or self.frames is None:
            self.frames = self._render(cards)
            self.current = cards

    def read(self) -> np.ndarray:
        self._pacer.wait()
        step = self.index % (EMPTY_FRAMES + CARD_FRAMES)
        if step == 0 or self.frames is None:
            with self._lock:
                self._refresh()
        self.index += 1
        jpeg = self.frames[0 if step < EMPTY_FRAMES else 1]
        return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def scene_for(service, info, catalog):
    """The callable a `SceneSource` asks: the current game's demo scene (the game of
    ``info`` while none is live)."""
    def scene() -> list:
        live = service.current()
        game_info, cat, state = info, catalog, None
        if live is not None:
            game_info, cat, state = live.kind.module.info, live.kind.catalog, live.state
        declared = getattr(getattr(game_info, "bindings", None), "demo_scene", None)
        if declared is None or cat is None:
            return []
        return placements(game_info, cat, declared(cat, state))
    return scene

"""The table camera as a dice reader: the tray zone's crop of each frame into a `DiceSettler`
(hardware/camera/dice_settle.py), whose `Roll` is handed on as a serial reader's is
(companion/wiring/dice.py), so no game needs a line of camera code.

The tray is a rectangle in board millimetres, like the card zones: config.json
``camera.tray`` = ``{"x0", "y0", "x1", "y1"}`` (`companion camera calibrate --tray`, or the
host's camera page), mapped into the image through the camera's calibration. Dice are read
only inside it, only while the dice are the chosen source and the game awaits a roll.

The crop: a frame source that can give the tray at a higher resolution than the frames the
stickers are read in (the Pi's full-resolution stream) has ``sharp_crop(box, size) ->
image``, ``box`` the tray's (x0, y0, x1, y1) in the frame's pixels and ``size`` the frame's
(width, height); otherwise the frame itself is cropped. A simulated source may declare where
it draws its tray (``tray_mm``), used when the owner set none, from its first frame: `make
run`'s camera draws its tray only while a roll is owed, yet its status says the tray is set
(and waits for a roll) from the start, not that none is.

The game's dice taught by pictures (World Without End's tax die; companion/box/taught_dice.py)
are read by the settler too, by their role's name (``tax``): its matchers are made for the
game at the table from the owner's pictures, again when that game changes or its catalog
does (`catalog_changed`, told by the deck page's routes). The host's deck page teaches
from `tray_image`: the tray as the camera sees it now, in colour.
"""
from __future__ import annotations

import functools
import logging
import re
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from companion.server import locks
from hardware import config_file
from hardware.camera import board_numbers
from hardware.camera.dice_settle import DiceSettler

log = logging.getLogger(__name__)

MIN_TRAY_PX = 40  # a tray crop smaller than this on either side is not read
ORANGE = (0, 140, 255)  # BGR: the tray on the camera's preview
TRAY_REACH_MM = board_numbers.REACH_MM  # no corner of a tray lies further than 10 m from the marker
DECIMAL = re.compile(r"-?[0-9]{1,6}(\.[0-9]{1,3})?")  # a tray corner in mm, as typed


def tray_problem(value) -> str | None:
    """Why ``value`` (config.json ``camera.tray``, or a form's four numbers) is not a tray,
    or None: four finite numbers within `TRAY_REACH_MM` of the board marker, at least 2 cm
    each way (`hardware.camera.board_numbers.tray_rect`)."""
    try:
        board_numbers.tray_rect(value)
    except ValueError as exc:
        return str(exc)
    return None


def parse_tray(value) -> tuple[float, float, float, float] | None:
    """A tray rectangle (x0, y0, x1, y1) in board mm from config or a form, or None if it is
    not one (`tray_problem` says why)."""
    try:
        return board_numbers.tray_rect(value)
    except ValueError:
        return None


@functools.lru_cache(maxsize=8)
def _drawn_tray(value: tuple) -> tuple[float, float, float, float] | None:
    """`parse_tray` of the tray a simulated table draws, once: it is asked at every frame."""
    return parse_tray(value)


def tray_from_form(given: list[str]) -> tuple[float, float, float, float] | None:
    """The tray from the host's four form fields (a decimal comma too), or None: text that
    is not a plain decimal number ("nan", "inf", "1e309", 5,000 digits) is not a tray."""
    values = []
    for text in given:
        text = text.strip().replace(",", ".")
        if not DECIMAL.fullmatch(text):
            return None
        values.append(float(text))
    return parse_tray(values)


def load_tray(config_path: Path) -> tuple[float, float, float, float] | None:
    return load_tray_checked(config_path)[0]


def load_tray_checked(config_path: Path) -> tuple[tuple | None, str | None]:
    """The tray kept in config.json, and why one that is there is not used (None when it
    is used or none is set): the camera's status says so rather than "no tray"."""
    data, unusable = config_file.read_checked(config_path)
    if unusable is not None:
        return None, f"config.json {unusable}"
    camera = data.get("camera")
    if not isinstance(camera, dict) or "tray" not in camera:
        return None, None
    why = tray_problem(camera["tray"])
    return (None, f"camera.tray in config.json: {why}") if why else (
        parse_tray(camera["tray"]), None)


def save_tray(config_path: Path, tray: tuple[float, float, float, float]) -> None:
    """Keep the tray in config.json ``camera.tray`` (every other key kept)."""
    def change(data: dict) -> None:
        camera = data.get("camera") if isinstance(data.get("camera"), dict) else {}
        data["camera"] = dict(camera, tray=dict(zip(("x0", "y0", "x1", "y1"), tray,
                                                    strict=True)))

    config_file.update(config_path, change)


def tray_report(tray, calibration, size: tuple[int, int]) -> dict:
    """What `companion camera calibrate --tray` prints: the tray in the frame's pixels
    (None: not in view) and how many pixels a 16 mm die spans there (the reader wants 28)."""
    box = tray_box(tray, calibration, *size)
    centre = ((tray[0] + tray[2]) / 2, (tray[1] + tray[3]) / 2)
    at = tuple(float(v) for v in calibration.to_image([centre])[0])
    return {"mm": list(tray), "box_px": list(box) if box else None,
            "die16_px": round(16.0 / calibration.mm_per_px(at), 1)}


def tray_box(tray, calibration, width: int, height: int) -> tuple[int, int, int, int] | None:
    """The tray's bounding box in the image's pixels (clipped), or None if out of view."""
    x0, y0, x1, y1 = tray
    corners = calibration.to_image([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    left, top = np.floor(corners.min(axis=0)).astype(int)
    right, bottom = np.ceil(corners.max(axis=0)).astype(int)
    left, top = max(0, int(left)), max(0, int(top))
    right, bottom = min(width, int(right)), min(height, int(bottom))
    if right - left < MIN_TRAY_PX or bottom - top < MIN_TRAY_PX:
        return None
    return left, top, right, bottom


def tray_crop(image: np.ndarray, box: tuple[int, int, int, int], source) -> np.ndarray:
    """The tray ``box`` of ``image``: from the source's full-resolution stream when it
    offers one (``sharp_crop``, in colour), else cut from the frame itself."""
    crop = source.sharp_crop(box, (image.shape[1], image.shape[0])) if source is not None \
        else None
    return image[box[1]:box[3], box[0]:box[2]] if crop is None else crop


def ungrouped(roll):
    """A roll read in grey: the dice renamed ``grey1``… in reading order, a colour no
    game's die has, so only the owner's own mapping (the host's dice page) gives them roles."""
    names = {die: f"grey{k}" for k, die in enumerate(roll.places or [*roll.faces,
                                                                     *roll.unreadable], 1)}
    return replace(roll, faces={names[d]: f for d, f in roll.faces.items()},
                   unreadable=tuple(names[d] for d in roll.unreadable),
                   places={names[d]: p for d, p in roll.places.items()})


class CameraDice:
    """Frames in (the camera thread), `Roll`s out through ``on_roll``.

    ``active()``: the camera is the chosen dice source; ``expected()``: the game awaits a
    roll. While either is false nothing is read and a throw under way is forgotten.
    ``thrown()``: how many dice that roll has (`companion.wiring.dice.dice_thrown`: the
    game says), or None: the reader reads no further than that many, and a tray
    showing more is no roll (`DiceSettler.feed`): ``too_many(seen, thrown)`` is told once
    per such reading (the screens say why nothing was recorded)."""

    def __init__(self, config_path: Path | None, on_roll, active, expected,
                 camera_state=lambda: ("ok", ""), game=lambda: None,
                 data_dir: Path | None = None, thrown=lambda: None,
                 too_many=lambda seen, thrown: None) -> None:
        self.config_path = config_path
        self.thrown = thrown
        self.too_many = too_many
        self.game = game  # () -> the name of the game at the table, or None
        self.data_dir = data_dir  # the owner's data: the taught dice's pictures
        self.camera_state = camera_state  # () -> (state, detail) of the camera itself
        self.on_roll = on_roll
        self.active = active
        self.expected = expected
        self.tray, self.tray_unusable = load_tray_checked(config_path) if config_path else (
            None, None)
        self.taught_game: str | None = None  # the game whose taught dice `settler` reads
        self.settler = DiceSettler()
        self.box: tuple[int, int, int, int] | None = None
        self.view: tuple | None = None  # (image, calibration, source) of the latest frame
        self.used_tray: tuple[float, float, float, float] | None = None
        self.reading = False  # a roll is awaited and the tray is in view
        self._lock = locks.lock("camera dice")  # the tray and settler: camera thread vs host pages
        self._taught: tuple[str | None, int, tuple] | None = None
        """(game, catalog generation, its taught dice): read from files outside the lock."""
        self._generation = 0  # counts `catalog_changed`: a read begun before it is stale

    def reset(self) -> None:
        """Read the tray again from config.json and forget a throw under way."""
        game = self.game()
        tray = load_tray_checked(self.config_path) if self.config_path else (None, None)
        taught = self._taught_dice(game)
        with self._lock:
            self.tray, self.tray_unusable = tray
            self.taught_game = None  # a throw under way is forgotten
            self._settler(game, taught)

    def catalog_changed(self, game: str) -> None:
        """The owner's catalog of ``game`` changed (a taught face taken or forgotten): its
        taught dice are made again before the next frame is read."""
        with self._lock:
            self._generation += 1
            if game == self.taught_game:
                self.taught_game = None

    def _taught_dice(self, game: str | None) -> tuple[int, tuple]:
        """``game``'s taught dice (none until every face has a picture), and the catalog
        generation they were read at. The owner's catalog and pictures are read outside
        ``_lock`` (tens of milliseconds, more on a Pi): the host's pages ask for the tray
        meanwhile. A read that a `catalog_changed` overtook is not kept."""
        from companion.box.taught_dice import taught_for

        with self._lock:
            kept, generation = self._taught, self._generation
        if kept is not None and kept[:2] == (game, generation):
            return generation, kept[2]
        taught = tuple(taught_for(game, self.data_dir)) if game and self.data_dir else ()
        with self._lock:
            if self._generation == generation:
                self._taught = (game, generation, taught)
        return generation, taught

    def _settler(self, game: str | None, taught: tuple[int, tuple]) -> DiceSettler:
        """The settler for ``game``, the one at the table now (under ``_lock``), made anew
        with ``taught`` (`_taught_dice`, read before the lock) when the game or its
        catalog changed. Taught dice read before a catalog change that came meanwhile serve
        this frame, and the settler is made again at the next."""
        generation, dice = taught
        if game != self.taught_game:
            self.settler = DiceSettler(taught=dice)
            self.taught_game = game if generation == self._generation else None
        return self.settler

    def tray_for(self, source) -> tuple[float, float, float, float] | None:
        drawn = source.tray_mm if source is not None else None
        return self.tray or (_drawn_tray(tuple(drawn)) if drawn is not None else None)

    def on_frame(self, frame, calibration, source=None) -> None:
        with self._lock:
            self.view = (frame.image, calibration, source)
            # the tray in use from the first frame on, a roll owed or not: the status and
            # the preview show the demo's tray before the demo draws it with the first roll
            self.used_tray = self.tray_for(source)
        if not (self.active() and self.expected()):
            with self._lock:
                if self.reading:  # a throw under way is forgotten
                    self.settler, self.reading = DiceSettler(taught=self.settler.taught), False
            return
        roll = self.feed(frame.image, calibration, source)
        if roll is not None:
            log.info("camera dice: roll %s %s unreadable %s", roll.roll, roll.faces,
                     list(roll.unreadable))
            self.on_roll(roll)

    def feed(self, image: np.ndarray, calibration, source=None):
        """One frame: the tray's crop into the settler; the `Roll` when a throw settles."""
        game = self.game()  # asked outside the lock: the service has its own
        thrown = self.thrown()
        taught = self._taught_dice(game)
        with self._lock:
            tray = self.used_tray = self.tray_for(source)
            height, width = image.shape[:2]
            box = tray_box(tray, calibration, width, height) if tray else None
            self.box, self.reading = box, box is not None
            if box is None:
                return None
            crop = tray_crop(image, box, source)
            grey = crop.ndim == 2
            if grey:
                crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
            settler = self._settler(game, taught)
            readings = settler.readings
            roll = settler.feed(crop, thrown=thrown)
            # told once, at the reading that found them (the settler then waits for motion)
            seen = (len(settler.last_reading.dice)
                    if settler.too_many and settler.readings > readings else None)
        if seen is not None:
            log.info("camera dice: %d dice in the tray, %d thrown: no roll until they move",
                     seen, thrown)
            self.too_many(seen, thrown)
        if roll is None:
            return None
        tall, wide = crop.shape[:2]
        places = {die: (round(x / wide, 3), round(y / tall, 3))
                  for die, (x, y) in roll.places.items()}
        if grey:  # no colour to tell: no die is given a colour's role (`ungrouped`)
            return ungrouped(replace(roll, places=places))
        return replace(roll, places=places)

    def tray_image(self) -> np.ndarray | None:
        """The tray as the camera sees it now, in colour (BGR): the latest frame's tray zone,
        from the source's full-resolution stream where it has one (the Pi's: asking starts
        it). None when no frame came yet, the tray is not set or not in view, or the camera
        gives it only in grey (a taught face is told apart by its colours too)."""
        with self._lock:
            view = self.view
        if view is None:
            return None
        image, calibration, source = view
        tray = self.tray_for(source)
        box = tray_box(tray, calibration, image.shape[1], image.shape[0]) if tray else None
        if box is None:
            return None
        crop = tray_crop(image, box, source)
        return crop if crop.ndim == 3 else None

    def tray_mm(self) -> tuple[float, float, float, float] | None:
        """The tray in board mm (the owner's, else the source's): no card lies there."""
        with self._lock:
            return self.tray or self.used_tray

    def draw(self, image: np.ndarray, calibration) -> None:
        """Frame the tray on the camera's preview (orange; thicker while reading)."""
        with self._lock:
            tray, reading = self.tray or self.used_tray, self.reading
        if tray is None:
            return
        x0, y0, x1, y1 = tray
        corners = calibration.to_image([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        cv2.polylines(image, [corners.reshape(-1, 1, 2).astype(np.int32)], True, ORANGE,
                      4 if reading else 2, cv2.LINE_AA)
        left, top = corners.min(axis=0)
        cv2.putText(image, "dice tray", (int(left) + 4, int(top) + 18), cv2.FONT_HERSHEY_SIMPLEX,
                    0.6, ORANGE, 2, cv2.LINE_AA)

    def status(self) -> dict:
        """For the dice status: whether the tray is set and in view, and the names of the
        game's dice it reads by taught pictures (``taught``)."""
        game = self.game()
        read = self._taught_dice(game)
        with self._lock:
            tray, box, reading = self.tray or self.used_tray, self.box, self.reading
            unusable = self.tray_unusable
            settler = self._settler(game, read)
            last, taught = settler.last_reading, [die.name for die in settler.taught]
        state, detail = self.camera_state()
        if state == "ok" and tray is None:
            state, detail = "absent", unusable or "no tray zone is set (camera.tray)"
        return {"state": state, "detail": detail, "tray": list(tray) if tray else None,
                "box": list(box) if box else None, "reading": reading,
                "dice_seen": len(last.dice) if last is not None else 0, "taught": taught}

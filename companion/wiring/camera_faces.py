"""Cards the table camera knows by their printed face (no sticker): the owner's taught
pictures (companion/box/taught_cards.py) as the recogniser's `FaceBook`
(hardware/camera/card_faces.py), run on a frame only when the table came to rest after a
change, never per frame while it is still.

`FaceReader.look` is fed every frame the camera service processed (with its `FrameResult`):
a frame in which something changed (any mode but ``skip``) arms it; after `REST_FRAMES`
still frames it recognises the cards of that frame once (unless only stickered cards
changed since its last look: every thumbnail cell that changed lies within a sticker's
card's reach, now or at that look, and no card known by face or asked about lies near:
then the look, ~0.1 s of CPU here, is skipped, as nothing bare can have come or gone; the
evening's cards are all stickered, docs/pi-appliance.md; a card asked about whose outline
now holds a sticker read in the frame counts as stickered, and is asked about no more, as
the look would say: a card whose sticker was not read at that look),
keeps those lying in a zone whose quadrilateral holds no sticker read in the frame (a
sticker still wins) and that the frame's edge does not cut (`_cut`: not a whole face, so
neither named nor asked about), and says what changed since its last look, per zone: a card's
sighting as its sticker would give it
(`FaceSeen`: the part's kind word, the card id, the turn in quarter turns, appeared / turned
/ removed), or an unknown card (`Unknown`: the TV asks "which card is this?"). The answer
(`teach_unknown`) keeps the card's face picture as that card's, so it is known next time.

The face is read at the resolution the source can give (docs/camera.md, "How a card is
cropped"): a source with a sharper stream (`FrameSource.sharp_crop`: the Pi's full one) gives
each card's bounding box from it, and the card is identified there (its corners scaled into
the crop) rather than in the frame, but only when the frame did not tell it: asking starts
that stream (on the Pi a restart of rpicam-vid, frames missing for stickers and dice), so a
card the frame names costs no restart. A card unknown (or refused as too alike) in the frame
while the source could do better is not asked about yet; the reader asks for the crop over
the next still frames (which starts the stream and keeps it wanted; its first crops can be
no sharper than the frame) and looks once more when it is sharp, or after `SHARP_WAIT`
still frames if it never gets so. One such second look per change at most: a source that
never gets sharper ends in one question, not a loop.

Threads: the camera thread looks; the HTTP threads read `unknown()` and answer. What both
touch (the face books, the cards per zone, the unknown cards) is changed only under
``_lock`` (a leaf: never held while calling out).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from companion.server import locks
from hardware.tags.format import BOARD_MARKERS

log = logging.getLogger(__name__)

REST_FRAMES = 3  # still frames after a change before the faces are looked at
THUMB = (32, 18)  # the grey thumbnail a look is skipped by when nothing changed since
THUMB_CHANGE = 20.0  # grey levels one thumbnail cell (a card covers several) changes by
CARD_MM = (30.0, 130.0)  # a card's long side on the table: a tarot card is 12 cm
UNKNOWN_KEPT = 4  # unknown cards asked about at once, at most
CROP_MARGIN = 4  # frame px around a card's outline in the crop asked for
SHARPER = 1.05  # a source whose sharp stream is less than this many times sharper: no wait
SHARP_ENOUGH = 0.9  # share of the source's `sharp_scale` a crop must reach to count as sharp
SHARP_WAIT = 15  # still frames a second look waits at most for the sharper crop
# grey levels a thumbnail cell changes by since the last look to count as changed when
# judging whether only stickered cards changed (`_stickers_only`): well under
# `THUMB_CHANGE`, so a bare card's faint edge counts (and the look is taken)
CELL_CHANGE = 6.0
# frame px: an outline this near the frame's border is a card the edge cuts (`_cut`)
EDGE_PX = 4
# still frames a look waits at most while what changed since the last look reaches the
# picture's edge (`_at_edge`): the hand that laid or took a card, still in view. A look then
# is wasted: the hand's leaving is a change, and the table at rest after it is looked at
# anyway (often left out then: only stickered cards changed). On the evening's frames 10 of
# 11 looks had it (session 87, docs/pi-appliance.md); 30: 2 s at the still stride of 2, the
# still frames (counted over the changes since the last look) a look is late at most (a
# hand resting longer, a card laid within a cell of the edge)
HAND_WAIT = 30
# grey levels a border cell changes by to count as an arm in view: `THUMB_CHANGE`, a card's
# or a hand's change, not the light's drift
EDGE_CHANGE = THUMB_CHANGE
# thumbnail cells round each changed one that a look traces outlines in (`_near`): a card
# whose outline meets them is looked at again, one further off is as the last look said
NEAR_CELLS = 1


@dataclass(frozen=True)
class FaceSeen:
    """A card known by face in ``zone``: as a sticker would give it."""

    word: str
    card: str
    zone: str
    rotation: int  # quarter turns clockwise from the board's north
    change: str  # "appeared" | "turned" | "removed"


@dataclass(frozen=True)
class Unknown:
    """A card-sized thing at rest in ``zone`` the camera does not know: asked on the TV."""

    zone: str
    picture: np.ndarray  # its face, straightened as it lies (taught when answered)


def _thumb(image: np.ndarray) -> np.ndarray:
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.resize(gray, THUMB, interpolation=cv2.INTER_AREA).astype(np.float32)


def _inside(point, quad: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32),
                                (float(point[0]), float(point[1])), False) >= 0


def _stickers(result) -> list[tuple[tuple[float, float], float]]:
    """(centre, side) of the cards' stickers a frame shows (not the board's markers)."""
    return [(tuple(float(v) for v in d.centre), float(d.side)) for d in result.detections
            if d.payload not in BOARD_MARKERS]


def _in(point, rect) -> bool:
    return rect is not None and rect[0] <= point[0] <= rect[2] and rect[1] <= point[1] <= rect[3]


def _crop_box(quad: np.ndarray, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The card's bounding box in the frame, a little wider, inside the frame."""
    x0, y0 = np.floor(quad.min(axis=0)) - CROP_MARGIN
    x1, y1 = np.ceil(quad.max(axis=0)) + CROP_MARGIN
    return (max(0, int(x0)), max(0, int(y0)), min(size[0], int(x1)), min(size[1], int(y1)))


def _width(quad: np.ndarray) -> float:
    """A card's width: the mean of its two short sides."""
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    return min(sides[0] + sides[2], sides[1] + sides[3]) / 2


def _sharp(image: np.ndarray, quad: np.ndarray, source, widest: float = float("inf")):
    """(picture, the card's corners in it, how many times sharper than the frame, the box
    asked for): the source's sharper crop of the card where it has one (the corners scaled
    into it; brought down so the card is at most ``widest`` px wide: taught_cards
    `READ_CARD_PX`), else the frame."""
    size = (image.shape[1], image.shape[0])
    box = _crop_box(quad, size)
    crop = None
    if source is not None and box[2] > box[0] and box[3] > box[1]:
        crop = source.sharp_crop(box, size)
    if crop is None or crop.size == 0:
        return image, quad, 1.0, box
    sx, sy = crop.shape[1] / (box[2] - box[0]), crop.shape[0] / (box[3] - box[1])
    corners = (quad - np.float32(box[:2])) * np.float32([sx, sy])
    width = _width(corners)
    if width > widest:
        w, h = max(1, round(crop.shape[1] * widest / width)), \
            max(1, round(crop.shape[0] * widest / width))
        corners = corners * np.float32([w / crop.shape[1], h / crop.shape[0]])
        crop = cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA)
    return crop, corners, sx, box


def _cut(quad: np.ndarray, size: tuple[int, int]) -> bool:
    """The outline reaches the frame's border (`EDGE_PX`): the edge cuts the card, and
    what shows is not its whole face. Named from it the card could be another; asked
    about, the answer would teach a cut picture as its face; and a stickered card lying
    so has its sticker cut too (the evening's cards laid at the top edge, issue 71)."""
    return bool(quad[:, 0].min() < EDGE_PX or quad[:, 1].min() < EDGE_PX
                or quad[:, 0].max() > size[0] - 1 - EDGE_PX
                or quad[:, 1].max() > size[1] - 1 - EDGE_PX)


def _card_sized(quad: np.ndarray, mm_per_px: float) -> bool:
    long_side = max(float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4))
    return CARD_MM[0] <= long_side * mm_per_px <= CARD_MM[1]


class FaceReader:
    """Looks at the faces of cards at rest (see the module's docstring)."""

    def __init__(self, data_dir, judge=None) -> None:
        from companion.wiring.face_judge import FaceJudge

        self.data_dir = data_dir
        self._lock = locks.lock("camera faces")
        # the face books and their too-alike judgement, made on the judge's own thread:
        # a card of a book not yet judged at its width is not named, and looked at again
        # when the judgement ends (`judged`)
        self.judge = judge if judge is not None else FaceJudge(data_dir)
        self.judge.listen(self.judged)
        self._lying: dict[str, tuple[str, int]] = {}  # zone -> (card id, rotation)
        self._unknown: dict[str, Unknown] = {}  # zone -> the card asked about
        # counts each change of the zones asked about (under ``_lock``): the camera wiring
        # announces it (the TV asks "Which card is this?"), a look naming nothing says so
        self.asked_changes = 0
        self._game: str | None = None
        # () -> the dice tray in board mm, or None: what lies there is a die, not a card
        # (and the card being taught on the deck page); set by `use_tray`
        self._tray = lambda: None
        self._armed = False  # the camera thread's own (like ``_calm``, ``_looked``, ``_waiting``)
        self._relook = False  # told by an HTTP thread (under ``_lock``)
        self._calm = 0
        self._looked: np.ndarray | None = None  # the thumbnail of the last look
        # the table as seen at the last look that found nothing card-like: `find_cards`
        # traces what changed against it first (a card on a busy printed board)
        self._empty: np.ndarray | None = None
        self.looks = 0  # how many times it looked (a still table adds none)
        self.skipped = 0  # looks left out: only stickered cards had changed (`_stickers_only`)
        self.waited = 0  # still frames a look waited for a hand to leave (`_at_edge`)
        # (centre, side) of the stickers read at the last look, and the image centres of
        # the cards known by face or asked about then: what a change is judged against
        self._stickers: list[tuple[tuple[float, float], float]] = []
        self._bare: list[tuple[float, float]] = []
        # the cards asked about at the last look: (image centre, outline, zone)
        self._asked: list[tuple[tuple[float, float], np.ndarray, str]] = []
        # every card known by face or asked about at the last look, the same way: what a
        # look that traces only near what changed (`_near`) keeps of the last one
        self._seen: list[tuple[tuple[float, float], np.ndarray, str]] = []
        self._must_look = True  # a new game, or a face taught or forgotten: look whatever
        self._size = (0, 0)  # the frames' (width, height)
        # a second look awaited: (the crop box asked for each still frame, frame size)
        self._waiting: tuple | None = None
        self._second = False  # this change already had its second look (or is having it)
        # still frames the coming look has waited for a hand to leave (`HAND_WAIT`), over
        # every change since the last look: a change at the edge that stays (dice thrown in
        # a tray by the edge) while the table moves again within the wait is not waited for
        # again and again (the demo's loop changes every second)
        self._edge_wait = 0

    # ---- the camera thread ---------------------------------------------------------
    def look(self, game: str | None, image: np.ndarray, result, calibration, zones,
             source=None) -> list[FaceSeen]:
        """What changed among the cards known by face, once the table came to rest;
        ``source`` the frame source (its `sharp_crop`, `sharp_scale`), None: the frame only."""
        if game is None:
            return []
        self._size = (image.shape[1], image.shape[0])
        with self._lock:
            if self._relook:  # a face taught or forgotten since: look again once still
                self._relook, self._armed, self._calm = False, True, 0
                self._waiting, self._second, self._edge_wait = None, False, 0
                self._must_look = True
        if result.mode != "skip":
            if result.mode == "full" and (not self._armed or self._waiting is not None) and \
                    self._looked is not None and \
                    float(np.abs(_thumb(image) - self._looked).max()) < THUMB_CHANGE:
                return []  # the safety net's whole-frame decode of a table still as it was
            self._armed, self._calm = True, 0
            self._waiting, self._second = None, False
            return []
        if not self._armed:
            return []
        self._calm += 1
        if self._waiting is not None and not self._sharp_now(source) and \
                self._calm < SHARP_WAIT:
            return []  # the sharper crop asked for again: not there yet
        if self._calm < REST_FRAMES:
            return []
        thumb = _thumb(image)
        stickers = _stickers(result)
        if not self._second and self._stickers_only(thumb, stickers):
            self._armed, self._waiting, self._edge_wait = False, None, 0
            self._looked, self._stickers = thumb, stickers
            self._sticker_read_on_asked(stickers)
            self.skipped += 1
            return []
        if not self._second and self._edge_wait < HAND_WAIT and self._at_edge(thumb):
            self.waited += 1  # a hand still in view: looked at once it left (a change)
            self._edge_wait += 1
            return []
        self._armed, self._waiting, self._edge_wait = False, None, 0
        near = self._near(game, thumb)
        self._looked, self._stickers, self._must_look = thumb, stickers, False
        return self._recognise(game, image, result, calibration, zones, source, near)

    def _near(self, game: str, thumb: np.ndarray) -> list | None:
        """Where this look traces outlines: round each thumbnail cell changed since the
        last look (`NEAR_CELLS`), in frame px; a card lying further off is as that look
        said, not traced nor named again (find_cards is ~0.1 s of CPU; issue 71). None (the
        whole frame): the first look, a new game, a face taught or forgotten, a second look."""
        with self._lock:
            same_game = game == self._game
        if self._must_look or self._second or not same_game or self._looked is None or \
                self._looked.shape != thumb.shape:
            return None
        cell = (self._size[0] / THUMB[0], self._size[1] / THUMB[1])
        return [((col - NEAR_CELLS) * cell[0], (row - NEAR_CELLS) * cell[1],
                 (col + 1 + NEAR_CELLS) * cell[0], (row + 1 + NEAR_CELLS) * cell[1])
                for row, col in np.argwhere(np.abs(thumb - self._looked) >= CELL_CHANGE)]

    def _at_edge(self, thumb: np.ndarray) -> bool:
        """What changed since the last look reaches the picture's edge (`EDGE_CHANGE` in a
        thumbnail cell of its border): an arm over the table, the hand that laid or took a
        card still in view (or a card laid at the edge: looked at `HAND_WAIT` later)."""
        if self._must_look or self._looked is None or self._looked.shape != thumb.shape:
            return False
        changed = np.abs(thumb - self._looked) >= EDGE_CHANGE
        return bool(changed[0].any() or changed[-1].any() or changed[:, 0].any() or
                    changed[:, -1].any())

    def _stickers_only(self, thumb: np.ndarray, stickers: list) -> bool:
        """Only stickered cards changed since the last look: every thumbnail cell that
        changed lies within `BEYOND_CARD` sticker sides of a sticker read now or then
        (no part of its card lies further), and no card known by face or asked about lies
        that near a changed cell (a stickered card laid over it). Nothing bare can have
        come, gone or turned: the look would say what it said."""
        from hardware.camera.presence import BEYOND_CARD

        if self._must_look or self._looked is None or self._looked.shape != thumb.shape:
            return False
        changed = np.argwhere(np.abs(thumb - self._looked) >= CELL_CHANGE)
        if not len(changed):
            return True
        cell = (self._size[0] / THUMB[0], self._size[1] / THUMB[1])
        known = stickers + self._stickers
        claimed = {centre for centre, _, _ in self._claimed(stickers)}
        bare = [b for b in self._bare if b not in claimed]
        for row, col in changed:
            x, y = (col + 0.5) * cell[0], (row + 0.5) * cell[1]
            reach = [BEYOND_CARD * side for (cx, cy), side in known
                     if np.hypot(x - cx, y - cy) <= BEYOND_CARD * side]
            if not reach or any(np.hypot(x - bx, y - by) <= max(reach) for bx, by in bare):
                return False
        return True

    def _claimed(self, stickers: list) -> list:
        """The cards asked about at the last look whose outline now holds a sticker read in
        this frame: a stickered card whose sticker was not read then (a glare, a blur; it
        turned into view since) or one laid over it. The look would skip that
        outline (a sticker wins) and ask no more: they are not bare any longer."""
        return [(centre, quad, zone) for centre, quad, zone in self._asked
                if any(_inside(c, quad) for c, _ in stickers)]

    def _sticker_read_on_asked(self, stickers: list) -> None:
        """What the look left out would have said of `_claimed` cards: not asked about."""
        claimed = self._claimed(stickers)
        if not claimed:
            return
        centres = {centre for centre, _, _ in claimed}
        self._bare = [b for b in self._bare if b not in centres]
        self._asked = [a for a in self._asked if a[0] not in centres]
        with self._lock:
            for zone in {zone for _, _, zone in claimed} - {a[2] for a in self._asked}:
                if self._unknown.pop(zone, None) is not None:
                    self.asked_changes += 1

    def _sharp_now(self, source) -> bool:
        """Asks for the awaited crop again (keeping the sharper stream wanted): sharp yet?"""
        box, size = self._waiting
        crop = source.sharp_crop(box, size) if source is not None else None
        if crop is None or crop.size == 0:
            return False
        return crop.shape[1] / (box[2] - box[0]) >= SHARP_ENOUGH * source.sharp_scale()

    def _book(self, game: str) -> tuple:
        return self.judge.book(game)

    def _recognise(self, game: str, image, result, calibration, zones, source=None,
                   near: list | None = None) -> list[FaceSeen]:
        from companion.box.taught_cards import READ_CARD_PX, straighten
        from hardware.camera.card_faces import identify
        from hardware.camera.card_finding import find_cards, meets

        book, cards = self._book(game)
        with self._lock:
            where_tray = self._tray
        tray = where_tray()
        if not cards or not calibration.from_marker:
            return []
        self.looks += 1
        stickers = [d.centre for d in result.detections]
        now: dict[str, tuple[str, int]] = {}
        unknown: dict[str, Unknown] = {}
        empty = self._empty if self._empty is not None and \
            self._empty.shape == image.shape else None
        outlines = find_cards(image, empty=empty, near=near)
        bare: list[tuple[float, float]] = []  # card-sized, no sticker on: known or asked
        asked: list[tuple[tuple[float, float], np.ndarray, str]] = []
        seen_now: list[tuple[tuple[float, float], np.ndarray, str]] = []
        if near is not None:  # the cards away from what changed: as the last look said
            with self._lock:
                for centre, quad, zone in self._seen:
                    if meets(cv2.boundingRect(quad), near) or any(
                            _inside(c, quad) for c in stickers):
                        continue
                    if zone in self._lying:
                        now[zone] = self._lying[zone]
                    elif zone in self._unknown:
                        unknown[zone] = self._unknown[zone]
                        asked.append((centre, quad, zone))
                    bare.append(centre)
                    seen_now.append((centre, quad, zone))
        better = source.sharp_scale() if source is not None else 1.0
        widest = READ_CARD_PX  # one width for every sharp crop (too_alike judged once)
        wait = None  # the box of a card to look at again once the crop is sharper
        unjudged: list[str] = []  # zones of cards not named: their book not judged yet
        size = (image.shape[1], image.shape[0])
        for corners in outlines:
            quad = np.asarray(corners, np.float32).reshape(4, 2)
            if any(_inside(c, quad) for c in stickers):
                continue  # a sticker is read on it: the sticker wins
            if _cut(quad, size):
                continue  # not its whole face: neither named nor asked about
            centre = tuple(float(v) for v in quad.mean(axis=0))
            at = calibration.to_board(centre)
            zone = zones.zone_at(at)
            if zone is None or zone in now or _in(at, tray) or not _card_sized(
                    quad, calibration.mm_per_px(centre)):
                continue
            bare.append(centre)
            seen_now.append((centre, quad, zone))
            if self._second:  # the second look: from the sharper stream
                picture, inside, scale, box = _sharp(image, quad, source, widest)
            else:  # the frame first: asking the sharper stream restarts the Pi's camera
                picture, inside, scale, box = image, quad, 1.0, _crop_box(quad, size)
            seen = identify(picture, inside, book, judged_only=True) \
                if book is not None else None
            if seen is not None and seen.unjudged_px:  # asked of the judge
                if self.judge.judged(book, seen.unjudged_px):  # judged at once (inline)
                    seen = identify(picture, inside, book, judged_only=True)
                else:  # looked at again when it ends: neither named nor asked about till then
                    unjudged.append(zone)
                    continue
            if seen is None or seen.id is None or seen.id not in cards:
                if better >= SHARPER and scale < SHARP_ENOUGH * better and not self._second:
                    wait = box  # not sharp yet: not asked before a sharper look
                unknown[zone] = Unknown(zone, straighten(picture, inside))
                asked.append((centre, quad, zone))
                continue
            if not seen.turn_known:  # a face's turn is the game's: never told as a guess
                log.info("camera faces: %s in %s, its turn not known", seen.id, zone)
                continue
            angle = calibration.board_angle(float(seen.turn), centre)
            now[zone] = (seen.id, round(angle / 90.0) % 4)
        if wait is not None:  # look again once the source's crop is sharper (bounded)
            self._waiting = (wait, (image.shape[1], image.shape[0]))
            self._armed, self._calm, self._second = True, 0, True
            return []
        self._bare, self._asked, self._seen = bare, asked, seen_now
        with self._lock:  # where a card lies not judged yet, what lay there is kept as it
            # was (told neither removed nor new) till the judgement's end looks again
            for zone in unjudged:
                if game == self._game and zone in self._lying:
                    now[zone] = self._lying[zone]
        if not outlines and near is None:  # nothing card-like: the table as it is when empty
            self._empty = image
        out = []
        with self._lock:
            if game != self._game:
                self._game, self._lying = game, {}
            before, self._lying = self._lying, now
            asked_before = self._unknown.keys()
            self._unknown = {z: u for z, u in list(unknown.items())[:UNKNOWN_KEPT]}
            if self._unknown.keys() != asked_before:
                self.asked_changes += 1
        for zone, (card, rotation) in before.items():
            if now.get(zone, (None,))[0] != card:
                out.append(FaceSeen(cards[card].word, card, zone, rotation, "removed"))
        for zone, (card, rotation) in now.items():
            was = before.get(zone)
            if was is None or was[0] != card:
                out.append(FaceSeen(cards[card].word, card, zone, rotation, "appeared"))
            elif was[1] != rotation:
                out.append(FaceSeen(cards[card].word, card, zone, rotation, "turned"))
        return out

    # ---- the HTTP threads ----------------------------------------------------------
    def catalog_changed(self, game: str) -> None:
        """A face taught or forgotten on the deck page: the book is made again, and the
        table looked at again at its next still frames."""
        self.judge.changed(game)
        with self._lock:
            self._relook = True

    def judged(self) -> None:
        """A too-alike judgement ended (the judge's thread): the table is looked at again
        at its next still frames, the cards it could not name yet named now."""
        with self._lock:
            self._relook = True

    def unknown(self) -> list[str]:
        """The zones where a card lies that the camera does not know (asked on the TV)."""
        with self._lock:
            return sorted(self._unknown)

    def take_unknown(self, zone: str) -> Unknown | None:
        """The unknown card of ``zone``, no longer asked about (the answer teaches it)."""
        with self._lock:
            asked = self._unknown.pop(zone, None)
            self.asked_changes += asked is not None
            return asked

    def use_tray(self, tray) -> None:
        """``tray() -> (x0, y0, x1, y1) mm | None``: where no card is looked for."""
        with self._lock:
            self._tray = tray

    def put_back(self, asked: Unknown) -> None:
        """An answer refused: the card is asked about again."""
        with self._lock:
            self.asked_changes += asked.zone not in self._unknown
            self._unknown.setdefault(asked.zone, asked)

    def clear(self) -> None:
        """Another game at the table: every card lying there is told to it anew."""
        with self._lock:
            self.asked_changes += bool(self._unknown)
            self._lying, self._unknown, self._game = {}, {}, None
            self._relook = True

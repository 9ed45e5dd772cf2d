"""Cards read from the source's sharper stream (issue 49; companion/wiring/camera_faces.py):
the real FaceBook of taught pictures (the drawn game deck of hardware/synthetic/
card_faces_scene.py, card01 and card02 apart only by the digit in a small disc), a table
rendered at twice the frame's resolution by the synthetic camera, the frame its downscale,
and a frame source as the Pi's whose `sharp_crop` cuts from the sharp render. A card laid
about 90 px wide in the frame is read from its 180 px crop; from the frame alone the pair is
too alike and the card is asked about. The full stream starts only when asked: a card not
known on a crop no sharper than the frame is looked at again, once, not asked at once."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.box import taught_cards
from companion.box.catalog import load_catalog
from companion.wiring.demo_faces import paste
from companion.wiring.face_judge import FaceJudge
from hardware.camera.source_base import FrameSource
from tests.companion.test_card_faces import judged_faces

pytestmark = pytest.mark.heavy  # minutes of synthetic frames (make test313 leaves it out)
USUAL = (1280, 720)
CARD_PX = 90  # the card's width in the frame (flat table px, about the same in the view)


class Sharper(FrameSource):
    """A source as the Pi's (hardware/camera/rpicam.py): `sharp_crop` from a stream twice
    as sharp as the frames (``sharp``), but only from its ``slow`` + 1st answer on (the full
    stream starting: before, the usual resolution), or ``never``."""

    def __init__(self, slow: int = 0, never: bool = False, scale: float = 2.0) -> None:
        self.sharp: np.ndarray | None = None
        self.slow, self.never, self.asked, self.scale = slow, never, 0, scale

    def sharp_scale(self) -> float:
        return self.scale

    def sharp_crop(self, box, size):
        self.asked += 1
        x0, y0, x1, y1 = box
        if self.never or self.asked <= self.slow:
            usual = cv2.resize(self.sharp, size, interpolation=cv2.INTER_AREA)
            return usual[y0:y1, x0:x1].copy()
        crop = self.sharp[2 * y0:2 * y1, 2 * x0:2 * x1].copy()
        if self.scale == 2.0:
            return crop
        size = (round((x1 - x0) * self.scale), round((y1 - y0) * self.scale))
        return cv2.resize(crop, size, interpolation=cv2.INTER_CUBIC)  # more pixels, no detail


class Laid:
    """A card face up on the table, ``width`` flat px wide (drawn by the synthetic camera)."""

    def __init__(self, picture: np.ndarray, x: float, y: float, width: float) -> None:
        self.picture, self.x, self.y, self.width = picture, x, y, width

    def draw(self, canvas, scale, owner) -> None:
        height = self.width * self.picture.shape[0] / self.picture.shape[1]
        paste(canvas, self.picture, self.x * scale, self.y * scale, 3.0,
              (self.width * scale, height * scale))


class Table:
    """The synthetic camera at twice the frame's resolution over a table with the board
    marker, and a real `Recognizer` with World Without End's zones."""

    def __init__(self, source: Sharper | None) -> None:
        from engine.wwe.bindings import ZONES
        from hardware.camera.recognizer import Recognizer
        from hardware.camera.zones import ZoneMap, rects
        from hardware.synthetic.scene import Camera, Placement, Style
        from hardware.synthetic.video import MARKER_AT
        from hardware.tags.format import BOARD_MARKER

        self.camera = Camera.create(5, Style(scale=2.0))
        self.marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
        self.recognizer = Recognizer(zones=ZoneMap(rects((z.id, z.rect) for z in ZONES)))
        self.source, self.seed = source, 0

    def lay(self, cards=()) -> np.ndarray:
        """The frame of this scene (the sharp render downscaled); the source cuts from the
        sharp one."""
        self.seed += 1
        sharp, _ = self.camera.render([self.marker], seed=self.seed, hands=list(cards))
        if self.source is not None:
            self.source.sharp = sharp
        return cv2.resize(sharp, USUAL, interpolation=cv2.INTER_AREA)

    def still(self, reader, image, frames: int) -> list:
        said = []
        for _ in range(frames):
            said += reader.look("wwe", image, self.recognizer.process(image),
                                self.recognizer.calibration, self.recognizer.zones,
                                self.source)
        return said


@pytest.fixture(scope="module")
def deck():
    from hardware.synthetic import card_faces_scene as scenes

    faces = scenes.game_faces()
    return {k: scenes.printed(faces[k])[..., :3].copy() for k in sorted(faces)[:6]}


@pytest.fixture(scope="module")
def taught(tmp_path_factory, deck):
    """World Without End's first event cards taught as the drawn deck's card00..card05."""
    from companion.game import games

    catalog = load_catalog("wwe")
    events = [e["id"] for e in catalog["event_cards"]]
    data = tmp_path_factory.mktemp("sharp")
    info = games.module_of("wwe").info
    ids = {}
    for event, (name, picture) in zip(events, deck.items(), strict=False):
        taught_cards.save_face("wwe", data, info, catalog, event, picture)
        ids[name] = event
    return data, ids


def card02(deck, width: float = CARD_PX) -> Laid:
    from hardware.synthetic.video import board_to_table

    return Laid(deck["card02"], *board_to_table(0, 60), width)  # the council space


def read_card02(taught, deck, source):
    """What the reader says of card02 laid ~90 px wide, and what it asks about."""
    from companion.wiring.camera_faces import FaceReader

    data, _ = taught
    reader = FaceReader(data, FaceJudge(data, inline=True))
    table = Table(source)
    table.still(reader, table.lay(), 5)  # the empty table
    said = table.still(reader, table.lay([card02(deck)]), 25)
    return [(s.card, s.zone, s.change) for s in said], reader.unknown()


def test_a_card_apart_by_a_digit_is_named_from_the_sharp_crop_and_asked_without(
        taught, deck, monkeypatch):
    """card02 laid 90 px wide: named right from the source's crop twice as sharp; from the
    frame alone (no such source) the pair is too alike there and the card is asked about.
    With the crop ignored (the planted fault: the card identified on the frame) it is
    asked about from the sharp source too."""
    from companion.wiring import camera_faces

    _, ids = taught
    named = ([(ids["card02"], "council", "appeared")], [])
    assert read_card02(taught, deck, Sharper()) == named
    assert read_card02(taught, deck, None) == ([], ["council"])
    real = camera_faces._sharp

    def frame_only(image, quad, source, widest):
        _, _, _, box = real(image, quad, source, widest)
        return image, quad, 1.0, box

    monkeypatch.setattr(camera_faces, "_sharp", frame_only)
    assert read_card02(taught, deck, Sharper()) == ([], ["council"])


def test_a_crop_wider_than_the_recogniser_straightens_is_brought_down(taught, deck,
                                                                        monkeypatch):
    """A source four times sharper (the Pi's full stream is 3.6 times the frame): the card,
    360 px wide in its crop, is handed to the recogniser 240 px wide (`READ_CARD_PX`: the
    width it was measured at, one width step for every card, its twins' judgement made
    once; it takes seconds on a Pi) and named right. Handed over as cropped (the planted
    fault: no bringing down), it is judged at 360 px."""
    from companion.wiring import camera_faces
    from hardware.camera import card_faces

    _, ids = taught
    widths = []
    real = card_faces.identify

    def spy(picture, corners, book, **kw):
        widths.append(round(camera_faces._width(np.float32(corners).reshape(4, 2))))
        return real(picture, corners, book, **kw)

    monkeypatch.setattr(card_faces, "identify", spy)
    said = read_card02(taught, deck, Sharper(scale=4.0))
    assert said == ([(ids["card02"], "council", "appeared")], [])
    assert widths and max(widths) == taught_cards.READ_CARD_PX == 240
    real_sharp = camera_faces._sharp
    monkeypatch.setattr(camera_faces, "_sharp", lambda image, quad, source, widest:
                        real_sharp(image, quad, source))
    widths.clear()
    read_card02(taught, deck, Sharper(scale=4.0))
    assert max(widths) > 340


def test_a_crop_not_sharp_yet_is_looked_at_again_not_asked(taught, deck):
    """The first look is at the frame (no crop asked: no restart of the Pi's camera); the
    card is not asked about then. The reader asks for the crop over the next still frames
    (the full stream starting: its first crop at the frame's resolution) and looks once
    more when it is sharp: named. Then a still table costs nothing (no look, no crop)."""
    from companion.wiring.camera_faces import REST_FRAMES, FaceReader

    data, ids = taught
    reader = FaceReader(data, FaceJudge(data, inline=True))
    source = Sharper(slow=1)
    table = Table(source)
    table.still(reader, table.lay(), 5)
    image = table.lay([card02(deck)])
    assert table.still(reader, image, 1 + REST_FRAMES) == []  # the change, then rest
    assert (reader.looks, source.asked, reader.unknown()) == (2, 0, [])  # not asked yet
    said = table.still(reader, image, REST_FRAMES)
    assert [(s.card, s.change) for s in said] == [(ids["card02"], "appeared")]
    assert reader.looks == 3 and reader.unknown() == []
    asked = source.asked
    assert table.still(reader, image, 40) == []
    assert (reader.looks, source.asked) == (3, asked)


def test_a_card_the_frame_names_asks_no_sharp_crop(taught, deck, monkeypatch):
    """card00 laid 130 px wide (apart from every taught face by more than a digit): named
    from the frame, and the sharper stream never asked for (on a Pi each ask restarts the
    camera twice: to the full stream and back). The planted fault, every look from the
    sharp crop, asks for it."""
    from companion.wiring import camera_faces
    from hardware.synthetic.video import board_to_table

    data, ids = taught

    def read(source):
        reader = camera_faces.FaceReader(data, FaceJudge(data, inline=True))
        table = Table(source)
        table.still(reader, table.lay(), 5)
        laid = Laid(deck["card00"], *board_to_table(0, 60), 130)
        said = table.still(reader, table.lay([laid]), 25)
        return [(s.card, s.change) for s in said], source.asked

    assert read(Sharper()) == ([(ids["card00"], "appeared")], 0)
    monkeypatch.setattr(camera_faces.FaceReader, "_second", property(lambda self: True,
                                                                     lambda self, v: None),
                        raising=False)
    said, asked = read(Sharper())
    assert said == [(ids["card00"], "appeared")] and asked > 0


def test_a_source_that_never_gets_sharper_ends_in_one_question(taught, deck):
    """A source that could be sharper but never is: one second look after `SHARP_WAIT`
    still frames, then the card is asked about, once; no loop of looks or crops."""
    from companion.wiring.camera_faces import REST_FRAMES, SHARP_WAIT, FaceReader

    data, _ = taught
    reader = FaceReader(data, FaceJudge(data, inline=True))
    source = Sharper(never=True)
    table = Table(source)
    table.still(reader, table.lay(), 5)
    image = table.lay([card02(deck)])
    table.still(reader, image, 1 + REST_FRAMES)
    assert (reader.looks, reader.unknown()) == (2, [])
    table.still(reader, image, SHARP_WAIT - 1)
    assert (reader.looks, reader.unknown()) == (2, [])
    table.still(reader, image, 1)
    assert (reader.looks, reader.unknown()) == (3, ["council"])
    asked = source.asked
    assert table.still(reader, image, 60) == []
    assert (reader.looks, source.asked, reader.unknown()) == (3, asked, ["council"])


def test_the_deck_page_judges_the_taught_cards_at_the_width_the_camera_crops(
        games_app, taught, tmp_path, monkeypatch):
    """The deck page's too-alike list: at the usual frame's 120 px without a camera (the
    digit pair card01/card02 told apart there since session 89's part of a pixel); with a
    camera whose source crops cards more sharply (here a folder of frames said to have such
    a stream), at the width the reader reads them: 7/6 times sharper, 140 px, where the
    pair judged with the 112 px pattern (``SUBTLE_SHARE`` held at ``FINE_SHARE`` here, as
    before session 92: a width where the answer differs from 120 px's; with the 128 px
    pattern the pair is told apart at 140 too) still needs a sticker; 1.25 times, 150 px;
    twice or 3.6 times (the Pi's), 240 px (`READ_CARD_PX`, where wider cards are brought
    down to): told apart there. The running camera hands its source to the face reader (a
    wiring that does not: no sharp crop)."""
    import shutil

    from companion import context
    from companion.server.settings import resolve
    from companion.wiring import camera as wiring
    from hardware.camera import card_faces
    from hardware.camera.sources import FolderSource

    monkeypatch.setattr(card_faces, "SUBTLE_SHARE", card_faces.FINE_SHARE)
    source_data, ids = taught
    data = games_app.config["DATA_DIR"]
    shutil.copytree(source_data / "catalogs", f"{data}/catalogs", dirs_exist_ok=True)
    client = games_app.test_client()
    service = context.of(games_app).service
    live = service.create("wwe", {"players": [{"seat": "N", "name": "Ala"},
                                              {"seat": "E", "name": "Bruno"}]}, "1234")
    headers = {"Authorization": f"Bearer {service.access.new_host_token(live.id)}"}
    pair = sorted([ids["card01"], ids["card02"]])

    def judged():
        got = judged_faces(client, f"/host/{live.id}/deck/faces.json?game=wwe",
                           headers=headers)  # judged on the app's own thread
        assert got["ok"] and got["taught"] == 6, got
        return got["card_px"], pair in got["alike"]

    assert judged() == (120, False)
    scale = 140 / 120
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "000.png"), Table(None).lay())
    monkeypatch.setattr(FolderSource, "sharp_scale", lambda self: scale)
    from companion.wiring.camera_faces import FaceReader
    from tests.waiting import PATIENCE, wait_for

    handed = []
    real_look = FaceReader.look
    monkeypatch.setattr(FaceReader, "look", lambda self, *a: handed.append(a[-1]) or
                        real_look(self, *a))
    manager = context.of(games_app).hardware
    camera = manager.camera = wiring.start(
        resolve({"DATA_DIR": data, "CAMERA_SOURCE": f"folder:{frames}"}), service,
        manager.changed)
    try:
        assert judged() == (140, True)
        scale = 1.25
        assert judged() == (150, False)
        scale = 2.0
        assert judged() == (240, False)
        scale = 3.6  # the Camera Module 3's
        assert judged() == (240, False)
        assert wait_for(lambda: handed, PATIENCE, what="the camera's faces looking")
        assert handed[-1] is camera.camera.capture.source
    finally:
        camera.stop()

"""The too-alike verdicts kept on disk per face book (hardware/camera/card_faces.py,
``FaceBook(verdicts=...)``; issue 63): a fresh book of the same pictures, constants and code
reuses them without judging again; a changed picture or constant, or a corrupt file, is
judged again (never trusted) and the file written over."""
import json

import pytest

from hardware.camera import card_faces
from hardware.camera.card_faces import FaceBook
from hardware.synthetic import card_faces_scene as scenes

WIDTH = 100.0  # px: one width step, about 1 s of judging for these faces here (the digit
# pair is too alike at 100 px, a verdict worth keeping; at 120 px told apart, session 89)
IDS = ("card01", "card02", "card04", "card05", "card13")  # a digit pair, a title-colour pair


@pytest.fixture(scope="module")
def faces():
    every = scenes.game_faces()
    return {face: every[face] for face in IDS}


@pytest.fixture
def counted(monkeypatch):
    """The number of judgements (``FaceBook._check`` calls) made since."""
    calls = []
    check = FaceBook._check

    def counting(self, card_px):
        calls.append(card_px)
        return check(self, card_px)

    monkeypatch.setattr(FaceBook, "_check", counting)
    return calls


def test_a_fresh_book_of_the_same_faces_reuses_the_kept_verdict(faces, tmp_path, counted):
    path = tmp_path / "faces" / "too_alike.json"
    first = FaceBook(faces, path)
    pairs, turns = first.too_alike(WIDTH), first.turn_alike(WIDTH)
    assert len(counted) == 1 and path.is_file()
    assert ("card01", "card02") in pairs  # a digit pair at 100 px: a verdict worth keeping
    again = FaceBook(faces, path)  # as a fresh process makes it
    assert again.too_alike(WIDTH) == pairs and again.turn_alike(WIDTH) == turns
    assert again.alike_at(WIDTH) == first.alike_at(WIDTH)
    assert len(counted) == 1, "the kept verdict was judged again"
    fresh = FaceBook(faces, path)  # the camera asks first whether it may name (judged_only)
    assert fresh.judged_at(WIDTH) and not fresh.judged_at(WIDTH + 40)
    assert len(counted) == 1
    assert not list(path.parent.glob("*.tmp"))  # written atomically, nothing left behind
    # another width is judged and kept beside the first
    again.too_alike(WIDTH + 40)
    assert len(counted) == 2
    assert sorted(json.loads(path.read_text())["steps"]) == ["5", "7"]
    FaceBook(faces, path).too_alike(WIDTH + 40)
    assert len(counted) == 2


def test_the_faces_fills_at_a_width_are_kept_too(faces, tmp_path, monkeypatch):
    """``fills_at`` (0.4 s a width step for 81 faces, the rest of a fresh 12 MP look) is
    kept in the same file: a fresh book reads it back, the same values, no fill read."""
    path = tmp_path / "too_alike.json"
    fills = FaceBook(faces, path).fills_at(288)
    assert any(f is not None for f in fills)
    fresh = FaceBook(faces, path)
    read = []
    printed = card_faces._printed  # the fill and shape area of a card, read together
    monkeypatch.setattr(card_faces, "_printed", lambda card: read.append(1) or printed(card))
    assert fresh.fills_at(288) == fills
    assert not read
    assert fresh.fills_at(200) is not None and len(read) == len(faces)  # another width


def test_the_faces_alike_turned_half_round_are_kept_too(faces, tmp_path, monkeypatch):
    path = tmp_path / "too_alike.json"
    symmetric = FaceBook(faces, path).symmetric
    monkeypatch.setattr(FaceBook, "_symmetric", lambda self: pytest.fail("made again"))
    assert FaceBook(faces, path).symmetric == symmetric


def test_a_changed_picture_is_judged_again(faces, tmp_path, counted):
    path = tmp_path / "too_alike.json"
    FaceBook(faces, path).too_alike(WIDTH)
    changed = dict(faces)
    changed["card04"] = faces["card04"].copy()
    changed["card04"][10, 10] ^= 1  # one pixel, one level
    FaceBook(changed, path).too_alike(WIDTH)
    assert len(counted) == 2
    FaceBook(changed, path).too_alike(WIDTH)  # and that verdict is the one kept now
    assert len(counted) == 2
    fewer = {k: v for k, v in faces.items() if k != "card13"}  # a face forgotten
    FaceBook(fewer, path).too_alike(WIDTH)
    assert len(counted) == 3


@pytest.mark.parametrize("constant, value", [("ALIKE_SAFETY", 2.5), ("MIN_SCORE", 0.6),
                                             ("SEEN_SHIFTS", (0.0, 1.0))])
def test_a_changed_constant_is_judged_again(faces, tmp_path, counted, monkeypatch, constant,
                                            value):
    """Planted fault: ``verdicts_key`` without ``judgement_constants`` (the code's hash
    alone does not change when a constant is set at run time, as here or by a tuning
    script): the verdict judged with ALIKE_SAFETY 2 was served for 2.5 and this failed."""
    path = tmp_path / "too_alike.json"
    FaceBook(faces, path).too_alike(WIDTH)
    monkeypatch.setattr(card_faces, constant, value)
    FaceBook(faces, path).too_alike(WIDTH)
    assert len(counted) == 2


@pytest.mark.parametrize("damage", ["garbage", "truncated", "edited", "unknown face",
                                    "not a dict"])
def test_a_corrupt_file_is_judged_again_and_written_over(faces, tmp_path, counted, damage):
    path = tmp_path / "too_alike.json"
    book = FaceBook(faces, path)
    pairs = book.too_alike(WIDTH)
    text = path.read_text()
    data = json.loads(text)
    kept_sum = data["sum"]
    if damage == "garbage":
        path.write_bytes(b"\x00\xff not json")
    elif damage == "truncated":
        path.write_text(text[: len(text) // 2])
    elif damage == "edited":  # valid JSON, the key still this book's: the sum catches it
        data["steps"]["5"]["pairs"] = []
        path.write_text(json.dumps(data))
    elif damage == "unknown face":  # the sum made again over a face this book lacks
        data["steps"]["5"]["pairs"] = [["card01", "card99"]]
        data["sum"] = card_faces._verdicts_sum(data["key"], data["steps"], data["fills"],
                                              data["symmetric"])
        path.write_text(json.dumps(data))
    else:
        path.write_text("[1, 2, 3]")
    fresh = FaceBook(faces, path)
    assert fresh.too_alike(WIDTH) == pairs
    assert len(counted) == 2
    assert json.loads(path.read_text())["sum"] == kept_sum  # the verdict judged again
    FaceBook(faces, path).too_alike(WIDTH)  # the file written over holds again
    assert len(counted) == 2


def test_an_unwritable_place_still_judges_and_answers(faces, tmp_path, counted):
    blocker = tmp_path / "file"
    blocker.write_text("")
    book = FaceBook(faces, blocker / "too_alike.json")  # its folder is a file
    assert ("card01", "card02") in book.too_alike(WIDTH)
    assert book.alike_at(WIDTH) and len(counted) == 1


def test_the_app_keeps_the_verdicts_beside_the_taught_faces(tmp_path):
    from companion.box import taught_cards

    path = taught_cards.verdicts_path("wwe", tmp_path)
    assert path.parent == taught_cards.face_path("wwe", tmp_path, "x").parent
    faces = {face: scenes.game_faces()[face] for face in IDS[:2]}
    book = taught_cards.face_book(faces, path)
    assert book.verdicts == path

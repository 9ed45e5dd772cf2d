"""Cards named by their printed face (hardware/camera/card_faces.py): faces taught from
pictures, rendered on tables (hardware/synthetic/card_faces_scene.py) and named by the real
recogniser; a card never taught and twins too alike are refused, never named wrong; each
safety net is shown to matter by planting its fault."""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera import card_faces, card_finding
from hardware.camera.card_faces import FaceBook, identify, recognise
from hardware.synthetic import card_faces_scene as scenes

DECK = Path(os.environ.get("CARDS_PLAYING", scenes.PLAYING_DECK))
ROOT = Path(__file__).resolve().parents[2]
COMPANION = [str(Path(sys.executable).with_name("companion"))]
if not Path(COMPANION[0]).exists():
    COMPANION = [sys.executable, "-c", "from companion.cli import main; main()"]


@pytest.fixture(scope="module")
def game():
    faces = scenes.game_faces()
    return faces, FaceBook.from_pictures(faces)


def tally(faces, book, seeds, family="felt", card_px=140.0, ids=None, found=True):
    """(right, wrong, unknown, turns right, cards) over the scenes of ``seeds``."""
    right = wrong = unknown = turns = cards = 0
    for seed in seeds:
        image, truths = scenes.scene(faces, seed, family, card_px, 4,
                                     ids=None if ids is None else ids(seed))
        sightings = recognise(image, book) if found else [
            identify(image, t.corners, book) for t in truths]
        for truth in truths:
            centre = np.float32(truth.corners).mean(axis=0)
            near = [s for s in sightings
                    if np.linalg.norm(np.float32(s.corners).mean(axis=0) - centre) < card_px / 3]
            cards += 1
            if not near or near[0].id is None:
                unknown += 1
            elif near[0].id == truth.id:
                right += 1
                turns += near[0].turn == truth.turn
            else:
                wrong += 1
    return right, wrong, unknown, turns, cards


def test_drawn_cards_on_tables_are_named_right_or_not_at_all(game):
    faces, book = game
    right, wrong, unknown, turns, cards = tally(faces, book, range(20, 26))
    assert wrong == 0
    distinct = sorted(set(faces) - book.alike_at(140))  # twins too alike are refused: below
    assert len(distinct) >= len(faces) - 6  # of its 8 near-duplicate pairs, 3 at most
    right, wrong, unknown, turns, cards = tally(
        faces, book, range(20, 26),
        ids=lambda s: [str(i) for i in np.random.default_rng(s).choice(distinct, 4, False)])
    assert wrong == 0
    assert right >= 0.85 * cards, (right, unknown, cards)
    assert turns == right  # drawn cards look different upside down: every turn is known


def test_every_quarter_turn_is_given(game):
    faces, book = game
    seen = set()
    for seed in range(40, 46):
        image, truths = scenes.scene(faces, seed, "wood", 140.0, 4)
        for truth in truths:
            sighting = identify(image, truth.corners, book)
            if sighting.id == truth.id:
                assert sighting.turn == truth.turn, (truth, sighting)
                seen.add(truth.turn)
                corners = np.float32(sighting.corners)
                assert np.abs(corners - np.float32(truth.corners)).max() < 1.0  # its own TL first
    assert seen == {0, 90, 180, 270}


def test_a_card_never_taught_is_unknown(game):
    faces, _ = game
    # (a card never taught that differs from a taught one as little as a near-duplicate is
    # taken for it: docs/camera.md says to teach the whole deck; these have no twin)
    hidden = ["card03", "card06", "card12"]
    book = FaceBook.from_pictures({k: v for k, v in faces.items() if k not in hidden})
    for seed in range(3):
        image, truths = scenes.scene(faces, 60 + seed, "board", 140.0, 3, ids=hidden)
        for truth in truths:
            assert identify(image, truth.corners, book).id is None


def test_twins_are_reported_too_alike_and_never_named_wrong():
    faces = scenes.twins()
    book = FaceBook.from_pictures(faces)
    assert ("twin_a", "twin_b") in book.too_alike(120)
    _, wrong, _, _, cards = tally(faces, book, range(5), card_px=120.0,
                                  ids=lambda s: ["twin_a", "twin_b"], found=False)
    assert wrong == 0 and cards == 10


# every near-duplicate of `game_faces`: a number, a title bar's colour or an icon apart
PAIRS = [(f"card{i - 1:02d}", f"card{i:02d}") for i in range(2, 24, 3)]


def test_near_duplicates_are_told_apart_or_reported_too_alike(game):
    faces, book = game
    # these felt scenes lay cards 120-132 px wide: judged at the 120 and 140 px steps (the
    # digit pairs, told apart at 120 px since session 89, at 140 since session 92)
    alike = set(book.too_alike(120)) | set(book.too_alike(140))
    assert alike <= set(PAIRS)  # only real near-duplicates are reported
    for pair in PAIRS:
        right, wrong, _, _, cards = tally(faces, book, range(80, 83), card_px=120.0,
                                          ids=lambda s, pair=pair: list(pair), found=False)
        assert wrong == 0, pair
        if pair not in alike:
            assert right >= cards - 1, (pair, right)


def test_planted_fault_no_minimum_score_names_an_untaught_card(game, monkeypatch):
    faces, _ = game
    book = FaceBook.from_pictures({k: faces[k] for k in ("card00", "card09")})
    image, truths = scenes.scene(faces, 61, "board", 140.0, 1, ids=["card12"])
    assert identify(image, truths[0].corners, book).id is None
    monkeypatch.setattr(card_faces, "MIN_SCORE", -10.0)
    assert identify(image, truths[0].corners, book).id is not None  # the net catches it


def _small_near_duplicates(game):
    faces, book = game
    pairs = [("card01", "card02"), ("card10", "card11")]  # a number apart, cards 80 px wide
    return tally(faces, book, range(8), card_px=80.0, ids=lambda s: list(pairs[s % 2]),
                 found=False)[1]


NO_GUARD = ("alike_at", None)  # twins too alike at the card's width are named after all
NO_MIN_MARGIN = ("MIN_MARGIN", 0.0)  # the best face is always answered at once
NO_FINE_MARGIN = ("FINE_MARGIN", -1.0)  # the fine comparison decides by any leaning ...
NO_FINE_Z = ("FINE_Z", -math.inf)  # ... or by one well within its noise
NO_TWINS = ("twins", None)  # a face with twins is named by the coarse margin alone
NO_INK = ("INK_LEAN", math.inf)  # the card's ink never votes against the winner
NO_SUBPIXEL = ("SUBPIXEL", 0.0)  # the fine comparison by whole pixels (before session 89)


def _plant(monkeypatch, faults):
    for name, value in faults:
        if name == "alike_at":
            monkeypatch.setattr(FaceBook, "alike_at", lambda self, px: frozenset())
        elif name == "twins":
            monkeypatch.setattr(FaceBook, "twins", property(
                lambda self: [np.array([], int)] * len(self.ids), lambda self, v: None),
                raising=False)
        else:
            monkeypatch.setattr(card_faces, name, value)


@pytest.mark.parametrize("faults", [(), (NO_GUARD,), (NO_MIN_MARGIN,), (NO_FINE_MARGIN,),
                                    (NO_GUARD, NO_FINE_MARGIN), (NO_GUARD, NO_FINE_Z)])
def test_small_near_duplicates_are_refused_not_named_wrong(game, monkeypatch, faults):
    """Each net alone holds: the margins without the too-alike guard, the guard without
    the first margin, either test of the fine comparison without the guard."""
    _plant(monkeypatch, faults)
    assert _small_near_duplicates(game) == 0


@pytest.mark.parametrize("faults", [(NO_GUARD, NO_MIN_MARGIN, NO_TWINS, NO_INK),
                                    (NO_GUARD, NO_FINE_MARGIN, NO_FINE_Z, NO_INK, NO_SUBPIXEL)])
def test_planted_fault_without_its_nets_a_wrong_card_is_named(game, monkeypatch, faults):
    # since session 89 the part of a pixel (``SUBPIXEL``) reads the 80 px digits well enough
    # that without the margins no card is named wrong either: the second fault plants it off
    _plant(monkeypatch, faults)
    assert _small_near_duplicates(game) > 0


@pytest.mark.skipif(not DECK.is_dir(), reason="the real deck ../shared/data/cards-playing "
                    "is not beside the repository")
def test_the_real_deck_taught_from_its_pngs_is_named_on_tables():
    faces = scenes.load_faces(DECK)
    book = FaceBook.from_pictures(faces)
    right, wrong, unknown, _, cards = tally(faces, book, range(100, 104), family="wood",
                                            card_px=120.0)
    assert wrong == 0
    assert right >= 0.85 * cards, (right, unknown, cards)
    back = cv2.imread(str(DECK / "back.png"), cv2.IMREAD_UNCHANGED)
    image, truths = scenes.scene({"back": back}, 3, "felt", 120.0, 1, ids=["back"])
    assert identify(image, truths[0].corners, book).id is None  # the back is no face


def _cli(*args):
    return subprocess.run([*COMPANION, "camera", "cards", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_cli_names_cards_in_a_photo_and_refuses_bad_input(tmp_path, game):
    faces, _ = game
    taught = tmp_path / "taught"
    taught.mkdir()
    for name, face in faces.items():
        cv2.imwrite(str(taught / f"{name}.png"), face)
    image, truths = scenes.scene(faces, 21, "wood", 140.0, 3)
    photo = tmp_path / "table.jpg"
    cv2.imwrite(str(photo), image)
    done = _cli("--taught", str(taught), str(photo))
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout.strip().splitlines()[-1])
    assert line["file"] == str(photo)
    named = {(c["id"], c["turn"]) for c in line["cards"]}
    assert named <= {(t.id, t.turn) for t in truths} | {(None, c["turn"]) for c in line["cards"]}
    assert len({c["id"] for c in line["cards"]} - {None}) >= 2
    for card in line["cards"]:
        assert len(card["corners"]) == 4 and 0 <= card["score"] <= 1.0001
        assert card["turn_known"] is (card["id"] is not None)  # drawn faces: none alike

    empty = tmp_path / "empty"
    empty.mkdir()
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "x.png").write_bytes(b"not a picture")
    for args in (("--taught", str(tmp_path / "missing"), str(photo)),
                 ("--taught", str(empty), str(photo)),
                 ("--taught", str(broken), str(photo)),
                 ("--taught", str(taught), str(tmp_path / "nothing.jpg"))):
        done = _cli(*args)
        assert done.returncode != 0, args
        assert "Traceback" not in done.stderr, done.stderr
    assert "no card picture" in _cli("--taught", str(empty), str(photo)).stderr


def test_against_the_empty_table_every_card_on_a_printed_board_is_found(game):
    faces, book = game
    for seed in range(70, 73):
        image, truths, empty = scenes.scene_and_empty(faces, seed, "board", 130.0, 4)
        sightings = recognise(image, book, empty=empty)
        for truth in truths:
            centre = np.float32(truth.corners).mean(axis=0)
            near = [s for s in sightings
                    if np.linalg.norm(np.float32(s.corners).mean(axis=0) - centre) < 40]
            assert near, (seed, truth.id)
            assert near[0].id in (None, truth.id)
            # the outline lies on the card's edge, its own top-left first when named
            if near[0].id is not None:
                error = np.abs(np.float32(near[0].corners) - np.float32(truth.corners)).max()
                assert error < 10, (seed, truth.id, error)  # 8 % of the width


def _point_symmetric(face: np.ndarray) -> np.ndarray:
    """A face whose lower half is its upper half turned half round (as most playing cards)."""
    h = face.shape[0] // 2
    top = face[:h]
    return np.vstack([top, cv2.rotate(top, cv2.ROTATE_180)])


def test_a_face_alike_turned_half_round_says_its_turn_is_not_known(game):
    faces, _ = game
    faces = {**faces, "mirror": _point_symmetric(faces["card00"])}
    book = FaceBook.from_pictures(faces)
    assert book.same_upside_down() == ["mirror"] and "mirror" in book.turn_alike(160)
    told = 0
    for seed in range(3):
        image, truths = scenes.scene(faces, 90 + seed, "wood", 160.0, 3,
                                     ids=["mirror", "card03", "card12"])
        for truth in truths:
            seen = identify(image, truth.corners, book)
            if seen.id != truth.id:
                continue
            told += 1
            if truth.id == "mirror":  # upright or sideways, never which end is up
                assert not seen.turn_known and seen.turn in (0, 90)
                assert (seen.turn - truth.turn) % 180 == 0
            else:
                assert seen.turn_known and seen.turn == truth.turn
    assert told >= 8


@pytest.mark.skipif(not DECK.is_dir(), reason="the real deck ../shared/data/cards-playing "
                    "is not beside the repository")
# two whole-deck too_alike judgements at 160 px (52 faces; the planted fault's book judges
# again, HALF_TURN_ALIKE being in its key): 66 s alone (session 90, load 6-8); beside two
# CPU hogs (load 8) the 300 s of pyproject's pytest-timeout ran out in _check (notes s90/i63
# run40_hog2.txt): the once-failed run of session 90 (load 20)
@pytest.mark.timeout(900)
def test_the_real_deck_never_guesses_a_turn(monkeypatch):
    """The 4 of clubs differs from itself turned half round by a few pixels of drawing:
    guessing its turn from them gives it upside down on these tables (the planted fault),
    cards 160 px wide compared by a 96 px fine pattern (as a card 120-159 px wide is; the
    128 px one of a 160 px card happens to tell these right); known to look alike
    (HALF_TURN_ALIKE), it is said unknown."""
    faces = scenes.load_faces(DECK)
    monkeypatch.setattr(card_faces, "FINE_LEVELS", (card_faces.FINE,))

    def wrong_turns():
        book = FaceBook.from_pictures(faces)
        wrong = 0
        for seed in (5009, 5010):
            image, truths = scenes.scene(faces, seed, "wood", 160.0, 4)
            for truth in truths:
                seen = identify(image, truth.corners, book)
                assert seen.id in (truth.id, None)  # unknown (6 of diamonds: its ink and
                if seen.id is None:  # its twins' since issue 63): no turn to check
                    continue
                if truth.id in book.same_upside_down():
                    assert not seen.turn_known
                wrong += seen.turn_known and seen.turn != truth.turn
        return wrong

    assert wrong_turns() == 0
    monkeypatch.setattr(card_faces, "HALF_TURN_ALIKE", 0.0)
    # and too_alike's own turn check, which since the coarse moves (issue 63 stop 77)
    # finds the 4 of clubs named back upside down at 160 px and says its turn unknown too
    monkeypatch.setattr(FaceBook, "turn_alike_at", lambda self, card_px: frozenset())
    assert wrong_turns() > 0


def _corner_errors(faces, seeds, card_px: float, reach: float) -> tuple[list[float], int]:
    """Outlines found on printed-board scenes against the empty table: each laid card's
    worst corner error (px, at the best corner order), and how many outlines were no card."""
    errors, false = [], 0
    for seed in seeds:
        image, truths, empty = scenes.scene_and_empty(faces, seed, "board", card_px, 4)
        quads = card_finding.find_cards(image, empty=empty)
        for truth in truths:
            true = np.float32(truth.corners)
            near = [q for q in quads
                    if np.linalg.norm(q.mean(axis=0) - true.mean(axis=0)) < reach]
            assert near, (seed, truth.id)
            errors.append(min(float(np.abs(np.roll(near[0], k, axis=0) - true).max())
                              for k in range(4)))
        false += len(quads) - len(truths)
    return errors, false


def test_on_a_printed_board_outlines_lie_on_the_card_and_none_on_the_print(game,
                                                                            monkeypatch):
    """Cream cards with a dark printed frame on a parchment board: against the empty table
    the outline is snapped onto what changed (the frame, the stronger step, lies 6 px
    inside), a whole card is taken before its art block (a pale card on a pale part of
    the board), and the board's own card-shaped print, unchanged, is no card. Planted
    faults: snapped onto the frame's own edges, or every card-shaped print kept."""
    faces, _ = game

    def errors_and_false():
        # (seed 7008: a card with a token over its edge, 8 px off)
        errors, false = _corner_errors(faces, (7002, 7008, 7011), 160.0, 48)
        return float(np.median(errors)), max(errors), false

    middle, worst, false = errors_and_false()
    # corners within 2 px (5 px for a pale card on a pale part of the board), nothing else
    assert middle < 2.0 and worst < 6.0 and false == 0, (middle, worst, false)
    with monkeypatch.context() as m:
        m.setattr(card_finding, "_snap", lambda gradients, quad, diff=None: card_finding._snapped(
            gradients[0], quad))
        assert errors_and_false()[0] > 4.0  # on the printed frame, 6 px inside
    monkeypatch.setattr(card_finding, "_laid", lambda diff, quad: True)
    assert errors_and_false()[2] > 0


def test_a_side_left_on_the_printed_frame_is_pushed_out_to_the_cards_edge(game,
                                                                         monkeypatch):
    """Cards 240 px wide on a printed board: a pale card's paper margin on a pale part of
    the board changes less than its dark printed frame, 10 px inside the edge, and the
    outline can be left on the frame, out of ``_snapped``'s reach; ``_pushed`` moves such
    a side out to where the change ends. Planted fault: no push, the outline stays on the
    frame (10 px and more off)."""
    faces, _ = game

    def worst():
        return max(_corner_errors(faces, (7014, 7030), 240.0, 72)[0])

    assert worst() < 4.0
    monkeypatch.setattr(card_finding, "_pushed", lambda diff, quad: quad)
    assert worst() > 8.0


COLOUR_PAIR = ("card04", "card05", "card13", "card14")  # each pair apart by a bar's colour


def _colour_pairs_named(faces, book, wash=1.0):
    """(right, wrong, unknown) of the four colour-pair cards laid on three felt tables (the
    true outlines given), the photo's colours scaled by ``wash`` (1: as rendered)."""
    right = wrong = unknown = 0
    for seed in range(100, 103):
        image, truths, _ = scenes.scene_and_empty(faces, seed, "felt", 120.0, 4,
                                                  ids=list(COLOUR_PAIR))
        if wash != 1.0:
            lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
            lab[..., 1:] = 128 + (lab[..., 1:] - 128) * wash
            image = cv2.cvtColor(lab.astype(np.uint8), cv2.COLOR_LAB2BGR)
        for truth in truths:
            got = identify(image, truth.corners, book).id
            right += got == truth.id
            wrong += got is not None and got != truth.id
            unknown += got is None
    return right, wrong, unknown


@pytest.mark.parametrize("fault", ["grey", "median"])
def test_faces_apart_by_a_colour_alone_are_told_apart_and_named_right(game, monkeypatch,
                                                                       fault):
    """A title bar's colour is all that tells card04 from card05 (and card13 from card14):
    at the table's 120 px, with the book's own margins (``ALIKE_SAFETY`` 2), the pair is
    not too alike and each card laid on a table is named right. Planted faults: the fine
    comparison made grey (its colour scaled to nothing), or the card's own colour taken
    as its median again (card05's blue bar tips the median of a card half cream paper, so
    taught face and camera view shift apart): the pair is too alike, its cards unknown."""
    faces, _ = game
    pair = {k: faces[k] for k in COLOUR_PAIR}
    book = FaceBook.from_pictures(pair)
    assert book.too_alike(120) == []
    assert _colour_pairs_named(faces, book) == (12, 0, 0)
    if fault == "grey":
        monkeypatch.setattr(card_faces, "FINE_CHROMA", 1e9)
    else:
        monkeypatch.setattr(card_faces, "_chroma_centre",
                            lambda ab: np.median(ab.reshape(-1, 2), axis=0))
    book = FaceBook.from_pictures(pair)
    assert ("card04", "card05") in book.too_alike(120)
    right, wrong, unknown = _colour_pairs_named(faces, book)
    assert wrong == 0 and right <= 9 and unknown >= 3  # card04, card05 never named


def test_faces_apart_by_a_colour_alone_are_named_with_the_colour_washed_out(game,
                                                                            monkeypatch):
    """Dim or tinted light and JPEG wash a card's colours out: the card's colour is fitted
    to the face's strength before the fine comparison, so with its colours at 60 % every
    colour-pair card is still named right; without that (the planted fault) some lean to
    neither face and are unknown."""
    faces, _ = game
    book = FaceBook.from_pictures({k: faces[k] for k in COLOUR_PAIR})
    assert _colour_pairs_named(faces, book, wash=0.6) == (12, 0, 0)
    monkeypatch.setattr(card_faces, "_colour_gain", lambda sample, face: sample)
    right, wrong, unknown = _colour_pairs_named(faces, book, wash=0.6)
    assert wrong == 0 and unknown >= 2


def test_a_token_of_the_rivals_colour_does_not_outvote_the_cards_picture(game, monkeypatch):
    """On this rendered wood table a blue token lies on card19 where card14 has a blue
    square: weighted by how much the faces differ, those few pixels outweigh the whole
    picture (card19's brown art, card14's purple) and card14 was named. The area where the
    faces differ must vote for the winner too (``AREA_MARGIN``); without it (the planted
    fault, with the card's ink kept from voting) the wrong card is named. Its own book: the
    module's shared one keeps what earlier tests' checks of too-alike faces found."""
    faces, _ = game
    book = FaceBook.from_pictures(faces)

    def seen():
        image, truths, _ = scenes.scene_and_empty(faces, 20015, "wood", 120.0, 4)
        card = next(t for t in truths if t.id == "card19")
        return identify(image, card.corners, book).id

    assert seen() in ("card19", None)
    monkeypatch.setattr(card_faces, "AREA_MARGIN", -10.0)
    monkeypatch.setattr(card_faces, "INK_LEAN", math.inf)  # the ink's vote (issue 63) too
    assert seen() == "card14"


def test_a_small_difference_voting_weakly_its_way_is_named(monkeypatch, game):
    """card08 and card07 differ in a small square of the art. On this rendered wood table
    (seed 5018, 120 px, a token on its text) card08 leans 0.23 its way in the fine
    comparison (error 0.015), and the area where they differ votes 0.05 its way: on its side,
    not against it as in the token scene above (-0.24). Session 92: the area must vote on
    the winner's side (``AREA_MARGIN`` 0); planted fault, the vote asked 0.1 (as before):
    card08 is refused by card07 and unknown. Its own book (too_alike judged with the rule)."""
    faces, _ = game

    def seen():
        image, truths, _ = scenes.scene_and_empty(faces, 5018, "wood", 120.0, 4)
        card = next(t for t in truths if t.id == "card08")
        return identify(image, card.corners, FaceBook.from_pictures(faces)).id

    assert seen() == "card08"
    monkeypatch.setattr(card_faces, "AREA_MARGIN", 0.1)
    assert seen() is None


def test_a_clear_fine_winner_is_named_whatever_its_ink(monkeypatch, game):
    """card13 and card14 differ by a title bar's colour. Brought down to 120 px, card14
    reads lighter and its ink leans to card23 (another picture, lighter ink), while the fine
    comparison tells card14 from card23 at a leaning of about 0.5 (the face itself): the ink
    vote refuses a weak winner only (``INK_SURE``), so the pair is told apart at 120 px.
    Planted fault: the vote refuses every winner it leans against (``INK_SURE`` above any
    leaning, as before issue 63 part B): card14 is too alike again, refused by card23, the
    face its ink leans to (the pair is named after the rival that refused it; before stop
    80 it was named after card13, the next coarse score)."""
    faces, _ = game
    assert not {"card13", "card14"} & FaceBook.from_pictures(faces).alike_at(120)
    monkeypatch.setattr(card_faces, "INK_SURE", math.inf)
    assert ("card14", "card23") in FaceBook.from_pictures(faces).too_alike(120)


def test_a_token_beside_a_digit_never_names_the_card_as_its_twin(monkeypatch):
    """card02 is card01 with a 2 in its small disc for the 1. On this rendered felt table a
    token lies beside that disc and card02 was named card01 while ``too_alike`` (margins 1.5
    times the table's) passed the pair at 120 px. With ``ALIKE_SAFETY`` 2 the pair was too
    alike there and never named; since session 88 the token is counted as covered
    (``COVERED``), and since session 89 the fine comparison fits the part of a pixel left
    (``SUBPIXEL``) and the pair is told apart at 120 px: the card is unknown, never card01.
    Planted fault: all three as before (1.5, nothing covered, whole pixels only): card01."""

    def seen():
        faces = scenes.game_faces()
        book = FaceBook.from_pictures(faces)
        image, truths, _ = scenes.scene_and_empty(faces, 40085, "felt", 120.0, 4)
        card = next(t for t in truths if t.id == "card02")
        return ("card01", "card02") in book.too_alike(120), identify(image, card.corners,
                                                                      book).id

    assert seen() == (False, None)
    monkeypatch.setattr(card_faces, "ALIKE_SAFETY", 1.5)
    monkeypatch.setattr(card_faces, "COVERED", float("inf"))
    monkeypatch.setattr(card_faces, "SUBPIXEL", 0.0)
    assert seen() == (False, "card01")


def test_too_alike_imagines_the_misplacement_the_coarse_moves_leave(monkeypatch):
    """With the coarse moves (``PLACES`` ±0.015: ±1.8 px at 120 px) a card imagined 1.5 px off
    is put back almost exactly, and ``too_alike`` passed the digit pairs at 120 px; it
    imagines also the worst the moves leave (0.9 px there, half way between two moves:
    ``_imagined_shifts``), and the pairs are too alike again. Planted fault: only
    ``SEEN_SHIFTS`` imagined. Since session 89 the fine comparison's part of a pixel
    (``SUBPIXEL``) tells the pairs apart at 120 px whatever is imagined: shown on the whole
    pixels' comparison (``SUBPIXEL`` 0), as it was measured."""
    faces = scenes.game_faces()
    monkeypatch.setattr(card_faces, "SUBPIXEL", 0.0)
    assert card_faces._imagined_shifts(120) == [0.0, 0.9, 1.5]
    assert card_faces._imagined_shifts(160) == [0.0, 1.2, 1.5]  # measured: the moves put
    assert card_faces._imagined_shifts(240) == [0.0, 1.5]  # a card back to the nearest one
    with monkeypatch.context() as m:
        m.setattr(card_faces, "PLACES", (0.0,))
        assert card_faces._imagined_shifts(120) == [0.0, 1.5]  # no moves: nothing more
    assert ("card01", "card02") in FaceBook.from_pictures(faces).too_alike(120)
    monkeypatch.setattr(card_faces, "_imagined_shifts",
                        lambda card_px: list(card_faces.SEEN_SHIFTS))
    assert ("card01", "card02") not in FaceBook.from_pictures(faces).too_alike(120)


def test_pairs_apart_by_a_digit_are_told_apart_from_a_closer_crop(game, monkeypatch):
    """card01/card02 and card10/card11 differ by a digit in a small disc: told apart at the
    table's 120 px since session 89 (``SUBPIXEL``; too alike at 100 px, and at 140 until
    session 92's ``SUBTLE_SHARE``), and at
    160 px and more (a crop of the Pi's full-resolution stream), where the fine pattern is
    128 px wide (``fine_size``), and named right laid 180 px wide on felt tables. With the
    fine pattern kept at 96 px whatever the card's width (the planted fault) the pairs are
    too alike at 160 px and never named but card10, the one face whose own imagined cards
    were all named back (``alike_at``, session 90): 2 of the 8."""
    faces, _ = game
    ids = ["card01", "card02", "card10", "card11"]
    digits = {k: faces[k] for k in ids}

    def check():
        book = FaceBook.from_pictures(digits)
        named = []
        for seed in (300, 301):
            image, truths, _ = scenes.scene_and_empty(digits, seed, "felt", 180.0, 4, ids=ids)
            named += [identify(image, t.corners, book).id == t.id for t in truths]
        return ("card10", "card11") in book.too_alike(120), book.too_alike(160), sum(named)

    pairs = [("card01", "card02"), ("card10", "card11")]
    assert check() == (False, [], 8)
    with monkeypatch.context() as m:
        m.setattr(card_faces, "FINE_LEVELS", (card_faces.FINE,))
        assert check() == (False, pairs, 2)
    # planted fault: the twin the coarse score put second (by 0.003 at 160 px with the
    # moves, an outline 1.2 px off) judged on the card laid onto its rival alone
    # (``OWN_LAID`` 0, as before stop 78): it leans 0.40, not 0.46, and the pairs are too
    # alike at 160 px again. Since session 89 the part of a pixel (``SUBPIXEL``) fits the
    # card laid onto its rival too, and passes them even so: the fault plants both
    monkeypatch.setattr(card_faces, "OWN_LAID", 0.0)
    monkeypatch.setattr(card_faces, "SUBPIXEL", 0.0)
    assert check()[1] != []


def test_a_card_is_compared_with_the_fine_pattern_too_alike_judged_it_with(game,
                                                                             monkeypatch):
    """``alike_at`` judges a card at its width's 20 px step (150-169 px: at 160, with the
    128 px fine pattern): the card must be compared with that pattern too, or a pair
    passed at 160 is told apart on a 150 px card with the 96 px one, which cannot. The
    planted fault: the pattern chosen from the card's own width (0.8 × 150 = 120: 96 px)."""
    _, book = game

    def mismatched():
        out = []
        for width in range(100, 289):
            judged = book.straight_size(round(width / card_faces.ALIKE_STEP)
                                        * card_faces.ALIKE_STEP)[0]
            if book.fine_size(book.straight_size(width)[0]) != book.fine_size(judged):
                out.append(width)
        return out

    assert mismatched() == []
    monkeypatch.setattr(card_faces.FaceBook, "fine_size", lambda self, w: (
        max([v for v in card_faces.FINE_LEVELS if v <= 0.8 * w] or [96]), 0))
    assert 150 in mismatched()


def test_a_grey_frame_s_cards_are_found_as_its_colour_copy_s_without_the_colour_work(
        game, monkeypatch):
    """A grey frame (the Pi camera's, the evening's) is traced for paper by brightness
    alone (`_paper_grey`, issue 71: a look's CPU halved): the outlines are exactly those of
    the same frame handed over in colour, its table empty or not, and the colour work
    (`_paper`) is not done for it."""
    faces, _ = game
    calls = []
    real = card_finding._paper
    monkeypatch.setattr(card_finding, "_paper", lambda *a: calls.append(1) or real(*a))
    for seed, family in ((80, "felt"), (81, "board"), (82, "wood")):
        image, truths, empty = scenes.scene_and_empty(faces, seed, family, 130.0, 3)
        grey, empty_grey = (cv2.cvtColor(i, cv2.COLOR_BGR2GRAY) for i in (image, empty))
        colour, empty_colour = (cv2.cvtColor(i, cv2.COLOR_GRAY2BGR) for i in (grey, empty_grey))
        for base in (None, (empty_grey, empty_colour)):
            as_colour = card_finding.find_cards(colour, empty=base and base[1])
            assert as_colour and calls == [1], (seed, family)  # cards there to be found
            as_grey = card_finding.find_cards(grey, empty=base and base[0])
            assert calls == [1]  # not for the grey frame
            calls.clear()
            assert len(as_grey) == len(as_colour), (seed, family)
            assert all(np.array_equal(a, b) for a, b in zip(as_grey, as_colour, strict=True))


def _line_cards_named(shift: float) -> tuple[list, list]:
    """(too_alike at 100 px, [(face, named)]) of the thin-line deck, each card laid 100 px
    wide on a dark table and named from an outline ``shift`` px off its true corners."""
    faces = scenes.line_faces()
    book = FaceBook.from_pictures(faces)
    named = []
    for face, picture in faces.items():
        frame = np.full((400, 400, 3), 60, np.uint8)
        card = cv2.resize(picture, (100, 150), interpolation=cv2.INTER_AREA)
        frame[100:250, 150:250] = cv2.GaussianBlur(card, (0, 0), 0.7)
        corners = np.float32([[150, 100], [250, 100], [250, 250], [150, 250]]) + shift
        named.append((face, identify(frame, corners, book).id))
    return book.too_alike(100), named


def test_a_card_of_thin_lines_found_a_pixel_and_a_half_off_is_named():
    """Issue 63's root cause of unknowns on real photographs: a 100 px card of thin lines
    whose outline is found 1.5 px off (the lines' own width) falls from about 0.98 to 0.78
    against its own face, and ``too_alike`` (which imagines that misplacement) called one
    shape and three of it too alike: pairs too alike, cards unknown. The coarse moves
    (``PLACES``, on since stop 78) name them; the planted fault is below."""
    alike, named = _line_cards_named(1.5)
    assert alike == []
    assert all(face == got for face, got in named)


def test_the_coarse_score_tried_at_small_moves_names_thin_lines_misplaced(monkeypatch):
    """The mechanism for it: with the card's coarse pattern scored moved ±1.5 % of its
    width each way (``PLACES``; each face at its best place), every thin-line card is named
    from an outline 1.5 px off and no pair is too alike, even without the print's
    confirmation of a low score (``LOW_SCORE``, session 87, which names these cards too: it
    is off here). The planted fault: one place only (as before stop 78)."""
    monkeypatch.setattr(card_faces, "LOW_SCORE", card_faces.MIN_SCORE)
    monkeypatch.setattr(card_faces, "PLACES", (-0.015, 0.0, 0.015))
    alike, named = _line_cards_named(1.5)
    assert alike == [] and all(face == got for face, got in named)
    monkeypatch.setattr(card_faces, "PLACES", (0.0,))
    alike, named = _line_cards_named(1.5)
    assert alike != [] and any(got is None for _, got in named)

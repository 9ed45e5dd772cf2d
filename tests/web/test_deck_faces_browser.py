"""Issue 49: the deck page's step "Cards the camera knows by face", in real chromium against
the real server with the demo camera (`make run`'s simulated camera and its dice tray, the
taught zone): "Take its picture" has the demo camera lay the card alone in its tray and
keeps its face; "Import a picture" keeps a scan (a PNG) and refuses a file that is no
picture, in the page's language, keeping nothing; the same picture imported for two cards
is listed as a pair too alike to tell apart (one of them needs its sticker); "Remove" drops
a face. Screenshots: test-artifacts/browser/79-deck-faces-*.png."""
from __future__ import annotations

import os

import cv2
import pytest

from companion.wiring.demo_faces import drawn_face
from tests.web.conftest import running_server
from tests.web.test_browser import shot
from tests.web.test_deck_browser import create_game, open_deck

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("facesdata")
    game_id, catalog = create_game(data)  # World Without End, at the table
    log = tmp_path_factory.mktemp("faceslog") / "server.log"
    env = dict(os.environ, COMPANION_CAMERA_SIMULATE="auto", COMPANION_DICE_EMULATE="auto",
               COMPANION_DICE_DEFAULT_SOURCE="camera")
    with running_server(data, log, "--threads", "20", env=env) as base:
        yield base, game_id, data, [e["id"] for e in catalog["event_cards"]]


def notice(page) -> str:
    page.wait_for_function(  # a refusal, or the answer (not "Taking the picture…")
        "() => { const n = document.getElementById('deck-faces-notice');"
        " return n.classList.contains('why') || (n.classList.contains('ok-text')"
        " && !n.textContent.endsWith('…')); }", timeout=30000)
    return page.inner_text("#deck-faces-notice")


def clear_notice(page) -> None:
    page.evaluate("() => { const n = document.getElementById('deck-faces-notice');"
                  " n.textContent = ''; n.className = 'small'; }")


def upload(page, card: str, path) -> str:
    clear_notice(page)
    with page.expect_file_chooser() as chooser:
        page.click(f".deck-face[data-card='{card}'] .deck-face-upload")
    chooser.value.set_files(str(path))
    return notice(page)


def forget(page, card: str) -> str:
    clear_notice(page)
    page.click(f".deck-face[data-card='{card}'] .deck-face-forget")
    return notice(page)


def buttons_stay_off_while_an_upload_is_awaited(page, card: str, scan) -> None:
    """While the too-alike check runs the page asks every 2 s. An answer with the same cards
    leaves the rows as they are (a row drawn anew under the owner's finger lost the tap: its
    press on the old button, its release on the new; a CI run's click opened no file chooser
    so, 2026-11-28). An answer whose cards changed (another host page) draws them again, and
    while an upload is awaited their buttons stay off (they came back on once: a click then
    opened the file chooser and did nothing, the page refusing a second picture while one is
    awaited). The upload is held in the page meanwhile."""
    forcing, renamed, answers = [True], [False], [0]

    def checking(route):
        if not forcing[0]:
            return route.continue_()
        answer = route.fetch().json()
        if renamed[0]:  # as if another host page had changed a card
            answer["cards"][0]["name_text"] += " *"
        answers[0] += 1
        route.fulfill(json=dict(answer, checking=True))

    def asked_again(times: int) -> None:
        seen = answers[0]
        for _ in range(600):
            if answers[0] >= seen + times:
                return
            page.wait_for_timeout(100)
        raise AssertionError(f"the page asked {answers[0] - seen} times in 60 s, not {times}")

    def buttons_on() -> list:
        return page.evaluate("() => [...document.querySelectorAll('.deck-face button')]"
                             ".filter(b => !b.disabled).map(b => b.className)")

    page.route("**/faces.json*", checking)
    page.reload()
    page.wait_for_selector(".deck-faces-checking")
    page.evaluate("""() => { window.held = []; const real = window.fetch;
        window.fetch = (url, options) => String(url).includes('/card_face/upload')
            ? new Promise(go => window.held.push(go)).then(() => real(url, options))
            : real(url, options); }""")
    page.evaluate("() => document.querySelectorAll('.deck-face').forEach(r => r.dataset.old = 1)")
    asked_again(2)  # the same cards: not drawn again
    assert page.locator(".deck-face:not([data-old])").count() == 0
    clear_notice(page)
    with page.expect_file_chooser() as chooser:
        page.click(f".deck-face[data-card='{card}'] .deck-face-upload")
    chooser.value.set_files(str(scan))
    page.wait_for_function("() => window.held.length === 1")
    assert buttons_on() == []
    renamed[0] = True
    page.wait_for_function("() => document.querySelector('.deck-face')"
                           " && !document.querySelector('.deck-face[data-old]')")  # drawn again
    assert page.inner_text(".deck-face strong").endswith(" *")
    assert buttons_on() == []
    page.evaluate("() => window.held.forEach(go => go())")
    assert "ist gespeichert" in notice(page)
    forcing[0] = False  # the real answers again (the check ends): the real name drawn
    page.wait_for_function("() => !document.querySelector('.deck-face strong')"
                           ".textContent.endsWith(' *')")
    page.wait_for_selector(f".deck-face[data-card='{card}'] .deck-face-forget:not([disabled])")


def test_the_owner_teaches_cards_by_face_on_the_deck_page(server, browser, tmp_path):
    base, game_id, data, events = server
    faces = data / "catalogs" / "wwe" / "faces"
    page = open_deck(browser, base, game_id)
    page.wait_for_selector("#deck-faces:not([hidden]) .deck-face")
    assert len(events) == 44  # and the 12 action cards, each kind under its title
    assert page.locator(".deck-face").count() == 56
    assert page.locator(".deck-faces-part h3").all_inner_texts() == ["Ereigniskarten",
                                                                     "Aktionskarten"]
    assert "0 von 56 Karten gezeigt" in page.inner_text("#deck-faces-progress")
    # from the demo camera: it lays the card alone in its tray
    first = events[0]
    clear_notice(page)
    page.click(f".deck-face[data-card='{first}'] .deck-face-take")
    said = notice(page)
    assert "ist gespeichert" in said, said
    page.wait_for_selector(f".deck-face[data-card='{first}'] img")
    assert (faces / f"{first}.png").is_file()
    # taken again: the same cards and URL, and still the new picture is fetched
    shown = page.get_attribute(f".deck-face[data-card='{first}'] img", "src")
    clear_notice(page)
    page.click(f".deck-face[data-card='{first}'] .deck-face-take")
    assert "ist gespeichert" in notice(page)
    page.wait_for_function("([card, shown]) => document.querySelector("
                           "`.deck-face[data-card='${card}'] img`).src.endsWith(shown) === false",
                           arg=[first, shown])
    # a file that is no picture: refused in German, nothing kept
    text = tmp_path / "notes.png"
    text.write_text("no picture here")
    said = upload(page, events[1], text)
    assert said == "das ist kein Bild (ein PNG oder JPEG der Kartenvorderseite)", said
    assert not (faces / f"{events[1]}.png").exists()
    # a scan of a face, and then the same scan for another card: a pair too alike
    scan = tmp_path / "scan.png"
    cv2.imwrite(str(scan), drawn_face(events[1]))
    assert "ist gespeichert" in upload(page, events[1], scan)
    page.wait_for_function("() => document.querySelector('#deck-faces-alike .ok-text')")
    assert "unterscheidet alle" in page.inner_text("#deck-faces-alike")
    assert "ist gespeichert" in upload(page, events[2], scan)
    pair = ",".join(sorted(events[1:3]))
    page.wait_for_selector(f".deck-faces-pair[data-pair='{pair}']")
    assert "3 von 56 Karten gezeigt" in page.inner_text("#deck-faces-progress")
    shot(page, "79-deck-faces-taught-de")
    # one of the pair forgotten: it needs its sticker again, and no pair is left
    clear_notice(page)
    assert "braucht wieder ihren Aufkleber" in forget(page, events[2])
    page.wait_for_function("() => !document.querySelector('.deck-faces-pair')")
    assert not (faces / f"{events[2]}.png").exists()
    buttons_stay_off_while_an_upload_is_awaited(page, events[3], scan)
    assert "braucht wieder ihren Aufkleber" in forget(page, events[3])
    # the two faces left, and beside them only the book's kept too-alike verdicts
    assert sorted(p.name for p in faces.iterdir() if p.suffix == ".png") == sorted(
        f"{c}.png" for c in events[:2])
    assert {p.name for p in faces.iterdir() if p.suffix != ".png"} <= {"too_alike.json"}
    page.context.close()

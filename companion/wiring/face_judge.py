"""Which taught card faces the camera cannot tell apart (`FaceBook.too_alike`), judged on a
thread of its own, never on a page's or the camera's: over a game's faces the judgement
costs seconds here and minutes on a Pi, once per face book and card width (a face taught or
forgotten makes the book again).

`FaceJudge` keeps each game's face book (shared by the camera's `FaceReader` and the deck
page, so a judgement made once serves both). `verdict` answers at once: the pairs and the
turns when judged, else None and the judgement is queued; the ``face judge`` thread makes
the queued judgements one after another, then tells its listeners (the face reader looks
again; the deck page asks again until it has its answer) and ends when none is left. Until
a book is judged at a card's width the camera names no card of it (a wrong name is worse
than none): `identify(..., judged_only=True)`.

Threads: HTTP threads and the camera thread ask; the ``face judge`` thread judges. What they
share (the books, the queue, the thread) is changed only under ``_lock`` (a leaf, never
held while judging or calling out).
"""
from __future__ import annotations

import logging
import threading

from companion.server import locks
from hardware.camera.card_faces import ALIKE_STEP

log = logging.getLogger(__name__)

THREAD = "face judge"


class FaceJudge:
    """The face books of a data folder's games and their too-alike judgements."""

    def __init__(self, data_dir, judge=None, inline: bool = False, catalog_of=None) -> None:
        self.data_dir = data_dir
        # game -> its catalog as the server already holds it (`companion.box.catalog.Kinds`),
        # so a book is not made from the catalog loaded and checked again (0.4 s of CPU here
        # after each face taught; issue 71); None: loaded (a tool, a bench)
        self._catalog_of = catalog_of
        # inline: judged on the asking thread, as it asks (a bench or a test of the reading
        # alone, never the app: its pages and camera must not wait)
        self.inline = inline
        self._lock = locks.lock("face judge")
        self._books: dict[str, tuple] = {}  # game -> (FaceBook | None, id -> FaceCard)
        self._queue: list[tuple] = []  # (book, card px) waiting to be judged
        self._thread: threading.Thread | None = None
        self._listeners: list = []
        # (book, card px) -> None: the judgement (a test plants a slow or a failing one)
        self._judge = judge or (lambda book, px: book.too_alike(px))

    def book(self, game: str) -> tuple:
        """(the game's `FaceBook` or None, card id -> `FaceCard`), made once per change."""
        with self._lock:
            kept = self._books.get(game)
        if kept is None:
            from companion.box.taught_cards import book_for

            kept = book_for(game, self.data_dir, self._catalog_of)
            with self._lock:
                kept = self._books.setdefault(game, kept)
        return kept

    def changed(self, game: str) -> None:
        """A face taught or forgotten: the game's book is made again (and judged again)."""
        with self._lock:
            self._books.pop(game, None)

    def listen(self, listener) -> None:
        """``listener()`` is called on the judge's thread after each judgement."""
        with self._lock:
            self._listeners.append(listener)

    def judged(self, book, card_px: float) -> bool:
        """Whether ``book`` is judged at ``card_px``; if not, the judgement is queued."""
        if book is None or book.judged_at(card_px):
            return True
        if self.inline:
            self._judge(book, card_px)
            return book.judged_at(card_px)
        step = round(card_px / ALIKE_STEP)  # one judgement per width step
        with self._lock:
            if not any(b is book and round(px / ALIKE_STEP) == step for b, px in self._queue):
                self._queue.append((book, card_px))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=THREAD, daemon=True)
                self._thread.start()
        return False

    def verdict(self, game: str, card_px: float) -> dict | None:
        """``{"alike": [[a, b], ...], "turn_alike": [...]}`` of the game's taught faces at
        ``card_px``, or None while it is being judged (queued here)."""
        book, _ = self.book(game)
        if book is None:
            return {"alike": [], "turn_alike": []}
        if not self.judged(book, card_px):
            return None
        from companion.box.taught_cards import judgement

        return judgement(book, card_px)

    def busy(self) -> bool:
        """Whether a judgement is queued or under way."""
        with self._lock:
            return self._thread is not None

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    self._thread = None
                    return
                book, card_px = self._queue[0]
            try:
                self._judge(book, card_px)
            except Exception:
                log.exception("face judge: the judgement at %s px failed", card_px)
            with self._lock:
                self._queue.pop(0)
                listeners = list(self._listeners)
            for listener in listeners:
                try:
                    listener()
                except Exception:  # the thread goes on: the next judgement is still made
                    log.exception("face judge: a listener failed")

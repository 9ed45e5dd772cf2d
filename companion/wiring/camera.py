"""Camera observations -> game actions, through the game's declared bindings.

`CameraRules` is plain logic, no threads and no I/O: fed observations and clock ticks plus
the `GameFacts` of the game as it is now, it returns outcomes (engine.api `Act`, `Propose`,
`Select`, `Warn`). What a card means is the game's business (`GameInfo.bindings.sighting`); what is
kept here is what every game needs:

- which card lies where (resolved from its sticker with the game's catalog), so the game
  is asked again about every card at rest on each tick (``change="still"``);
- proposals (`Propose`, a card being turned): previewed at once, applied once the card lay
  still for ``commit_s`` seconds after the prompt opened (camera.orient_commit_s in
  config.json, default 2.0). Answering on the phone earlier simply ends the prompt first;
- a card of another game's namespace is a warning; unknown codes are ignored with a log
  line. A card the game refuses becomes a warning in the camera status, never applied.

`CameraWiring` runs the camera service and carries outcomes out on the server's
`GameService`; it is the app's `companion.context.CameraPort`, and publishes what it sees as
an immutable `CameraSnapshot` after every frame. `start()` is the hook
`companion.wiring.hardware_manager` calls.
"""
from __future__ import annotations

import json
import logging
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from companion.context import CameraSnapshot
from companion.game.reasons import DeviceRefused
from companion.game.service import GameService
from companion.server import locks
from companion.server.settings import Settings
from companion.wiring import camera_plan
from companion.wiring.camera_plan import Preview
from engine.api import Act, Propose, Refused, Select, Sighting, Warn, sticker_namespace
from hardware.camera.devices import camera_attached
from hardware.camera.tracker import Appeared, MovedZone, Observation, Removed, Turned, UnknownCode
from hardware.tags.format import code_table

log = logging.getLogger(__name__)

# a demo take waits at most this long for the camera to have seen the die or card it laid
# (two frames; a loaded host took over 3 s, and the picture then showed the empty tray)
DEMO_LAID_S = 10.0

CHANGES = {Appeared: "appeared", Turned: "turned", MovedZone: "moved", Removed: "removed"}


# ---- what the rules need to know about the game ----------------------------------------
@dataclass(frozen=True)
class GameFacts:
    """What the camera's rules need to know of the game now (made once per state)."""

    namespace: str  # on the stickers, e.g. "wwe"
    kinds: dict  # sticker letter -> kind word
    cards: dict  # (letter, code) -> catalog id
    prompt: tuple | None  # (kind, seat) of the decision owed first, if any
    meaning: Callable = field(default=lambda sighting: [])  # Sighting -> [outcome]


def card_index(info, catalog: dict) -> dict[tuple[str, str], str]:
    """(letter, short code) -> catalog id for every card that has a sticker."""
    out = {}
    for kind in info.stickers:
        entries = catalog.get(kind.part) or []
        for code, catalog_id in code_table(e["id"] for e in entries).items():
            out[(kind.letter, code)] = catalog_id
    return out


def card_labels(info, catalog: dict, lang: str = "en") -> dict[str, str]:
    """payload -> printed card name, for overlays."""
    from hardware.tags.format import card_payload

    out = {}
    for kind in info.stickers:
        for entry in catalog.get(kind.part) or []:
            names = entry.get("names") or {}
            payload = card_payload(sticker_namespace(info), kind.letter, entry["id"])
            out[payload] = names.get(lang) or entry["id"]
    return out


def facts_of(live, index: dict | None = None) -> GameFacts:
    """The `GameFacts` of a `companion.game.service.LiveGame` now."""
    module, info = live.kind.module, live.kind.module.info
    prompts = module.prompts(live.state)
    first = prompts[0] if prompts else None
    state = live.state
    sighting = info.bindings.sighting or (lambda _state, _seen: [])
    said: dict = {}  # a binding is a pure function of the state: each sighting asked once

    def meaning(seen: Sighting) -> list:
        if seen not in said:
            said[seen] = list(sighting(state, seen))
        return said[seen]

    return GameFacts(sticker_namespace(info), {k.letter: k.word for k in info.stickers},
                 index if index is not None else card_index(info, live.kind.catalog),
                 (first.kind, first.seat) if first else None, meaning)


# ---- decisions -------------------------------------------------------------------------
class CameraRules:
    """Asks the game what observations mean; times proposals. Deterministic (time passed in)."""

    def __init__(self, commit_s: float = 2.0) -> None:
        self.commit_s = commit_s
        self.cards: dict[tuple[str, str], tuple[Sighting, float]] = {}  # at rest, since
        self.previewed: str | None = None
        self.tried: str | None = None  # proposal already applied (or refused)
        self.prompt_opened: tuple[tuple, float] | None = None
        # (facts, [(outcome, since)]): what the last tick asked of the cards at rest, kept
        # while they and the game's state (its facts) stay as they were: a still table's
        # tick, 30 frames a second, asks nothing again (issue 71)
        self._asked: tuple | None = None

    def observe(self, observation: Observation, facts: GameFacts, now: float) -> list:
        if isinstance(observation, UnknownCode):
            log.info("camera: ignoring a code that is not a card tag (%s): %r",
                     observation.reason, observation.payload)
            return []
        tag = observation.tag
        if tag.namespace != facts.namespace:
            if isinstance(observation, Appeared):
                return [Warn("camera_other_game", {"game": tag.namespace, "code": tag.code})]
            return []
        word = facts.kinds.get(tag.kind)
        card = facts.cards.get((tag.kind, tag.code))
        if word is None or card is None:
            log.info("camera: no card of kind %s with code %s in the %s catalog", tag.kind,
                     tag.code, facts.namespace)
            return []
        change = CHANGES.get(type(observation))
        if change is None:
            return []
        seen = Sighting(word, card, observation.zone, observation.rotation % 4, change)
        previous = observation.previous if isinstance(observation, MovedZone) else None
        return self._seen(seen, (tag.kind, card), previous, facts, now)

    def face(self, seen: Sighting, facts: GameFacts, now: float) -> list:
        """A card known by its face (companion/wiring/camera_faces.py): the same as the
        sighting its sticker gives; where both are read the sticker's is the one kept."""
        if any(s.card == seen.card and s.kind == seen.kind and k[0] != "face"
               for k, (s, _since) in self.cards.items()):
            return []  # its sticker is read: the sticker wins
        return self._seen(seen, ("face", seen.kind, seen.card), None, facts, now)

    def _seen(self, seen: Sighting, key: tuple, previous: str | None, facts: GameFacts,
              now: float) -> list:
        change = seen.change
        self._asked = None
        if change == "removed":
            self.cards.pop(key, None)
        else:
            self.cards[key] = (seen, now)
        outcomes = []
        if previous is not None:  # it left its old zone first
            outcomes += facts.meaning(replace(seen, zone=previous, change="removed"))
        outcomes += facts.meaning(seen)
        return self._settle([(o, now) for o in outcomes], facts, now)

    def tick(self, facts: GameFacts, now: float) -> list:
        """Ask again about every card at rest (unless neither they nor the game changed
        since the last tick: the answers are its); apply a proposal once it was stable
        long enough."""
        if self._asked is None or self._asked[0] is not facts:
            pairs = []
            for seen, since in list(self.cards.values()):
                pairs += [(o, since) for o in facts.meaning(replace(seen, change="still"))]
            self._asked = (facts, pairs)
        return self._settle(self._asked[1], facts, now)

    def _settle(self, pairs: list, facts: GameFacts, now: float) -> list:
        if self.prompt_opened is None or self.prompt_opened[0] != facts.prompt:
            self.prompt_opened = (facts.prompt, now)
        out: list = []
        for outcome, since in pairs:
            if not isinstance(outcome, Propose):
                out.append(outcome)
                continue
            key = json.dumps(outcome.action, sort_keys=True)
            if self.previewed != key:
                self.previewed = key
                out.append(Preview(outcome.action))
            # the card must lie still for the whole time *after* the game asks
            stable_since = max(since, self.prompt_opened[1])
            if now - stable_since >= self.commit_s and self.tried != key:
                self.tried = key
                out.append(Act(outcome.action))
        return out


# ---- running it on the server ----------------------------------------------------------
def demo_cards(info, catalog: dict | None) -> list[str]:
    """Payloads of the first card of each sticker kind (the synthetic table lays them)."""
    from hardware.tags.format import card_payload

    out = []
    for kind in info.stickers if info is not None else ():
        entries = (catalog or {}).get(kind.part) or []
        if entries:
            out.append(card_payload(sticker_namespace(info), kind.letter, entries[0]["id"]))
    return out


def _source_for(spec: str, info, catalog: dict | None, service=None, data_dir=None,
                rpicam_options: dict | None = None):
    """The frame source; the synthetic one lays real cards of the game's catalog: the
    game's own demo scene when it declares one (companion/wiring/demo_scene.py)."""
    from hardware.camera.sources import SyntheticSource, open_source

    if spec == "synthetic" or spec.startswith("synthetic:"):
        if service is not None and info is not None and info.bindings.demo_scene is not None:
            from companion.wiring.demo_scene import SceneSource, dice_for, scene_for

            return SceneSource(scene_for(service, info, catalog, data_dir),
                               int(spec.partition(":")[2] or 0), dice=dice_for(service))
        cards = demo_cards(info, catalog) + [None, None]
        return SyntheticSource(int(spec.partition(":")[2] or 0), event=cards[0],
                               action=cards[1])
    return open_source(spec, rpicam_options)


class CameraWiring:
    """The running camera: service thread -> rules -> GameService."""

    MAX_WARNINGS = 5

    def __init__(self, service, changed, source, recognizer, orient_commit_s: float,
                 config_path: Path | None = None) -> None:
        from hardware.camera.capture import CameraService

        self.config_path = config_path
        self.service = service
        self.changed = changed
        self.rules = CameraRules(orient_commit_s)
        self.own_zones = False  # config.json camera.zones given: the owner's zones win
        # a real camera acts in the game; the simulated one (make run) only shows on the
        # host's camera page what it would do, until the host lets it act
        self.acting = True
        self._would_do: deque[dict] = deque(maxlen=self.MAX_WARNINGS)
        self._selected: dict[str, str] = {}
        self._warnings: deque[dict] = deque(maxlen=self.MAX_WARNINGS)
        self._labels: dict[str, str] = {}  # payload -> card name, for the preview overlay
        # what `listen` was given, each a tuple replaced whole (under _shown) and read
        # without a lock by the camera and MJPEG threads
        self._listeners: tuple = ()
        self._every_frame: tuple = ()
        self._overlays: tuple = ()
        self.focus_watch = None  # companion/wiring/focus_watch.py, set by `start`
        self.faces = None  # a FaceReader: the game's cards known by face (attach_faces)
        self._snapshot = CameraSnapshot()  # what it saw last, replaced whole (under _shown)
        self._unpublished: dict = {}  # changes not yet in _snapshot (under _shown)
        self._game: str | None = None  # the game the rules work for
        self._replayed: set[str] = set()  # cards told to that game when it was joined
        self._indexes: dict[str, dict] = {}
        self._facts: dict[str, tuple] = {}  # game kind -> (the state, its GameFacts)
        # the camera thread's rules and game (held while it acts in the game: camera -> game)
        self._lock = locks.lock("camera rules", "camera")
        # a leaf: what the HTTP, MJPEG and socket threads read (acting, would, selected,
        # warnings, labels, the snapshot); held only to copy or change them, never while
        # calling out
        self._shown_lock = locks.lock("camera shown")
        self._seen_seq = 0  # the latest frame its listeners were told of (under _shown)
        self.camera = CameraService(source, recognizer, on_observation=self.on_observation,
                                    on_status=lambda s, d: self._changed(),
                                    on_frame=self.on_frame,
                                    every_frame=self.wants_every_frame)

    def listen(self, on_frame, wants_every_frame=None, draw=None) -> None:
        """A part that reads the camera's frames (the dice tray, the focus watch):
        ``on_frame(frame, calibration, source)`` is told every frame processed;
        ``wants_every_frame() -> True`` while it needs every frame even on a still table (the
        tray while a roll is read: its settler counts still frames); ``draw(image,
        calibration)`` draws on the preview (the tray)."""
        with self._shown_lock:
            self._listeners += (on_frame,)
            if wants_every_frame is not None:
                self._every_frame += (wants_every_frame,)
            if draw is not None:
                self._overlays += (draw,)

    def wants_every_frame(self) -> bool:
        return any(wants() for wants in self._every_frame)

    def start(self) -> CameraWiring:
        self.camera.start()
        return self

    def stop(self) -> None:
        self.camera.stop()

    def attach_faces(self, data_dir, judge=None) -> None:
        """Know the current game's bare cards by their taught faces (camera_faces.py;
        ``judge`` the app's `FaceJudge`, shared with the deck page); `start` does it before
        the camera's thread runs."""
        from companion.wiring.camera_faces import FaceReader

        self.faces = FaceReader(data_dir, judge)

    def _demo_scene(self):
        """The demo camera's scene (`companion.wiring.demo_scene.SceneSource`), or None for
        any other source."""
        from companion.wiring.demo_scene import SceneSource

        source = self.camera.capture.source
        return source if isinstance(source, SceneSource) else None

    def lay_demo_card(self, picture) -> bool:
        """The demo camera (a synthetic scene) lays one card face up, ``picture`` its face,
        alone in its tray, for the host to teach; False for a real camera."""
        scene = self._demo_scene()
        if scene is None or picture is None:
            return False
        since = self.camera.capture.seq() + 2
        scene.lay_card(picture)
        self._wait_seen(since)
        return True

    def lay_demo_die(self, colour: str, face: int) -> bool:
        """The demo camera (a synthetic scene) lays one die of ``colour`` alone in its tray,
        ``face`` up, for the host to teach; False for a real camera (the host lays it)."""
        scene = self._demo_scene()
        if scene is None:
            return False
        since = self.camera.capture.seq() + 2  # the frame being read may predate the die
        scene.lay_die(colour, face)
        self._wait_seen(since)
        return True

    def _wait_seen(self, since: int, timeout: float = DEMO_LAID_S) -> None:
        """Wait until the frame listeners (the dice tray's) were told of frame ``since``:
        a picture taken then shows what the demo laid, not what lay there before."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._shown_lock:
                if self._seen_seq >= since:
                    return
            time.sleep(0.02)

    def status(self) -> dict:
        stats = self.camera.stats()
        state = {"ok": "ok", "lost": "error", "starting": "starting"}.get(stats["status"],
                                                                          stats["status"])
        with self._shown_lock:
            shown = {"selected": dict(self._selected), "warnings": list(self._warnings),
                     "acting": self.acting, "would": list(self._would_do)}
        # the zones where a card lies the camera does not know by face (the TV asks)
        shown["unknown"] = self.faces.unknown() if self.faces is not None else []
        # the taught faces being checked for twins: till then no card is named by its face
        # (seconds here, a minute or more on a Pi after faces are taught or the server starts)
        shown["faces_checking"] = self.faces is not None and self.faces.judge.busy()
        # the Pi camera: its sensor, modes and row strides (`companion doctor` shows them)
        source = self.camera.capture.source
        sensor = source.describe()
        # and its focus and flicker (issue 62: doctor, the host page, the setup guide)
        optics = source.optics_status() if sensor else None
        if optics and self.focus_watch is not None:  # scans it asked for on its own
            optics["rescans"] = self.focus_watch.rescans
        return {"state": state, "detail": stats["detail"], "fps": stats["fps"],
                "decode_ms": stats["decode_ms"], "calibration": stats["calibration"], **shown,
                **({"sensor": sensor} if sensor else {}),
                **({"optics": optics} if optics else {})}

    def set_mains(self, hz: int) -> bool:
        """The room's mains frequency changed on the host page: a Camera Module restarts
        rpicam-vid with the new --flicker-period; False: this source has no such setting."""
        return self.camera.capture.source.set_mains(hz)

    def refocus(self) -> bool:
        """One new focus scan on the table (a Camera Module 3); False: no lens to drive."""
        return self.camera.capture.source.refocus()

    def card_px(self) -> int:
        """The card width faces are read at: the usual frame's, or the source's sharper
        crop's (companion/box/taught_cards.py `card_px`): the deck page judges at it."""
        from companion.box.taught_cards import card_px

        return card_px(self.camera.capture.source)

    def snapshot(self) -> CameraSnapshot:
        """What the camera saw in its latest frame, and the cards at rest (immutable)."""
        with self._shown_lock:
            if self._unpublished:
                self._snapshot = replace(self._snapshot, **self._unpublished)
                self._unpublished = {}
            return self._snapshot

    def _publish(self, **changes) -> None:
        """Changes for the next `snapshot`: kept as they come (30 frames a second) and made
        into a new snapshot only when one is asked for (a view, the preview: a few a second);
        `dataclasses.replace` at every frame was a tenth of the camera thread's own work.
        A new frame lets go of the one the last snapshot kept: only `snapshot` hands that
        out, and it would hand out the new one (else a frame held, 0.9-2.7 MB, until a page
        asks again)."""
        with self._shown_lock:
            if "frame" in changes and self._snapshot.frame is not None:
                self._snapshot = replace(self._snapshot, frame=None)  # once per snapshot
            self._unpublished.update(changes)

    def _cards_changed(self) -> None:
        """Publish the cards at rest (under ``_lock``, where the rules change them)."""
        locks.owned(self._lock, "the camera's cards at rest")
        self._publish(game=self._game,
                      cards=tuple(seen for seen, _since in self.rules.cards.values()))

    def set_acting(self, on: bool) -> None:
        """The host's switch (an HTTP thread) while the camera thread may be deciding."""
        with self._shown_lock:
            self.acting = bool(on)
            self._would_do.clear()
            if not self.acting:
                self._selected.clear()
        self._changed()

    def _changed(self) -> None:
        try:
            self.changed()
        except Exception:  # the camera thread must go on whatever a push does
            log.exception("camera: re-sending views failed")

    def _facts_for(self, live) -> GameFacts:
        """The game's facts now; one per state, since every frame asks about the cards at
        rest (30 a second: the prompts and the bindings' answers are kept until it changes)."""
        index = self._indexes.get(live.kind.name)
        if index is None:
            info = live.kind.module.info
            index = self._indexes[live.kind.name] = card_index(info, live.kind.catalog)
            labels = card_labels(info, live.kind.catalog)
            with self._shown_lock:
                self._labels = {**self._labels, **labels}  # a new dict: readers keep theirs
            self.use_zones(info)
        kept = self._facts.get(live.kind.name)
        if kept is None or kept[0] is not live.state:
            kept = self._facts[live.kind.name] = (live.state, facts_of(live, index))
        return kept[1]

    def use_zones(self, info) -> None:
        """The game's declared zones, unless the owner fitted their own in config.json."""
        from hardware.camera.zones import ZoneMap, rects

        if not self.own_zones and info is not None:
            zones = rects((z.id, z.rect) for z in info.bindings.zones)
            self.camera.recognizer.use_zones(ZoneMap(zones))

    def save_calibration(self) -> dict:
        """The calibration wizard's last step: keep the marker's north for when it is gone.

        Raises DeviceRefused("camera_marker_not_seen") unless the marker is in the latest
        frame."""
        from hardware.camera import calibration as calibration_file

        calibration = self.camera.recognizer.calibration  # one consistent reading
        if not self.snapshot().marker_seen or self.config_path is None:
            raise DeviceRefused("camera_marker_not_seen")
        calibration_file.save(self.config_path, calibration)
        return calibration.to_json()

    def sticker_report(self) -> dict:
        """Pixels per module of the symbols in the latest frame (the wizard warns below 3)."""
        return self.snapshot().sticker_report()

    def preview_jpeg(self) -> bytes | None:
        """The latest frame with overlays (codes, names, rotation, zones, fps, decode ms)."""
        from hardware.camera.overlay import draw_overlay, jpeg

        seen = self.snapshot()
        if seen.frame is None:
            return None
        frame, result = seen.frame, seen.result
        recognizer = self.camera.recognizer
        with self._shown_lock:
            labels = self._labels
        image = draw_overlay(frame.image, result, recognizer.zones, recognizer.calibration,
                             labels, self.camera.stats()["fps"])
        for draw in self._overlays:
            draw(image, recognizer.calibration)
        return jpeg(image)

    def mjpeg(self, fps: float = 10.0, stop=None):
        """multipart/x-mixed-replace chunks (boundary "frame") for an MJPEG <img> preview."""
        while stop is None or not stop.is_set():
            data = self.preview_jpeg()
            if data is not None:
                yield (b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                       + str(len(data)).encode() + b"\r\n\r\n" + data + b"\r\n")
            time.sleep(1.0 / fps)

    def on_observation(self, observation: Observation) -> None:
        live = self.service.access.current()
        if live is None:
            return  # no game yet: the cards are told to it when it comes (`_join`)
        if live.id != self._game:
            self._join(live)
        if isinstance(observation, Appeared) and observation.payload in self._replayed:
            return  # confirmed in the frame the game was joined: already told
        with self._lock:
            decisions = self.rules.observe(observation, self._facts_for(live), time.monotonic())
            self._cards_changed()
            self.execute(live, decisions)

    def on_frame(self, frame, result) -> None:
        self._publish(frame=frame, result=result,
                      calibration_source=self.camera.recognizer.calibration_source,
                      calibration=self.camera.recognizer.calibration)
        self._replayed = set()
        for listener in self._listeners:
            try:
                listener(frame, self.camera.recognizer.calibration, self.camera.capture.source)
            except Exception:  # a listener's failure never stops the cards being read
                log.exception("camera: a frame listener failed")
        with self._shown_lock:
            self._seen_seq = max(self._seen_seq, frame.seq)
        live = self.service.access.current()
        if live is None:
            return
        if live.id != self._game:
            self._join(live)
            return
        if self.faces is not None:
            self._faces_seen(live, frame, result)
        if self.rules.cards:
            self._tick(live)

    def _tick(self, live) -> None:
        """The rules' tick on a frame: every card at rest asked about again."""
        with self._lock:
            self.execute(live, self.rules.tick(self._facts_for(live), time.monotonic()))

    def _faces_seen(self, live, frame, result) -> None:
        """The cards known by face that changed, once the table is at rest: told to the
        game as their stickers would be."""
        recognizer = self.camera.recognizer
        asked = self.faces.asked_changes
        try:
            seen = self.faces.look(live.kind.name, frame.image, result,
                                   recognizer.calibration, recognizer.zones,
                                   self.camera.capture.source)
        except Exception:  # the faces never stop the stickers being read
            log.exception("camera: reading the cards' faces failed")
            return
        if not seen:  # a card asked about, or no longer: the TV says it at once (it waited
            if self.faces.asked_changes != asked:  # for the hardware's tick before)
                self._changed()
            return
        with self._lock:
            for face in seen:
                sighting = Sighting(face.word, face.card, face.zone, face.rotation, face.change)
                self.execute(live, self.rules.face(sighting, self._facts_for(live),
                                                   time.monotonic()))
            self._cards_changed()
        self._changed()

    def answer_unknown(self, zone: str, card: str) -> None:
        """The host or the table named the unknown card in ``zone``: its face is taught as
        ``card``'s (companion/box/taught_cards.py) and it is told to the game as seen."""
        from companion.box import taught_cards
        from companion.box.catalog import CatalogError, problem

        live = self.service.access.current()
        faces = self.faces
        asked = faces.take_unknown(zone) if faces is not None and live is not None else None
        if asked is None:
            raise CatalogError([problem("(camera)", None, None, "no_unknown_card")])
        info, catalog = live.kind.module.info, live.kind.catalog
        try:
            taught_cards.save_face(live.kind.name, faces.data_dir, info, catalog, card,
                                   asked.picture)
        except CatalogError:
            faces.put_back(asked)
            raise
        finally:  # the TV no longer asks (or, refused, asks again)
            self._changed()
        faces.catalog_changed(live.kind.name)

    def _join(self, live) -> None:
        """A game became the current one (the camera started before it was opened, the
        host switched games, the server restarted with cards on the table): every card
        lying there is told to it once, in the game's own zones, as if just laid."""
        recognizer = self.camera.recognizer
        now = time.monotonic()
        with self._lock:
            if self._game is not None:  # another game's pre-selections are not this one's
                with self._shown_lock:
                    self._selected.clear()
            self._game = live.id
            self.rules = CameraRules(self.rules.commit_s)
            if self.faces is not None:  # the cards known by face: told to it once at rest
                self.faces.clear()
            facts = self._facts_for(live)  # the game's zones, first
            recognizer.rezone(now)  # superseded by the cards told below
            lying = recognizer.lying(now)
            self._replayed = {o.payload for o in lying}
            for observation in lying:
                self.execute(live, self.rules.observe(observation, facts, now))
                facts = self._facts_for(live)
            self._cards_changed()

    def execute(self, live, decisions: list) -> None:
        """Carry out the rules' decisions in ``live`` (the camera thread, holding ``_lock``:
        the rules and the game it acts in stay its own meanwhile). What each decision means
        is `camera_plan.plan`'s (a pure function); here only its steps are carried out, in
        order: an applied action puts the steps of the rules' next tick first (a reveal may
        open the next prompt, a turn to preview)."""
        locks.owned(self._lock, "the camera's rules")
        if not decisions or self._done_already(decisions):  # most frames' tick, while
            return  # cards lie still: no plan made, nothing carried out
        game = camera_plan.table_game(live)
        steps = deque(camera_plan.plan(decisions, game, self._acting()))
        notify = False
        while steps:
            step = steps.popleft()
            if isinstance(step, camera_plan.Apply):
                try:
                    self.service.act(step.identity, step.action)
                except Refused as refusal:
                    notify |= self._warn(camera_plan.refused(refusal, step.action, game),
                                         live.id)
                    continue
                log.info("camera: %s", step.action)
                more = self.rules.tick(self._facts_for(live), time.monotonic())
                steps.extendleft(reversed(camera_plan.plan(more, game, self._acting())))
            elif isinstance(step, Preview):
                try:
                    self.service.set_preview(live.id, step.action)
                except Refused as refusal:
                    log.info("camera: preview refused: %s", refusal)
            elif isinstance(step, Select):
                notify |= self._select(step)
            elif isinstance(step, camera_plan.KeepWarning):
                notify |= self._warn(step, live.id)
            elif isinstance(step, camera_plan.WouldDo):
                self._would(step, live.id)
        if notify:
            self._changed()

    def _done_already(self, decisions: list) -> bool:
        """Every decision a pre-selection the phones already show (or, not acting, one the
        plan drops): the tick of an action card lying still in a seat's zone, 30 frames a
        second, which would make a plan and carry out nothing (issue 71)."""
        if not all(isinstance(d, Select) for d in decisions):
            return False
        with self._shown_lock:
            return not self.acting or all(
                self._selected.get(d.seat) == d.card if d.card is not None
                else d.seat not in self._selected for d in decisions)

    def _acting(self) -> bool:
        with self._shown_lock:
            return self.acting

    def _select(self, step: Select) -> bool:
        """A card pre-selected on a seat's phone (or cleared); True if that changed."""
        with self._shown_lock:
            if step.card is None:
                return self._selected.pop(step.seat, None) is not None
            if self._selected.get(step.seat) == step.card:
                return False
            self._selected[step.seat] = step.card
            return True

    def _would(self, step: camera_plan.WouldDo, game_id: str) -> None:
        """Not acting: what would have been done goes to the host's camera page only (of
        ``game_id``, the game it was for), once."""
        what = {"action": step.action, "at": round(time.time(), 3), "kind": step.kind,
                "game": game_id}
        with self._shown_lock:
            if all(w["action"] != what["action"] for w in self._would_do):
                self._would_do.append(what)

    def _warn(self, warning: camera_plan.KeepWarning, game_id: str | None = None) -> bool:
        """Keep a warning for the views: code, params, the English template and the game
        it concerns (its ids are that game's: another game's page does not show it)."""
        code, params = warning.code, warning.params
        with self._shown_lock:
            same = [w for w in self._warnings if w["code"] == code and w["params"] == params
                    and w.get("game") == game_id]
            if same:  # the same warning again (a card still lying there): said once, counted
                self._warnings.remove(same[0])
                self._warnings.append(dict(same[0], at=round(time.time(), 3),
                                          count=same[0].get("count", 1) + 1))
                return False
            self._warnings.append({"code": code, "params": params,
                                  "template": warning.template,
                                  "at": round(time.time(), 3), "game": game_id})
        log.warning("camera: %s %s (not applied)", code, params)
        return True

ABSENT = {"state": "absent", "detail": "no camera configured (camera.source)"}


def source_spec(settings: Settings) -> str | None:
    """Which source to run: camera.source (from the command line or app config
    ``CAMERA_SOURCE``, $COMPANION_CAMERA or config.json, in that order of precedence).

    With camera.simulate "auto" ($COMPANION_CAMERA_SIMULATE=auto, `make run`) an unset or
    "auto" source becomes the attached camera when there is one, else the synthetic table.
    """
    spec = settings.camera.source
    if (not spec or spec == "auto") and settings.camera.simulate == "auto":
        spec = "auto" if camera_attached() else "synthetic"
    return spec or None


def start(settings: Settings, service: GameService, changed, judge=None
          ) -> CameraWiring | None:
    """The hardware manager's hook: run the configured camera, or None when none is
    configured (its status is then `ABSENT`); ``judge`` the app's `FaceJudge`.

    "synthetic" plays the synthetic table (for `make run` without a camera).
    """
    from hardware.camera.settings import build_recognizer, rpicam_options

    spec = source_spec(settings)
    if not spec:
        return None
    live = service.access.current()
    info = catalog = None
    if live is not None:
        info, catalog = live.kind.module.info, live.kind.catalog
    else:
        from companion.box.catalog import load_kind
        from companion.game.games import known

        try:
            kind = load_kind(known()[0], str(settings.data_dir))
            info, catalog = kind.module.info, kind.catalog
        except Exception:  # no game installed, or its catalog broken: a camera without
            # demo cards still runs
            log.warning("camera: no game to take demo cards from", exc_info=True)
    camera, config = settings.camera, settings.config_path
    recognizer = build_recognizer(camera, config)
    options = rpicam_options(camera, config, os.environ.get("LANG", "").partition(".")[0])
    wiring = CameraWiring(service, changed, _source_for(str(spec), info, catalog, service,
                                                        settings.data_dir, options),
                          recognizer, camera.orient_commit_s, config)
    wiring.own_zones = bool(camera.zones)
    wiring.acting = not str(spec).startswith("synthetic")
    wiring.use_zones(info)
    wiring.attach_faces(settings.data_dir, judge)  # before its thread starts: never replaced
    from companion.wiring.focus_watch import FocusWatch

    wiring.focus_watch = FocusWatch(list(recognizer.marker_positions.values()))
    wiring.listen(wiring.focus_watch)
    return wiring.start()

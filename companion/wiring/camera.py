"""Camera observations -> World Without End actions (issue 4 §5).

`CameraRules` is plain logic, no threads and no I/O: fed observations and clock ticks plus a
`Table` snapshot of the game, it returns decisions. `CameraWiring` runs the camera service
and carries the decisions out on the server's `GameService`; `start()` is the hook
`companion.hardware_manager` calls.

- An event card entering the council space while the game waits for `reveal_event` is
  revealed (`by: "table"`). Its rotation is previewed (`service.set_preview`) while the
  active player turns it, and committed as `orient_event` by the active seat once it has
  been stable for `orient_commit_s` seconds (camera.orient_commit_s in config.json,
  default 2.0). Confirming on the phone earlier simply ends the prompt first.
- An action card laid face up in a seat's zone is published as that seat's pre-selection
  in the camera status (`hardware.camera.selected[seat]`), which every view carries.
- Unknown codes are ignored with a log line. A card that contradicts the game (another
  game's card, an event already used, a reveal the engine refuses) becomes a warning in
  the camera status (`hardware.camera.warnings`) and a log line; it is never applied.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from engine.api import Refused
from hardware.camera.tracker import Appeared, MovedZone, Observation, Removed, Turned, UnknownCode
from hardware.tags.format import code_table

log = logging.getLogger(__name__)

# English templates of the camera's own warning codes (gettext msgids, like engine REASONS)
MESSAGES = {
    "camera_other_game": "A card of another game ({game}) was seen on the table.",
    "camera_event_not_expected": "Event card {card} was laid on the council space, but no "
                                 "event is to be revealed now.",
    "camera_marker_not_seen": "The board marker is not in view of the camera.",
}

COUNCIL = "council"
SEAT_ZONE = "seat:"
CARD_PARTS = {"event": "event_cards", "action": "action_cards"}


# ---- what the rules need to know about the game ----------------------------------------
@dataclass(frozen=True)
class Table:
    game: str  # namespace on the stickers, e.g. "wwe"
    cards: dict  # (kind, code) -> catalog id
    prompt_kind: str | None
    prompt_seat: str | None
    event: str | None  # the event card currently in play (revealed), if any


def card_index(catalog: dict) -> dict[tuple[str, str], str]:
    """(kind, short code) -> catalog id for every card that has a sticker."""
    out = {}
    for kind, part in CARD_PARTS.items():
        entries = catalog.get(part) or []
        for code, catalog_id in code_table(e["id"] for e in entries).items():
            out[(kind, code)] = catalog_id
    return out


def card_labels(game: str, catalog: dict, lang: str = "en") -> dict[str, str]:
    """payload -> printed card name, for overlays."""
    from hardware.tags.format import card_payload

    out = {}
    for kind, part in CARD_PARTS.items():
        for entry in catalog.get(part) or []:
            names = entry.get("names") or {}
            out[card_payload(game, kind, entry["id"])] = names.get(lang) or entry["id"]
    return out


def table_of(live, index: dict | None = None) -> Table:
    """A `Table` from a `companion.service.LiveGame`."""
    module = live.kind.module
    prompts = module.prompts(live.state)
    first = prompts[0] if prompts else None
    event = module.public_view(live.state).get("event")
    return Table(live.kind.name, index if index is not None else card_index(live.kind.catalog),
                 first.kind if first else None, first.seat if first else None,
                 event.get("id") if isinstance(event, dict) else event)


# ---- decisions -------------------------------------------------------------------------
@dataclass(frozen=True)
class Act:
    action: dict
    seat: str | None = None  # None: recorded by the table; else acts for this seat


@dataclass(frozen=True)
class Preview:
    rotation: int


@dataclass(frozen=True)
class Select:
    seat: str
    card: str | None  # None: the seat's zone no longer holds a card


@dataclass(frozen=True)
class Warn:
    code: str
    params: dict = field(default_factory=dict)


Decision = Act | Preview | Select | Warn


class CameraRules:
    """Decides what observations mean for the game. Plain and deterministic (time passed in)."""

    def __init__(self, orient_commit_s: float = 2.0) -> None:
        self.orient_commit_s = orient_commit_s
        self.council: dict[str, tuple[int, float]] = {}  # event id -> (rotation, stable since)
        self.previewed: tuple[str, int] | None = None
        self.tried: tuple[str, int] | None = None  # orientation already sent (or refused)
        self.prompt_opened: tuple[str, float] | None = None  # (event, when orienting began)

    def observe(self, observation: Observation, table: Table, now: float) -> list[Decision]:
        if isinstance(observation, UnknownCode):
            log.info("camera: ignoring a code that is not a card tag (%s): %r",
                     observation.reason, observation.payload)
            return []
        tag = observation.tag
        if tag.namespace != table.game:
            if isinstance(observation, Appeared):
                return [Warn("camera_other_game", {"game": tag.namespace, "code": tag.code})]
            return []
        card = table.cards.get((tag.kind, tag.code))
        if card is None:
            log.info("camera: no %s card with code %s in the %s catalog", tag.kind, tag.code,
                     table.game)
            return []
        if tag.kind == "event":
            return self._event(observation, card, table, now)
        if tag.kind == "action":
            return self._action(observation, card)
        return []

    def _event(self, o: Observation, card: str, table: Table, now: float) -> list[Decision]:
        entering = isinstance(o, (Appeared, MovedZone)) and o.zone == COUNCIL
        leaving = isinstance(o, Removed) or (isinstance(o, MovedZone) and o.zone != COUNCIL)
        if leaving:
            self.council.pop(card, None)
            return []
        if isinstance(o, Turned) and card in self.council:
            self.council[card] = (o.rotation, now)
            return self.tick(table, now)
        if not entering:
            return []
        self.council[card] = (o.rotation, now)
        if table.prompt_kind == "reveal_event":
            return [Act({"type": "reveal_event", "card": card})]
        if card == table.event:
            return self.tick(table, now)
        return [Warn("camera_event_not_expected", {"card": card})]

    def _action(self, o: Observation, card: str) -> list[Decision]:
        out: list[Decision] = []
        previous = getattr(o, "previous", None) if isinstance(o, MovedZone) else None
        if isinstance(o, Removed) and o.zone and o.zone.startswith(SEAT_ZONE):
            out.append(Select(o.zone[len(SEAT_ZONE):], None))
        if previous and previous.startswith(SEAT_ZONE):
            out.append(Select(previous[len(SEAT_ZONE):], None))
        if isinstance(o, (Appeared, MovedZone)) and o.zone and o.zone.startswith(SEAT_ZONE):
            out.append(Select(o.zone[len(SEAT_ZONE):], card))
        return out

    def tick(self, table: Table, now: float) -> list[Decision]:
        """Preview the current event's rotation; commit it once stable long enough."""
        if table.prompt_kind != "orient_event" or table.event not in self.council:
            return []
        if self.prompt_opened is None or self.prompt_opened[0] != table.event:
            self.prompt_opened = (table.event, now)
        rotation, since = self.council[table.event]
        # the card must lie still for the whole time *after* the game asks for the turn
        # (a target choice or a plague token may come first)
        since = max(since, self.prompt_opened[1])
        out: list[Decision] = []
        if self.previewed != (table.event, rotation):
            self.previewed = (table.event, rotation)
            out.append(Preview(rotation))
        if now - since >= self.orient_commit_s and self.tried != (table.event, rotation):
            self.tried = (table.event, rotation)
            out.append(Act({"type": "orient_event", "rotation": rotation}, table.prompt_seat))
        return out


# ---- running it on the server ----------------------------------------------------------
def _settings(app):
    from hardware.camera.settings import load_settings

    config = Path(app.config["DATA_DIR"]) / "config.json"
    return load_settings(config), config


def _source_for(spec: str, catalog: dict | None):
    """The frame source; the synthetic one shows a real chapter-1 event card of the catalog."""
    from hardware.camera.sources import SyntheticSource, open_source
    from hardware.tags.format import card_payload

    if spec == "synthetic" or spec.startswith("synthetic:"):
        events = [e for e in (catalog or {}).get("event_cards", []) if e.get("chapter") == 1]
        starred = [e for e in events if e.get("starred")] or events
        event = card_payload("wwe", "event", starred[0]["id"]) if starred else None
        action = card_payload("wwe", "action", "grain")
        return SyntheticSource(int(spec.partition(":")[2] or 0), event=event, action=action)
    return open_source(spec)


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
        self.selected: dict[str, str] = {}
        self.warnings: deque[dict] = deque(maxlen=self.MAX_WARNINGS)
        self.labels: dict[str, str] = {}  # payload -> card name, for the preview overlay
        self.last: tuple | None = None  # (frame, result) of the latest processed frame
        self._indexes: dict[str, dict] = {}
        self._lock = threading.Lock()
        self.camera = CameraService(source, recognizer, on_observation=self.on_observation,
                                    on_status=lambda s, d: self._changed(),
                                    on_frame=self.on_frame)

    def start(self) -> CameraWiring:
        self.camera.start()
        return self

    def stop(self) -> None:
        self.camera.stop()

    def status(self) -> dict:
        stats = self.camera.stats()
        state = {"ok": "ok", "lost": "error", "starting": "starting"}.get(stats["status"],
                                                                          stats["status"])
        return {"state": state, "detail": stats["detail"], "fps": stats["fps"],
                "decode_ms": stats["decode_ms"], "calibration": stats["calibration"],
                "selected": dict(self.selected), "warnings": list(self.warnings)}

    def _changed(self) -> None:
        try:
            self.changed()
        except Exception:
            log.exception("camera: re-sending views failed")

    def _table(self, live) -> Table:
        index = self._indexes.get(live.kind.name)
        if index is None:
            index = self._indexes[live.kind.name] = card_index(live.kind.catalog)
            self.labels.update(card_labels(live.kind.name, live.kind.catalog))
        return table_of(live, index)

    def save_calibration(self) -> dict:
        """The calibration wizard's last step: keep the marker's north for when it is gone.

        Raises Refused("camera_marker_not_seen") unless the marker is in the latest frame."""
        from hardware.camera import calibration as calibration_file

        calibration = self.camera.recognizer.calibration  # one consistent reading
        if self.last is None or not self.last[1].marker_seen or self.config_path is None:
            raise Refused("camera_marker_not_seen")
        calibration_file.save(self.config_path, calibration)
        return calibration.to_json()

    def sticker_report(self) -> dict:
        """Pixels per module of the symbols in the latest frame (the wizard warns below 3)."""
        from hardware.camera import calibration as calibration_file

        return calibration_file.sticker_report(self.last[1].detections if self.last else [])

    def preview_jpeg(self) -> bytes | None:
        """The latest frame with overlays (codes, names, rotation, zones, fps, decode ms)."""
        from hardware.camera.overlay import draw_overlay, jpeg

        if self.last is None:
            return None
        frame, result = self.last
        recognizer = self.camera.recognizer
        return jpeg(draw_overlay(frame.image, result, recognizer.zones, recognizer.calibration,
                                 self.labels, self.camera.stats()["fps"]))

    def mjpeg(self, fps: float = 10.0, stop=None):
        """multipart/x-mixed-replace chunks (boundary "frame") for an MJPEG <img> preview."""
        while stop is None or not stop.is_set():
            data = self.preview_jpeg()
            if data is not None:
                yield (b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                       + str(len(data)).encode() + b"\r\n\r\n" + data + b"\r\n")
            time.sleep(1.0 / fps)

    def on_observation(self, observation: Observation) -> None:
        live = self.service.current()
        if live is None:
            return
        with self._lock:
            decisions = self.rules.observe(observation, self._table(live), time.monotonic())
            self.execute(live, decisions)

    def on_frame(self, frame, result) -> None:
        self.last = (frame, result)
        if not self.rules.council:
            return
        live = self.service.current()
        if live is None:
            return
        with self._lock:
            self.execute(live, self.rules.tick(self._table(live), time.monotonic()))

    def execute(self, live, decisions: list[Decision]) -> None:
        from companion.service import Identity

        notify = False
        for decision in decisions:
            if isinstance(decision, Act):
                identity = (Identity("table", live.id) if decision.seat is None
                            else Identity("seat", live.id, decision.seat))
                try:
                    self.service.act(identity, decision.action)
                    log.info("camera: %s", decision.action)
                    # a reveal opens the orientation prompt: preview at once
                    more = self.rules.tick(self._table(live), time.monotonic())
                    self.execute(live, more)
                except Refused as refusal:
                    template = live.kind.reasons.get(refusal.code, refusal.code)
                    notify |= self._warn(refusal.code, dict(refusal.params,
                                                            action=decision.action["type"]),
                                         template)
            elif isinstance(decision, Preview):
                try:
                    self.service.set_preview(live.id, decision.rotation)
                except Refused as refusal:
                    log.info("camera: preview refused: %s", refusal)
            elif isinstance(decision, Select):
                if decision.card is None:
                    notify |= self.selected.pop(decision.seat, None) is not None
                elif self.selected.get(decision.seat) != decision.card:
                    self.selected[decision.seat] = decision.card
                    notify = True
            elif isinstance(decision, Warn):
                notify |= self._warn(decision.code, decision.params)
        if notify:
            self._changed()

    def _warn(self, code: str, params: dict, template: str | None = None) -> bool:
        """Keep a warning for the views: code, params and the English template."""
        log.warning("camera: %s %s (not applied)", code, params)
        self.warnings.append({"code": code, "params": params,
                              "template": template or MESSAGES.get(code, code),
                              "at": round(time.time(), 3)})
        return True


class _Absent:
    def status(self) -> dict:
        return {"state": "absent", "detail": "no camera configured (camera.source)"}


def camera_attached() -> bool:
    """A Pi Camera (picamera2 importable) or a V4L2 device node is present."""
    from hardware.camera.sources import Picamera2Source

    return Picamera2Source.available() or any(Path("/dev").glob("video[0-9]*"))


def source_spec(app, configured: str | None) -> str | None:
    """Which source to run: app config, else $COMPANION_CAMERA, else config.json.

    With COMPANION_CAMERA_SIMULATE=auto (`make run`) an unset or "auto" source becomes the
    attached camera when there is one, else the synthetic table.
    """
    spec = app.config.get("CAMERA_SOURCE") or os.environ.get("COMPANION_CAMERA") or configured
    if (not spec or spec == "auto") and os.environ.get("COMPANION_CAMERA_SIMULATE") == "auto":
        spec = "auto" if camera_attached() else "synthetic"
    return spec or None


def start(app, service, changed):
    """The hardware manager's hook: run the configured camera, or report it absent.

    Source: app.config["CAMERA_SOURCE"], else $COMPANION_CAMERA, else config.json
    camera.source; "synthetic" plays the synthetic table (for `make run` without a camera).
    """
    from hardware.camera.settings import build_recognizer

    settings, config = _settings(app)
    spec = source_spec(app, settings.source)
    if not spec:
        return _Absent()
    live = service.current()
    catalog = live.kind.catalog if live is not None else None
    if catalog is None:
        try:
            from companion.catalog import load_catalog

            catalog = load_catalog("wwe", Path(app.config["DATA_DIR"]))
        except Exception:
            catalog = None
    wiring = CameraWiring(service, changed, _source_for(str(spec), catalog),
                          build_recognizer(settings, config), settings.orient_commit_s, config)
    return wiring.start()

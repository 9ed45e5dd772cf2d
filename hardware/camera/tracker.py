"""From per-frame sightings to debounced observations: Appeared, Turned, MovedZone, Removed.

Decoders miss far more often than they lie, so the debounce is asymmetric: a card, a new
rotation or a new zone is accepted after `appear_frames` agreeing frames in a row (about
67 ms at 30 fps), while a card is declared removed only after `vanish_frames` frames in a
row without it. Rotation classes use hysteresis (hardware.camera.rotation).

A turn is committed only on agreeing evidence, since a wrong turn of World Without End's
event card is a wrong income for the whole table, worse than none: a card appears only once
its `appear_frames` confirming reads agree on its quarter turn (a read half round from the
others keeps it waiting), and a turn to the opposite quarter needs `opposite_frames`
agreeing frames in a row (one misread symbol cannot flip a card; a real half turn by hand
passes through the quarter between, or takes a few frames more).

Each read's turn must also be beyond doubt on its own (`StickerRead.turn_sure`: the three
finder patterns the read names are finder patterns in the picture, its data corner is not,
hardware.camera.orientation); a read that is not keeps the card there but casts no vote on
its turn: the card waits to appear, and a card on the table keeps its turn.

A card that is not decoded but still *present* (the recogniser found its sticker-like patch
near where the card's motion puts it: a slide with motion blur, glare) keeps its track
without counting a miss, for at most `coast_frames` frames in a row: a slide of any length
stays one card and ends in one MovedZone, while a lifted card (no patch left) is removed
after the same `vanish_frames`.

Payloads that are not our tags are reported once per appearance as `UnknownCode` (for a
log line) and never produce card observations.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from hardware.camera.rotation import HYSTERESIS_DEG, quarter_with_hysteresis
from hardware.tags.format import Tag


@dataclass(frozen=True)
class StickerRead:
    """One card's sticker decoded in one frame, already in board terms (what a game is told
    of a card is engine.api's `Sighting`, made from the tracker's observations)."""

    payload: str
    tag: Tag | None  # None when the payload is not a tag we read
    position: tuple[float, float]  # board mm
    angle: float  # degrees clockwise from board north
    zone: str | None
    reason: str | None = None  # TagError code when tag is None
    # the read's finder patterns checked in the picture (hardware.camera.orientation): a
    # read that is not sure counts for the card being there, never for its turn
    turn_sure: bool = True


@dataclass(frozen=True)
class Appeared:
    payload: str
    tag: Tag
    zone: str | None
    rotation: int  # quarter turns clockwise from board north
    position: tuple[float, float]
    at: float
    confidence: float


@dataclass(frozen=True)
class Turned:
    payload: str
    tag: Tag
    zone: str | None
    rotation: int
    previous: int
    at: float
    confidence: float


@dataclass(frozen=True)
class MovedZone:
    payload: str
    tag: Tag
    zone: str | None
    previous: str | None
    rotation: int
    at: float
    confidence: float


@dataclass(frozen=True)
class Removed:
    payload: str
    tag: Tag
    zone: str | None
    rotation: int
    at: float
    confidence: float


@dataclass(frozen=True)
class UnknownCode:
    """A QR code that is not one of our tags (another app's code, an unsupported version)."""

    payload: str
    reason: str
    at: float


Observation = Appeared | Turned | MovedZone | Removed | UnknownCode


@dataclass(frozen=True)
class TrackerSettings:
    appear_frames: int = 2
    opposite_frames: int = 4  # agreeing frames before a card is taken as turned half round
    vanish_frames: int = 8
    hysteresis_deg: float = HYSTERESIS_DEG
    confidence_window: int = 10
    coast_frames: int = 150  # frames a present-but-unread card is kept without a miss
    hide_frames: int = 150  # frames a card hidden by a hand counts no miss (5 s at 30 fps)


@dataclass
class _Track:
    sighting: StickerRead
    streak: int = 1  # frames in a row seen (before confirmation)
    confirmed: bool = False
    misses: int = 0
    coasting: int = 0  # frames in a row present but not decoded
    hiding: int = 0  # frames in a row hidden (something over its place)
    rotation: int = 0
    zone: str | None = None
    pending_rotation: tuple[int, int] | None = None  # (class, agreeing frames)
    pending_zone: tuple[str | None, int] | None = None
    angles: deque = field(default_factory=lambda: deque(maxlen=8))  # reads before confirmed
    history: deque = field(default_factory=lambda: deque(maxlen=10))


class Tracker:
    def __init__(self, settings: TrackerSettings | None = None) -> None:
        self.settings = settings or TrackerSettings()
        self.tracks: dict[str, _Track] = {}

    def confirmed(self) -> dict[str, _Track]:
        return {p: t for p, t in self.tracks.items() if t.confirmed}

    def _confidence(self, track: _Track) -> float:
        return round(sum(track.history) / len(track.history), 2) if track.history else 0.0

    def unsettled(self) -> list[str]:
        """Tracks whose state may still change without anything new in view: waiting for
        their debounce, missing, hidden or coasting (the recogniser keeps looking there)."""
        return [p for p, t in self.tracks.items()
                if not t.confirmed or t.misses or t.hiding or t.coasting
                or t.pending_rotation or t.pending_zone]

    def update(self, sightings: list[StickerRead], at: float,
               present: frozenset[str] | set[str] = frozenset(),
               hidden: frozenset[str] | set[str] = frozenset(),
               still: frozenset[str] | set[str] = frozenset()) -> list[Observation]:
        """Feed one frame's sightings (one per payload); returns the observations it causes.

        ``present``: payloads not decoded in this frame but whose sticker the recogniser still
        found where the card should be; they count no miss (up to ``coast_frames``).
        ``hidden``: something (a hand) is over their place: no miss, for up to
        ``hide_frames`` in a row. ``still``: their place has not changed since they were
        read: nothing counts."""
        s = self.settings
        out: list[Observation] = []
        seen = {}
        for sighting in sightings:
            seen.setdefault(sighting.payload, sighting)
        for payload, sighting in seen.items():
            track = self.tracks.get(payload)
            if track is None:
                track = self.tracks[payload] = _Track(sighting)
                track.history = deque(maxlen=s.confidence_window)
                track.history.append(1)
                track.rotation = quarter_with_hysteresis(sighting.angle, None)
                track.zone = sighting.zone
                if sighting.turn_sure:
                    track.angles.append(sighting.angle)
            else:
                track.history.append(1)
                track.sighting = sighting
                track.misses = track.coasting = track.hiding = 0
                if not track.confirmed:
                    track.streak += 1
                    if sighting.turn_sure:
                        track.angles.append(sighting.angle)
            if not track.confirmed:
                if track.streak >= s.appear_frames and self._agreed(track):
                    track.confirmed = True
                    track.rotation = quarter_with_hysteresis(sighting.angle, None)
                    track.zone = sighting.zone
                    if sighting.tag is None:
                        out.append(UnknownCode(payload, sighting.reason or "tag_not_ours", at))
                    else:
                        out.append(Appeared(payload, sighting.tag, track.zone, track.rotation,
                                            sighting.position, at, self._confidence(track)))
                continue
            if sighting.tag is None:
                continue
            out.extend(self._follow(track, sighting, at))
        for payload in list(self.tracks):
            if payload in seen or payload in still:
                continue
            track = self.tracks[payload]
            track.history.append(0)
            if not track.confirmed:  # a single sighting that was not repeated: forget it
                del self.tracks[payload]
                continue
            track.pending_rotation = track.pending_zone = None
            if payload in present and track.coasting < s.coast_frames:
                track.coasting += 1
                track.misses = track.hiding = 0
                continue
            if payload in hidden and track.hiding < s.hide_frames:
                track.hiding += 1
                continue
            track.misses += 1
            if track.misses >= s.vanish_frames:
                del self.tracks[payload]
                if track.sighting.tag is not None:
                    out.append(Removed(payload, track.sighting.tag, track.zone, track.rotation,
                                       at, self._confidence(track)))
        return out

    def rezone(self, zone_of, at: float) -> list[Observation]:
        """The zones or the calibration changed (the game's zones arrived, the board marker
        was seen for the first time): every confirmed card takes the zone ``zone_of(payload)``
        gives for where it was last read (a `MovedZone` when that differs), without waiting
        for it to be read or moved again. ``zone_of`` returns ... (Ellipsis) when unknown."""
        out: list[Observation] = []
        for payload, track in self.tracks.items():
            zone = zone_of(payload)
            if not track.confirmed or zone is ... or zone == track.zone:
                continue
            previous, track.zone, track.pending_zone = track.zone, zone, None
            if track.sighting.tag is not None:
                out.append(MovedZone(payload, track.sighting.tag, zone, previous,
                                     track.rotation, at, self._confidence(track)))
        return out

    def lying(self, at: float) -> list[Appeared]:
        """Every confirmed card as an `Appeared` (its zone, rotation and last position): what
        lies on the table now, for a listener that starts after the cards were laid."""
        return [Appeared(p, t.sighting.tag, t.zone, t.rotation, t.sighting.position, at,
                         self._confidence(t))
                for p, t in self.tracks.items() if t.confirmed and t.sighting.tag is not None]

    def _agreed(self, track: _Track) -> bool:
        """The last `appear_frames` reads of an unconfirmed card put it in one quarter turn
        (each within the hysteresis band of the latest read's class)."""
        recent = list(track.angles)[-self.settings.appear_frames:]
        if len(recent) < self.settings.appear_frames:  # not enough reads sure of the turn
            return False
        quarter = quarter_with_hysteresis(recent[-1], None)
        return all(quarter_with_hysteresis(a, quarter, self.settings.hysteresis_deg) == quarter
                   for a in recent)

    def _follow(self, track: _Track, sighting: StickerRead, at: float) -> list[Observation]:
        s = self.settings
        out: list[Observation] = []
        tag = sighting.tag
        wanted = quarter_with_hysteresis(sighting.angle, track.rotation, s.hysteresis_deg)
        if not sighting.turn_sure:
            pass  # no vote on the turn: the turn stands, a pending one neither grows nor ends
        elif wanted == track.rotation:
            track.pending_rotation = None
        else:
            count = track.pending_rotation[1] + 1 if (
                track.pending_rotation and track.pending_rotation[0] == wanted) else 1
            track.pending_rotation = (wanted, count)
            needed = s.opposite_frames if (wanted - track.rotation) % 4 == 2 else s.appear_frames
            if count >= needed:
                previous, track.rotation, track.pending_rotation = track.rotation, wanted, None
                out.append(Turned(sighting.payload, tag, track.zone, wanted, previous, at,
                                  self._confidence(track)))
        if sighting.zone == track.zone:
            track.pending_zone = None
        else:
            count = track.pending_zone[1] + 1 if (
                track.pending_zone and track.pending_zone[0] == sighting.zone) else 1
            track.pending_zone = (sighting.zone, count)
            if count >= s.appear_frames:
                previous, track.zone, track.pending_zone = track.zone, sighting.zone, None
                out.append(MovedZone(sighting.payload, tag, track.zone, previous,
                                     track.rotation, at, self._confidence(track)))
        return out


def to_json(observation: Observation) -> dict:
    """A JSON-ready dict: the observation's type and fields, the tag split out."""
    out = {"type": type(observation).__name__}
    for name in observation.__dataclass_fields__:
        value = getattr(observation, name)
        if isinstance(value, Tag):
            out.update(namespace=value.namespace, kind=value.kind, code=value.code)
        elif isinstance(value, tuple):
            out[name] = [round(v, 1) for v in value]
        elif isinstance(value, float):
            out[name] = round(value, 3)
        else:
            out[name] = value
    return out

"""Debounce, hysteresis and zones of the tracker, fed sighting by sighting."""
import pytest

from engine.wwe.bindings import ZONES
from hardware.camera.rotation import angular_distance, quarter_with_hysteresis
from hardware.camera.tracker import (
    Appeared,
    MovedZone,
    Removed,
    StickerRead,
    Tracker,
    TrackerSettings,
    Turned,
    UnknownCode,
)
from hardware.camera.zones import ZoneMap, rects
from hardware.tags.format import card_payload, parse

DEMO_ZONES = rects((z.id, z.rect) for z in ZONES)  # a game's declared zones
CARD = card_payload("wwe", "E", "because_the_works")


def seen(angle=0.0, zone="council", payload=CARD, position=(0.0, 60.0)):
    return StickerRead(payload, parse(payload), position, angle, zone)


def run(tracker, frames):
    """Feed frames (each a list of sightings); returns (frame index, observation) pairs."""
    out = []
    for index, sightings in enumerate(frames):
        out += [(index, o) for o in tracker.update(sightings, at=index / 30)]
    return out


def test_a_card_appears_after_two_agreeing_frames_only():
    tracker = Tracker()
    assert run(tracker, [[seen()], [], [seen()], []]) == []  # single sightings never count
    events = run(Tracker(), [[seen(3)], [seen(-4)]])
    assert [(i, type(o), o.rotation, o.zone) for i, o in events] == [(1, Appeared, 0, "council")]
    assert events[0][1].at == pytest.approx(1 / 30)


def test_a_card_is_removed_only_after_several_missed_frames():
    tracker = Tracker(TrackerSettings(vanish_frames=5))
    frames = [[seen()], [seen()], [], [], [], [], [seen()], [], [], [], [], []]
    events = run(tracker, frames)
    assert [(i, type(o).__name__) for i, o in events] == [(1, "Appeared"), (11, "Removed")]
    assert events[-1][1].confidence < events[0][1].confidence


def test_appear_and_vanish_counts_are_configurable():
    tracker = Tracker(TrackerSettings(appear_frames=4, vanish_frames=2))
    events = run(tracker, [[seen()]] * 4 + [[], []])
    assert [(i, type(o).__name__) for i, o in events] == [(3, "Appeared"), (5, "Removed")]


def test_turn_needs_agreeing_frames_and_hysteresis():
    tracker = Tracker()
    frames = [[seen(0)], [seen(0)],
              [seen(50)], [seen(54)], [seen(52)],  # inside the 55 degree band: still 0
              [seen(70)],  # one frame beyond the band is not enough
              [seen(40)],
              [seen(80)], [seen(88)],  # two agreeing frames: turned to 1
              [seen(40)], [seen(38)]]  # back to 40 degrees stays 1 (hysteresis)
    events = run(tracker, frames)
    turned = [(i, o.rotation, o.previous) for i, o in events if isinstance(o, Turned)]
    assert turned == [(8, 1, 0)]


def test_turning_all_the_way_round():
    frames = [[seen(a)] for a in [0, 0, 90, 90, 180, 180, 270, 270, 355, 2]]
    turned = [(o.previous, o.rotation) for _, o in run(Tracker(), frames)
              if isinstance(o, Turned)]
    assert turned == [(0, 1), (1, 2), (2, 3), (3, 0)]


@pytest.mark.parametrize("angle, current, expected", [
    (44, 0, 0), (46, 0, 0), (56, 0, 1), (306, 0, 0), (304, 0, 3), (134, 1, 1), (146, 1, 2),
    (10, None, 0), (46, None, 1), (359, 3, 0),
])
def test_hysteresis_classes(angle, current, expected):
    assert quarter_with_hysteresis(angle, current) == expected


def test_angular_distance_wraps():
    assert angular_distance(350, 10) == 20
    assert angular_distance(0, 180) == 180


def test_moving_between_zones():
    frames = [[seen(zone="seat:S")], [seen(zone="seat:S")], [seen(zone="seat:W")],
              [seen(zone="seat:W")], [seen(zone=None)], [seen(zone=None)]]
    moved = [(i, o.previous, o.zone) for i, o in run(Tracker(), frames)
             if isinstance(o, MovedZone)]
    assert moved == [(3, "seat:S", "seat:W"), (5, "seat:W", None)]


def test_unknown_payloads_are_reported_once_and_never_as_cards():
    junk = StickerRead("HELLO", None, (0, 0), 0, "council", "tag_not_ours")
    events = run(Tracker(), [[junk], [junk], [junk]] + [[]] * 10 + [[junk], [junk]])
    assert [(i, type(o)) for i, o in events] == [(1, UnknownCode), (14, UnknownCode)]
    assert all(not isinstance(o, (Appeared, Removed)) for _, o in events)


def test_two_cards_are_tracked_independently():
    other = card_payload("wwe", "A", "grain")
    frames = [[seen(), seen(payload=other, zone="seat:N")],
              [seen(), seen(payload=other, zone="seat:N")]] + [[seen()]] * 8
    events = run(Tracker(), frames)
    kinds = [(type(o).__name__, o.payload) for _, o in events]
    assert kinds == [("Appeared", CARD), ("Appeared", other), ("Removed", other)]


def test_zone_map_default_and_custom():
    assert ZoneMap().zone_at((0, 60)) is None  # hardware knows no game: no zones by default
    zones = ZoneMap(DEMO_ZONES)
    assert zones.zone_at((0, 60)) == "council"
    assert zones.zone_at((130, 130)) == "seat:S"
    assert zones.zone_at((0, 0)) is None
    custom = ZoneMap({"council": {"x0": 0, "y0": 0, "x1": 10, "y1": 10},
                      "seat:N": [[20, 0], [30, 0], [25, 10]]})
    assert custom.zone_at((5, 5)) == "council"
    assert custom.zone_at((25, 2)) == "seat:N"
    assert custom.zone_at((21, 9)) is None  # outside the triangle
    assert set(zones.to_json()) == set(DEMO_ZONES)
    with pytest.raises(ValueError):
        ZoneMap({"bad": [[0, 0], [1, 1]]})


def test_a_present_card_is_kept_and_a_lifted_one_removed_after_the_vanish_frames():
    """Present = not decoded, but the recogniser still sees its sticker where it should be
    (a slide under motion blur): no miss is counted, for at most coast_frames frames."""
    tracker = Tracker(TrackerSettings(vanish_frames=3, coast_frames=5))
    frames = [[seen()], [seen()]] + [[]] * 4 + [[seen(zone="seat:N")]] * 2
    present = [set(), set()] + [{CARD}] * 4 + [set(), set()]
    events = [(i, type(o).__name__, getattr(o, "zone", None))
              for i, sightings in enumerate(frames)
              for o in tracker.update(sightings, i / 30, present[i])]
    assert events == [(1, "Appeared", "council"), (7, "MovedZone", "seat:N")]

    tracker = Tracker(TrackerSettings(vanish_frames=3, coast_frames=5))
    tracker.update([seen()], 0)
    tracker.update([seen()], 0)
    kinds = [type(o).__name__ for i in range(12) for o in tracker.update([], i, {CARD})]
    assert kinds == ["Removed"]  # coasting stops after 5 frames, then 3 misses

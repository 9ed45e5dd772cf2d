"""Quarter-turn classes with hysteresis.

A card lying at 44 degrees and jittering by a degree must not flip between 0 and 90 every
frame, so a card keeps its current class until its angle is more than `HYSTERESIS_DEG`
away from that class's centre (the research notes suggest about 55 degrees).
"""
from __future__ import annotations

HYSTERESIS_DEG = 55.0


def angular_distance(a: float, b: float) -> float:
    """The smallest absolute difference between two angles in degrees, 0..180."""
    d = (a - b) % 360
    return min(d, 360 - d)


def nearest_quarter(angle: float) -> int:
    """0, 1, 2 or 3 quarter turns clockwise, whichever is nearest to ``angle``."""
    return round((angle % 360) / 90) % 4


def quarter_with_hysteresis(angle: float, current: int | None,
                            hysteresis: float = HYSTERESIS_DEG) -> int:
    """Keep ``current`` unless ``angle`` is more than ``hysteresis`` from its centre."""
    if current is None or angular_distance(angle, current * 90) > hysteresis:
        return nearest_quarter(angle)
    return current

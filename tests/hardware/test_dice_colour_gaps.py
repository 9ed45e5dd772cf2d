"""A die's body whose hue a coloured floor's light pushed into the gap between two colour
groups (issue 64, tenth session): named the group it came from when the floor's cast taken
out puts it back inside, never a guess otherwise. Bodies and floors (BGR) as the reader
measured them on the tuned families' large_pips throw 7 at 28 px (bench/dice_camera.py)."""
from __future__ import annotations

import numpy as np
import pytest

from hardware.camera.dice_faces import colour

GREEN_FELT = (24, 174, 27)  # hue 59-60
YELLOW_ON_GREEN = [(37, 252, 207), (37, 252, 208), (42, 238, 199)]  # hue 36, lifted 23-24


@pytest.mark.parametrize("body", YELLOW_ON_GREEN)
def test_a_yellow_die_on_bright_green_felt_is_named_yellow(body):
    """Hue 36 lies in the yellow-green gap (35-40): "unknown" before. The felt is green, the
    gap's upper neighbour: its light pushed a yellow die up; with its cast taken out
    (`_lifted`) the body is at 23-24, inside yellow. Planted fault: `_pushed_into_a_gap`
    not called (main's) names all three "unknown"."""
    assert colour.colour_name(np.float32(body), np.float32(GREEN_FELT)) == "yellow"


@pytest.mark.parametrize("floor", [(128, 128, 128), (30, 30, 150), (100, 150, 100),
                                   (60, 200, 200)])
def test_a_body_in_a_gap_is_never_named_without_a_floor_that_pushed_it(floor):
    """The same body on a grey floor (no cast), on red felt (neither of the gap's groups:
    pushed from no side known; lifted it reads 42, green, which would be a guess), on a pale
    green floor (saturation 85: too weak to have pushed it) and on yellow felt (its lifted
    hue 36 in the gap): "unknown". Planted fault: the floor's group not required to be a
    neighbour of the gap (a floor's hue beyond the gap's middle, round the hue circle, taken
    as the side it pushed from) names it green on the red felt."""
    assert colour.colour_name(np.float32(YELLOW_ON_GREEN[0]), np.float32(floor)) == "unknown"


def test_a_body_lifted_only_to_the_gaps_edge_stays_unknown():
    """A body at hue 39 on a green felt of saturation 110: lifted it reads 36, yellow only
    by the wider hues the lifted check allows (`_CAST_HUES`, 20-40), not by `_HUES` (20-35):
    "unknown", the lifted body must lie inside the group itself. Planted fault: the lifted
    hue not checked in `_pushed_into_a_gap` names it yellow."""
    assert colour.colour_name(np.float32((37, 252, 185)), np.float32((90, 150, 85))) == "unknown"

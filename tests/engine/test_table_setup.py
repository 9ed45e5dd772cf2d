"""`engine.api.table_from_setup`: the keys docs/engine.md documents (``start_seat``, a seed
that is an int or text) are the keys it reads."""
from __future__ import annotations

import pytest

from engine.api import Refused, table_from_setup

ORDER = ("N", "E", "S", "W")
PLAYERS = [{"seat": "S", "name": "Cid"}, {"seat": "N", "name": "Ann"}]


def test_start_seat_is_read_and_seats_are_in_table_order():
    table = table_from_setup({"players": PLAYERS, "start_seat": "S"}, ORDER)
    assert table.seats == ["N", "S"] and table.start == "S"
    assert table_from_setup({"players": PLAYERS}, ORDER).start == "N"


def test_a_text_seed_gives_the_same_int_each_time_and_differs_from_another_text():
    first = table_from_setup({"players": PLAYERS, "seed": "friday"}, ORDER).seed
    assert first == table_from_setup({"players": PLAYERS, "seed": "friday"}, ORDER).seed
    assert first != table_from_setup({"players": PLAYERS, "seed": "saturday"}, ORDER).seed
    assert isinstance(first, int)
    assert table_from_setup({"players": PLAYERS, "seed": 7}, ORDER).seed == 7


@pytest.mark.parametrize("setup", [
    {"players": PLAYERS, "start_seat": "E"},  # not at the table
    {"players": PLAYERS, "seed": 1.5},
    {"players": PLAYERS, "seed": True},
    {"players": PLAYERS[:1]},
    {"players": PLAYERS + [{"seat": "N"}]},
])
def test_bad_setups_are_refused(setup):
    with pytest.raises(Refused) as refused:
        table_from_setup(setup, ORDER)
    assert refused.value.code == "bad_setup"

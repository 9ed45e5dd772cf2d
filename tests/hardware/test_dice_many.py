"""Many dice (protocol version 2) over real ptys: rolls of 22 dice in several frames, the die
list with groups, rerolls of a subset, an extra die mid-phase, noise, lost parts, corrupted
frames, a replug, and an old (version 1) reader. A roll is delivered whole or not at all."""
import random

from hardware.dice import protocol
from tests.hardware.dice.support import connected, emulator_and_reader, wait_for

D6 = [1, 2, 3, 4, 5, 6]
GROUPS = {f"n{i}": "neutral" for i in range(1, 11)} | {
    f"{c[0]}{i}": c for c in ("red", "blue", "green", "yellow") for i in range(1, 4)}
DICE = {d: D6 for d in GROUPS}
OPTIONS = {"groups": GROUPS}


def faces_of(rng: random.Random, dice=GROUPS) -> dict[str, int]:
    return {d: rng.randint(1, 6) for d in dice}


def with_groups(reader):
    status = connected(reader)
    return status and status.groups == GROUPS and status


def test_twenty_two_dice_roll_and_die_list(tmp_path):
    with emulator_and_reader(tmp_path, DICE, OPTIONS) as (emu, reader, seen):
        status = wait_for(lambda: with_groups(reader), what="connected with the die list")
        assert status.proto == 2 and protocol.DiceQuery() in emu.received
        assert len(status.dice) == 22
        faces = faces_of(random.Random(1))
        emu.roll(faces)
        [roll] = seen.wait_rolls(1)
        assert (roll.roll, roll.faces, roll.recovered) == (1, faces, False)
        assert list(roll.faces) == list(GROUPS)  # the reader's order
        assert reader.status().incomplete == 0 and reader.status().gaps == 0
        assert reader.status().to_json()["groups"] == GROUPS


def test_reroll_of_a_subset_and_an_extra_die_mid_phase(tmp_path):
    with emulator_and_reader(tmp_path, DICE, OPTIONS) as (emu, reader, seen):
        wait_for(lambda: with_groups(reader))
        first = faces_of(random.Random(2))
        emu.roll(first)
        emu.roll({"r1": 6, "n3": 1}, dice=["r1", "n3"])  # reroll two, the rest stay
        emu.add_die("w1", D6, "white")  # an extra die brought to the table...
        emu.roll({"w1": 5}, dice=["w1"])  # ...thrown onto the reader
        rolls = seen.wait_rolls(3)
        assert rolls[1].faces == first | {"r1": 6, "n3": 1}
        assert rolls[2].faces == first | {"r1": 6, "n3": 1, "w1": 5}
        assert [r.recovered for r in rolls] == [False] * 3
        # the reader asked DICE? again on seeing an unknown die: the page can map it
        wait_for(lambda: reader.status().groups.get("w1") == "white", what="new die list")
        emu.remove_die("w1")
        emu.roll(dice=["b2"])
        assert "w1" not in seen.wait_rolls(4)[3].faces


def test_lost_part_is_recovered_from_a_multi_part_snapshot(tmp_path):
    with emulator_and_reader(tmp_path, DICE, OPTIONS) as (emu, reader, seen):
        wait_for(lambda: with_groups(reader))
        rng = random.Random(3)
        truth = []
        for part in (1, 2):
            faces = faces_of(rng)
            truth.append(faces)
            emu.drop_next("RD", part=part)
            emu.roll(faces)
            # the next frame shows the gap; STATE? brings a 4-part snapshot
            seen.wait_rolls(len(truth))
        rolls = seen.rolls()
        assert [(r.roll, r.faces, r.recovered) for r in rolls] == [
            (1, truth[0], True), (2, truth[1], True)]
        status = reader.status()
        assert status.incomplete == 2 and status.missed_rolls == 0
        settled = {d: protocol.DieState("SETTLED", 6) for d in GROUPS}
        assert len(protocol.snapshot_bodies(0, 2, settled)) > 1


def test_lost_part_with_dice_moving_again_is_missed_not_invented(tmp_path):
    with emulator_and_reader(tmp_path, DICE, OPTIONS) as (emu, reader, seen):
        wait_for(lambda: with_groups(reader))
        with emu.holding_line():  # no heartbeat in between
            emu.drop_next("RD", part=2)
            emu.roll(faces_of(random.Random(4)))
            emu.start_roll(["n1", "y3"])  # moving again before the host can ask
        wait_for(lambda: reader.status().missed_rolls == 1, what="missed roll")
        assert seen.rolls() == [] and reader.status().incomplete == 1
        emu.settle({"n1": 2, "y3": 2})
        [roll] = seen.wait_rolls(1)
        assert roll.roll == 2 and not roll.recovered and len(roll.faces) == 22


def test_noise_loss_and_corruption_never_give_a_wrong_or_partial_roll(tmp_path):
    """22-dice rolls with random bytes between frames, 15 % of frames corrupted and 10 % lost:
    every roll delivered is exactly the one rolled, with all 22 dice; the others are
    counted missed."""
    rng = random.Random(2026)
    options = OPTIONS | {"corrupt": 0.15, "drop": 0.1}
    with emulator_and_reader(tmp_path, DICE, options) as (emu, reader, seen):
        wait_for(lambda: connected(reader), timeout=30)
        truth = {}
        for _ in range(40):
            emu.inject(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))))
            number, faces = emu.roll(faces_of(rng))
            truth[number] = faces
        wait_for(lambda: len(seen.rolls()) + reader.status().missed_rolls == 40, timeout=30,
                 what="every roll delivered or counted missed")
        rolls = seen.rolls()
        assert len(rolls) >= 10, "most rolls must come through"
        for roll in rolls:
            assert roll.faces == truth[roll.roll]
        assert len({r.roll for r in rolls}) == len(rolls)
        status = reader.status()
        assert status.crc_errors + status.garbage > 0 and status.last_roll == 40
        assert status.incomplete > 0 and status.gaps > 0


def test_replug_mid_session_reads_the_die_list_again(tmp_path):
    with emulator_and_reader(tmp_path, DICE, OPTIONS) as (emu, reader, seen):
        wait_for(lambda: with_groups(reader))
        faces = faces_of(random.Random(5))
        emu.roll(faces)
        seen.wait_rolls(1)
        asked = emu.received.count(protocol.DiceQuery())
        emu.unplug()
        wait_for(lambda: reader.status().state in ("searching", "connecting"), what="loss")
        emu.replug()
        # the board reset on open and numbers its next roll 1 again: the roll is new, made
        # at once, whether or not the reader has heard the new boot's heartbeat yet
        wait_for(lambda: (s := with_groups(reader)) and s.reconnects == 1, what="reconnected")
        # the emulator logs the query on its own thread: wait for it, not race it
        wait_for(lambda: emu.received.count(protocol.DiceQuery()) > asked, what="asked again")
        again = faces_of(random.Random(6))
        emu.roll(again)
        rolls = seen.wait_rolls(2)
        assert [(r.roll, r.faces) for r in rolls] == [(1, faces), (1, again)]  # board reset


def test_version_1_reader_is_still_read_as_before(tmp_path):
    dice = {"red": D6, "blue": D6}
    with emulator_and_reader(tmp_path, dice, {"proto": 1}) as (emu, reader, seen):
        status = wait_for(lambda: connected(reader))
        assert status.proto == 1 and status.groups == {}
        emu.roll({"red": 2, "blue": 3})
        [roll] = seen.wait_rolls(1)
        assert roll.faces == {"red": 2, "blue": 3}
        assert protocol.DiceQuery() not in emu.received  # never asked of a version-1 reader
        assert reader.status().device_errors == 0

"""`companion dice emulate` and `companion dice listen` as real processes over real ptys."""
import json
import os
import queue
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

from hardware.dice.emulator import DiceEmulator
from hardware.dice.reader import DiceReader
from tests.hardware.dice.support import Collector, connected, wait_for

COMPANION = [str(Path(sys.executable).with_name("companion"))]
if not os.path.exists(COMPANION[0]):
    COMPANION = [sys.executable, "-c", "from companion.cli import main; main()"]


def lines_of(process) -> queue.Queue:
    lines: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def next_json(lines: queue.Queue, predicate, timeout: float = 15.0) -> dict:
    while True:
        data = json.loads(lines.get(timeout=timeout))  # every line is one JSON object
        if predicate(data):
            return data


def test_listen_prints_messages_and_rolls_as_json_lines(tmp_path):
    with DiceEmulator({"tax": [2, 3, 3, 4, 4, 5]}, link=str(tmp_path / "tty")) as emu:
        process = subprocess.Popen([*COMPANION, "dice", "listen", emu.port, "--count", "2"],
                                   stdout=subprocess.PIPE, text=True)
        try:
            lines = lines_of(process)
            hello = next_json(lines, lambda d: d["type"] == "hello")
            assert hello["fw"] == "1.0.0-emu"
            next_json(lines, lambda d: d["type"] == "snapshot")
            emu.roll({"tax": 4})
            emu.drop_next("RD")
            emu.roll({"tax": 5})
            first = next_json(lines, lambda d: d["type"] == "roll")
            second = next_json(lines, lambda d: d["type"] == "roll")
            assert first == {"type": "roll", "roll": 1, "faces": {"tax": 4}, "recovered": False}
            assert second == {"type": "roll", "roll": 2, "faces": {"tax": 5}, "recovered": True}
            assert process.wait(timeout=15) == 0
        finally:
            process.kill()


def test_emulate_serves_rolls_over_http(tmp_path):
    link = str(tmp_path / "emu-tty")
    process = subprocess.Popen(
        [*COMPANION, "dice", "emulate", "--link", link, "--http-port", "0",
         "--dice", "red:1,2,3,4,5,6", "--dice", "blue:1,2,3,4,5,6", "--seed", "3"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline()
        if not first:
            raise AssertionError(f"emulate exited: {process.wait(10)} {process.stderr.read()}")
        info = json.loads(first)
        assert info["port"] == link and info["pty"].startswith("/dev/")
        seen = Collector()
        with DiceReader(link, on_observation=seen) as reader:
            wait_for(lambda: connected(reader), what="connected to the emulate process")
            request = urllib.request.Request(
                info["http"] + "/roll", data=json.dumps({"faces": {"red": 6}}).encode(),
                method="POST")
            with urllib.request.urlopen(request, timeout=10) as reply:
                answer = json.load(reply)
            [roll] = seen.wait_rolls(1)
            assert roll.faces == answer["faces"] and roll.faces["red"] == 6
            assert set(roll.faces) == {"red", "blue"}
            bad = urllib.request.Request(info["http"] + "/roll", method="POST",
                                         data=json.dumps({"faces": {"green": 1}}).encode())
            try:
                urllib.request.urlopen(bad, timeout=10)
                raise AssertionError("an unknown die must be refused")
            except urllib.error.HTTPError as exc:
                assert exc.code == 400
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert not os.path.exists(link)  # the link goes away with the emulator


def test_emulate_refuses_a_bad_die_spec():
    run = subprocess.run([*COMPANION, "dice", "emulate", "--dice", "tax:two"],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30)
    assert run.returncode == 2 and "--dice" in run.stderr


def test_dice_specs_with_ranges_groups_and_default_faces():
    import click
    import pytest

    from companion.commands.dice import parse_dice

    dice, groups = parse_dice(("n1..n10@neutral", "r1,r2,r3@red", "tax:2,3,3,4,4,5"))
    assert list(dice) == [f"n{i}" for i in range(1, 11)] + ["r1", "r2", "r3", "tax"]
    assert dice["n7"] == [1, 2, 3, 4, 5, 6] and dice["tax"] == [2, 3, 3, 4, 4, 5]
    assert groups == {f"n{i}": "neutral" for i in range(1, 11)} | {
        "r1": "red", "r2": "red", "r3": "red"}
    from companion.wiring.dice import game_dice

    assert parse_dice(()) == (game_dice(), {})  # one die per role the installed games declare
    assert "tax" in game_dice()
    for bad in ("n3..n1", "n1..x3", "r1@bad.group", "a,a", "tax:two", "x" * 17):
        with pytest.raises(click.BadParameter):
            parse_dice((bad,))


def test_emulate_22_dice_from_the_cli_rerolls_a_subset_and_adds_a_die(tmp_path):
    link = str(tmp_path / "emu-tty")
    process = subprocess.Popen(
        [*COMPANION, "dice", "emulate", "--link", link, "--http-port", "0", "--roll-time", "0",
         "--dice", "n1..n10@neutral", "--dice", "r1..r3@red", "--dice", "b1..b3@blue",
         "--dice", "g1..g3@green", "--dice", "y1..y3@yellow"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def post(path: str, payload: dict) -> dict:
        request = urllib.request.Request(info["http"] + path, method="POST",
                                         data=json.dumps(payload).encode())
        with urllib.request.urlopen(request, timeout=10) as reply:
            return json.load(reply)

    try:
        first = process.stdout.readline()
        if not first:
            raise AssertionError(f"emulate exited: {process.wait(10)} {process.stderr.read()}")
        info = json.loads(first)
        seen = Collector()
        with DiceReader(link, on_observation=seen) as reader:
            wait_for(lambda: len(reader.status().groups) == 22, what="the die list")
            assert reader.status().groups["y3"] == "yellow"
            whole = post("/roll", {})["faces"]
            again = post("/roll", {"dice": ["n1", "r2"], "faces": {"n1": 6, "r2": 1}})["faces"]
            post("/add", {"die": "w1", "group": "white"})
            extra = post("/roll", {"dice": ["w1"], "faces": {"w1": 3}})["faces"]
            rolls = seen.wait_rolls(3)
            assert [r.faces for r in rolls] == [whole, again, extra]
            assert len(whole) == 22 and again == whole | {"n1": 6, "r2": 1}
            assert extra == again | {"w1": 3}
            wait_for(lambda: reader.status().groups.get("w1") == "white", what="w1's group")
            for bad in ({}, {"die": "w1"}, {"die": "x.1"}, {"die": "x2", "faces": ["a"]}):
                try:
                    post("/add", bad)
                    raise AssertionError(f"/add {bad} must be refused")
                except urllib.error.HTTPError as exc:
                    assert exc.code == 400
    finally:
        process.terminate()
        process.wait(timeout=10)

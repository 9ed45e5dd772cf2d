"""The dice framing, CRC and message parser against the shared vectors (the firmware's C
framer is run against the same file in test_dice_firmware.py)."""
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.dice import protocol as p

VECTORS = json.loads((Path(__file__).parent / "dice" / "vectors.json").read_text())


def latin1(text: str) -> bytes:
    return text.encode("latin-1")


def summarise(items):
    frames = [i.body for i in items if isinstance(i, p.Frame)]
    crc = sum(1 for i in items if isinstance(i, p.FrameError) and i.kind == "crc")
    garbage = sum(1 for i in items if isinstance(i, p.FrameError) and i.kind == "garbage")
    return frames, crc, garbage


def test_crc_check_value_is_31c3():
    assert p.crc16(b"123456789") == 0x31C3


@pytest.mark.parametrize("case", VECTORS["crc"], ids=lambda c: c["data"][:20] or "empty")
def test_crc_vectors(case):
    assert f"{p.crc16(latin1(case['data'])):04X}" == case["crc"]


@pytest.mark.parametrize("case", VECTORS["encode"], ids=lambda c: c["body"][:20] or "empty")
def test_encode_vectors(case):
    if case["frame"] is None:
        with pytest.raises(ValueError):
            p.encode(case["body"])
    else:
        frame = p.encode(case["body"])
        assert frame == latin1(case["frame"])
        assert len(frame) <= p.MAX_FRAME


@pytest.mark.parametrize("case", VECTORS["streams"], ids=lambda c: c["name"])
def test_stream_vectors_whole(case):
    items = p.FrameParser().feed(latin1(case["input"]))
    assert summarise(items) == (case["frames"], case["crc_errors"], case["garbage"])


@pytest.mark.parametrize("case", VECTORS["streams"], ids=lambda c: c["name"])
def test_stream_vectors_byte_by_byte(case):
    parser = p.FrameParser()
    items = []
    for byte in latin1(case["input"]):
        items += parser.feed(bytes([byte]))
    assert summarise(items) == (case["frames"], case["crc_errors"], case["garbage"])


@pytest.mark.parametrize("case", VECTORS["messages"], ids=lambda c: c["body"][:30])
def test_message_vectors(case):
    if case["parsed"] is None:
        with pytest.raises(p.MalformedMessage):
            p.parse_device(case["body"])
    else:
        assert p.parse_device(case["body"]).to_json() == case["parsed"]


def test_host_commands_round_trip():
    for command in (p.HelloQuery(), p.StateQuery(), p.Led("tax", "ff8800")):
        assert p.parse_host(command.body()) == command
    with pytest.raises(p.MalformedMessage):
        p.parse_host("LED tax red")


def test_builders_round_trip_through_parser():
    dice = {"a": p.DieState("SETTLED", 3), "b": p.DieState("ABSENT"), "c": p.DieState("ROLLING")}
    msg = p.parse_device(p.snapshot_body(65535, 9, dice))
    assert msg == p.Snapshot(65535, 9, dice)
    assert p.parse_device(p.reading_body(0, 1, {"x": 6})) == p.Reading(0, 1, {"x": 6})
    assert p.next_seq(65535) == 0


@given(st.lists(st.integers(1, 40), max_size=30), st.integers(0, 2**32 - 1))
def test_any_chunking_gives_the_same_result(cuts, seed):
    rng = random.Random(seed)
    stream = b"".join(
        p.encode(f"HB {i} {rng.randrange(10**6)}") if rng.random() < 0.6
        else bytes(rng.randrange(256) for _ in range(rng.randrange(30)))
        for i in range(20)
    )
    whole = p.FrameParser().feed(stream)
    parser, pieces, pos = p.FrameParser(), [], 0
    for cut in cuts:
        pieces += parser.feed(stream[pos:pos + cut])
        pos += cut
    pieces += parser.feed(stream[pos:])
    assert pieces == whole


@given(st.binary(max_size=300))
def test_random_bytes_never_crash_and_frames_carry_valid_crc(data):
    for item in p.FrameParser().feed(data):
        if isinstance(item, p.Frame):
            body = item.body.encode()
            assert f"*{p.crc16(body):04X}".encode() in data


def test_every_example_frame_in_the_spec_is_valid():
    spec = (Path(__file__).resolve().parents[2] / "docs" / "dice-protocol.md").read_text()
    examples = [line.split(" ", 1)[1].strip() for line in spec.splitlines()
                if line.startswith(("host   $", "device $"))]
    assert len(examples) >= 10
    for example in examples:
        [frame] = p.FrameParser().feed(example.encode() + b"\n")
        assert isinstance(frame, p.Frame), example
        if example.startswith("$HELLO?") or example.startswith(("$STATE?", "$LED")):
            p.parse_host(frame.body)
        else:
            p.parse_device(frame.body)

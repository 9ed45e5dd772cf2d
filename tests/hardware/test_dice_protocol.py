"""The dice framing, CRC and message parser against the shared vectors (the firmware's C
framer is run against the same file in test_dice_firmware.py)."""
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.dice import protocol

VECTORS = json.loads((Path(__file__).parent / "dice" / "vectors.json").read_text())


def latin1(text: str) -> bytes:
    return text.encode("latin-1")


def summarise(items):
    frames = [i.body for i in items if isinstance(i, protocol.Frame)]
    crc = sum(1 for i in items if isinstance(i, protocol.FrameError) and i.kind == "crc")
    garbage = sum(1 for i in items if isinstance(i, protocol.FrameError) and i.kind == "garbage")
    return frames, crc, garbage


def test_crc_check_value_is_31c3():
    assert protocol.crc16(b"123456789") == 0x31C3


@pytest.mark.parametrize("case", VECTORS["crc"], ids=lambda c: c["data"][:20] or "empty")
def test_crc_vectors(case):
    assert f"{protocol.crc16(latin1(case['data'])):04X}" == case["crc"]


@pytest.mark.parametrize("case", VECTORS["encode"], ids=lambda c: c["body"][:20] or "empty")
def test_encode_vectors(case):
    if case["frame"] is None:
        with pytest.raises(ValueError):
            protocol.encode(case["body"])
    else:
        frame = protocol.encode(case["body"])
        assert frame == latin1(case["frame"])
        assert len(frame) <= protocol.MAX_FRAME


@pytest.mark.parametrize("case", VECTORS["streams"], ids=lambda c: c["name"])
def test_stream_vectors_whole(case):
    items = protocol.FrameParser().feed(latin1(case["input"]))
    assert summarise(items) == (case["frames"], case["crc_errors"], case["garbage"])


@pytest.mark.parametrize("case", VECTORS["streams"], ids=lambda c: c["name"])
def test_stream_vectors_byte_by_byte(case):
    parser = protocol.FrameParser()
    items = []
    for byte in latin1(case["input"]):
        items += parser.feed(bytes([byte]))
    assert summarise(items) == (case["frames"], case["crc_errors"], case["garbage"])


@pytest.mark.parametrize("case", VECTORS["messages"], ids=lambda c: c["body"][:30])
def test_message_vectors(case):
    if case["parsed"] is None:
        with pytest.raises(protocol.MalformedMessage):
            protocol.parse_device(case["body"])
    else:
        assert protocol.parse_device(case["body"]).to_json() == case["parsed"]


def test_host_commands_round_trip():
    for command in (protocol.HelloQuery(), protocol.StateQuery(), protocol.Led("tax", "ff8800")):
        assert protocol.parse_host(command.body()) == command
    with pytest.raises(protocol.MalformedMessage):
        protocol.parse_host("LED tax red")


def test_builders_round_trip_through_parser():
    dice = {"a": protocol.DieState("SETTLED", 3), "b": protocol.DieState("ABSENT"),
            "c": protocol.DieState("ROLLING")}
    msg = protocol.parse_device(protocol.snapshot_body(65535, 9, dice))
    assert msg == protocol.Snapshot(65535, 9, dice)
    reading = protocol.reading_body(0, 1, {"x": 6})
    assert protocol.parse_device(reading) == protocol.Reading(0, 1, {"x": 6})
    assert protocol.next_seq(65535) == 0


@given(st.lists(st.integers(1, 40), max_size=30), st.integers(0, 2**32 - 1))
def test_any_chunking_gives_the_same_result(cuts, seed):
    rng = random.Random(seed)
    stream = b"".join(
        protocol.encode(f"HB {i} {rng.randrange(10**6)}") if rng.random() < 0.6
        else bytes(rng.randrange(256) for _ in range(rng.randrange(30)))
        for i in range(20)
    )
    whole = protocol.FrameParser().feed(stream)
    parser, pieces, pos = protocol.FrameParser(), [], 0
    for cut in cuts:
        pieces += parser.feed(stream[pos:pos + cut])
        pos += cut
    pieces += parser.feed(stream[pos:])
    assert pieces == whole


@given(st.binary(max_size=300))
def test_random_bytes_never_crash_and_frames_carry_valid_crc(data):
    for item in protocol.FrameParser().feed(data):
        if isinstance(item, protocol.Frame):
            body = item.body.encode()
            assert f"*{protocol.crc16(body):04X}".encode() in data


def test_every_example_frame_in_the_spec_is_valid():
    spec = (Path(__file__).resolve().parents[2] / "docs" / "dice-protocol.md").read_text()
    examples = [line.split(" ", 1)[1].strip() for line in spec.splitlines()
                if line.startswith(("host   $", "device $"))]
    assert len(examples) >= 10
    for example in examples:
        [frame] = protocol.FrameParser().feed(example.encode() + b"\n")
        assert isinstance(frame, protocol.Frame), example
        if example.startswith(("$HELLO?", "$STATE?", "$DICE?", "$LED")):
            protocol.parse_host(frame.body)
        else:
            protocol.parse_device(frame.body)


# --------------------------------------------------------------------------- version 2


@pytest.mark.parametrize("case", VECTORS["parts"], ids=lambda c: f"{c['kind']}-{c['seq']}")
def test_part_vectors(case):
    """The split of a long list into frames: the firmware's dp_parts gives the same bodies."""
    bodies = protocol.part_bodies(case["kind"], case["seq"], case["items"], case["roll"])
    assert bodies == case["bodies"]
    messages = [protocol.parse_device(b) for b in case["bodies"]]
    assert all(len(protocol.encode(b)) <= protocol.MAX_FRAME for b in case["bodies"])
    assert [(m.part, m.parts) for m in messages] == [
        (i, len(messages)) for i in range(1, len(messages) + 1)]
    seqs = [m.seq for m in messages]
    assert seqs == [(case["seq"] + i) % protocol.SEQ_MODULO for i in range(len(messages))]
    whole = protocol.merge_parts(messages)
    listed = whole.faces if case["kind"] == "RD" else (
        whole.dice if case["kind"] == "ST" else whole.groups)
    assert [f"{d}" for d in listed] == [i.split("=")[0] for i in case["items"]]


def test_builders_for_22_dice_fit_and_round_trip():
    groups = {f"n{i}": "neutral" for i in range(1, 11)}
    groups |= {f"{c[0]}{i}": c for c in ("red", "blue", "green", "yellow") for i in range(1, 4)}
    faces = {d: 6 for d in groups}
    states = {d: protocol.DieState("SETTLED", 6) for d in groups}
    for bodies, kind in ((protocol.reading_bodies(65535, 123456, faces), protocol.Reading),
                         (protocol.snapshot_bodies(7, 1, states), protocol.Snapshot),
                         (protocol.dice_list_bodies(9, groups), protocol.DiceList)):
        assert len(bodies) > 1 and all(len(b) <= protocol.MAX_BODY for b in bodies)
        whole = protocol.merge_parts([protocol.parse_device(b) for b in bodies])
        assert isinstance(whole, kind)
    parts = [protocol.parse_device(b) for b in protocol.reading_bodies(0, 1, faces)]
    assert protocol.merge_parts(parts).faces == faces
    assert protocol.merge_parts([protocol.parse_device(b)
                          for b in protocol.dice_list_bodies(0, groups)]).groups == groups
    with pytest.raises(ValueError):
        protocol.split_items("RD", ["x" * 120])


def test_dice_query_round_trips():
    assert protocol.parse_host("DICE?") == protocol.DiceQuery()
    assert protocol.hello_body("1", 1, "AB", proto=1).startswith("HELLO dicereader proto=1 ")
    assert protocol.PROTOCOL_VERSION == 2 and protocol.PROTOCOL_VERSIONS == (1, 2)

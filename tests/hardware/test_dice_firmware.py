"""The firmware's plain-C framing and CRC, compiled with gcc and run against the same
vectors as the Python parser (tests/hardware/dice/vectors.json)."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "hardware" / "firmware"
VECTORS = json.loads((Path(__file__).parent / "dice" / "vectors.json").read_text())

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None,
                                reason="gcc absent (make test installs it)")


def c_string(text: str) -> str:
    """A C string literal for these bytes (latin-1), every byte hex-escaped."""
    data = text.encode("latin-1")
    return '"' + "".join(f'\\x{b:02x}""' for b in data) + '"'


def vectors_header() -> str:
    lines = [
        "struct crc_case { const char *data; size_t len; unsigned crc; };",
        "struct encode_case { const char *body; const char *frame; };",
        "struct stream_case { const char *name; const char *input; size_t len;",
        "    const char *frames[8]; int nframes; int crc_errors; int garbage; };",
        "struct parts_case { const char *kind; unsigned seq; int has_roll; unsigned long roll;",
        "    const char *items[32]; int nitems; const char *bodies[8]; int nbodies; };",
        "static const struct crc_case CRC_CASES[] = {",
    ]
    for c in VECTORS["crc"]:
        lines.append(f"  {{{c_string(c['data'])}, {len(c['data'])}, 0x{c['crc']}}},")
    lines += ["};", "static const struct encode_case ENCODE_CASES[] = {"]
    for c in VECTORS["encode"]:
        frame = "NULL" if c["frame"] is None else c_string(c["frame"])
        lines.append(f"  {{{c_string(c['body'])}, {frame}}},")
    lines += ["};", "static const struct stream_case STREAM_CASES[] = {"]
    for c in VECTORS["streams"]:
        assert len(c["frames"]) <= 8
        frames = ", ".join(c_string(f) for f in c["frames"]) or "NULL"
        lines.append(
            f"  {{{c_string(c['name'])}, {c_string(c['input'])}, {len(c['input'])},"
            f" {{{frames}}}, {len(c['frames'])}, {c['crc_errors']}, {c['garbage']}}},")
    lines += ["};", "static const struct parts_case PARTS_CASES[] = {"]
    for c in VECTORS["parts"]:
        assert len(c["items"]) <= 32 and len(c["bodies"]) <= 8
        items = ", ".join(c_string(i) for i in c["items"])
        bodies = ", ".join(c_string(b) for b in c["bodies"])
        lines.append(
            f"  {{{c_string(c['kind'])}, {c['seq']}u, {int(c['roll'] is not None)},"
            f" {c['roll'] or 0}ul, {{{items}}}, {len(c['items'])}, {{{bodies}}},"
            f" {len(c['bodies'])}}},")
    lines += [
        "};",
        "#define CRC_COUNT (sizeof CRC_CASES / sizeof CRC_CASES[0])",
        "#define PARTS_COUNT (sizeof PARTS_CASES / sizeof PARTS_CASES[0])",
        "#define ENCODE_COUNT (sizeof ENCODE_CASES / sizeof ENCODE_CASES[0])",
        "#define STREAM_COUNT (sizeof STREAM_CASES / sizeof STREAM_CASES[0])",
    ]
    return "\n".join(lines) + "\n"


def test_c_framing_passes_the_shared_vectors(tmp_path):
    (tmp_path / "vectors.h").write_text(vectors_header())
    binary = tmp_path / "test_dice_protocol"
    subprocess.run(
        ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1",
         f"-I{FIRMWARE / 'dicereader'}", f"-I{tmp_path}",
         str(FIRMWARE / "test" / "test_dice_protocol.c"),
         str(FIRMWARE / "dicereader" / "dice_protocol.c"), "-o", str(binary)],
        check=True, capture_output=True, text=True)
    run = subprocess.run([str(binary)], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 failures" in run.stdout
    assert f"{len(VECTORS['streams'])} stream, {len(VECTORS['parts'])} parts" in run.stdout


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ absent")
@pytest.mark.parametrize("defines", [[], ["-DDICEREADER_MANY_DICE_DEMO"]], ids=["one", "many"])
def test_arduino_sketch_compiles_against_a_stub_of_the_arduino_api(defines):
    run = subprocess.run(
        ["g++", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", *defines, "-x", "c++",
         "-include", str(FIRMWARE / "test" / "arduino_stub.h"), f"-I{FIRMWARE / 'dicereader'}",
         str(FIRMWARE / "dicereader" / "dicereader.ino")],
        capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def run_sketch(tmp_path, script: str, defines=()) -> list:
    """The sketch on a simulated board (test/run_sketch.cpp): what it sent, parsed."""
    from hardware.dice import protocol as _protocol

    binary = tmp_path / "run_sketch"
    subprocess.run(
        ["g++", "-Wall", "-Wextra", "-Werror", *defines, f"-I{FIRMWARE / 'dicereader'}",
         "-x", "c++", str(FIRMWARE / "test" / "run_sketch.cpp"),
         "-x", "c", str(FIRMWARE / "dicereader" / "dice_protocol.c"), "-o", str(binary)],
        check=True, capture_output=True, text=True)
    run = subprocess.run([str(binary)], input=script.encode(), capture_output=True, timeout=30)
    assert run.returncode == 0, run.stderr
    items = _protocol.FrameParser().feed(run.stdout)
    assert all(isinstance(i, _protocol.Frame) for i in items), items
    return [_protocol.parse_device(i.body) for i in items]


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ absent")
def test_reference_sketch_speaks_the_protocol(tmp_path):
    from hardware.dice import protocol as _protocol

    script = "\n".join([
        "wait 1200",
        "send HELLO?", "wait 5",
        "button 1", "wait 100", "button 0", "wait 100",     # roll 1
        "send STATE?", "wait 5",
        "raw \x01garbage\n", "send LED tax ff0000", "send DANCE", "wait 5",
        "button 1", "wait 60", "button 0", "wait 700",      # roll 2
    ]) + "\n"
    messages = run_sketch(tmp_path, script)
    assert isinstance(messages[0], _protocol.Hello) and messages[0].proto == 2
    assert sum(isinstance(m, _protocol.Hello) for m in messages) == 2  # at boot and on HELLO?
    numbered = [m for m in messages if not isinstance(m, _protocol.Hello)]
    assert [m.seq for m in numbered] == list(range(len(numbered)))  # one counter, no gap
    readings = [m for m in numbered if isinstance(m, _protocol.Reading)]
    assert [r.roll for r in readings] == [1, 2]
    assert all(set(r.faces) == {"tax"} and r.faces["tax"] in (2, 3, 4, 5) for r in readings)
    [snapshot] = [m for m in numbered if isinstance(m, _protocol.Snapshot)]
    assert snapshot.roll == 1
    assert snapshot.dice == {"tax": _protocol.DieState("SETTLED", readings[0].faces["tax"])}
    events = [(m.state, m.face) for m in numbered if isinstance(m, _protocol.Event)]
    assert events[1:] == [("ROLLING", None), ("SETTLED", readings[0].faces["tax"]),
                          ("ROLLING", None), ("SETTLED", readings[1].faces["tax"])]
    assert [m.code for m in numbered if isinstance(m, _protocol.DeviceError)] == ["UNKNOWN"]
    heartbeats = [m.uptime_ms for m in numbered if isinstance(m, _protocol.Heartbeat)]
    assert len(heartbeats) >= 4 and heartbeats == sorted(heartbeats)


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ absent")
def test_sketch_with_22_dice_sends_rolls_snapshots_and_die_list_in_parts(tmp_path):
    """The reference sketch built with 22 dice: what it sends, fed through the host's tracker,
    gives whole rolls, a whole snapshot and the die list with each die's group."""
    from hardware.dice import protocol as _protocol
    from hardware.dice.observations import Roll
    from hardware.dice.tracker import RollTracker

    script = "\n".join([
        "wait 1200", "send HELLO?", "wait 5", "send DICE?", "wait 5",
        "button 1", "wait 100", "button 0", "wait 100",     # roll 1
        "send STATE?", "wait 5",
        "button 1", "wait 60", "button 0", "wait 700",      # roll 2
    ]) + "\n"
    messages = run_sketch(tmp_path, script, ["-DDICEREADER_MANY_DICE_DEMO"])
    assert messages[0] == _protocol.Hello(2, "2.0.0", 22, "00C0FFEE")
    numbered = [m for m in messages if not isinstance(m, _protocol.Hello)]
    assert [m.seq for m in numbered] == list(range(len(numbered)))  # one counter, no gap
    parts = [(type(m).__name__, m.part, m.parts) for m in numbered
             if isinstance(m, _protocol.Reading | _protocol.Snapshot | _protocol.DiceList)]
    assert ("Reading", 2, 2) in parts and ("Snapshot", 4, 4) in parts
    assert ("DiceList", 3, 3) in parts
    tracker = RollTracker()
    tracker.connected()
    rolls = []
    for message in messages:
        rolls += [o for o in tracker.handle(message, 1.0).observations if isinstance(o, Roll)]
    assert [r.roll for r in rolls] == [1, 2] and tracker.incomplete == 0
    assert all(len(r.faces) == 22 and set(r.faces.values()) <= set(range(1, 7)) for r in rolls)
    assert tracker.groups["n10"] == "neutral" and tracker.groups["y3"] == "yellow"
    assert len(tracker.groups) == 22
    assert tracker.dice == {d: _protocol.DieState("SETTLED", f) for d, f in rolls[-1].faces.items()}

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
    lines += [
        "};",
        "#define CRC_COUNT (sizeof CRC_CASES / sizeof CRC_CASES[0])",
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
    assert f"{len(VECTORS['streams'])} stream vectors" in run.stdout


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ absent")
def test_arduino_sketch_compiles_against_a_stub_of_the_arduino_api():
    run = subprocess.run(
        ["g++", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-x", "c++",
         "-include", str(FIRMWARE / "test" / "arduino_stub.h"), f"-I{FIRMWARE / 'dicereader'}",
         str(FIRMWARE / "dicereader" / "dicereader.ino")],
        capture_output=True, text=True)
    assert run.returncode == 0, run.stderr

"""The reference firmware builds for real boards with Debian's toolchain, and its RAM use
stays under the limit (the stack needs the rest)."""
import json
import shutil

import pytest

from hardware.firmware import build as fw
from tests.hardware.firmware_support import needs_avr_toolchain

pytestmark = needs_avr_toolchain


def test_every_board_builds_within_flash_and_ram(tmp_path, capsys):
    assert fw.main(["--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    report = json.loads(lines[-1])
    assert report["failed"] == []
    builds = {b["target"]: b for b in report["builds"]}
    assert set(builds) == {"uno", "uno-many-dice", "leonardo"}
    assert builds["uno"]["mcu"] == "atmega328p" and builds["leonardo"]["mcu"] == "atmega32u4"
    for b in builds.values():
        assert 0 < b["flash"] <= b["flash_max"]
        assert 0 < b["ram"] <= fw.RAM_LIMIT * b["ram_max"], b
    # 22 dice cost RAM (their ids, groups and states): the demo is bigger than one die
    assert builds["uno-many-dice"]["ram"] > builds["uno"]["ram"]
    # one human line per build, with flash and RAM figures
    assert len(lines) == 4 and all("flash" in line and "RAM" in line for line in lines[:3])


def test_ram_over_the_limit_fails_the_build(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(fw, "RAM_LIMIT", 0.05)
    assert fw.main(["--out", str(tmp_path), "uno"]) == 1
    assert "RAM OVER LIMIT" in capsys.readouterr().out


def test_a_sketch_that_stops_compiling_fails(tmp_path, capsys):
    sketch = tmp_path / "dicereader"
    shutil.copytree(fw.SKETCH, sketch)
    ino = sketch / "dicereader.ino"
    ino.write_text(ino.read_text().replace("static void poll_sensor(void)",
                                           "static void poll_sensor(void) oops"))
    with pytest.raises(fw.BuildError, match="uno: build failed"):
        fw.build(fw.TARGETS["uno"], tmp_path / "out", sketch)


def test_unknown_build_names_are_refused(capsys):
    with pytest.raises(SystemExit):
        fw.main(["due"])
    assert "unknown build due" in capsys.readouterr().err

"""The arm64 check's comparison (tests/arm64/check.py) can fail, and does when it should.

The comparison itself runs in `make arm64-check` and CI's short form (under qemu, minutes);
here: what counts as a difference (ids and faces exactly, positions within a pixel), and
the planted fault of the issue, a reader's threshold nudged on one side only, reported as
differences. The last test runs the real check under qemu with the fault planted on the
arm64 side; it needs the cached arm64 root (a first build takes ~15 minutes).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import cv2
import pytest

from hardware.synthetic import dice_tray
from tests.arm64 import answers, check

PLANT = "hardware.camera.dice_faces.pips:MAX_PIP_ERROR=0.05"  # pips 8x nearer their place


def test_positions_within_a_pixel_agree_and_a_face_or_id_never_differs():
    x86 = [{"face": 5, "colour": "red", "centre": [10.0, 20.0], "score": 0.91}]
    near = [{"face": 5, "colour": "red", "centre": [10.9, 19.2], "score": 0.905}]
    assert check.differences(x86, near, "tray") == []
    assert check.differences(x86, [dict(near[0], face=None)], "tray") == [
        "tray[0].face: 5 on x86, null on arm64"]
    assert check.differences(x86, [dict(near[0], colour="orange")], "tray")
    assert check.differences(x86, [dict(near[0], centre=[11.2, 20.0])], "tray")  # > 1 px
    assert check.differences(x86, [dict(near[0], score=0.89)], "tray")
    assert check.differences(x86, x86 + x86, "tray") == [
        f"tray: 1 items on x86, 2 on arm64: {json.dumps(x86)} vs {json.dumps(x86 + x86)}"]
    cards = {"id": "c3", "turn": 90, "corners": [[1.0, 2.0]]}
    assert check.differences(cards, dict(cards, turn=270))
    assert check.differences(cards, dict(cards, id="c4"))


def test_an_import_failing_on_arm64_or_a_replay_differing_fails():
    x86 = {"versions": {}, "imports": {"engine": "ok", "hardware.x": "ok"},
           "replays": {"a/wwe.json": {"exit": 0, "state": "1", "as_recorded": True}},
           "readers": {}}
    assert check.compare(x86, x86)[0] == []
    arm = dict(x86, imports={"engine": "ok", "hardware.x": "ImportError: libGL.so.1"})
    assert check.compare(x86, arm)[0] == ["import hardware.x: ImportError: libGL.so.1"]
    arm = dict(x86, replays={"a/wwe.json": {"exit": 0, "state": "2", "as_recorded": False}})
    assert check.compare(x86, arm)[0] == [
        "replays.a/wwe.json.as_recorded: true on x86, false on arm64",
        'replays.a/wwe.json.state: "1" on x86, "2" on arm64',
        "replays.a/wwe.json: not the state recorded then"]


def test_a_threshold_nudged_on_one_side_is_listed(tmp_path, monkeypatch):
    """The issue's planted fault, without qemu: the same trays read by answers.readers with
    the dice reader's MAX_PIP_ERROR as shipped, then nudged; compare lists the faces lost."""
    files = []
    for seed in range(2):
        image, _ = dice_tray.tray(seed, 8, 34.0)
        cv2.imwrite(str(tmp_path / f"tray-{seed}.png"), image)
        files.append({"file": f"tray-{seed}.png", "reader": "dice"})
    (tmp_path / "manifest.json").write_text(json.dumps({"files": files}))
    shipped = {"versions": {}, "imports": {}, "replays": {}, "readers": answers.readers(tmp_path)}
    from hardware.camera.dice_faces import pips
    monkeypatch.setattr(pips, "MAX_PIP_ERROR", pips.MAX_PIP_ERROR)  # undone after
    answers.nudge(PLANT)
    nudged = dict(shipped, readers=answers.readers(tmp_path))
    fails, _ = check.compare(shipped, nudged)
    assert fails and all("on arm64" in line for line in fails), fails
    assert check.compare(shipped, shipped)[0] == []


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_the_check_under_qemu_fails_with_a_threshold_nudged_on_arm64_only(tmp_path):
    if not shutil.which("qemu-aarch64-static") or not check.cached("bookworm"):
        pytest.skip("no qemu-aarch64-static or no cached Bookworm arm64 root "
                    "(make arm64-check builds it)")
    done = subprocess.run([sys.executable, str(check.HERE / "check.py"), "--short",
                           "--suite", "bookworm", "--readers-only", "--plant", PLANT],
                          capture_output=True, text=True, timeout=3500)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    assert "bookworm: DIFFERENT dice-" in done.stdout
    assert json.loads(done.stdout.splitlines()[-1])["differences"]["bookworm"] > 0

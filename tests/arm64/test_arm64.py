"""The arm64 check's comparison (tests/arm64/check.py) can fail, and does when it should.

The comparison itself runs in `make arm64-check` and CI's short form (under qemu, minutes);
here: what counts as a difference (ids and faces exactly, positions within a pixel), and
the planted fault of the issue, a reader's threshold nudged on one side only, reported as
differences. Under real qemu the check plants that fault on itself each run (its "planted
fault" step: a few dice files read on arm64 with the threshold nudged must be listed, or
the check fails), so the suite needs no arm64 root and no minutes of emulation.
"""
from __future__ import annotations

import json

import cv2

from hardware.synthetic import dice_tray
from tests.arm64 import answers, check

PLANT = check.SELF_TEST  # the dice reader's pips must sit 8x nearer their place


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
    # the check's own step: the nudged answers of the files it picks are listed, and a
    # comparison that lists nothing fails the check
    picked = check.self_test_files(shipped)
    assert picked == ["tray-0.png", "tray-1.png"]
    planted = {"readers": {name: nudged["readers"][name] for name in picked}}
    failed, listed = check.self_test(shipped, planted)
    assert failed == [] and listed
    blind = {"readers": {name: shipped["readers"][name] for name in picked}}
    failed, listed = check.self_test(shipped, blind)
    assert listed == [] and len(failed) == 1 and "the comparison cannot fail" in failed[0], failed
    assert check.self_test(shipped, {"readers": {}})[0] == [
        "planted fault: no dice tray to plant it on"]


def test_answers_from_a_core_no_pi_has_fail_the_check():
    """qemu's default core ("max") has SVE and SME; NumPy's OpenBLAS then runs kernels no Pi
    runs (under qemu 7.2 its float32 A @ A.T was garbage). Planted: the arm64 side's
    features with SVE, as `-cpu max` gives: the check fails and names the core."""
    pi5 = ["ASIMD", "ASIMDDP", "ASIMDHP", "FPHP", "NEON", "NEON_FP16", "NEON_VFPV4"]
    side = {"imports": {}, "replays": {}, "readers": {}}
    x86 = dict(side, versions={"cpu_features": ["AVX2"], "blas_core": "Haswell"})
    on_pi5 = dict(side, versions={"cpu_features": pi5, "blas_core": "cortexa57"})
    assert check.compare(x86, on_pi5)[0] == []
    on_max = dict(side, versions={"cpu_features": pi5 + ["ASIMDFHM", "SVE"],
                                  "blas_core": "armv9sme"})
    fails = check.compare(x86, on_max)[0]
    assert len(fails) == 1 and "SVE" in fails[0] and "armv9sme" in fails[0], fails
    assert check.cpu("bookworm") == "cortex-a72" and check.cpu("trixie") == "cortex-a76"

"""`companion camera synthetic | test | calibrate` end to end through the real CLI."""
import json

import pytest
from click.testing import CliRunner

from companion.cli import cli
from hardware.camera.calibration import load
from hardware.synthetic.video import demo_script


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "table.avi"
    result = CliRunner().invoke(cli, ["camera", "synthetic", "--out", str(path)])
    assert result.exit_code == 0, result.output
    return path


def test_camera_test_prints_observations_as_json_lines(video, tmp_path):
    result = CliRunner().invoke(cli, ["camera", "test", str(video), "--data", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    stats = lines.pop()
    assert stats["type"] == "stats" and stats["frames"] == 100
    assert stats["calibration"] == "marker"
    got = [(o["type"], o["payload"], o["zone"], o["rotation"]) for o in lines]
    assert got == [(e.kind, e.payload, e.zone, e.rotation) for e in demo_script().expected]
    assert all(0 < o["confidence"] <= 1 for o in lines)


def test_calibrate_stores_north_for_later(video, tmp_path):
    result = CliRunner().invoke(cli, ["camera", "calibrate", str(video), "--data", str(tmp_path)])
    assert result.exit_code == 0, result.output
    stored = load(tmp_path / "config.json")
    assert stored is not None
    assert min(stored.north, 360 - stored.north) < 3  # the marker lies pointing up
    assert 0.25 < stored.mm_per_px() < 0.35  # 30 mm marker drawn 100 px wide


def test_missing_source_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(cli, ["camera", "test", str(tmp_path / "none.avi"),
                                      "--data", str(tmp_path)])
    assert result.exit_code != 0
    assert "camera not available" in result.output


def test_snapshot_writes_an_overlay_jpeg(video, tmp_path):
    import cv2

    out = tmp_path / "snap.jpg"
    result = CliRunner().invoke(cli, ["camera", "snapshot", str(video), "--data", str(tmp_path),
                                      "--out", str(out), "--frames", "20"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.output)
    assert info["codes"] == 3 and info["calibration"] == "marker"  # marker, action, event
    assert cv2.imread(str(out)).shape == (720, 1280, 3)


def test_folder_source_is_not_paced_with_fast(tmp_path):
    from companion.commands.camera import _source

    (tmp_path / "a.jpg").write_bytes(b"")
    assert _source(f"folder:{tmp_path}", realtime=False)._pacer.period == 0
    assert _source(f"folder:{tmp_path}", realtime=True)._pacer.period > 0
    assert _source(f"folder:{tmp_path}", realtime=False).loop is False

"""`companion camera synthetic | test | calibrate` end to end through the real CLI."""
import json

import pytest
from click.testing import CliRunner

from companion.cli import cli
from hardware.camera.calibration import load
from hardware.synthetic.video import DEMO_ZONES, demo_script


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "table.avi"
    result = CliRunner().invoke(cli, ["camera", "synthetic", "--out", str(path)])
    assert result.exit_code == 0, result.output
    return path


def test_camera_test_prints_observations_as_json_lines(video, tmp_path):
    # the owner's zones in config.json (without them cards are in no zone)
    (tmp_path / "config.json").write_text(json.dumps({"camera": {"zones": DEMO_ZONES}}))
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


def _folder(tmp_path, style, markers):
    import cv2

    from hardware.camera.calibration import DEFAULT_MARKER_POSITIONS
    from hardware.synthetic.scene import Camera, Placement
    from hardware.synthetic.video import board_to_table
    from hardware.tags.format import card_payload

    folder = tmp_path / "frames"
    folder.mkdir()
    placements = [Placement(p, *board_to_table(*DEFAULT_MARKER_POSITIONS[p]), 0.0, marker=True)
                  for p in markers]
    placements.append(Placement(card_payload("wwe", "E", "x"), *board_to_table(0, 60), 0))
    camera = Camera.create(5, style)
    for i in range(3):
        cv2.imwrite(str(folder / f"{i:03d}.png"), camera.render(placements, style, seed=i)[0])
    return folder


def test_calibrate_with_corner_markers_reports_residual_and_module_size(tmp_path):
    from hardware.camera.calibration import DEFAULT_MARKER_POSITIONS
    from hardware.synthetic.scene import Style

    folder = _folder(tmp_path, Style(tilt_deg=15, height_mm=400), list(DEFAULT_MARKER_POSITIONS))
    result = CliRunner().invoke(cli, ["camera", "calibrate", f"folder:{folder}",
                                      "--data", str(tmp_path)])
    assert result.exit_code == 0, result.output
    info = json.loads(result.output.splitlines()[0])
    assert info["markers"] == 5 and info["residual_mm"] < 1.0
    assert info["stickers"] == 6 and info["module_px_min"] > 3 and not info["small"]
    assert load(tmp_path / "config.json").homography is not None


def test_calibrate_warns_about_small_stickers(tmp_path):
    from hardware.synthetic.scene import Style
    from hardware.tags.format import BOARD_MARKER

    folder = _folder(tmp_path, Style(symbol_px=66), [BOARD_MARKER])
    result = CliRunner().invoke(cli, ["camera", "calibrate", f"folder:{folder}",
                                      "--data", str(tmp_path), "--marker-mm", "19.8"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.output.splitlines()[0])
    assert info["small"] and info["module_px_min"] < 3 and info["residual_mm"] is None
    assert "below 3" in result.output
    assert load(tmp_path / "config.json").marker_mm == 19.8


def test_calibrate_keeps_the_dice_tray(video, tmp_path):
    """--tray: the dice tray in board mm, kept in config.json, reported in the frame's pixels
    with how wide a 16 mm die shows there."""
    from companion.wiring.camera_dice import load_tray

    result = CliRunner().invoke(cli, ["camera", "calibrate", str(video), "--data", str(tmp_path),
                                      "--tray", "-100,20,100,150"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.splitlines()[0])
    assert load_tray(tmp_path / "config.json") == (-100.0, 20.0, 100.0, 150.0)
    x0, y0, x1, y1 = report["tray"]["box_px"]
    assert 600 < (x1 - x0) < 740 and 390 < (y1 - y0) < 480 and y1 < 720  # ~0.3 mm a px
    assert 45 < report["tray"]["die16_px"] < 60
    assert load(tmp_path / "config.json") is not None  # north kept as before

    for bad in ("1,2,3", "0,0,10,10", "a,b,c,d"):
        result = CliRunner().invoke(cli, ["camera", "calibrate", str(video), "--data",
                                          str(tmp_path), "--tray", bad])
        assert result.exit_code != 0 and "--tray" in result.output, result.output
    assert load_tray(tmp_path / "config.json") == (-100.0, 20.0, 100.0, 150.0)

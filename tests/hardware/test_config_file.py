"""config.json: read leniently, changed in one part without losing the others."""
import json

from hardware import config_file


def test_missing_broken_or_non_object_files_read_as_empty(tmp_path):
    path = tmp_path / "config.json"
    assert config_file.read(path) == {}
    path.write_text("{not json")
    assert config_file.read(path) == {}
    path.write_text("[1, 2]")
    assert config_file.read(path) == {}


def test_update_changes_one_part_keeps_the_rest_and_leaves_no_temp_file(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"camera": {"source": "0"}, "dice": {"port": "/dev/x"}}))
    config_file.update(path, lambda data: data["camera"].update(marker_mm=40))
    assert json.loads(path.read_text()) == {"camera": {"source": "0", "marker_mm": 40},
                                            "dice": {"port": "/dev/x"}}
    assert [p.name for p in tmp_path.iterdir()] == ["config.json"]


def test_update_starts_from_empty_when_the_file_is_broken(tmp_path):
    path = tmp_path / "config.json"
    path.write_text("{not json")
    config_file.update(path, lambda data: data.setdefault("dice", {}).update(port="/dev/y"))
    assert json.loads(path.read_text()) == {"dice": {"port": "/dev/y"}}

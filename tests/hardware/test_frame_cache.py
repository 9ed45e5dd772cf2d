"""The synthetic frames' cache (hardware/synthetic/frame_cache.py): the frame it gives back is
the one the renderer draws, a changed renderer draws anew, a renderer changed while running (a
planted fault) and an argument it cannot key (a random generator) are never served from it."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from hardware.synthetic import dice_tray, frame_cache
from hardware.synthetic.scene import Camera, Style


def drawn(seed: int = 7):
    """The renderer's own frame, the cache off."""
    with frame_cache.enabled(None):
        frame_cache.disable()
        return dice_tray.tray(seed, 6, 34.0)


@pytest.fixture
def cache(tmp_path):
    with frame_cache.enabled(tmp_path / "frames"):
        yield tmp_path / "frames"


def same(a, b) -> bool:
    return np.array_equal(a[0], b[0]) and a[1] == b[1]


def test_a_frame_asked_for_again_is_the_one_drawn_and_a_copy(cache):
    """The second ask is served (no render) with the identical frame and truth; changing
    the frame given out changes no later answer; another seed is another frame."""
    first = dice_tray.tray(7, 6, 34.0)
    assert frame_cache.counts == {"hits": 0, "misses": 1, "bypassed": 0}
    first[0][:] = 0  # a test drawing on its frame
    again = dice_tray.tray(7, 6, 34.0)
    assert frame_cache.counts["hits"] == 1
    assert same(again, drawn(7))
    assert not np.array_equal(dice_tray.tray(8, 6, 34.0)[0], again[0])
    assert frame_cache.counts["misses"] == 2


def test_another_process_reads_it_from_the_shared_folder(cache):
    """A second process (here: the memory emptied) is served the frame from disk."""
    dice_tray.tray(7, 6, 34.0)
    with frame_cache.enabled(cache):  # memory empty, the same folder
        assert same(dice_tray.tray(7, 6, 34.0), drawn(7))
        assert frame_cache.counts["hits"] == 1 and frame_cache.counts["misses"] == 0


def test_a_camera_made_once_keys_its_frames_by_how_it_was_made(cache):
    """A camera from `Camera.create` (55 MB at scale 2) keys the frames it renders by its own
    key; the frame is the one a camera made anew renders."""
    camera = Camera.create(3, Style())
    frame, truth = camera.render([], seed=4)
    again = Camera.create(3, Style())
    assert frame_cache.counts["hits"] == 1
    image, _ = again.render([], seed=4)
    assert frame_cache.counts["hits"] == 2
    assert np.array_equal(image, frame)
    with frame_cache.enabled(None):
        frame_cache.disable()
        assert np.array_equal(Camera.create(3, Style()).render([], seed=4)[0], frame)


def test_a_changed_renderer_source_renders_anew(tmp_path, monkeypatch):
    """The folder is named by the drawing code's hash: one byte changed in a renderer (a copy
    of the tree here) is another hash, its frames are drawn again and the old folder goes."""
    root = tmp_path / "tree"
    for pattern in frame_cache.SOURCES:
        for path in frame_cache.ROOT.glob(pattern):
            (root / path.relative_to(frame_cache.ROOT)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, root / path.relative_to(frame_cache.ROOT))
    monkeypatch.setattr(frame_cache, "ROOT", root)
    folder = tmp_path / "frames"
    with frame_cache.enabled(folder):
        dice_tray.tray(7, 6, 34.0)
    old = frame_cache.source_hash(root)
    assert [p.name for p in folder.iterdir()] == [old]
    renderer = root / "hardware/synthetic/dice_tray.py"
    renderer.write_text(renderer.read_text() + "\n# changed\n")
    assert frame_cache.source_hash(root) != old
    with frame_cache.enabled(folder):
        dice_tray.tray(7, 6, 34.0)
        assert frame_cache.counts == {"hits": 0, "misses": 1, "bypassed": 0}
    assert [p.name for p in folder.iterdir()] == [frame_cache.source_hash(root)]


def test_a_fault_planted_in_the_renderer_is_drawn_not_served(cache, monkeypatch):
    """A test replacing part of the renderer (dice pasted nowhere) sees its fault: the frame
    is drawn, not the one kept from before; put back, the kept one is served again."""
    kept = dice_tray.tray(7, 6, 34.0)
    monkeypatch.setattr(dice_tray, "_paste", lambda *args, **kwargs: None)
    faulty = dice_tray.tray(7, 6, 34.0)
    assert frame_cache.counts["bypassed"] == 1
    assert not np.array_equal(faulty[0], kept[0])
    monkeypatch.undo()
    assert same(dice_tray.tray(7, 6, 34.0), kept)
    assert frame_cache.counts["hits"] == 1


def test_a_random_generator_argument_is_drawn_each_time(cache):
    """`dice_tray.layout` moves on the generator it is given: such a call is never served
    (a second generator in the same state must be moved on as the first was)."""
    layout = frame_cache.cached(dice_tray.layout)
    first, second = np.random.default_rng(1), np.random.default_rng(1)
    assert layout(first, 4, 34.0, 640, 480, 20) == layout(second, 4, 34.0, 640, 480, 20)
    assert frame_cache.counts == {"hits": 0, "misses": 0, "bypassed": 2}
    assert first.random() == second.random()


def test_a_live_camera_s_thread_renders_as_it_goes(cache):
    """A server's camera thread (thirty new frames a second) is neither kept nor served."""
    import threading

    dice_tray.tray(7, 6, 34.0)
    got = []
    thread = threading.Thread(target=lambda: got.append(dice_tray.tray(7, 6, 34.0)))
    thread.start()
    thread.join()
    assert same(got[0], drawn(7))
    assert frame_cache.counts == {"hits": 0, "misses": 1, "bypassed": 0}

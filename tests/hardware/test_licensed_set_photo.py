"""The licensed real photograph kept in the repository (tests/data/set-photos/licensed: twelve
SET cards on dark wood, MIT): it loads anywhere with its truth and its licence, so the tests of
what needs no taught faces run in CI."""
import numpy as np

from hardware.synthetic import real_photos


def test_the_licensed_photo_loads_with_its_truth_and_licence():
    photos = real_photos.licensed_photos()
    assert [p.name for p in photos] == ["ivankeller-setgame-board.jpg"]
    photo = photos[0]
    assert max(photo.image.shape[:2]) == 1600
    assert len(photo.cards) == 12
    h, w = photo.image.shape[:2]
    for face, corners in photo.cards:
        colour, count, fill, shape = face.split("-")
        assert fill in ("outline", "stripes", "solid")
        assert ((corners >= 0) & (corners < np.float32([w, h]))).all()
    licence = (real_photos.LICENSED / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License")

"""The module reader (hardware.camera.modules): a blurred symbol's data modules read from a
model of the blur fitted on its own known modules, on real-table stills of
hardware.synthetic.conditions through the real decoder."""
from dataclasses import replace

import numpy as np
import pytest

from hardware.camera import modules, rescue
from hardware.camera.decode import Decoder, to_gray
from hardware.camera.rescue import Region, RescueSettings, TextureMap, _Crop, texture_regions
from hardware.synthetic import lens
from hardware.synthetic.conditions import PAYLOADS, frame, real_table
from hardware.synthetic.scene import Camera, random_placements
from hardware.tags.format import card_payload
from hardware.tags.sheet import qr_matrix


@pytest.mark.parametrize("name", ["a", "condition_0", "a_much_longer_card_name_x"])
def test_the_known_modules_are_those_of_a_printed_sticker(name):
    matrix = np.array(qr_matrix(card_payload("wwe", "E", name)), bool)
    n = matrix.shape[0]
    mask, dark = modules.known(n)
    r = modules.RING
    inner_mask, inner_dark = mask[r:r + n, r:r + n], dark[r:r + n, r:r + n]
    assert inner_mask.sum() > 3 * 64  # the finders, their separators, timing, alignment
    assert (inner_dark[inner_mask] == matrix[inner_mask]).all()
    ring = np.ones_like(mask)
    ring[r:r + n, r:r + n] = False
    assert mask[ring].all() and not dark[ring].any()  # the quiet zone: light


def small_blurred(index):
    """A real table whose stickers are small (66-78 px: 2.6-3 px modules at 1280x720)
    under the tuned fringed lens (hardware.synthetic.lens.fringed) at 1.4-2.3 px: the
    difficulty at which the finder reader stops (0.6 module and beyond)."""
    seed = 60_500 + index
    rng = np.random.default_rng(seed)
    style = replace(real_table(rng), symbol_px=int(rng.uniform(66, 78)),
                    lens=lens.fringed(rng, float(rng.uniform(1.4, 2.3))))
    placements = random_placements(rng, list(PAYLOADS),
                                   marker_angle=float(rng.uniform(0, 360)))
    return Camera.create(seed, style).render(placements, style, seed)


def crops(name, index, scale=1.0):
    image, truth = small_blurred(index) if name == "small_blurred" else \
        frame(name, index, scale)
    gray = to_gray(image)
    read = Decoder().decode(gray)
    regions = texture_regions(TextureMap(gray), read, RescueSettings())
    return gray, truth, [_Crop(gray, r) for r in regions]


def reads(stills, variant):
    found, turned = set(), 0
    for name, index in stills:
        _, truth, found_crops = crops(name, index)
        by_payload = {t.payload: t for t in truth}
        for crop in found_crops:
            for detection in crop.read(variant):
                t = by_payload[detection.payload]  # nothing false
                off = abs((detection.angle - t.angle + 180) % 360 - 180)
                turned += off > 20
                found.add((name, index, detection.payload))
    return found, turned


DEFOCUSED = [("harsh_defocus", 1), ("harsh_defocus", 2), ("harsh_fringe", 3)]
SMALL = [("small_blurred", index) for index in range(6)]


def test_defocused_stickers_the_finder_reader_cannot_read_are_read_turned_as_they_lie():
    """Small stickers under a fringed lens, up to and past 0.8 module of blur: the finder
    reader (zxing on the resampled symbol) reads some, the module reader many more (31
    against 20 crops when written), none turned; on the bench's defocused stills it reads
    what the finder reader reads."""
    grid, turned = reads(SMALL, "grid")
    finder, _ = reads(SMALL, "deblur_geometry")
    assert turned == 0
    assert len(grid) >= len(finder) + 6, (len(grid), len(finder))
    grid, turned = reads(DEFOCUSED, "grid")
    finder, _ = reads(DEFOCUSED, "deblur_geometry")
    assert turned == 0 and grid >= finder, finder - grid


def test_the_blur_model_is_what_reads_them(monkeypatch):
    """Planted fault: a model that knows no neighbours (only each module's own weight)
    reads far fewer of the same stickers."""
    grid, _ = reads(SMALL, "grid")
    fit = modules.fit

    def own_weight_only(*args):
        weights, light = fit(*args)
        alone = np.zeros_like(weights)
        alone[1, 1] = weights[1, 1]
        return alone, light

    monkeypatch.setattr(modules, "fit", own_weight_only)
    blind, _ = reads(SMALL, "grid")
    assert len(blind) <= len(grid) - 6, (len(blind), len(grid))


def centre(detection, region, n, i, j):
    """The crop px of module (i, j)'s centre of the symbol ``detection`` read, n modules."""
    tl, tr, _, bl = (np.float64(c) for c in detection.corners)
    p = tl + (tr - tl) * (i + 0.5) / n + (bl - tl) * (j + 0.5) / n
    return p - (region.x0, region.y0)


def test_a_grid_turned_from_the_symbol_reads_nothing():
    """The symbol is drawn with its finders where the guess puts them: a guess a quarter or
    half turn off reads nothing (else a card would be committed turned)."""
    tried = 0
    for name, index in DEFOCUSED:
        gray, truth, found_crops = crops(name, index)
        for crop in found_crops:
            read = crop.read("grid")
            if not read:
                continue
            image = crop.sharp()
            n = len(qr_matrix(read[0].payload))
            tl, tr, bl, br = (centre(read[0], crop.region, n, i, j)
                              for i, j in ((3, 3), (n - 4, 3), (3, n - 4), (n - 4, n - 4)))
            assert modules.read(image, tl, tr, bl, n) == read[0].payload
            assert modules.read(image, bl, tl, br, n) is None  # a quarter turn
            assert modules.read(image, br, bl, tr, n) is None  # half round
            assert modules.read(image, tr, br, tl, n) is None  # three quarters
            tried += 1
    assert tried >= 5


def test_of_the_guesses_from_two_finders_the_grid_that_fits_is_read(monkeypatch):
    """harsh_fringe 3 (720p): a texture window shows two finder patterns of a blurred
    sticker, diagonal to each other. The first guess takes them for neighbours (a symbol
    of 33 modules); the grid whose known modules agree best with the picture (25 modules)
    reads it. Planted fault: without the comparison the first guess is read, and nothing."""
    image, truth = frame("harsh_fringe", 3)
    gray = to_gray(image)
    stuck = next(t for t in truth if t.payload.endswith("SRDI"))
    region = Region(716, 444, 867, 595, "texture")
    assert region.contains(stuck.sticker) and stuck.decodable
    assert len(_Crop(gray, region).sharp_finders()[2]) == 2
    assert [d.payload for d in _Crop(gray, region).read("grid")] == [stuck.payload]
    monkeypatch.setattr(modules, "agreement", lambda *args: 0.0)
    assert not _Crop(gray, region).read("grid")


def test_each_grid_compared_and_read_is_charged():
    gray, _, found_crops = crops("harsh_defocus", 2)
    crop = next(c for c in found_crops if c.read("grid"))
    fresh = _Crop(gray, crop.region)
    before = fresh.cost("grid")
    fresh.work = {}
    fresh.read("grid")
    modelled = fresh.work.get("tries", 0)  # 0: the resampled grid read at once
    after = fresh.cost("grid", modelled)
    assert fresh.work["grids"] >= 1 and fresh.work["resampled"] == 1
    assert after == pytest.approx(before + rescue.GRID_TRY_MS * (modelled - 1)
                                  + rescue.GRID_CANDIDATE_MS * fresh.work["grids"]
                                  + rescue.GEOMETRY_TRY_MS * fresh.work["resampled"])
    fresh.work = {}
    again = fresh.cost("deblur_geometry")  # the deblurred crop's finders: made already
    assert again == pytest.approx(rescue.GEOMETRY_TRY_MS)

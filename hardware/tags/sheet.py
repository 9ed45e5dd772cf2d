"""Printable sticker sheets: A4 pages at 300 dpi, PNG and PDF, at a true physical size.

The size given in millimetres is the side of the QR symbol itself; each sticker adds the
standard white quiet zone of 4 modules around it and its name underneath. The first
sticker is the board reference marker with an arrow showing which way is north; with
``corners`` the four corner markers (NW, NE, SE, SW, also with the arrow) follow it.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import qrcode
from PIL import Image, ImageDraw, ImageFont

from hardware.tags.format import BOARD_MARKER, CORNER_MARKERS

A4_MM = (210.0, 297.0)
QUIET_MODULES = 4
MARGIN_MM = 10.0
GAP_MM = 4.0


@dataclass(frozen=True)
class Sticker:
    payload: str
    label: str  # printed under the code (the card's name)
    demo: bool = False  # printed as "DEMO" so nobody mistakes guessed data for the real card


def mm_to_px(mm: float, dpi: int) -> int:
    return round(mm / 25.4 * dpi)


@lru_cache(maxsize=512)
def qr_matrix(payload: str) -> tuple[tuple[bool, ...], ...]:
    """The module matrix (no quiet zone) at error correction H, smallest version that fits."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_H, border=0)
    code.add_data(payload)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def qr_image(payload: str, symbol_px: int) -> tuple[Image.Image, int]:
    """A grayscale image of the symbol plus quiet zone; the symbol is exactly ``symbol_px``.

    Returns the image and the quiet-zone width in pixels.
    """
    matrix = qr_matrix(payload)
    n = len(matrix)
    small = Image.new("L", (n, n), 255)
    small.putdata([0 if dark else 255 for row in matrix for dark in row])
    symbol = small.resize((symbol_px, symbol_px), Image.NEAREST)
    quiet = round(symbol_px * QUIET_MODULES / n)
    out = Image.new("L", (symbol_px + 2 * quiet, symbol_px + 2 * quiet), 255)
    out.paste(symbol, (quiet, quiet))
    return out, quiet


def _fit_text(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> str:
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _wrap(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> list[str]:
    """At most two lines: words on the first line while they fit, the rest shortened."""
    words = text.split()
    first = ""
    while words and draw.textlength((first + " " + words[0]).strip(), font=font) <= width:
        first = (first + " " + words.pop(0)).strip()
    if not first:
        return [_fit_text(draw, text, font, width)]
    return [first] + ([_fit_text(draw, " ".join(words), font, width)] if words else [])


def _draw_north_arrow(draw: ImageDraw.ImageDraw, centre_x: int, top: int, height: int) -> None:
    """An arrow pointing up (north) with an N above the marker's code."""
    half = height // 3
    draw.polygon([(centre_x, top), (centre_x - half, top + half), (centre_x + half, top + half)],
                 fill=0)
    draw.rectangle([centre_x - half // 3, top + half, centre_x + half // 3, top + height], fill=0)


def render_sheets(stickers: list[Sticker], size_mm: float, dpi: int = 300,
                  marker: bool = True, corners: bool = False) -> list[Image.Image]:
    """Lay the stickers out on as many A4 pages as needed (markers first)."""
    if size_mm < 8:
        raise ValueError("size_mm below 8 mm cannot be read by a camera above the table")
    page_w, page_h = (mm_to_px(v, dpi) for v in A4_MM)
    symbol_px = mm_to_px(size_mm, dpi)
    sample, quiet = qr_image(BOARD_MARKER, symbol_px)
    font_px = max(mm_to_px(2.8, dpi), 12)
    font = ImageFont.load_default(size=font_px)
    small_font = ImageFont.load_default(size=max(font_px * 3 // 4, 10))
    arrow_h = mm_to_px(max(size_mm / 3, 8), dpi)
    cell_w = sample.width
    line_h = font_px * 6 // 5
    cell_h = sample.height + 3 * line_h + mm_to_px(1, dpi)
    gap, margin = mm_to_px(GAP_MM, dpi), mm_to_px(MARGIN_MM, dpi)
    columns = max(1, (page_w - 2 * margin + gap) // (cell_w + gap))
    items: list[tuple[Sticker, bool]] = []
    if marker:
        items.append((Sticker(BOARD_MARKER, "BOARD MARKER: arrow points north"), True))
    if corners:
        items.extend((Sticker(payload, f"CORNER MARKER {corner}: arrow points north"), True)
                     for corner, payload in CORNER_MARKERS.items())
    items.extend((s, False) for s in stickers)

    pages: list[Image.Image] = []
    page = draw = None
    x = y = row_h = 0
    column = 0
    for sticker, is_marker in items:
        height = cell_h + (arrow_h + gap if is_marker else 0)
        if page is None or column >= columns:
            column = 0
            x = margin
            if page is not None:
                y += row_h + gap
            row_h = 0
        if page is None or y + height > page_h - margin:
            page = Image.new("L", (page_w, page_h), 255)
            draw = ImageDraw.Draw(page)
            pages.append(page)
            x, y, column, row_h = margin, margin, 0, 0
        top = y
        if is_marker:
            _draw_north_arrow(draw, x + cell_w // 2, top, arrow_h)
            top += arrow_h + gap
        image, _ = qr_image(sticker.payload, symbol_px)
        page.paste(image, (x, top))
        # a light cutting frame around the sticker
        draw.rectangle([x - 2, y - 2, x + cell_w + 2, y + height + 2], outline=200, width=2)
        label = ("DEMO " if sticker.demo else "") + sticker.label
        text_y = top + image.height
        lines = _wrap(draw, label, font, cell_w - 2 * quiet)
        for line_no, line in enumerate(lines):
            draw.text((x + quiet, text_y + line_no * line_h), line, fill=0, font=font)
        draw.text((x + quiet, text_y + len(lines) * line_h), sticker.payload, fill=90,
                  font=small_font)
        row_h = max(row_h, height)
        x += cell_w + gap
        column += 1
    return pages


def write_sheets(pages: list[Image.Image], out_dir: Path, stem: str, dpi: int = 300) -> list[Path]:
    """Write ``stem-N.png`` for every page and ``stem.pdf`` holding all of them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for number, page in enumerate(pages, start=1):
        path = out_dir / f"{stem}-{number}.png"
        page.save(path, dpi=(dpi, dpi))
        written.append(path)
    pdf = out_dir / f"{stem}.pdf"
    pages[0].save(pdf, save_all=True, append_images=pages[1:], resolution=float(dpi))
    written.append(pdf)
    return written

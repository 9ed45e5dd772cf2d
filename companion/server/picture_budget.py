"""The pixel budget of an uploaded picture, checked from its header before any decode (issue 67).

A PNG of 30000x30000 zeros compresses to under 1 MB and decodes to 2.7 GB (3.6 GB with the
alpha handling): the request's byte limit cannot see it. Pillow's ``Image.open`` reads only
the header (PNG's IHDR, JPEG's frame header), so the width and height are known for a few
hundred bytes read, and a picture over `MAX_PIXELS` is refused before OpenCV decodes anything.

`MAX_PIXELS` (docs/security.md): a 12-megapixel phone photo (4032x3024) fits; decoded with its
alpha channel such a picture costs ~250 MB at the peak on the server, which a Pi 4 of 2 GB
survives. Pillow's own bomb guard is set to the same figure (it refuses at twice it) in case
any other code opens a picture through Pillow.
"""
from __future__ import annotations

import io
import re
import warnings

from PIL import Image

MAX_PIXELS = 4096 * 3072  # 12.6 megapixels
FORMATS = ("PNG", "JPEG")  # what the pages ask for (a scan or a phone photo)

Image.MAX_IMAGE_PIXELS = MAX_PIXELS
# between the budget and twice it Pillow only warns: `header_size` refuses those itself
warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning)


class TooLarge(ValueError):
    """The header declares more pixels than the budget."""

    def __init__(self, pixels: int) -> None:
        self.pixels = pixels
        super().__init__(f"{pixels} pixels is over the budget of {MAX_PIXELS}")

    def megapixels(self) -> dict:
        """The figures a translated refusal shows: this picture's and the budget's."""
        return {"megapixels": f"{self.pixels / 1e6:.1f}", "limit": f"{MAX_PIXELS / 1e6:.1f}"}


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) a PNG or JPEG's header declares, or None when ``data`` is neither.

    Raises `TooLarge` past the budget. Nothing is decoded: Pillow reads the header only."""
    try:
        with Image.open(io.BytesIO(data), formats=FORMATS) as image:
            width, height = image.size
    except Image.DecompressionBombError as error:  # Pillow's guard: over twice the budget
        found = re.search(r"\((\d+) pixels\)", str(error))
        raise TooLarge(int(found.group(1)) if found else 2 * MAX_PIXELS + 1) from None
    except (OSError, ValueError, SyntaxError, EOFError):  # not a PNG or JPEG Pillow can read
        return None
    if width * height > MAX_PIXELS:
        raise TooLarge(width * height)
    return width, height

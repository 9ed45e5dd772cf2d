"""What every frame source is (open, read, close) and how it says it cannot deliver:
apart from hardware/camera/sources.py so a source in its own module (rpicam.py) needs
nothing of the others."""
from __future__ import annotations

import numpy as np


class SourceLost(Exception):
    """The source cannot deliver frames right now (unplugged, file gone, stream down)."""


class FrameSource:
    """Base class: subclasses implement open/read/close; `fps` paces file-like sources."""

    name = "source"

    def open(self) -> None:
        raise NotImplementedError

    def read(self) -> np.ndarray:
        raise NotImplementedError

    def grab(self) -> bool:
        """Wait for the next frame and take it in without handing it over: the capture
        thread then `retrieve`s it only if someone waits for it (on a still table the
        recogniser skips frames, `Recognizer.still_skip`), so an unwanted frame costs no
        copy or decoding. False: this source cannot split the two (`read` it instead)."""
        return False

    def retrieve(self) -> np.ndarray:
        """The frame the last `grab` took in."""
        raise NotImplementedError

    def close(self) -> None:
        pass

    # what some sources offer besides their frames; the defaults say "not this one"
    tray_mm: tuple[float, float, float, float] | None = None  # the tray a simulated table draws

    def sharp_crop(self, box: tuple[int, int, int, int], size: tuple[int, int]
                   ) -> np.ndarray | None:
        """The rectangle ``box`` of a frame of ``size``, in colour from a sharper stream
        (the Pi camera's full one, rpicam.py; asking may start it, so the first answers can
        be no sharper than the frame); None: this source has none (cut it from the frame).
        What the rectangle shows is no concern of the source's (a dice tray, a card)."""
        return None

    def sharp_scale(self) -> float:
        """How many times sharper than the frame `sharp_crop` gets once its stream runs
        (1.0: never sharper): lets a reader tell a crop not sharp yet from the best there is."""
        return 1.0

    def describe(self) -> str | None:
        """The sensor, its modes and strides, for `companion doctor` (the Pi camera); None:
        nothing more to say than its name."""
        return None

    def optics_status(self) -> dict | None:
        """Its focus and the room's flicker as the camera sees them (the Pi camera, issue
        62); None: this source has no lens or exposure of its own to report."""
        return None

    def focus_region(self, af_window: tuple[float, float, float, float] | None,
                     sharp_box: tuple[int, int, int, int] | None) -> None:
        """Where the table is, from the calibration: the focus scan's window (fractions of
        the frame) and the box its sharpness is measured in (the board marker's edges).
        A source without a lens of its own ignores it."""

    def refocus(self) -> bool:
        """Focus on the table once more (a lens it drives); False: no lens of its own."""
        return False

    def set_mains(self, hz: int) -> bool:
        """Take the room's mains frequency (50/60 Hz) for its flicker period; False: this
        source has no such setting."""
        return False

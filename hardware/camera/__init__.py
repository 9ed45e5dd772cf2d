"""Camera card recognition: frame sources, capture thread, QR decoding, rotation, tracking.

Knows no game: payloads are opaque tags (hardware.tags) and observations are typed
dataclasses (hardware.camera.tracker) that the companion wires into game actions.
"""

# The printed marker's side in mm unless the settings or a stored calibration say otherwise.
# Here, below both settings.py and calibration.py, so neither needs the other for it.
DEFAULT_MARKER_MM = 30.0

# A table still for a few frames is looked at in every STILL_STRIDE-th camera frame only
# (`ChangeSettings.still_stride`, `Recognizer.still_skip`; config.json's "camera":
# {"still_stride": n} overrides it; docs/camera.md, "Every other frame while nothing
# moves"). Issue 37 took 2; issue 71 (session 92) 3: the camera threads over the WWE
# evening's frames at 30 fps, stride 2 -> 3 -> 4, 0.0156 -> 0.0138 -> 0.0104 and 0.0159 ->
# 0.0122 -> 0.0107 of a core (two runs, same process, interleaved; notes s92/i71). The
# price is paid only by a change that appears from one frame to the next on a still table:
# a card so laid is Appeared at most STILL_STRIDE frames after the first frame showing it
# (its debounce included): 100 ms at 30 fps (600 ms at the full stream's 5 fps, up while a
# card face is read). A card laid by hand pays nothing: the hand reaching in is the first
# change, and from it on every frame is looked at. 4 would be 133 ms, past what a player
# takes for at once, for 0.0015-0.003 of a core less.
STILL_STRIDE = 3

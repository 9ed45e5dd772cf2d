"""Camera card recognition: frame sources, capture thread, QR decoding, rotation, tracking.

Knows no game: payloads are opaque tags (hardware.tags) and observations are typed
dataclasses (hardware.camera.tracker) that the companion wires into game actions.
"""

# The printed marker's side in mm unless the settings or a stored calibration say otherwise.
# Here, below both settings.py and calibration.py, so neither needs the other for it.
DEFAULT_MARKER_MM = 30.0

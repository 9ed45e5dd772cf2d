"""Camera card recognition: frame sources, capture thread, QR decoding, rotation, tracking.

Knows no game: payloads are opaque tags (hardware.tags) and observations are typed
dataclasses (hardware.camera.tracker) that the companion wires into game actions.
"""

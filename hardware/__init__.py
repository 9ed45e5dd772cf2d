"""Cameras, QR decoding, serial dice, printable tags. Knows nothing of any game:
everything here emits typed observations for `companion` to wire into a game."""

"""A synthetic camera: rendered tables with QR-stickered cards and their ground truth."""
